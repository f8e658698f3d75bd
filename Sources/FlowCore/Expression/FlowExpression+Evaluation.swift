// MARK: - API

extension FlowExpression {
  /// Evaluates the expression against the names and clock of `context`.
  ///
  /// Evaluation is pure and never traps. Reading a member or index that a map lacks gives `null`, and so
  /// does reading any member or index of `null` or a list index out of range, so `result.name ?? ""`
  /// works. `null` counts as empty for `size`, `keys`, `contains`, `in` and `nextHabit`.
  ///
  /// - Throws: ``ExpressionError`` with code `.evaluation` for an unknown root name, an operand of the
  ///   wrong kind, integer overflow, division by zero or a malformed `"HH:MM"` time; its column points
  ///   at the operator, function or name concerned.
  package func evaluate(in context: some ExpressionContext) throws(ExpressionError) -> Value {
    try Evaluator(context: context).evaluate(syntax)
  }

  /// Evaluates a condition (`skipIf`, `when`, `enabled`): the value must be a bool.
  ///
  /// - Throws: ``ExpressionError`` as ``evaluate(in:)`` does, and "expected a bool condition, found
  ///   int" (at column 1) when the value is not a bool.
  package func evaluateCondition(in context: some ExpressionContext) throws(ExpressionError) -> Bool {
    let value = try evaluate(in: context)
    guard case .bool(let holds) = value else {
      throw ExpressionError(
        .evaluation, "expected a bool condition, found \(value.kindName)", column: syntax.start)
    }
    return holds
  }
}

// MARK: - Evaluator

struct Evaluator<Context: ExpressionContext> {
  typealias Syntax = FlowExpression.Syntax
  let context: Context

