/// A hash set of fixed-width state keys, each stored with its payload (the words the key leaves out) in one
/// packed array (``PackedRows``): a state costs about one byte per word, 4 bytes of its hash and about two table
/// slots, with no per-state allocation. Ids are dense, in insertion order. Only the key is compared; the payload kept is that of
/// the first state inserted with the key.
///
/// With `compact` (hash compaction, `flowrun explore --compact`) a state is kept as a 64-bit fingerprint of its
/// key instead of the key: 8 bytes whatever the flow, but two states with the same fingerprint count as one
/// (for n states the chance of any such pair is about n² / 2⁶⁵). The set then keeps no payloads either.
struct StateSet {
  let width: Int
  let payloadWidth: Int
  let compact: Bool
  /// The keys and payloads (no rows when `compact`).
  private(set) var rows: PackedRows
  /// The fingerprints (only when `compact`).
  private var fingerprints: [UInt64] = []
  /// The low 32 bits of each key's hash (not when `compact`): a probe compares them before the row, and growing
  /// the table places each id by them without reading its row again.
  private var hashes: [UInt32] = []
  private var slots: [Int32]
  private var mask: Int
  private(set) var count = 0
  /// `key` then `payload`, packed, for the insertion under way.
  private var packed: [UInt8] = []

  init(width: Int, payloadWidth: Int = 0, compact: Bool = false, capacity: Int = 1 << 12) {
    self.width = width
    self.payloadWidth = payloadWidth
    self.compact = compact
    rows = PackedRows(columns: compact ? 0 : width + payloadWidth, split: compact ? 0 : width)
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    mask = size - 1
  }

  /// Bytes the keys, payloads and the table need, from their counts (not the arrays' capacities, which depend on
  /// the allocator), so the same exploration always reports the same figure.
  var bytes: Int { rows.count * rows.rowBytes + fingerprints.count * 8 + hashes.count * 4 + slots.count * 4 }

  /// The id of the state with `key`, inserting it (with `payload`) when new.
  mutating func insert(_ key: [UInt32], payload: [UInt32] = []) -> (inserted: Bool, id: Int32) {
    if (count + 1) * 2 > slots.count { grow() }
    let hash = Self.hash(key[...])
    let fingerprint = UInt64(truncatingIfNeeded: hash)
    let low = UInt32(truncatingIfNeeded: hash)
    var slot = hash & mask
    while true {
      let id = slots[slot]
      if id < 0 {
        slots[slot] = Int32(count)
        if compact {
          fingerprints.append(fingerprint)
        } else {
          // Packed only when new: most insertions find the state there (its key is compared unpacked).
          rows.pack(key, payload, into: &packed)
          rows.append(packed)
          hashes.append(low)
        }
        count += 1
        return (true, Int32(count - 1))
      }
      if compact {
        if fingerprints[Int(id)] == fingerprint { return (false, id) }
      } else if hashes[Int(id)] == low && rows.row(Int(id), hasKey: key) {
        return (false, id)
      }
      slot = (slot + 1) & mask
    }
  }

  /// Writes the key and payload of state `id` (not with `compact`).
  func load(_ id: Int, key: inout [UInt32], payload: inout [UInt32]) {
    rows.load(id, into: &key, then: &payload)
  }

  private mutating func grow() {
    let size = slots.count * 2
    var fresh = [Int32](repeating: -1, count: size)
    let freshMask = size - 1
    for id in 0..<count {
      // The table stays under 2³² slots, so the low 32 bits of a hash place it as the whole hash would.
      let hash = compact ? Int(truncatingIfNeeded: fingerprints[id]) : Int(hashes[id])
      var slot = hash & freshMask
      while fresh[slot] >= 0 { slot = (slot + 1) & freshMask }
      fresh[slot] = Int32(id)
    }
    slots = fresh
    mask = freshMask
  }

