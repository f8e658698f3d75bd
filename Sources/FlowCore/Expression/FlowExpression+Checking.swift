// MARK: - API

extension FlowExpression {
  /// The static type of the expression, given the types of the root names.
  ///
  /// Checking is pragmatic: `any` is accepted everywhere, and a value that may be null (`T?`, from a map
  /// member or a provider result) is accepted where `T` is needed. Member access on a map of `T` gives
  /// `T?`; on a record it must name a field.
  ///
  /// - Throws: ``ExpressionError`` with code `.type` for an unknown name or member (with "did you
  ///   mean"), an operand or argument of the wrong type, or `==` between different types.
  package func check(in scope: TypeScope) throws(ExpressionError) -> ValueType {
    try Checker(scope: scope).type(of: syntax)
  }

  /// Checks a condition (`skipIf`, `when`, `enabled`): its type must be bool (or `any`).
  ///
  /// - Throws: ``ExpressionError`` as ``check(in:)`` does, and "expected a bool condition, found int"
  ///   (at the expression's first column) for any other type.
  package func checkCondition(in scope: TypeScope) throws(ExpressionError) {
    let type = try check(in: scope)
    switch type.kind {
    case .bool, .any: return
    default:
      throw ExpressionError(.type, "expected a bool condition, found \(type)", column: syntax.start)
    }
  }
}

// MARK: - Checker

struct Checker {
  typealias Syntax = FlowExpression.Syntax
  let scope: TypeScope

  func type(of node: Syntax) throws(ExpressionError) -> ValueType {
    switch node {
    case .literal(let value, _):
      return ValueType(of: value)
    case .list(let elements, _):
      var element: ValueType?
      for item in elements {
        let type = try type(of: item)
        guard let current = element else {
          element = type
          continue
        }
        guard let unified = current.unified(with: type) else {
          throw Self.error("list elements have different types, \(current) and \(type)", at: item.start)
        }
        element = unified
      }
      return .list(element ?? .any)
    case .map(let entries, _):
      var element: ValueType?
      for entry in entries {
        let type = try type(of: entry.value)
        guard let current = element else {
          element = type
          continue
        }
        guard let unified = current.unified(with: type) else {
          throw Self.error("map values have different types, \(current) and \(type)", at: entry.value.start)
        }
        element = unified
      }
      return .map(element ?? .any)
    case .name(let name, let column):
      guard let type = scope.roots[name] else {
        let names = scope.roots.keys
        throw ExpressionError(
          .type, "unknown name '\(name)'" + Suggestion.didYouMean(name, in: names), column: column,
          notes: names.isEmpty ? [] : ["names in scope: " + Suggestion.list(names)])
      }
      return type
    case .member(let base, let name, let column):
      return try member(name, of: type(of: base), base: base, at: column)
    case .index(let base, let key, let column):
      return try index(type(of: base), base: base, key: key, at: column)
    case .unary(let op, let operand, let column):
      let type = try type(of: operand)
      switch (op, type.kind) {
      case (_, .any): return op == .not ? .bool : .any
      case (.not, .bool): return .bool
      case (.negate, .int): return .int
      case (.negate, .decimal): return .decimal
      case (.negate, .duration): return .duration
      default: throw Self.error("operator '\(op.rawValue)' cannot be applied to \(type)", at: column)
      }
    case .binary(let op, let left, let right, let column):
      return try binary(op, type(of: left), type(of: right), at: column)
    case .conditional(let condition, let then, let otherwise, let column):
      let conditionType = try type(of: condition)
      guard conditionType.kind == .bool || conditionType.kind == .any else {
        throw Self.error("expected a bool condition for '?:', found \(conditionType)", at: condition.start)
      }
      let a = try type(of: then), b = try type(of: otherwise)
      guard let result = a.unified(with: b) else {
        throw Self.error("the branches of '?:' have different types, \(a) and \(b)", at: column)
      }
      return result
    case .call(let function, let arguments, _):
      return try call(function, arguments)
    }
  }

  // MARK: Members and indexes

  private func member(_ name: String, of base: ValueType, base node: Syntax, at column: Int)
    throws(ExpressionError) -> ValueType
  {
    switch base {
    case .any, .null: return base
    case .optional(let inner): return .optional(of: try member(name, of: inner, base: node, at: column))
    case .map(let element): return .optional(of: element)
    case .record(let fields):
      if let field = fields[name] { return field }
      let what = node.path.map { "'\($0.joined(separator: "."))'" } ?? "the value"
      let expected =
        fields.isEmpty ? "; it has no members" : "; expected one of " + Suggestion.list(fields.keys)
      throw Self.error(
        "unknown member '\(name)' of \(what)\(expected)" + Suggestion.didYouMean(name, in: fields.keys),
        at: column)
    default:
      throw Self.error("cannot read member '\(name)' of \(base)", at: column)
    }
  }

