// MARK: - From a document node

/// A number with a fraction where the flow language has only integers.
package struct NotAnInteger: Error, Sendable, Hashable {
  /// The number as written.
  package let number: Double
  /// Where it is written.
  package let location: SourceLocation
}

extension Value {
  /// The value a document node denotes (positions dropped).
  /// - Throws: ``NotAnInteger`` for the first number with a fraction: values have no fractions.
  package init(exactly node: Node) throws(NotAnInteger) {
    switch node.content {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d):
      guard let i = Int(exactly: d) else { throw NotAnInteger(number: d, location: node.location) }
      self = .int(i)
    case .string(let s): self = .string(s)
    case .sequence(let items):
      var values: [Value] = []
      values.reserveCapacity(items.count)
      for item in items { values.append(try Value(exactly: item)) }
      self = .list(values)
    case .mapping(let entries):
      var values: [String: Value] = [:]
      for entry in entries where values[entry.key] == nil { values[entry.key] = try Value(exactly: entry.value) }
      self = .map(values)
    }
  }

  /// The value a document node denotes, or nil when it holds a number with a fraction.
  package init?(node: Node) {
    guard let value = try? Value(exactly: node) else { return nil }
    self = value
  }
}

// MARK: - As JSON

extension Value {
  /// The value as a document node, map keys sorted (so its JSON is deterministic).
  package var node: Node {
    switch self {
    case .null: Node(.null)
    case .bool(let b): Node(.bool(b))
    case .int(let i): Node(.int(i))
    case .string(let s): Node(.string(s))
    case .list(let items): Node(.sequence(items.map(\.node)))
    case .map(let entries):
      Node(
        .mapping(
          entries.sorted { $0.key < $1.key }.map {
            Node.Entry(key: $0.key, keyLocation: .unknown, value: $0.value.node)
          }
        ))
    }
  }

  /// The value as compact JSON text with sorted keys (deterministic, for stores and traces).
  package var jsonText: String { JSONWriter.write(node, pretty: false) }

  /// The value as JSON indented by two spaces, with sorted keys.
  package var prettyJSON: String { JSONWriter.write(node, pretty: true) }

  /// Appends ``jsonText`` to `out`.
  package func writeJSON(to out: inout String) { out += jsonText }

  /// Appends `string` as a JSON string literal.
  package static func writeJSONString(_ string: String, to out: inout String) {
    JSONWriter.writeString(string, into: &out)
  }
}
