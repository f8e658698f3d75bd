// MARK: - Literals

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value {
  /// The value as it would be written in an expression: `"ja"`, `18`, `["a", "b"]`.
  public var literal: String {
    switch self {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .int(let i): String(i)
    case .string(let s): "\"\(s)\""
    case .list(let items): "[" + items.map(\.literal).joined(separator: ", ") + "]"
    case .map(let entries):
      "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.literal)" }.joined(separator: ", ") + "}"
    }
  }

  var isEmptyValue: Bool {
    switch self {
    case .null: true
    case .string(let s): s.isEmpty
    case .list(let l): l.isEmpty
    case .map(let m): m.isEmpty
    default: false
    }
  }
}
