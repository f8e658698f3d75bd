/// A document value with the source position of every node: the common tree that the YAML front end,
/// the JSON reader, the schema validator and the flow compiler share.
///
/// Mappings keep their entries in source order and have string keys (JSON's data model).
package struct Node: Hashable, Sendable {
  package enum Content: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case sequence([Node])
    case mapping([Entry])
  }

  package struct Entry: Hashable, Sendable {
    package var key: String
    package var keyLocation: SourceLocation
    package var value: Node

    package init(key: String, keyLocation: SourceLocation, value: Node) {
      self.key = key
      self.keyLocation = keyLocation
      self.value = value
    }
  }

  package var content: Content
  /// Where the node starts (1-based line and column).
  package var location: SourceLocation
  /// Where a string's text starts when that is not ``location``: after the opening quote of a quoted scalar,
  /// on the first content line of a block scalar (`|`, `>`).
  private var textLocation: SourceLocation?

  package init(_ content: Content, at location: SourceLocation = .unknown) {
    self.content = content
    self.location = location
  }

  /// A string node whose text starts at `textStart` (a quoted or block scalar).
  package init(string: String, at location: SourceLocation, textStart: SourceLocation) {
    self.init(.string(string), at: location)
    textLocation = textStart == location ? nil : textStart
  }

  /// Where the node's text starts: the first character of a string's text, else ``location``. Columns inside
  /// an expression are counted from here.
  package var textStart: SourceLocation { textLocation ?? location }
}

// MARK: - Access

extension Node {
  package var string: String? { if case .string(let s) = content { s } else { nil } }
  package var bool: Bool? { if case .bool(let b) = content { b } else { nil } }
  package var int: Int? {
    switch content {
    case .int(let i): i
    case .double(let d) where abs(d) < 9.0e15 && Double(Int(d)) == d: Int(d)
    default: nil
    }
  }
  package var number: Double? {
    switch content {
    case .int(let i): Double(i)
    case .double(let d): d
    default: nil
    }
  }
  package var sequence: [Node]? { if case .sequence(let s) = content { s } else { nil } }
  package var entries: [Entry]? { if case .mapping(let m) = content { m } else { nil } }
  package var isNull: Bool { content == .null }

  /// The value under `key` in a mapping, or nil.
  package subscript(key: String) -> Node? {
    guard case .mapping(let entries) = content else { return nil }
    guard let index = entries.firstIndex(ofKey: key) else { return nil }
    return entries[index].value
  }

  /// The entry under `key` in a mapping (to reach the key's own location), or nil.
  package func entry(_ key: String) -> Entry? {
    guard case .mapping(let entries) = content else { return nil }
    for index in entries.indices where entries[index].key == key { return entries[index] }
    return nil
  }

  /// A short name for the kind of value, as used in diagnostics ("a string", "a mapping").
  package var kindDescription: String {
    switch content {
    case .null: "null"
    case .bool: "a boolean"
    case .int: "an integer"
    case .double: "a number"
    case .string: "a string"
    case .sequence: "a list"
    case .mapping: "a mapping"
    }
  }
}

// MARK: - JSON data model equality

extension Node {
  /// Equality of the JSON values, ignoring positions and treating 1 and 1.0 as equal.
  package func jsonEquals(_ other: Node) -> Bool {
    switch (content, other.content) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.int, _), (.double, _):
      guard let a = number, let b = other.number else { return false }
      if case .int(let x) = content, case .int(let y) = other.content { return x == y }
      return a == b
    case (.sequence(let a), .sequence(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.jsonEquals($1) }
    case (.mapping(let a), .mapping(let b)):
      guard a.count == b.count else { return false }
      for entry in a {
        guard let match = b.first(where: { $0.key == entry.key }), match.value.jsonEquals(entry.value) else {
          return false
        }
      }
      return true
    default: return false
    }
  }
}

extension [Node.Entry] {
  /// The position of the entry with `key`, looked for by position (copying each entry out to compare its key cost
  /// more than the comparison) and by length first: reading a string's length is inline, and most keys of a
  /// mapping differ from the one sought in length (a flow compiler looks up a dozen names in each step's handful
  /// of keys; a validator, each required name).
  package func firstIndex(ofKey key: String) -> Int? {
    let length = key.utf8.count
    for index in indices where self[index].key.utf8.count == length && self[index].key == key { return index }
    return nil
  }

  /// Whether an entry has `key` (``firstIndex(ofKey:)``).
  package func contains(key: String) -> Bool { firstIndex(ofKey: key) != nil }
}
