// The string literals an expression compares a name with: what lint checks against an experiment's variants.

extension FlowExpression {
  /// The string literals compared with the name at `path` (`["experiment", "paywall"]`) by `==` or `!=` (on
  /// either side), or listed on the right of `in` with the name on the left, with the column of each literal, in
  /// source order.
  package func comparedStrings(with path: [String]) -> [(text: String, column: Int)] {
    var found: [(text: String, column: Int)] = []
    Self.collectComparedStrings(syntax, with: path, into: &found)
    return found
  }

  private static func collectComparedStrings(
    _ node: Syntax, with path: [String], into found: inout [(text: String, column: Int)]
  ) {
    switch node {
    case .literal, .name: return
    case .binary(let op, let left, let right, _):
      switch op {
      case .equal, .notEqual:
        if left.path == path, case .literal(.string(let text), let at) = right { found.append((text, at)) }
        if right.path == path, case .literal(.string(let text), let at) = left { found.append((text, at)) }
      case .in:
        if left.path == path, case .list(let elements, _) = right {
          for case .literal(.string(let text), let at) in elements { found.append((text, at)) }
        }
      default: break
      }
      collectComparedStrings(left, with: path, into: &found)
      collectComparedStrings(right, with: path, into: &found)
    case .list(let elements, _), .call(_, let elements, _):
      for element in elements { collectComparedStrings(element, with: path, into: &found) }
    case .map(let entries, _):
      for entry in entries { collectComparedStrings(entry.value, with: path, into: &found) }
    case .member(let base, _, _), .unary(_, let base, _):
      collectComparedStrings(base, with: path, into: &found)
    case .index(let base, let key, _):
      collectComparedStrings(base, with: path, into: &found)
      collectComparedStrings(key, with: path, into: &found)
    case .conditional(let condition, let then, let otherwise, _):
      for part in [condition, then, otherwise] { collectComparedStrings(part, with: path, into: &found) }
    }
  }
}
