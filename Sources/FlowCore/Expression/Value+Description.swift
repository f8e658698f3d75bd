// MARK: - Literal text

extension Value: CustomStringConvertible {
  /// The value written as an expression literal: `null`, `true`, `18`, `80.5`, `date("2026-11-25")`,
  /// `duration("1h30m")`, `"text"` (escaped), `["a", "b"]`, and maps as `{key: value, "other key": value}` with
  /// sorted keys, a key quoted unless it is a name. The one text form of a value in messages and traces.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  /// Appends ``description`` to `text`: a caller writing a line of several values builds one string.
  package func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let b): text += b ? "true" : "false"
    case .int(let i): text += String(i)
    case .decimal(let d): text += Value.decimalText(d)
    case .date(let seconds):
      text += "date("
      Value.writeQuoted(CalendarDate.text(seconds), to: &text)
      text += ")"
    case .duration(let seconds):
      text += "duration("
      Value.writeQuoted(TimeSpan.text(seconds), to: &text)
      text += ")"
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
        Value.writeMapKey(entry.key, to: &text)
        text += ": "
        entry.value.write(to: &text)
      }
      text += "}"
    }
  }

  /// `80.5`, `80.0`, `1e-05`: the shortest text that reads back as the same number, always with a fraction or an
  /// exponent so that it reads back as a decimal (the form `string(d)` gives).
  package static func decimalText(_ value: Double) -> String {
    value == 0 ? "0.0" : value.description
  }

  /// A map key as a map literal writes it: bare when it is a name, else quoted.
  static func mapKeyText(_ key: String) -> String {
    var text = ""
    writeMapKey(key, to: &text)
    return text
  }

  /// Appends ``mapKeyText(_:)`` of `key` to `text`.
  package static func writeMapKey(_ key: String, to text: inout String) {
    if isName(key) { text += key } else { writeQuoted(key, to: &text) }
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
    defer { text += "\"" }
    // Most texts escape nothing: appended whole, not scalar by scalar.
    if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
    {
      text += string
      return
    }
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
  }
}

// MARK: - Kinds

extension Value {
  /// The kind of value as messages name it: `null`, `bool`, `int`, `decimal`, `date`, `duration`, `string`,
  /// `list`, `map`.
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .int: "int"
    case .decimal: "decimal"
    case .date: "date"
    case .duration: "duration"
    case .string: "string"
    case .list: "list"
    case .map: "map"
    }
  }

  /// True for `.null`.
  package var isNull: Bool { self == .null }
}
