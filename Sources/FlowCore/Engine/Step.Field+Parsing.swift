extension Step.Field {
  /// The typed value of a field's text, or nil when it is not valid for the field's type.
  func parse(_ raw: String) -> Value? {
    switch type {
    case .string: return .string(raw)
    case .int: return Int(raw).map(Value.int)
    case .bool:
      switch raw {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return nil
      }
    case .time:
      let parts = raw.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
        let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
      else { return nil }
      return .string(raw)
    }
  }
}