  private func index(_ base: ValueType, base node: Syntax, key: Syntax, at column: Int) throws(ExpressionError)
    -> ValueType
  {
    let keyType = try type(of: key)
    switch base {
    case .any, .null: return base
    case .optional(let inner): return .optional(of: try index(inner, base: node, key: key, at: column))
    case .list(let element):
      guard keyType.kind == .int || keyType.kind == .any else {
        throw Self.error("a list index must be an int, found \(keyType)", at: key.start)
      }
      return .optional(of: element)
    case .map(let element):
      guard keyType.kind == .string || keyType.kind == .any else {
        throw Self.error("a map index must be a string, found \(keyType)", at: key.start)
      }
      return .optional(of: element)
    case .record:
      if case .literal(.string(let name), let keyColumn) = key {
        return try member(name, of: base, base: node, at: keyColumn)
      }
      guard keyType.kind == .string || keyType.kind == .any else {
        throw Self.error("a map index must be a string, found \(keyType)", at: key.start)
      }
      return .any
    default:
      throw Self.error("cannot index \(base); expected a list or a map", at: column)
    }
  }

  // MARK: Operators

  private func binary(_ op: FlowExpression.BinaryOperator, _ left: ValueType, _ right: ValueType, at column: Int)
    throws(ExpressionError) -> ValueType
  {
    var mismatch: ExpressionError {
      Self.error("operator '\(op.rawValue)' cannot be applied to \(left) and \(right)", at: column)
    }
    switch op {
    case .and, .or:
      for type in [left, right] where type.kind != .bool && type.kind != .any {
        throw Self.error("operator '\(op.rawValue)' expects bool operands, found \(type)", at: column)
      }
      return .bool
    case .coalesce:
      let wrapped = left == .null ? ValueType.null : left.unwrapped
      if wrapped == .null { return right }
      guard let result = wrapped.unified(with: right) else {
        throw Self.error("the operands of '??' have different types, \(left) and \(right)", at: column)
      }
      return result
    case .equal, .notEqual:
      guard left.isComparable(with: right) else {
        throw Self.error("cannot compare \(left) with \(right); they are different types", at: column)
      }
      return .bool
    case .in:
      try Self.checkContains(haystack: right, needle: left, at: column, operation: "operator 'in'")
      return .bool
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      switch (left.kind, right.kind) {
      case (.any, _), (_, .any), (.string, .string), (.date, .date), (.duration, .duration):
        return .bool
      case (let a, let b) where a.isNumber && b.isNumber: return .bool
      default: throw mismatch
      }
    case .add:
      switch (left.kind, right.kind) {
      case (.any, .any): return .any
      case (.int, .int): return .int
      case (.decimal, .decimal), (.int, .decimal), (.decimal, .int): return .decimal
      case (.date, .duration), (.duration, .date), (.date, .any), (.any, .date): return .date
      case (.duration, .duration), (.duration, .any), (.any, .duration): return .duration
      case (let a, .any) where a.isNumber: return left.unwrapped
      case (.any, let b) where b.isNumber: return right.unwrapped
      case (.string, .string), (.string, .any), (.any, .string): return .string
      case (.list, .any): return left.unwrapped
      case (.any, .list): return right.unwrapped
      case (.list, .list):
        guard let result = left.unwrapped.unified(with: right.unwrapped) else { throw mismatch }
        return result
      default: throw mismatch
      }
    case .subtract, .multiply, .divide, .remainder:
      switch (op, left.kind, right.kind) {
      case (_, .any, .any): return .any
      case (_, .int, .int): return .int
      case (_, .decimal, .decimal), (_, .int, .decimal), (_, .decimal, .int): return .decimal
      case (_, let a, .any) where a.isNumber: return left.unwrapped
      case (_, .any, let b) where b.isNumber: return right.unwrapped
      case (.subtract, .date, .date): return .duration
      case (.subtract, .date, .duration): return .date
      case (.subtract, .date, .any): return .any
      case (.subtract, .duration, .duration), (.subtract, .duration, .any), (.subtract, .any, .duration),
        (.multiply, .duration, .int), (.multiply, .int, .duration), (.multiply, .duration, .any),
        (.multiply, .any, .duration), (.divide, .duration, .int), (.divide, .duration, .any):
        return .duration
      default: throw mismatch
      }
    }
  }

