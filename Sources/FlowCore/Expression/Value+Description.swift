// MARK: - Literal text

extension Value: CustomStringConvertible {
  /// The value written as an expression literal: `null`, `true`, `18`, `"text"` (escaped), `["a", "b"]`,
  /// and maps as `{key: value, "other key": value}` with sorted keys, a key quoted unless it is a name (a form
  /// expressions cannot write, for display only). The one text form of a value in messages and traces.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  private func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let b): text += b ? "true" : "false"
    case .int(let i): text += String(i)
    case .string(let s): Value.writeQuoted(s, to: &text)
    case .list(let elements):
      text += "["
      for (offset, element) in elements.enumerated() {
        if offset > 0 { text += ", " }
        element.write(to: &text)
      }
      text += "]"
    case .map(let entries):
      text += "{"
      for (offset, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
        if offset > 0 { text += ", " }
        if Value.isName(entry.key) { text += entry.key } else { Value.writeQuoted(entry.key, to: &text) }
        text += ": "
        entry.value.write(to: &text)
      }
      text += "}"
    }
  }

  /// Whether `key` is a name (`[A-Za-z_][A-Za-z0-9_]*`), written bare as a map key.
  private static func isName(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
    return key.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
  }

  private static func writeQuoted(_ string: String, to text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\t": text += "\\t"
      case "\r": text += "\\r"
      case "\0": text += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    text += "\""
  }
}

// MARK: - Kinds

extension Value {
  /// The kind of value as messages name it: `null`, `bool`, `int`, `string`, `list`, `map`.
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .int: "int"
    case .string: "string"
    case .list: "list"
    case .map: "map"
    }
  }

  /// True for `.null`.
  package var isNull: Bool { self == .null }
}
