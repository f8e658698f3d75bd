internal import FlowCore

/// Short renderings of values for diagnostics: `'text'`, `3`, `true`, `null`, `[1, 2]`, `{a: 1}`.
enum NodeRendering {
  static func short(_ node: Node, limit: Int = 60) -> String {
    var text = ""
    render(node, into: &text, limit: limit)
    if text.count > limit { text = String(text.prefix(limit - 3)) + "..." }
    return text
  }

  private static func render(_ node: Node, into text: inout String, limit: Int) {
    guard text.count <= limit else { return }
    switch node.content {
    case .null: text += "null"
    case .bool(let b): text += b ? "true" : "false"
    case .int(let i): text += String(i)
    case .double(let d):
      text += d.rounded(.towardZero) == d && abs(d) < 1e15 ? String(Int(d)) + ".0" : String(d)
    case .string(let s): text += "'\(s)'"
    case .sequence(let items):
      text += "["
      for (index, item) in items.enumerated() {
        if index > 0 { text += ", " }
        render(item, into: &text, limit: limit)
        if text.count > limit { return }
      }
      text += "]"
    case .mapping(let entries):
      text += "{"
      for (index, entry) in entries.enumerated() {
        if index > 0 { text += ", " }
        text += entry.key + ": "
        render(entry.value, into: &text, limit: limit)
        if text.count > limit { return }
      }
      text += "}"
    }
  }
}
