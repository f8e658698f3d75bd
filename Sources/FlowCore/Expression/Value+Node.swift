// MARK: - From a document node

/// A number that is not finite (`.inf`, `.nan`), which no flow value can hold.
package struct NotAFiniteNumber: Error, Sendable, Hashable {
  /// The number as written.
  package let number: Double
  /// Where it is written.
  package let location: SourceLocation
}

extension Value {
  /// The value a document node denotes (positions dropped): an integer is an int, a number written with a fraction
  /// or an exponent a decimal (``VariableType/coerce(_:)`` reads a whole decimal where an int is declared). Dates and durations are written as strings in documents; ``VariableType/coerce(_:)`` reads them.
  /// - Throws: ``NotAFiniteNumber`` for the first number that is infinite or not a number.
  package init(exactly node: Node) throws(NotAFiniteNumber) {
    switch node.content {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d):
      guard d.isFinite else { throw NotAFiniteNumber(number: d, location: node.location) }
      self = .decimal(d)
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

  /// The value a document node denotes, or nil when it holds a number that is not finite.
  package init?(node: Node) {
    guard let value = try? Value(exactly: node) else { return nil }
    self = value
  }
}

// MARK: - As JSON

extension Value {
  /// The value as a document node, map keys sorted (so its JSON is deterministic). A date or a duration is written as
  /// its text (`"2026-11-25T23:55:00Z"`, `"1h30m"`).
  package var node: Node {
    switch self {
    case .null: Node(.null)
    case .bool(let b): Node(.bool(b))
    case .int(let i): Node(.int(i))
    case .decimal(let d): Node(.double(d))
    case .date(let seconds): Node(.string(CalendarDate.text(seconds)))
    case .duration(let seconds): Node(.string(TimeSpan.text(seconds)))
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

  /// The value as a store keeps it, which is what reading the store gives back: a date or a duration as its text,
  /// everything else as it is.
  package var stored: Value {
    switch self {
    case .date(let seconds): .string(CalendarDate.text(seconds))
    case .duration(let seconds): .string(TimeSpan.text(seconds))
    default: self
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
