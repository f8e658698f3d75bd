// MARK: - Literals

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

// MARK: - Reading text

extension Value {
  /// The integer `text` writes: decimal digits with an optional leading `-`, or nil.
  package static func integer(_ text: some StringProtocol) -> Int? {
    let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    return Int(text)
  }

  /// The number `text` writes: decimal digits with an optional leading `-` and an optional fraction (`80.5`, `-0.25`,
  /// `12`), or nil. No exponent, no `+`, no spaces.
  package static func decimalNumber(_ text: some StringProtocol) -> Double? {
    let body = text.hasPrefix("-") ? text.dropFirst() : text[...]
    let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty,
      parts.allSatisfy({ part in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
    else { return nil }
    return Double(String(text)).flatMap { $0.isFinite ? $0 : nil }
  }

  /// `true` or `false`, or nil.
  package static func boolean(_ text: some StringProtocol) -> Bool? {
    switch text {
    case "true": true
    case "false": false
    default: nil
    }
  }

  /// A value given as plain text (a command-line flag, an answer's result): an integer, `true` or `false`, or
  /// else the text as a string.
  package init(plainText text: String) {
    if let int = Value.integer(text) {
      self = .int(int)
    } else if let bool = Value.boolean(text) {
      self = .bool(bool)
    } else {
      self = .string(text)
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
