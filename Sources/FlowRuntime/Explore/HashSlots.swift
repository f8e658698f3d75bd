internal import CMemoryHints

/// The hash table of the explorer's sets (``StateSet``, ``OutcomeTable``): open addressing over slots of 8 bytes,
/// each holding an id (low 32 bits) and the low 32 bits of its key's hash (high 32 bits). A probe compares
/// hashes without reading another array (the caller's key is read only when they agree), and growing places
/// each id again without reading its key or hash. The keys themselves are the caller's.
struct HashSlots {
  private(set) var slots: [UInt64]
  private var mask: Int
  private static let empty = UInt64.max

  /// A table with room for `capacity` ids at most half full.
  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Self.emptySlots(size)
    mask = size - 1
  }

  /// `count` empty slots. A table of 2 MB or more asks for huge pages before it is written: a probe lands at a
  /// random place, and with 4 kB pages nearly every probe of a large table also missed the address translation
  /// cache.
  private static func emptySlots(_ count: Int) -> [UInt64] {
    [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
      if count * MemoryLayout<UInt64>.stride >= 2 << 20 {
        flowkit_advise_huge_pages(buffer.baseAddress!, count * MemoryLayout<UInt64>.stride)
      }
      // Every byte of an empty slot is 0xFF: one memset.
      UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0xFF)
      initialized = count
    }
  }

  /// The id of the first entry with hash `hash` for which `isKey` holds, or else the slot where an id with that
  /// hash goes (``put(_:hash:at:)``).
  @inline(__always)
  func find(hash: Int, where isKey: (Int32) -> Bool) -> (id: Int32?, slot: Int) {
    let high = UInt64(truncatingIfNeeded: hash) << 32
    var slot = hash & mask
    while true {
      let entry = slots[slot]
      if entry == Self.empty { return (nil, slot) }
      let id = Int32(truncatingIfNeeded: entry)
      if entry & 0xFFFF_FFFF_0000_0000 == high && isKey(id) { return (id, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Asks for the slot where a probe for `hash` starts to be brought into the cache, for a probe soon after.
  @inline(__always)
  func prefetch(hash: Int) {
    slots.withUnsafeBufferPointer { flowkit_prefetch($0.baseAddress! + (hash & mask)) }
  }

  /// Puts `id` in `slot`, the free slot ``find(hash:where:)`` gave for `hash`, growing the table once more than
  /// half of it would be used (`count` ids, this one included).
  mutating func put(_ id: Int32, hash: Int, at slot: Int, count: Int) {
    slots[slot] = UInt64(truncatingIfNeeded: hash) << 32 | UInt64(UInt32(bitPattern: id))
    if count * 2 > slots.count { grow() }
  }

  /// Empties the table and places the ids `0..<count` again, with the hashes `hash` gives (after their keys
  /// changed).
  mutating func rebuild(count: Int, hash: (Int) -> Int) {
    slots = Self.emptySlots(slots.count)
    for id in 0..<count { place(UInt64(truncatingIfNeeded: hash(id)) << 32 | UInt64(id)) }
  }

  private mutating func grow() {
    let entries = slots
    slots = Self.emptySlots(slots.count * 2)
    mask = slots.count - 1
    for entry in entries where entry != Self.empty { place(entry) }
  }

  /// Puts `entry` in the first free slot from its hash's.
  private mutating func place(_ entry: UInt64) {
    // The table stays under 2³² slots, so the low 32 bits of a hash place it as the whole hash would.
    var slot = Int(entry >> 32) & mask
    while slots[slot] != Self.empty { slot = (slot + 1) & mask }
    slots[slot] = entry
  }
}
