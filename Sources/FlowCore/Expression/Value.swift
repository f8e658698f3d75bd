/// A runtime value of the flow language: what variables hold, expressions produce and the store keeps.
public enum Value: Hashable, Sendable {
  /// No value (an absent optional, an unset store key).
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer (64 bits).
  case int(Int)
  /// A number with a fraction (`80.5`): a binary floating-point number, always finite.
  case decimal(Double)
  /// A date and time: whole seconds since 1970-01-01 00:00:00 UTC, from year 1 through 9999.
  case date(Int)
  /// A length of time in whole seconds, negative for a time earlier (`duration("10m")`, a date minus a date).
  case duration(Int)
  /// A string.
  case string(String)
  /// An ordered list.
  case list([Value])
  /// String-keyed map (habit name -> "HH:MM", a namespace such as `env`, a provider result).
  case map([String: Value])
}

/// The static type of a value, used to check expressions against declared variables at lint time.
package indirect enum ValueType: Hashable, Sendable, CustomStringConvertible {
  case any
  case null
  case bool
  case int
  case decimal
  case date
  case duration
  case string
  case list(ValueType)
  case map(ValueType)
  /// A namespace or structured value with known members (`env`, `permission`, `step`).
  case record([String: ValueType])
  /// A value that may be null (a provider result field, an unset optional).
  case optional(ValueType)

  package var description: String {
    switch self {
    case .any: "any"
    case .null: "null"
    case .bool: "bool"
    case .int: "int"
    case .decimal: "decimal"
    case .date: "date"
    case .duration: "duration"
    case .string: "string"
    case .list(let e): "list<\(e)>"
    case .map(let e): "map<\(e)>"
    case .record(let fields): "{" + fields.keys.sorted().joined(separator: ", ") + "}"
    case .optional(let t): "\(t)?"
    }
  }
}
