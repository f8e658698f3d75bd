/// A hash set of fixed-width state keys stored back to back in one array: a state costs `width` words plus
/// about two table slots, with no per-state allocation. Ids are dense, in insertion order.
///
/// With `compact` (hash compaction, `flowrun explore --compact`) a state is kept as a 64-bit fingerprint of its
/// key instead of the key: 8 bytes whatever the flow, but two states with the same fingerprint count as one
/// (for n states the chance of any such pair is about n² / 2⁶⁵).
struct StateSet {
  let width: Int
  let compact: Bool
  /// The keys, `width` words each (empty when `compact`).
  private(set) var keys: [UInt32] = []
  /// The fingerprints (only when `compact`).
  private var fingerprints: [UInt64] = []
  private var slots: [Int32]
  private var mask: Int
  private(set) var count = 0

  init(width: Int, compact: Bool = false, capacity: Int = 1 << 12) {
    self.width = width
    self.compact = compact
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    mask = size - 1
  }

  /// Bytes the keys and the table need, from their counts (not the arrays' capacities, which depend on the
  /// allocator), so the same exploration always reports the same figure.
  var bytes: Int { keys.count * 4 + fingerprints.count * 8 + slots.count * 4 }

  /// The id of `key`, inserting it when new.
  mutating func insert(_ key: [UInt32]) -> (inserted: Bool, id: Int32) {
    if (count + 1) * 2 > slots.count { grow() }
    let hash = Self.hash(key[...])
    let fingerprint = UInt64(truncatingIfNeeded: hash)
    var slot = hash & mask
    let width = width
    while true {
      let id = slots[slot]
      if id < 0 {
        slots[slot] = Int32(count)
        if compact { fingerprints.append(fingerprint) } else { keys.append(contentsOf: key) }
        count += 1
        return (true, Int32(count - 1))
      }
      if compact {
        if fingerprints[Int(id)] == fingerprint { return (false, id) }
        slot = (slot + 1) & mask
        continue
      }
      let equal = keys.withUnsafeBufferPointer { stored in
        key.withUnsafeBufferPointer { wanted in
          let base = Int(id) * width
          for offset in 0..<width where stored[base + offset] != wanted[offset] { return false }
          return true
        }
      }
      if equal { return (false, id) }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    let size = slots.count * 2
    var fresh = [Int32](repeating: -1, count: size)
    let freshMask = size - 1
    for id in 0..<count {
      let hash =
        compact ? Int(truncatingIfNeeded: fingerprints[id]) : Self.hash(keys[(id * width)..<((id + 1) * width)])
      var slot = hash & freshMask
      while fresh[slot] >= 0 { slot = (slot + 1) & freshMask }
      fresh[slot] = Int32(id)
    }
    slots = fresh
    mask = freshMask
  }

  private static func hash(_ words: ArraySlice<UInt32>) -> Int {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15
    for word in words { h = (h ^ UInt64(word)) &* 0x100_0000_01B3 &+ 0x632B_E59B_D9B4_E019 }
    h ^= h >> 33
    h = h &* 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h = h &* 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return Int(truncatingIfNeeded: h)
  }
}
