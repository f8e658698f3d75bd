/// What a set of conditions that must all hold at once says about single names, read from comparisons of a
/// name with a literal: `x` (x is true), `!x`, `a == 1`, `a != "p"`, joined by `&&` (or `!(… || …)`). Anything
/// else (`||`, `<`, arithmetic, calls) says nothing, so the constraints only ever prove that conditions exclude
/// each other, never that they can hold together.
///
/// The linter uses them to show that an automatic loop cannot happen: `skipIf: x` on one step and
/// `skipIf: "!x"` on the next are never both true while nothing on the way changes `x`.
package struct ConditionConstraints: Sendable, Hashable {
  /// The value each name path (`env.osVersion`) must have.
  private var required: [[String]: Value] = [:]
  /// The values each name path must not have.
  private var excluded: [[String]: Set<Value>] = [:]

  package init() {}

  /// These constraints with `expression` holding too, or nil when the two can never hold together. Comparisons
  /// of names whose root is in `ignoring` (variables that change meanwhile, an action's `result`) say nothing.
  package func adding(_ expression: FlowExpression, ignoring roots: Set<String> = []) -> ConditionConstraints? {
    var literals: [(path: [String], value: Value, equal: Bool)] = []
    Self.collect(expression.syntax, negated: false, into: &literals)
    var result = self
    for literal in literals where !roots.contains(literal.path[0]) {
      if literal.equal {
        if let value = result.required[literal.path], value != literal.value { return nil }
        if result.excluded[literal.path]?.contains(literal.value) == true { return nil }
        result.required[literal.path] = literal.value
      } else {
        if result.required[literal.path] == literal.value { return nil }
        result.excluded[literal.path, default: []].insert(literal.value)
      }
    }
    return result
  }

  /// The comparisons `node` (negated when `negated`) requires, each a path equal or not equal to a value.
  private static func collect(
    _ node: FlowExpression.Syntax, negated: Bool, into literals: inout [(path: [String], value: Value, equal: Bool)]
  ) {
    switch node {
    case .binary(.and, let left, let right, _) where !negated,
      .binary(.or, let left, let right, _) where negated:
      collect(left, negated: negated, into: &literals)
      collect(right, negated: negated, into: &literals)
    case .unary(.not, let inner, _):
      collect(inner, negated: !negated, into: &literals)
    case .binary(let operation, let left, let right, _) where operation == .equal || operation == .notEqual:
      let equal = (operation == .equal) != negated
      if let path = left.path, case .literal(let value, _) = right {
        literals.append((path, value, equal))
      } else if let path = right.path, case .literal(let value, _) = left {
        literals.append((path, value, equal))
      }
    default:
      if let path = node.path { literals.append((path, .bool(true), !negated)) }
    }
  }
}
