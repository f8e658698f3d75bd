extension FlowExpression {
  /// The functions an expression may call. Resolved when parsing, so evaluation never looks up names.
  enum Builtin: String, CaseIterable, Sendable {
    case size, contains, startsWith, lower, upper, trim, keys, now, minutes, nextHabit, isLaterToday
    case matches, int, decimal, string, date, duration, timestamp, today, addMonths, addYears, yearsBetween, bucket

    var arity: Int {
      switch self {
      case .now, .timestamp, .today: 0
      case .size, .lower, .upper, .trim, .keys, .minutes, .nextHabit, .isLaterToday, .int, .decimal, .string, .date,
        .duration:
        1
      case .contains, .startsWith, .matches, .addMonths, .addYears, .yearsBetween, .bucket: 2
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
      case .matches: "matches(s, pattern)"
      case .int: "int(x)"
      case .decimal: "decimal(x)"
      case .string: "string(x)"
      case .date: "date(\"YYYY-MM-DD\")"
      case .duration: "duration(\"1h30m\")"
      case .timestamp: "timestamp()"
      case .today: "today()"
      case .addMonths: "addMonths(date, n)"
      case .addYears: "addYears(date, n)"
      case .yearsBetween: "yearsBetween(from, to)"
      case .bucket: "bucket(id, salt)"
      }
    }
  }
}
