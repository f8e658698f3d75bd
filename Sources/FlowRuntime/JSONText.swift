package import FlowCore

extension Value {
  /// The value as compact JSON text with sorted keys (deterministic, for stores and traces).
  package var jsonText: String {
    var out = ""
    writeJSON(to: &out)
    return out
  }

  package func writeJSON(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .string(let s): Self.writeJSONString(s, to: &out)
    case .list(let items):
      out += "["
      for (offset, item) in items.enumerated() {
        if offset > 0 { out += "," }
        item.writeJSON(to: &out)
      }
      out += "]"
    case .map(let entries):
      out += "{"
      for (offset, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
        if offset > 0 { out += "," }
        Self.writeJSONString(entry.key, to: &out)
        out += ":"
        entry.value.writeJSON(to: &out)
      }
      out += "}"
    }
  }

  package static func writeJSONString(_ string: String, to out: inout String) {
    JSONWriter.writeString(string, into: &out)
  }

  /// The JSON data model of a document node (positions dropped; numbers that are not integers are refused).
  package init?(node: Node) {
    switch node.content {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d):
      guard let i = Int(exactly: d) else { return nil }
      self = .int(i)
    case .string(let s): self = .string(s)
    case .sequence(let items):
      var values: [Value] = []
      for item in items {
        guard let value = Value(node: item) else { return nil }
        values.append(value)
      }
      self = .list(values)
    case .mapping(let entries):
      var values: [String: Value] = [:]
      for entry in entries {
        guard let value = Value(node: entry.value) else { return nil }
        values[entry.key] = value
      }
      self = .map(values)
    }
  }
}
