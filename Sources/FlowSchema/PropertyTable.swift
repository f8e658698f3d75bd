/// A schema's `properties`: names to subschemas. The validator looks up every key of every mapping it checks
/// against a schema with `properties` (a flow of 10,000 steps, about 140,000 look-ups); a `Dictionary` hashed
/// each key with SipHash and cost about 350 instructions a look-up, a fifth of the validation.
///
/// Open addressing over a power-of-two table at most half full, with the FNV-1a hash of a name's UTF-8 bytes.
/// The names come from the schema, not from the document: a key a document chooses to collide can only walk the
/// table's longest run of filled slots, which the schema fixes.
struct PropertyTable: Sendable, Sequence {
  /// The names and their subschemas, in the order they were added.
  private(set) var keys: [String] = []
  private var schemas: [Int] = []
  /// One more than a position in `keys`, by hash; 0 for an empty slot.
  private var slots: [Int32] = []

  init() {}

  var isEmpty: Bool { keys.isEmpty }

  mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    schemas.reserveCapacity(count)
    if slots.count < count * 2 { rebuild(slotCount: Self.slotCount(for: count)) }
  }

  subscript(name: String) -> Int? {
    get {
      guard !slots.isEmpty else { return nil }
      let slot = find(name)
      return slots[slot] == 0 ? nil : schemas[Int(slots[slot]) - 1]
    }
    set {
      guard let newValue else { preconditionFailure("a property table only gains names") }
      if slots.count < (keys.count + 1) * 2 { rebuild(slotCount: Self.slotCount(for: keys.count + 1)) }
      let slot = find(name)
      if slots[slot] != 0 {
        schemas[Int(slots[slot]) - 1] = newValue
        return
      }
      keys.append(name)
      schemas.append(newValue)
      slots[slot] = Int32(keys.count)
    }
  }

  func makeIterator() -> some IteratorProtocol<(key: String, value: Int)> {
    zip(keys, schemas).lazy.map { (key: $0, value: $1) }.makeIterator()
  }

  /// The slot holding `name`, or the empty slot where it would go.
  private func find(_ name: String) -> Int {
    let mask = slots.count - 1
    var slot = Self.hash(name) & mask
    while slots[slot] != 0 && keys[Int(slots[slot]) - 1] != name { slot = (slot + 1) & mask }
    return slot
  }

  private mutating func rebuild(slotCount: Int) {
    slots = Array(repeating: 0, count: slotCount)
    for (position, name) in keys.enumerated() { slots[find(name)] = Int32(position + 1) }
  }

  /// The smallest power of two at least twice `count` (and at least 8).
  private static func slotCount(for count: Int) -> Int {
    var slots = 8
    while slots < count * 2 { slots *= 2 }
    return slots
  }

  /// FNV-1a over the name's UTF-8 bytes, read in place (a name of up to 15 bytes is stored inside its `String`).
  static func hash(_ name: String) -> Int {
    func fnv(_ bytes: some Sequence<UInt8>) -> Int {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
    return name.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(name.utf8)
  }
}
