/// The entries of a mapping while a reader (JSON or YAML) reads it. Each new key is looked up among the earlier
/// ones so that a duplicate is refused where it stands, in time linear in the mapping's size: a scan while the
/// mapping is small, a hash index from 12 entries on.
package struct MappingEntries {
  package private(set) var entries: [Node.Entry] = []
  /// Key → position in `entries`; built once the mapping is large enough for a scan to cost more.
  private var index: [String: Int] = [:]

  package init() {}

  package var isEmpty: Bool { entries.isEmpty }

  /// Throws `duplicateKey` at `location` when the mapping already has `key`, naming where it first stood.
  package mutating func refuseDuplicate(_ key: String, at location: SourceLocation, file: String) throws(LoadError) {
    guard let first = firstIndex(of: key) else { return }
    throw LoadError(
      .duplicateKey, "duplicate key '\(key)' (first defined at \(entries[first].keyLocation))", file: file,
      at: location)
  }

  /// Adds `entry`, taken over rather than copied (each copy of an entry retains its key and value).
  package mutating func append(_ entry: consuming Node.Entry) {
    // Most mappings have a few entries: room for 4 at once saves growing the array from 1 to 2 to 4.
    if entries.isEmpty { entries.reserveCapacity(4) }
    if !index.isEmpty { index[entry.key] = entries.count }
    entries.append(entry)
  }

  private mutating func firstIndex(of key: String) -> Int? {
    if !index.isEmpty { return index[key] }
    if entries.count < 12 { return entries.firstIndex(ofKey: key) }
    index.reserveCapacity(entries.count * 2)
    for i in entries.indices { index[entries[i].key] = i }
    return index[key]
  }
}
