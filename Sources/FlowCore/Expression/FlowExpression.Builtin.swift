extension FlowExpression {
  /// The functions an expression may call. Resolved when parsing, so evaluation never looks up names.
  enum Builtin: String, CaseIterable, Sendable {
    case size, contains, startsWith, lower, upper, trim, keys, now, minutes, nextHabit, isLaterToday

    var arity: Int {
      switch self {
      case .now: 0
      case .size, .lower, .upper, .trim, .keys, .minutes, .nextHabit, .isLaterToday: 1
      case .contains, .startsWith: 2
      }
    }

    /// `size(x)`, `contains(haystack, needle)`: how the function is written, for messages.
    var signature: String {
      switch self {
      case .size: "size(x)"
      case .contains: "contains(haystack, needle)"
      case .startsWith: "startsWith(s, prefix)"
      case .lower: "lower(s)"
      case .upper: "upper(s)"
      case .trim: "trim(s)"
      case .keys: "keys(map)"
      case .now: "now()"
      case .minutes: "minutes(\"HH:MM\")"
      case .nextHabit: "nextHabit(map)"
      case .isLaterToday: "isLaterToday(\"HH:MM\")"
      }
    }
  }
}
