/// An expression of the flow language, parsed once: a condition (`skipIf`, `when`), a value (`set`,
/// `args`), a route key (`rawValue`). (Not `Expression`, which Foundation declares.)
///
/// Expressions are small, typed and free of side effects (CEL is the model):
///
/// ```swift
/// let condition = try FlowExpression("onboardingStep == 11 && !(env.osVersion >= 26 && env.alarmKitAvailable)")
/// let holds = try condition.evaluateCondition(in: bindings)
/// try condition.checkCondition(in: scope)      // at lint time
/// condition.explain(in: bindings)              // "11 == 11 && !(18 >= 26 && false)"
/// ```
///
/// Two expressions are equal when their sources are equal. Columns in errors and references are
/// 1-based and count Unicode scalars of ``source``.
package struct FlowExpression: Hashable, Sendable, CustomStringConvertible {
  /// The text the expression was parsed from.
  package let source: String
  let syntax: Syntax
  /// Every name path used, in source order, each with the longest member chain written after it: found once,
  /// when the expression is parsed (the compiler parses a source written many times once; the linter, the
  /// explorer and the diff read these for every place it is written).
  package let references: [Reference]

  /// The longest accepted source, in Unicode scalars.
  package static let maxLength = 4096
  /// The deepest accepted nesting (parentheses, brackets, calls, operators).
  package static let maxDepth = 64

  /// Parses `source`.
  ///
  /// Unknown functions and calls with the wrong number of arguments are reported here; names are
  /// resolved later, by ``check(in:)`` or ``evaluate(in:)``.
  ///
  /// - Throws: ``ExpressionError`` with code `.syntax`, or `.limit` when the source is longer than
  ///   ``maxLength`` or nested deeper than ``maxDepth``; its column points at the offending character.
  package init(_ source: String) throws(ExpressionError) {
    self.source = source
    self.syntax = try Parser.parse(source)
    var references: [Reference] = []
    Self.collectReferences(syntax, into: &references)
    self.references = references
  }

  package var description: String { source }

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.source == rhs.source }

  package func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

// MARK: - References

extension FlowExpression {
  /// Whether the value depends on nothing but `step` (`step.id == "value"`, `step.rawValue`): no other name is
  /// read and no function is called (`now()` reads the clock). Such an expression has one value per step, which
  /// the engine works out once (``StepTable``).
  package var readsOnlyStep: Bool { Self.readsOnlyStep(syntax) }

  private static func readsOnlyStep(_ node: Syntax) -> Bool {
    switch node {
    case .literal: true
    case .name(let name, _): name == "step"
    case .call: false
    case .list(let elements, _): elements.allSatisfy(readsOnlyStep)
    case .map(let entries, _): entries.allSatisfy { readsOnlyStep($0.value) }
    case .member(let base, _, _), .unary(_, let base, _): readsOnlyStep(base)
    case .index(let base, let key, _), .binary(_, let base, let key, _): readsOnlyStep(base) && readsOnlyStep(key)
    case .conditional(let condition, let then, let otherwise, _):
      readsOnlyStep(condition) && readsOnlyStep(then) && readsOnlyStep(otherwise)
    }
  }
}

extension FlowExpression {
  /// A name the expression reads: a root with the members after it, where it is written.
  package struct Reference: Hashable, Sendable, CustomStringConvertible {
    /// The root name and the member chain: `["env", "osVersion"]` for `env.osVersion`;
    /// a string-literal index counts as a member (`habitTimes["wake"]` is `["habitTimes", "wake"]`).
    package var path: [String]
    /// 1-based column of the root name in the source.
    package var column: Int

    package init(path: [String], column: Int) {
      self.path = path
      self.column = column
    }

    /// `env.osVersion`
    package var description: String { path.joined(separator: ".") }
  }

  private static func collectReferences(_ node: Syntax, into found: inout [Reference]) {
    if let path = node.path {
      found.append(Reference(path: path, column: node.start))
      return
    }
    switch node {
    case .literal, .name:
      break
    case .list(let elements, _), .call(_, let elements, _):
      for element in elements { collectReferences(element, into: &found) }
    case .map(let entries, _):
      for entry in entries { collectReferences(entry.value, into: &found) }
    case .member(let base, _, _), .unary(_, let base, _):
      collectReferences(base, into: &found)
    case .index(let base, let key, _), .binary(_, let base, let key, _):
      collectReferences(base, into: &found)
      collectReferences(key, into: &found)
    case .conditional(let condition, let then, let otherwise, _):
      collectReferences(condition, into: &found)
      collectReferences(then, into: &found)
      collectReferences(otherwise, into: &found)
    }
  }
}
