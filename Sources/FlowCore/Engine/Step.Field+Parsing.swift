extension Step.Field {
  /// The typed value of a field's text, or nil when it is not valid for the field's type. A time is stored as
  /// `"HH:MM"`.
  func parse(_ raw: String) -> Value? {
    switch type {
    case .string: .string(raw)
    case .int: Value.integer(raw).map(Value.int)
    case .bool: Value.boolean(raw).map(Value.bool)
    case .time: TimeOfDay.minutes(raw).map { .string(TimeOfDay.text(minutes: $0)) }
    }
  }
}