  func evaluate(_ node: Syntax) throws(ExpressionError) -> Value {
    switch node {
    case .literal(let value, _):
      return value
    case .list(let elements, _):
      var values: [Value] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try evaluate(element)) }
      return .list(values)
    case .name(let name, let column):
      guard let value = context.value(of: name) else {
        throw ExpressionError(.evaluation, "unknown name '\(name)'", column: column)
      }
      return value
    case .member(let base, let member, let column):
      switch try evaluate(base) {
      case .map(let entries): return entries[member] ?? .null
      case .null: return .null
      case let other:
        throw Self.error("cannot read member '\(member)' of \(other.kindName)", at: column)
      }
    case .index(let base, let key, let column):
      return try index(evaluate(base), by: evaluate(key), at: column, keyColumn: key.start)
    case .unary(let op, let operand, let column):
      return try unary(op, evaluate(operand), at: column)
    case .binary(let op, let left, let right, let column):
      return try binary(op, left, right, at: column)
    case .conditional(let condition, let then, let otherwise, _):
      switch try evaluate(condition) {
      case .bool(true): return try evaluate(then)
      case .bool(false): return try evaluate(otherwise)
      case let other:
        throw Self.error("expected a bool condition for '?:', found \(other.kindName)", at: condition.start)
      }
    case .call(let function, let arguments, let column):
      return try call(function, arguments, at: column)
    }
  }

  // MARK: Operators

  private func index(_ base: Value, by key: Value, at column: Int, keyColumn: Int) throws(ExpressionError)
    -> Value
  {
    switch (base, key) {
    case (.null, _): return .null
    case (.map(let entries), .string(let name)): return entries[name] ?? .null
    case (.list(let elements), .int(let offset)):
      return elements.indices.contains(offset) ? elements[offset] : .null
    case (.map, _):
      throw Self.error("a map index must be a string, found \(key.kindName)", at: keyColumn)
    case (.list, _):
      throw Self.error("a list index must be an int, found \(key.kindName)", at: keyColumn)
    default:
      throw Self.error("cannot index \(base.kindName); expected a list or a map", at: column)
    }
  }

  private func unary(_ op: FlowExpression.UnaryOperator, _ operand: Value, at column: Int) throws(ExpressionError)
    -> Value
  {
    switch (op, operand) {
    case (.not, .bool(let b)): return .bool(!b)
    case (.negate, .int(let i)):
      let (result, overflow) = Int(0).subtractingReportingOverflow(i)
      if overflow { throw Self.overflow("-", at: column) }
      return .int(result)
    default:
      throw Self.error("operator '\(op.rawValue)' cannot be applied to \(operand.kindName)", at: column)
    }
  }

  private func binary(_ op: FlowExpression.BinaryOperator, _ leftNode: Syntax, _ rightNode: Syntax, at column: Int)
    throws(ExpressionError) -> Value
  {
    let left = try evaluate(leftNode)
    switch op {
    case .and, .or:
      guard case .bool(let l) = left else {
        throw Self.error("operator '\(op.rawValue)' expects bool operands, found \(left.kindName)", at: column)
      }
      if l == (op == .or) { return .bool(l) }
      let right = try evaluate(rightNode)
      guard case .bool = right else {
        throw Self.error("operator '\(op.rawValue)' expects bool operands, found \(right.kindName)", at: column)
      }
      return right
    case .coalesce:
      return left == .null ? try evaluate(rightNode) : left
    default:
      break
    }
    let right = try evaluate(rightNode)
    switch (op, left, right) {
    case (.equal, _, _): return .bool(left == right)
    case (.notEqual, _, _): return .bool(left != right)
    case (.in, _, _): return .bool(try Self.contains(right, left, at: column, operation: "operator 'in'"))
    case (.add, .string(let a), .string(let b)): return .string(a + b)
    case (.add, .list(let a), .list(let b)): return .list(a + b)
    case (_, .int(let a), .int(let b)): return try Self.arithmetic(op, a, b, at: column)
    case (.less, .string(let a), .string(let b)): return .bool(a < b)
    case (.lessOrEqual, .string(let a), .string(let b)): return .bool(a <= b)
    case (.greater, .string(let a), .string(let b)): return .bool(a > b)
    case (.greaterOrEqual, .string(let a), .string(let b)): return .bool(a >= b)
    default:
      throw Self.error(
        "operator '\(op.rawValue)' cannot be applied to \(left.kindName) and \(right.kindName)", at: column)
    }
  }

  private static func arithmetic(_ op: FlowExpression.BinaryOperator, _ a: Int, _ b: Int, at column: Int)
    throws(ExpressionError) -> Value
  {
    let result: (partialValue: Int, overflow: Bool)
    switch op {
    case .add: result = a.addingReportingOverflow(b)
    case .subtract: result = a.subtractingReportingOverflow(b)
    case .multiply: result = a.multipliedReportingOverflow(by: b)
    case .divide, .remainder:
      if b == 0 { throw error("division by zero", at: column) }
      result = op == .divide ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
    case .less: return .bool(a < b)
    case .lessOrEqual: return .bool(a <= b)
    case .greater: return .bool(a > b)
    case .greaterOrEqual: return .bool(a >= b)
    default: throw error("operator '\(op.rawValue)' cannot be applied to int and int", at: column)
    }
    if result.overflow { throw overflow(op.rawValue, at: column) }
    return .int(result.partialValue)
  }

  /// `needle in haystack`: an element of a list, a key of a map, a substring of a string; false in null.
  static func contains(_ haystack: Value, _ needle: Value, at column: Int, operation: String)
    throws(ExpressionError) -> Bool
  {
    switch (haystack, needle) {
    case (.null, _): return false
    case (.list(let elements), _): return elements.contains(needle)
    case (.map(let entries), .string(let key)): return entries[key] != nil
    case (.string(let text), .string(let part)): return part.isEmpty || text.contains(part)
    default:
      throw error(
        "\(operation) cannot look for \(needle.kindName) in \(haystack.kindName); expected an element of a list, a key of a map or a substring of a string",
        at: column)
    }
  }

  // MARK: Functions

  private func call(_ function: FlowExpression.Builtin, _ arguments: [Syntax], at column: Int)
    throws(ExpressionError) -> Value
  {
    var values: [Value] = []
    values.reserveCapacity(arguments.count)
    for argument in arguments { values.append(try evaluate(argument)) }

    func mismatch(_ offset: Int, expected: String) -> ExpressionError {
      Self.error(
        "\(function.signature) expects \(expected), found \(values[offset].kindName)", at: arguments[offset].start)
    }
    func string(_ offset: Int) throws(ExpressionError) -> String {
      guard case .string(let s) = values[offset] else { throw mismatch(offset, expected: "a string") }
      return s
    }
    func time(_ offset: Int) throws(ExpressionError) -> Int {
      let text = try string(offset)
      guard let minutes = TimeOfDay.minutes(text) else {
        throw Self.error(
          "invalid time \(values[offset]); expected \"HH:MM\" between 00:00 and 23:59", at: arguments[offset].start)
      }
      return minutes
    }

    switch function {
    case .size:
      switch values[0] {
      case .null: return .int(0)
      case .list(let l): return .int(l.count)
      case .string(let s): return .int(s.count)
      case .map(let m): return .int(m.count)
      default: throw mismatch(0, expected: "a list, a string or a map")
      }
    case .contains:
      return .bool(try Self.contains(values[0], values[1], at: column, operation: function.signature))
    case .startsWith:
      return .bool(try string(0).hasPrefix(string(1)))
    case .lower:
      return .string(try string(0).lowercased())
    case .upper:
      return .string(try string(0).uppercased())
    case .trim:
      let text = try string(0)
      guard let first = text.firstIndex(where: { !$0.isWhitespace }),
        let last = text.lastIndex(where: { !$0.isWhitespace })
      else { return .string("") }
      return .string(String(text[first...last]))
    case .keys:
      switch values[0] {
      case .null: return .list([])
      case .map(let m): return .list(m.keys.sorted().map(Value.string))
      default: throw mismatch(0, expected: "a map")
      }
    case .now:
      return .string(TimeOfDay.text(minutes: context.minutesSinceMidnight))
    case .minutes:
      return .int(try time(0))
    case .nextHabit:
      switch values[0] {
      case .null: return .string("")
      case .map(let m): return .string(TimeOfDay.nextHabit(m, now: context.minutesSinceMidnight))
      default: throw mismatch(0, expected: "a map of \"HH:MM\" times")
      }
    case .isLaterToday:
      return .bool(try time(0) > TimeOfDay.normalized(context.minutesSinceMidnight))
    }
  }

  // MARK: Errors

  private static func error(_ message: String, at column: Int) -> ExpressionError {
    ExpressionError(.evaluation, message, column: column)
  }

  private static func overflow(_ op: String, at column: Int) -> ExpressionError {
    error("integer overflow in '\(op)'", at: column)
  }
}
