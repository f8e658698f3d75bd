/// What a set of conditions that must all hold at once says about single names, read from comparisons of a
/// name with a literal: `x` (x is true), `!x`, `a == 1`, `a != "p"`, `n < 3` (integers), joined by `&&` (or
/// `!(… || …)`). Anything else (`||`, arithmetic, calls) says nothing, so the constraints only ever prove that conditions exclude
/// each other, never that they can hold together.
///
/// The linter uses them to show that an automatic loop cannot happen: `skipIf: x` on one step and
/// `skipIf: "!x"` on the next are never both true while nothing on the way changes `x`.
package struct ConditionConstraints: Sendable, Hashable {
  /// The value each name path (`env.osVersion`) must have.
  private var required: [[String]: Value] = [:]
  /// The values each name path must not have.
  private var excluded: [[String]: Set<Value>] = [:]
  /// The integer range each name path compared with `<`, `<=`, `>` or `>=` must fall in.
  private var bounds: [[String]: ClosedRange<Int>] = [:]

  /// A comparison a condition requires: a path equal, not equal, at least or at most a value.
  private enum Relation {
    case equal, notEqual, atLeast, atMost
  }

  package init() {}

  /// These constraints with `expression` holding too, or nil when the two can never hold together. Comparisons
  /// of names whose root is in `ignoring` (variables that change meanwhile, an action's `result`) say nothing.
  package func adding(_ expression: FlowExpression, ignoring roots: Set<String> = []) -> ConditionConstraints? {
    var literals: [(path: [String], value: Value, relation: Relation)] = []
    Self.collect(expression.syntax, negated: false, into: &literals)
    var result = self
    for literal in literals where !roots.contains(literal.path[0]) {
      let path = literal.path
      switch literal.relation {
      case .equal:
        if let value = result.required[path], value != literal.value { return nil }
        result.required[path] = literal.value
      case .notEqual:
        if result.required[path] == literal.value { return nil }
        result.excluded[path, default: []].insert(literal.value)
      case .atLeast, .atMost:
        guard case .int(let limit) = literal.value else { continue }
        let range = result.bounds[path] ?? Int.min...Int.max
        let lower = literal.relation == .atLeast ? max(range.lowerBound, limit) : range.lowerBound
        let upper = literal.relation == .atMost ? min(range.upperBound, limit) : range.upperBound
        guard lower <= upper else { return nil }
        result.bounds[path] = lower...upper
      }
      if let range = result.bounds[path] {
        if case .int(let value) = result.required[path], !range.contains(value) { return nil }
        if range.lowerBound == range.upperBound, result.excluded[path]?.contains(.int(range.lowerBound)) == true {
          return nil
        }
      }
      if let value = result.required[path], result.excluded[path]?.contains(value) == true { return nil }
    }
    return result
  }

  /// The comparisons `node` (negated when `negated`) requires, each a path related to a value.
  private static func collect(
    _ node: FlowExpression.Syntax, negated: Bool,
    into literals: inout [(path: [String], value: Value, relation: Relation)]
  ) {
    switch node {
    case .binary(.and, let left, let right, _) where !negated,
      .binary(.or, let left, let right, _) where negated:
      collect(left, negated: negated, into: &literals)
      collect(right, negated: negated, into: &literals)
    case .unary(.not, let inner, _):
      collect(inner, negated: !negated, into: &literals)
    case .binary(let operation, let left, let right, _):
      // `path OP literal`, or `literal OP path` read the other way round.
      var comparison: (path: [String], value: Value, operation: FlowExpression.BinaryOperator)?
      if let path = left.path, case .literal(let value, _) = right {
        comparison = (path, value, operation)
      } else if let path = right.path, case .literal(let value, _) = left {
        let mirrored: [FlowExpression.BinaryOperator: FlowExpression.BinaryOperator] = [
          .less: .greater, .lessOrEqual: .greaterOrEqual, .greater: .less, .greaterOrEqual: .lessOrEqual,
        ]
        comparison = (path, value, mirrored[operation] ?? operation)
      }
      guard let comparison, let relation = relation(comparison.operation, comparison.value, negated: negated)
      else { return }
      literals.append((comparison.path, relation.value, relation.relation))
    default:
      if let path = node.path { literals.append((path, .bool(true), negated ? .notEqual : .equal)) }
    }
  }

  /// `path OP value` (negated when `negated`) as a relation to a value; nil for operators it says nothing about.
  private static func relation(
    _ operation: FlowExpression.BinaryOperator, _ value: Value, negated: Bool
  ) -> (relation: Relation, value: Value)? {
    // Negating a comparison turns it into its complement: !(a < b) is a >= b.
    let complement: [FlowExpression.BinaryOperator: FlowExpression.BinaryOperator] = [
      .equal: .notEqual, .notEqual: .equal, .less: .greaterOrEqual, .greaterOrEqual: .less,
      .greater: .lessOrEqual, .lessOrEqual: .greater,
    ]
    guard let operation = negated ? complement[operation] : operation else { return nil }
    switch (operation, value) {
    case (.equal, _): return (.equal, value)
    case (.notEqual, _): return (.notEqual, value)
    case (.greaterOrEqual, .int(let n)): return (.atLeast, .int(n))
    case (.lessOrEqual, .int(let n)): return (.atMost, .int(n))
    case (.greater, .int(let n)) where n < Int.max: return (.atLeast, .int(n + 1))
    case (.less, .int(let n)) where n > Int.min: return (.atMost, .int(n - 1))
    default: return nil
    }
  }
}
