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
    case .map(let entries, _):
      var values: [String: Value] = [:]
      values.reserveCapacity(entries.count)
      for entry in entries { values[entry.key] = try evaluate(entry.value) }
      return .map(values)
    case .name(let name, let column):
      guard let value = context.value(of: name) else {
        throw ExpressionError(.evaluation, "unknown name '\(name)'", column: column)
      }
      return value
    case .member(let base, let member, let column):
      if case .name(let root, _) = base, let value = context.value(of: root, member: member) { return value }
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
    case (.negate, .decimal(let d)): return .decimal(-d)
    case (.negate, .duration(let seconds)): return .duration(-seconds)
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
    case (.equal, _, _): return .bool(Self.equal(left, right))
    case (.notEqual, _, _): return .bool(!Self.equal(left, right))
    case (.in, _, _): return .bool(try Self.contains(right, left, at: column, operation: "operator 'in'"))
    case (.add, .string(let a), .string(let b)): return .string(a + b)
    case (.add, .list(let a), .list(let b)): return .list(a + b)
    case (_, .int(let a), .int(let b)): return try Self.arithmetic(op, a, b, at: column)
    case (_, .decimal(let a), .decimal(let b)): return try Self.arithmetic(op, a, b, at: column)
    case (_, .int(let a), .decimal(let b)): return try Self.arithmetic(op, Double(a), b, at: column)
    case (_, .decimal(let a), .int(let b)): return try Self.arithmetic(op, a, Double(b), at: column)
    case (_, .date, _), (_, .duration, _), (_, _, .date), (_, _, .duration):
      return try Self.timeArithmetic(op, left, right, at: column)
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

  /// Decimals with a fraction: the result must stay a finite number.
  private static func arithmetic(_ op: FlowExpression.BinaryOperator, _ a: Double, _ b: Double, at column: Int)
    throws(ExpressionError) -> Value
  {
    let result: Double
    switch op {
    case .add: result = a + b
    case .subtract: result = a - b
    case .multiply: result = a * b
    case .divide, .remainder:
      if b == 0 { throw error("division by zero", at: column) }
      result = op == .divide ? a / b : a.truncatingRemainder(dividingBy: b)
    case .less: return .bool(a < b)
    case .lessOrEqual: return .bool(a <= b)
    case .greater: return .bool(a > b)
    case .greaterOrEqual: return .bool(a >= b)
    default: throw error("operator '\(op.rawValue)' cannot be applied to decimal and decimal", at: column)
    }
    guard result.isFinite else { throw error("decimal overflow in '\(op.rawValue)'", at: column) }
    return .decimal(result)
  }

  /// Dates and durations: date - date is a duration, date ± duration a date, durations add, subtract, compare and
  /// scale by an int; dates compare. A date outside years 1 to 9999 is an error.
  private static func timeArithmetic(_ op: FlowExpression.BinaryOperator, _ left: Value, _ right: Value, at column: Int)
    throws(ExpressionError) -> Value
  {
    func checked(_ result: (partialValue: Int, overflow: Bool)) throws(ExpressionError) -> Int {
      if result.overflow { throw overflow(op.rawValue, at: column) }
      return result.partialValue
    }
    func date(_ seconds: Int) throws(ExpressionError) -> Value {
      guard CalendarDate.isInRange(seconds) else {
        throw error("the date in '\(op.rawValue)' is outside the years 1 to 9999", at: column)
      }
      return .date(seconds)
    }
    switch (op, left, right) {
    case (.subtract, .date(let a), .date(let b)): return .duration(try checked(a.subtractingReportingOverflow(b)))
    case (.add, .date(let a), .duration(let b)), (.add, .duration(let b), .date(let a)):
      return try date(try checked(a.addingReportingOverflow(b)))
    case (.subtract, .date(let a), .duration(let b)): return try date(try checked(a.subtractingReportingOverflow(b)))
    case (.add, .duration(let a), .duration(let b)): return .duration(try checked(a.addingReportingOverflow(b)))
    case (.subtract, .duration(let a), .duration(let b)):
      return .duration(try checked(a.subtractingReportingOverflow(b)))
    case (.multiply, .duration(let a), .int(let b)), (.multiply, .int(let b), .duration(let a)):
      return .duration(try checked(a.multipliedReportingOverflow(by: b)))
    case (.divide, .duration(let a), .int(let b)):
      if b == 0 { throw error("division by zero", at: column) }
      return .duration(try checked(a.dividedReportingOverflow(by: b)))
    case (.less, .date(let a), .date(let b)), (.less, .duration(let a), .duration(let b)): return .bool(a < b)
    case (.lessOrEqual, .date(let a), .date(let b)), (.lessOrEqual, .duration(let a), .duration(let b)):
      return .bool(a <= b)
    case (.greater, .date(let a), .date(let b)), (.greater, .duration(let a), .duration(let b)): return .bool(a > b)
    case (.greaterOrEqual, .date(let a), .date(let b)), (.greaterOrEqual, .duration(let a), .duration(let b)):
      return .bool(a >= b)
    default:
      throw error(
        "operator '\(op.rawValue)' cannot be applied to \(left.kindName) and \(right.kindName)", at: column)
    }
  }

  /// `==`: the same value, where an int and a decimal are compared as numbers (`1 == 1.0`).
  static func equal(_ left: Value, _ right: Value) -> Bool {
    switch (left, right) {
    case (.int(let a), .decimal(let b)), (.decimal(let b), .int(let a)): Double(a) == b && Int(exactly: b) == a
    default: left == right
    }
  }

  /// `needle in haystack`: an element of a list, a key of a map, a substring of a string; false in null.
  static func contains(_ haystack: Value, _ needle: Value, at column: Int, operation: String)
    throws(ExpressionError) -> Bool
  {
    switch (haystack, needle) {
    case (.null, _): return false
    case (.list(let elements), _): return elements.contains { equal($0, needle) }
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
    func int(_ offset: Int) throws(ExpressionError) -> Int {
      guard case .int(let i) = values[offset] else { throw mismatch(offset, expected: "an int") }
      return i
    }
    func date(_ offset: Int) throws(ExpressionError) -> Int {
      guard case .date(let seconds) = values[offset] else { throw mismatch(offset, expected: "a date") }
      return seconds
    }
    func invalid(_ what: String, expected: String) -> ExpressionError {
      Self.error("\(function.signature): \(values[0]) is not \(what); expected \(expected)", at: arguments[0].start)
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
    case .matches:
      let text = try string(0)
      let source = try string(1)
      do {
        return .bool(try LinearPattern.compiled(source).matches(text))
      } catch {
        throw Self.error("invalid pattern \(values[1]): \(error.description)", at: arguments[1].start)
      }
    case .int:
      switch values[0] {
      case .int: return values[0]
      case .decimal(let d):
        guard let whole = Int(exactly: d.rounded(.towardZero)) else {
          throw invalid("within the range of int", expected: "at most \(Int.max) in magnitude")
        }
        return .int(whole)
      case .string(let text):
        guard let parsed = Value.integer(text) else {
          throw invalid("an integer", expected: "digits with an optional leading '-', within 64 bits")
        }
        return .int(parsed)
      case .date(let seconds), .duration(let seconds): return .int(seconds)
      default: throw mismatch(0, expected: "a number, a string, a date or a duration")
      }
    case .decimal:
      switch values[0] {
      case .int(let i): return .decimal(Double(i))
      case .decimal: return values[0]
      case .string(let text):
        guard let parsed = Value.decimalNumber(text) else {
          throw invalid("a number", expected: "digits with an optional '-' and fraction, such as \"80.5\"")
        }
        return .decimal(parsed)
      default: throw mismatch(0, expected: "a number or a string")
      }
    case .string:
      switch values[0] {
      case .string: return values[0]
      case .bool(let b): return .string(b ? "true" : "false")
      case .int(let i): return .string(String(i))
      case .decimal(let d): return .string(Value.decimalText(d))
      case .date(let seconds): return .string(CalendarDate.text(seconds))
      case .duration(let seconds): return .string(TimeSpan.text(seconds))
      default: throw mismatch(0, expected: "a bool, a number, a string, a date or a duration")
      }
    case .date:
      if case .date = values[0] { return values[0] }
      guard let seconds = CalendarDate.seconds(try string(0)) else {
        throw invalid("a date", expected: "\"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS][Z]\", a day the month has")
      }
      return .date(seconds)
    case .duration:
      if case .duration = values[0] { return values[0] }
      guard let seconds = TimeSpan.seconds(try string(0)) else {
        throw invalid(
          "a duration", expected: "whole numbers with the units d, h, m, s in that order, such as \"1h30m\"")
      }
      return .duration(seconds)
    case .timestamp:
      return .date(context.secondsSinceEpoch)
    case .today:
      return .date(CalendarDate.split(context.secondsSinceEpoch).days * CalendarDate.secondsPerDay)
    case .addMonths, .addYears:
      let start = try date(0)
      let count = try int(1)
      let (months, overflow) = count.multipliedReportingOverflow(by: function == .addYears ? 12 : 1)
      guard !overflow, let result = CalendarDate.adding(months: months, to: start) else {
        throw Self.error("\(function.signature): the date is outside the years 1 to 9999", at: column)
      }
      return .date(result)
    case .yearsBetween:
      return .int(CalendarDate.years(from: try date(0), to: try date(1)))
    case .bucket:
      return .int(StableHash.bucket(try string(0), salt: try string(1)))
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