  /// A hash of `words` (also the relaunch cache's, ``LaunchInputs``).
  static func hash(_ words: ArraySlice<UInt32>) -> Int {
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

/// Rows of 32-bit words stored back to back, each column in 1, 2 or 4 bytes: as few as its largest value so far
/// needs (the words are interned ids, mostly small). A value too wide for its column widens the column and
/// repacks every row, which happens a few times per column at most. Rows can be firstRow from the front (a queue).
struct PackedRows {
  let columns: Int
  /// The columns of a row's first part (the key): ``pack(_:_:into:)`` and ``load(_:into:then:)`` take a row as two
  /// arrays, this many columns and the rest.
  let split: Int
  /// Bytes per column, and where each column starts in a row.
  private(set) var widths: [Int]
  private var offsets: [Int]
  /// The columns as runs of one width within one part, so that packing and loading a row go run by run (a tight
  /// loop, or a copy for 4-byte columns) rather than column by column.
  private var runs: [Run] = []
  private(set) var rowBytes: Int
  static let rowsPerChunk = 4_096
  /// The chunks not dropped: row `i` is in `chunks[i / rowsPerChunk - firstChunk]`.
  private var chunks: [[UInt8]] = []
  private var firstChunk = 0
  /// Rows appended (including those dropped).
  private(set) var count = 0

  init(columns: Int, split: Int) {
    self.columns = columns
    self.split = split
    widths = Array(repeating: 1, count: columns)
    offsets = Array(0...columns)
    rowBytes = columns
    runs = Self.runs(widths: widths, offsets: offsets, split: split)
  }

  /// Consecutive columns of one width in one part of a row.
  private struct Run {
    /// The run's first column, whether it is in the first part, and where it is in its part.
    var column: Int
    var inFirst: Bool
    var inPart: Int
    var count: Int
    var width: Int
    /// Where the run starts in a packed row.
    var offset: Int
  }

  private static func runs(widths: [Int], offsets: [Int], split: Int) -> [Run] {
    var runs: [Run] = []
    for column in widths.indices {
      if let last = runs.last, last.width == widths[column], column != split {
        runs[runs.count - 1].count += 1
      } else {
        let inPart = column < split ? column : column - split
        runs.append(
          Run(
            column: column, inFirst: column < split, inPart: inPart, count: 1, width: widths[column],
            offset: offsets[column]))
      }
    }
    return runs
  }

  /// Packs `first` (``split`` columns) then `second` (the others) into `packed`, widening columns they do not fit
  /// in.
  mutating func pack(_ first: [UInt32], _ second: [UInt32], into packed: inout [UInt8]) {
    if packed.count != rowBytes { packed = Array(repeating: 0, count: rowBytes) }
    let tooWide = packed.withUnsafeMutableBufferPointer { out in
      runs.withUnsafeBufferPointer { runs in
        first.withUnsafeBufferPointer { first in
          second.withUnsafeBufferPointer { second in
            Self.pack(first, second, runs: runs, into: out)
          }
        }
      }
    }
    if tooWide >= 0 {
      widen(tooWide, for: tooWide < first.count ? first[tooWide] : second[tooWide - first.count])
      pack(first, second, into: &packed)
    }
  }

  /// Packs the columns into `out`, run by run; the first column too narrow for its value, or -1 when all fit.
  @inline(__always)
  private static func pack(
    _ first: UnsafeBufferPointer<UInt32>, _ second: UnsafeBufferPointer<UInt32>, runs: UnsafeBufferPointer<Run>,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    for run in runs {
      let words = (run.inFirst ? first.baseAddress! : second.baseAddress!) + run.inPart
      let target = out.baseAddress! + run.offset
      switch run.width {
      case 1:
        for index in 0..<run.count {
          let word = words[index]
          guard word <= 0xFF else { return run.column + index }
          target[index] = UInt8(truncatingIfNeeded: word)
        }
      case 2:
        for index in 0..<run.count {
          let word = words[index]
          guard word <= 0xFFFF else { return run.column + index }
          target[2 * index] = UInt8(truncatingIfNeeded: word)
          target[2 * index + 1] = UInt8(truncatingIfNeeded: word >> 8)
        }
      default:
        UnsafeMutableRawPointer(target).copyMemory(from: words, byteCount: run.count * 4)
      }
    }
    return -1
  }

  /// Appends a row packed by ``pack(_:_:into:)`` (with the current widths).
  mutating func append(_ packed: [UInt8]) {
    if count % Self.rowsPerChunk == 0 {
      var chunk: [UInt8] = []
      chunk.reserveCapacity(Self.rowsPerChunk * rowBytes)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(contentsOf: packed)
    count += 1
  }

  /// Whether row `row`'s first ``split`` columns hold `key` (``split`` words), compared run by run without
  /// packing `key`.
  func row(_ row: Int, hasKey key: [UInt32]) -> Bool {
    let base = row % Self.rowsPerChunk * rowBytes
    return chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBufferPointer { stored in
      runs.withUnsafeBufferPointer { runs in
        key.withUnsafeBufferPointer { key in
          // The first part's runs come first.
          for run in runs {
            guard run.inFirst else { break }
            let words = key.baseAddress! + run.inPart
            let source = stored.baseAddress! + base + run.offset
            switch run.width {
            case 1:
              for index in 0..<run.count where UInt32(source[index]) != words[index] { return false }
            case 2:
              for index in 0..<run.count
              where UInt32(source[2 * index]) | UInt32(source[2 * index + 1]) << 8 != words[index] {
                return false
              }
            default:
              for index in 0..<run.count
              where UnsafeRawPointer(source + 4 * index).loadUnaligned(as: UInt32.self) != words[index] {
                return false
              }
            }
          }
          return true
        }
      }
    }
  }

  /// Writes row `row`: its first ``split`` columns into `first`, the others into `second`.
  func load(_ row: Int, into first: inout [UInt32], then second: inout [UInt32]) {
    let base = row % Self.rowsPerChunk * rowBytes
    chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBufferPointer { stored in
      runs.withUnsafeBufferPointer { runs in
        first.withUnsafeMutableBufferPointer { first in
          second.withUnsafeMutableBufferPointer { second in
            for run in runs {
              let words = (run.inFirst ? first.baseAddress! : second.baseAddress!) + run.inPart
              let source = stored.baseAddress! + base + run.offset
              switch run.width {
              case 1:
                for index in 0..<run.count { words[index] = UInt32(source[index]) }
              case 2:
                for index in 0..<run.count {
                  words[index] = UInt32(source[2 * index]) | UInt32(source[2 * index + 1]) << 8
                }
              default:
                UnsafeMutableRawPointer(words).copyMemory(from: source, byteCount: run.count * 4)
              }
            }
          }
        }
      }
    }
  }

  /// Drops the chunks of rows all before `row` (they are never read again).
  mutating func dropRows(before row: Int) {
    let drop = row / Self.rowsPerChunk - firstChunk
    guard drop > 0 else { return }
    chunks.removeFirst(drop)
    firstChunk += drop
  }

  private mutating func widen(_ column: Int, for word: UInt32) {
    let width = word > 0xFFFF ? 4 : 2
    var newWidths = widths
    newWidths[column] = width
    var newOffsets = [0]
    for width in newWidths { newOffsets.append(newOffsets[newOffsets.count - 1] + width) }
    let newRowBytes = newOffsets[columns]
    for index in chunks.indices {
      let rows = chunks[index].count / rowBytes
      var fresh = [UInt8](repeating: 0, count: rows * newRowBytes)
      fresh.reserveCapacity(Self.rowsPerChunk * newRowBytes)
      chunks[index].withUnsafeBufferPointer { stored in
        fresh.withUnsafeMutableBufferPointer { out in
          for row in 0..<rows {
            for column in 0..<columns {
              let word = Self.read(stored, at: row * rowBytes + offsets[column], width: widths[column])
              Self.write(word, width: newWidths[column], to: out, at: row * newRowBytes + newOffsets[column])
            }
          }
        }
      }
      chunks[index] = fresh
    }
    widths = newWidths
    offsets = newOffsets
    rowBytes = newRowBytes
    runs = Self.runs(widths: widths, offsets: offsets, split: split)
  }

  @inline(__always)
  private static func read(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> UInt32 {
    switch width {
    case 1: UInt32(bytes[offset])
    case 2: UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
    default: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt32.self)
    }
  }

  @inline(__always)
  private static func write(_ word: UInt32, width: Int, to bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
    switch width {
    case 1: bytes[offset] = UInt8(truncatingIfNeeded: word)
    case 2:
      bytes[offset] = UInt8(truncatingIfNeeded: word)
      bytes[offset + 1] = UInt8(truncatingIfNeeded: word >> 8)
    default: UnsafeMutableRawPointer(bytes.baseAddress! + offset).storeBytes(of: word, as: UInt32.self)
    }
  }
}
