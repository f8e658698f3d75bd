/// Serializes a `Node` as JSON, deterministically: mapping keys in node order, integers as integers, doubles
/// in their shortest round-trip form. JSON has no infinities or NaN; those are written as `null`.
package enum JSONWriter {
  /// The node as compact JSON, or indented by two spaces with `pretty`; `keySeparator` goes between a key and
  /// its value (default `": "` when pretty, `":"` when compact; Xcode's layout is `" : "`).
  package static func write(_ node: Node, pretty: Bool, keySeparator: String? = nil) -> String {
    var out = ""
    write(node, pretty: pretty, separator: keySeparator ?? (pretty ? ": " : ":"), indent: 0, into: &out)
    return out
  }

  private static func write(_ node: Node, pretty: Bool, separator: String, indent: Int, into out: inout String) {
    switch node.content {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += d.isFinite ? String(d) : "null"
    case .string(let s): writeString(s, into: &out)
    case .sequence(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        newline(pretty, indent + 1, into: &out)
        write(item, pretty: pretty, separator: separator, indent: indent + 1, into: &out)
      }
      newline(pretty, indent, into: &out)
      out += "]"
    case .mapping(let entries):
      if entries.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (i, entry) in entries.enumerated() {
        if i > 0 { out += "," }
        newline(pretty, indent + 1, into: &out)
        writeString(entry.key, into: &out)
        out += separator
        write(entry.value, pretty: pretty, separator: separator, indent: indent + 1, into: &out)
      }
      newline(pretty, indent, into: &out)
      out += "}"
    }
  }

  private static func newline(_ pretty: Bool, _ indent: Int, into out: inout String) {
    guard pretty else { return }
    out += "\n"
    out += String(repeating: "  ", count: indent)
  }

  /// `s` as a JSON string literal, escaped.
  package static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
        var hex = String(scalar.value, radix: 16)
        while hex.count < 4 { hex = "0" + hex }
        out += "\\u" + hex
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