  /// `needle in haystack` and `contains(haystack, needle)`.
  private static func checkContains(haystack: ValueType, needle: ValueType, at column: Int, operation: String)
    throws(ExpressionError)
  {
    let fits: Bool =
      switch (haystack.unwrapped, needle.kind) {
      case (.any, _), (.null, _): true
      case (.list(let element), _): element.isComparable(with: needle)
      case (.map, .string), (.map, .any), (.record, .string), (.record, .any): true
      case (.string, .string), (.string, .any): true
      default: false
      }
    guard fits else {
      throw error(
        "\(operation) cannot look for \(needle) in \(haystack); expected an element of a list, a key of a map or a substring of a string",
        at: column)
    }
  }

  // MARK: Functions

  private func call(_ function: FlowExpression.Builtin, _ arguments: [Syntax]) throws(ExpressionError) -> ValueType {
    var types: [ValueType] = []
    for argument in arguments { types.append(try type(of: argument)) }

    func expect(_ offset: Int, _ expected: String, _ kinds: ValueType.Kind...) throws(ExpressionError) {
      let kind = types[offset].kind
      guard kind == .any || kinds.contains(kind) else {
        throw Self.error(
          "\(function.signature) expects \(expected), found \(types[offset])", at: arguments[offset].start)
      }
    }
    func expectTime(_ offset: Int) throws(ExpressionError) {
      try expect(offset, "a string", .string)
      if case .literal(.string(let text), let column) = arguments[offset], TimeOfDay.minutes(text) == nil {
        throw Self.error(
          "invalid time \(Value.string(text)); expected \"HH:MM\" between 00:00 and 23:59", at: column)
      }
    }

    /// A string literal argument that the function cannot read is an error at lint time.
    func checkLiteral(_ offset: Int, _ reads: (String) -> Bool, expected: String) throws(ExpressionError) {
      if case .literal(.string(let text), let column) = arguments[offset], !reads(text) {
        throw Self.error("\(function.signature): \(Value.string(text)) is not \(expected)", at: column)
      }
    }

    switch function {
    case .size:
      try expect(0, "a list, a string or a map", .list, .string, .map, .null)
      return .int
    case .contains:
      try Self.checkContains(
        haystack: types[0], needle: types[1], at: arguments[0].start, operation: function.signature)
      return .bool
    case .startsWith:
      try expect(0, "a string", .string)
      try expect(1, "a string", .string)
      return .bool
    case .lower, .upper, .trim:
      try expect(0, "a string", .string)
      return .string
    case .keys:
      try expect(0, "a map", .map, .null)
      return .list(.string)
    case .now:
      return .string
    case .minutes:
      try expectTime(0)
      return .int
    case .isLaterToday:
      try expectTime(0)
      return .bool
    case .nextHabit:
      try expect(0, "a map of \"HH:MM\" times", .map, .null)
      if case .map(let element) = types[0].unwrapped, element.kind != .string, element.kind != .any {
        throw Self.error(
          "\(function.signature) expects a map of \"HH:MM\" times, found \(types[0])", at: arguments[0].start)
      }
      return .string
    case .matches:
      try expect(0, "a string", .string)
      try expect(1, "a string", .string)
      return .bool
    case .int:
      try expect(0, "a number, a string, a date or a duration", .int, .decimal, .string, .date, .duration)
      try checkLiteral(0, { Value.integer($0) != nil }, expected: "an integer")
      return .int
    case .decimal:
      try expect(0, "a number or a string", .int, .decimal, .string)
      try checkLiteral(0, { Value.decimalNumber($0) != nil }, expected: "a number")
      return .decimal
    case .string:
      try expect(
        0, "a bool, a number, a string, a date or a duration", .bool, .int, .decimal, .string, .date, .duration)
      return .string
    case .date:
      try expect(0, "a string", .string, .date)
      try checkLiteral(0, { CalendarDate.seconds($0) != nil }, expected: "a date (\"YYYY-MM-DD\", a day the month has)")
      return .date
    case .duration:
      try expect(0, "a string", .string, .duration)
      try checkLiteral(0, { TimeSpan.seconds($0) != nil }, expected: "a duration such as \"1h30m\"")
      return .duration
    case .timestamp, .today:
      return .date
    case .addMonths, .addYears:
      try expect(0, "a date", .date)
      try expect(1, "an int", .int)
      return .date
    case .yearsBetween:
      try expect(0, "a date", .date)
      try expect(1, "a date", .date)
      return .int
    case .bucket:
      try expect(0, "a string", .string)
      try expect(1, "a string", .string)
      return .int
    }

  }

  private static func error(_ message: String, at column: Int) -> ExpressionError {
    ExpressionError(.type, message, column: column)
  }
}
