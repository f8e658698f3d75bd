extension Step.Field {
  /// The typed value of a field's text, or nil when it is not valid for the field's type. A time is stored as
  /// `"HH:MM"`, a date as a date, a multi-choice field's comma-separated ids as a list (whether each is an option
  /// is checked by the engine, which knows the options).
  package func parse(_ raw: String) -> Value? {
    switch type {
    case .string, .singleChoice: .string(raw)
    case .int: Value.integer(raw).map(Value.int)
    case .decimal: Value.decimalNumber(raw).map(Value.decimal)
    case .bool, .toggle: Value.boolean(raw).map(Value.bool)
    case .time: TimeOfDay.minutes(raw).map { .string(TimeOfDay.text(minutes: $0)) }
    case .date: CalendarDate.seconds(raw).map(Value.date)
    case .multiChoice:
      .list(raw.isEmpty ? [] : raw.split(separator: ",", omittingEmptySubsequences: false).map { .string(String($0)) })
    }
  }

  /// The field's value as text, as `input` takes it and a screen shows it: a date as `YYYY-MM-DD` (with its time
  /// when it has one), a list as comma-separated ids; nil for null.
  package static func text(of value: Value) -> String? {
    switch value {
    case .null: nil
    case .string(let s): s
    case .date(let seconds): CalendarDate.text(seconds)
    case .duration(let seconds): TimeSpan.text(seconds)
    case .decimal(let d): Value.decimalText(d)
    case .list(let items): items.map { Self.text(of: $0) ?? "" }.joined(separator: ",")
    default: value.description
    }
  }
}

extension Value {
  /// The order of two values a field's `min`/`max` compares: numbers (ints and decimals together), dates,
  /// durations, and strings (an `HH:MM` time with an `HH:MM` time by its minutes); nil when they do not compare.
  static func order(_ a: Value, _ b: Value) -> Int? {
    func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
    switch (a, b) {
    case (.int(let x), .int(let y)): return sign(x, y)
    case (.int(let x), .decimal(let y)): return sign(Double(x), y)
    case (.decimal(let x), .int(let y)): return sign(x, Double(y))
    case (.decimal(let x), .decimal(let y)): return sign(x, y)
    case (.date(let x), .date(let y)), (.duration(let x), .duration(let y)): return sign(x, y)
    case (.date(let x), .string(let text)): return CalendarDate.seconds(text).map { sign(x, $0) }
    case (.string(let x), .string(let y)):
      if let m = TimeOfDay.minutes(x), let n = TimeOfDay.minutes(y) { return sign(m, n) }
      return sign(x, y)
    default: return nil
    }
  }
}
