/// The entries of a mapping while a reader (JSON or YAML) reads it. Each new key is looked up among the earlier
/// ones so that a duplicate is refused where it stands, in time linear in the mapping's size: a scan while the
/// mapping is small, a hash index from 12 entries on.
///
/// A reader calls ``refuseDuplicate(_:at:file:)`` with each key, then ``append(_:)`` with the entry of that key.
package struct MappingEntries {
  package private(set) var entries: [Node.Entry] = []
  /// Key → position in `entries`; built once the mapping is large enough for a scan to cost more. It holds the
  /// key `refuseDuplicate` accepted last too, at the position `append` gives its entry.
  private var index: [String: Int] = [:]

  package init() {}

  package var isEmpty: Bool { entries.isEmpty }

  /// Throws `duplicateKey` at `location` when the mapping already has `key`, naming where it first stood.
  package mutating func refuseDuplicate(_ key: String, at location: SourceLocation, file: String) throws(LoadError) {
    guard let first = claim(key) else { return }
    throw LoadError(
      .duplicateKey, "duplicate key '\(key)' (first defined at \(entries[first].keyLocation))", file: file,
      at: location)
  }

  /// Adds the entry of the key ``refuseDuplicate(_:at:file:)`` accepted last, taken over rather than copied (each
  /// copy of an entry retains its key and value).
  package mutating func append(_ entry: consuming Node.Entry) {
    assert(index.isEmpty || index[entry.key] == entries.count, "append follows refuseDuplicate for its key")
    // Most mappings have a few entries: room for 4 at once saves growing the array from 1 to 2 to 4.
    if entries.isEmpty { entries.reserveCapacity(4) }
    entries.append(entry)
  }

  /// The position of `key` among the earlier keys; nil when it is new, and then, once the index is built, the key
  /// is in it at the position its entry will take (one hash look-up for both).
  private mutating func claim(_ key: String) -> Int? {
    if index.isEmpty {
      if entries.count < 12 { return entries.firstIndex(ofKey: key) }
      index.reserveCapacity(entries.count * 2)
      for i in entries.indices { index[entries[i].key] = i }
    }
    return Self.claim(&index[key, default: -1], for: entries.count)
  }

  /// `position` noted in `slot` when the slot is new (-1), else the position it holds.
  private static func claim(_ slot: inout Int, for position: Int) -> Int? {
    guard slot < 0 else { return slot }
    slot = position
    return nil
  }
}
