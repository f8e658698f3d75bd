internal import CMemoryHints

/// A hash set of fixed-width state keys, each stored with its payload (the words the key leaves out) in one
/// packed array (``PackedRows``): a state costs about one byte per word and about two table slots of 8 bytes,
/// with no per-state allocation. Ids are dense, in insertion order. Only the key is compared; the payload kept is that of
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
  /// The ids by their keys' hashes (a row is read only when the hashes agree).
  private var table: HashSlots
  private(set) var count = 0
  /// `key` then `payload`, packed, for the insertion under way.
  private var packed: [UInt8] = []

  init(width: Int, payloadWidth: Int = 0, compact: Bool = false, capacity: Int = 1 << 12) {
    self.width = width
    self.payloadWidth = payloadWidth
    self.compact = compact
    rows = PackedRows(columns: compact ? 0 : width + payloadWidth, split: compact ? 0 : width)
    table = HashSlots(capacity: capacity)
  }

  /// Bytes the keys, payloads and the table need, from their counts (not the arrays' capacities, which depend on
  /// the allocator), so the same exploration always reports the same figure.
  var bytes: Int { rows.count * rows.rowBytes + fingerprints.count * 8 + table.slots.count * 8 }

  /// The id of the state with `key`, inserting it (with `payload`) when new. The key is packed first
  /// (``PackedRows``), then hashed and compared as packed bytes: a few 8-byte words rather than a word per column.
  mutating func insert(_ key: [UInt32], payload: [UInt32] = []) -> (inserted: Bool, id: Int32) {
    if compact { return insertFingerprint(of: key) }
    while true {
      let narrow = rows.packFirst(key, into: &packed)
      guard narrow >= 0 else { break }
      // No row holds a value this wide in that column, so the state is new; the column widens, which changes the
      // packed keys and so their hashes: the table is built again.
      rows.widen(narrow, for: key[narrow])
      table.rebuild(count: count) { rows.hashOfFirst(ofRow: $0) }
    }
    let hash = rows.hashOfFirst(packed)
    let (found, slot) = packed.withUnsafeBytes { packed in
      table.find(hash: hash) { rows.row(Int($0), hasFirst: packed) }
    }
    if let found { return (false, found) }
    if !rows.packSecond(payload, after: &packed) {
      // A payload column widened (the keys' bytes, before the payload's, did not change): packed again whole.
      rows.pack(key, payload, into: &packed)
    }
    packed.withUnsafeBytes { rows.append($0) }
    count += 1
    table.put(Int32(count - 1), hash: hash, at: slot, count: count)
    return (true, Int32(count - 1))
  }

  /// The packer of the set's rows as they are now (nil with `compact`): packing with it on another thread and
  /// inserting with ``insert(packed:hash:)`` is ``insert(_:payload:)``, as long as no column widened meanwhile
  /// (``packs(with:)``).
  var packer: PackedRows.Packer? { compact ? nil : rows.packer }

  /// Asks for the table slot of a key hashing to `hash` (a current ``packer``'s) to be brought into the cache,
  /// ahead of ``insert(packed:hash:)``.
  func prefetch(hash: Int) { table.prefetch(hash: hash) }

  /// Copies state `id`'s row, as a current ``packer`` packs it, into `row` (not with `compact`).
  func copy(_ id: Int32, into row: UnsafeMutableRawBufferPointer) { rows.copy(Int(id), into: row) }

  /// Whether state `id`'s stored key and payload are, packed, `row` (which a current ``packer`` packed).
  func state(_ id: Int32, is row: UnsafeRawBufferPointer) -> Bool { rows.row(Int(id), is: row) }

  /// Whether rows packed with `packer` are packed as the set packs them now.
  func packs(with packer: PackedRows.Packer) -> Bool { !compact && rows.widenings == packer.widenings }

  /// ``insert(_:payload:)`` of the row `row` a current ``packer`` packed, whose key hashed to `hash`.
  mutating func insert(packed row: UnsafeRawBufferPointer, hash: Int) -> (inserted: Bool, id: Int32) {
    let (found, slot) = table.find(hash: hash) { rows.row(Int($0), hasFirst: row) }
    if let found { return (false, found) }
    rows.append(row)
    count += 1
    table.put(Int32(count - 1), hash: hash, at: slot, count: count)
    return (true, Int32(count - 1))
  }

  /// ``insert(_:payload:)`` with `compact`: the key is its fingerprint.
  private mutating func insertFingerprint(of key: [UInt32]) -> (inserted: Bool, id: Int32) {
    let hash = Self.hash(key[...])
    let fingerprint = UInt64(truncatingIfNeeded: hash)
    let (found, slot) = table.find(hash: hash) { fingerprints[Int($0)] == fingerprint }
    if let found { return (false, found) }
    fingerprints.append(fingerprint)
    count += 1
    table.put(Int32(count - 1), hash: hash, at: slot, count: count)
    return (true, Int32(count - 1))
  }

  /// Word `column` of state `id`'s key (not with `compact`).
  func word(_ column: Int, of id: Int32) -> UInt32 { rows.word(column, ofRow: Int(id)) }

  /// Writes the key and payload of state `id` (not with `compact`). Inlined, as ``PackedRows/load(_:into:then:)``.
  @inline(__always)
  func load(_ id: Int, key: inout [UInt32], payload: inout [UInt32]) {
    rows.load(id, into: &key, then: &payload)
  }

  /// Copies the rows of the states `ids` into `target` (`ids.count` rows of ``packer``'s `rowBytes`; not with
  /// `compact`).
  func copyRows(_ ids: Range<Int>, into target: UnsafeMutableRawBufferPointer) { rows.copyRows(ids, into: target) }

  /// A hash of `words` (also the relaunch cache's, ``LaunchInputs``, and the transition cache's).
  static func hash(_ words: ArraySlice<UInt32>) -> Int {
    var hash = WordHash()
    for word in words { hash.add(word) }
    return hash.value
  }

  /// ``hash(_:)`` worked out word by word, as the words are written.
  struct WordHash {
    private var h: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    mutating func add(_ word: UInt32) { h = (h ^ UInt64(word)) &* 0x100_0000_01B3 &+ 0x632B_E59B_D9B4_E019 }

    var value: Int { finalMix(h) }
  }
}

/// The last step of the explorer's hashes (``StateSet/hash(_:)``, ``PackedRows``'): every bit of `h` reaches the
/// low bits that pick a table slot.
@inline(__always)
private func finalMix(_ h: UInt64) -> Int {
  var h = h
  h ^= h >> 33
  h = h &* 0xFF51_AFD7_ED55_8CCD
  h ^= h >> 33
  h = h &* 0xC4CE_B9FE_1A85_EC53
  h ^= h >> 33
  return Int(truncatingIfNeeded: h)
}

/// Rows of 32-bit words stored back to back, each column in 1, 2 or 4 bytes: as few as its largest value so far
/// needs (the words are interned ids, mostly small). A value too wide for its column widens the column and
/// repacks every row, which happens a few times per column at most. Rows can be dropped from the front (a queue).
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
  /// Columns widened so far: rows packed before one widened are not packed as rows are now.
  private(set) var widenings = 0
  private(set) var rowBytes: Int
  /// Rows per chunk. A chunk asks for huge pages, but gets them only where it spans a whole aligned 2 MB page: at
  /// anicca-v01's 36 bytes a row a chunk is about 1.1 MB and gets none (the hash table's do; see
  /// docs/benchmarks.md).
  static let rowsPerChunk = 1 << 15
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
  fileprivate struct Run {
    /// Whether the run is in the first part, and where its first column is in its part.
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
            inFirst: column < split, inPart: inPart, count: 1, width: widths[column], offset: offsets[column]))
      }
    }
    return runs
  }

  /// Packs `first` (``split`` columns) then `second` (the others) into `packed`, widening columns they do not fit
  /// in.
  mutating func pack(_ first: [UInt32], _ second: [UInt32], into packed: inout [UInt8]) {
    while true {
      var tooWide = packFirst(first, into: &packed)
      if tooWide < 0 {
        tooWide = packPart(second, first: false, into: &packed)
        if tooWide >= 0 { tooWide += split }
      }
      guard tooWide >= 0 else { return }
      widen(tooWide, for: tooWide < first.count ? first[tooWide] : second[tooWide - first.count])
    }
  }

  /// Packs `first` (``split`` words) into the first ``firstBytes`` bytes of `packed` (made ``rowBytes`` long);
  /// returns the first column too narrow for its value, or -1 when all fit.
  func packFirst(_ first: [UInt32], into packed: inout [UInt8]) -> Int {
    if packed.count != rowBytes { packed = Array(repeating: 0, count: rowBytes) }
    return packPart(first, first: true, into: &packed)
  }

  /// Packs `second` into `packed` after the first part ``packFirst(_:into:)`` packed there; false when a column
  /// had to widen (`packed` is then not a row: pack it again whole).
  mutating func packSecond(_ second: [UInt32], after packed: inout [UInt8]) -> Bool {
    let tooWide = packPart(second, first: false, into: &packed)
    guard tooWide >= 0 else { return true }
    widen(split + tooWide, for: second[tooWide])
    return false
  }

  /// Packs one part of a row (`first`: the first ``split`` columns, else the others) into `packed`.
  private func packPart(_ words: [UInt32], first: Bool, into packed: inout [UInt8]) -> Int {
    packed.withUnsafeMutableBufferPointer { out in
      runs.withUnsafeBufferPointer { runs in
        words.withUnsafeBufferPointer { words in
          Self.pack(words, first: first, runs: runs, into: out)
        }
      }
    }
  }

  /// Packs the columns of one part into `out`, run by run; the first column (within the part) too narrow for its
  /// value, or -1 when all fit.
  @inline(__always)
  fileprivate static func pack(
    _ words: UnsafeBufferPointer<UInt32>, first: Bool, runs: UnsafeBufferPointer<Run>,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    for run in runs where run.inFirst == first {
      let source = words.baseAddress! + run.inPart
      let target = out.baseAddress! + run.offset
      // A run is packed whole, its words' bits gathered on the way, and checked once at its end: a loop with no
      // exit the compiler turns into vector instructions. A value too wide is rare (a column widens a few times).
      switch run.width {
      case 1:
        var bits: UInt32 = 0
        for index in 0..<run.count {
          bits |= source[index]
          target[index] = UInt8(truncatingIfNeeded: source[index])
        }
        if bits > 0xFF { return run.inPart + (0..<run.count).first { source[$0] > 0xFF }! }
      case 2:
        var bits: UInt32 = 0
        for index in 0..<run.count {
          bits |= source[index]
          target[2 * index] = UInt8(truncatingIfNeeded: source[index])
          target[2 * index + 1] = UInt8(truncatingIfNeeded: source[index] >> 8)
        }
        if bits > 0xFFFF { return run.inPart + (0..<run.count).first { source[$0] > 0xFFFF }! }
      default:
        UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: run.count * 4)
      }
    }
    return -1
  }

  /// The bytes of a row's first part (its columns come first in a row).
  var firstBytes: Int { offsets[split] }

  /// A hash of the first part of the row packed in `packed`.
  func hashOfFirst(_ packed: [UInt8]) -> Int {
    packed.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[..<firstBytes])) }
  }

  /// A hash of the first part of row `row`, as ``hashOfFirst(_:)`` gives it.
  func hashOfFirst(ofRow row: Int) -> Int {
    let base = row % Self.rowsPerChunk * rowBytes
    return chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes {
      Self.hash(UnsafeRawBufferPointer(rebasing: $0[base..<(base + firstBytes)]))
    }
  }

  /// A hash of `bytes`, 8 at a time.
  fileprivate static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset + 8 <= bytes.count {
      h = (h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01B3
      h ^= h >> 29
      offset += 8
    }
    var last: UInt64 = 0
    if offset < bytes.count && bytes.count >= 8 {
      // The last 8 bytes, overlapping those hashed already: one load rather than a loop over the rest.
      last = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
    } else {
      var shift: UInt64 = 0
      while offset < bytes.count {
        last |= UInt64(bytes[offset]) << shift
        shift += 8
        offset += 1
      }
    }
    return finalMix((h ^ last) &* 0x100_0000_01B3)
  }

  /// What packing a row needs, without the rows: another thread packs rows with it while the rows grow, for as
  /// long as no column widens (``widenings``).
  struct Packer: Sendable {
    fileprivate let runs: [Run]
    /// Bytes per column, and where each column starts in a row (``PackedRows/widths``).
    fileprivate let widths: [Int]
    fileprivate let offsets: [Int]
    let rowBytes: Int
    let firstBytes: Int
    let widenings: Int

    /// Packs `key` then `payload` into `row` (``rowBytes`` long); returns the hash of the key's bytes, as
    /// ``hashOfFirst(_:)`` gives it, or nil when a value is too wide for its column.
    func pack(
      _ key: UnsafeBufferPointer<UInt32>, _ payload: UnsafeBufferPointer<UInt32>,
      into row: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
      runs.withUnsafeBufferPointer { runs in
        guard PackedRows.pack(key, first: true, runs: runs, into: row) < 0,
          PackedRows.pack(payload, first: false, runs: runs, into: row) < 0
        else { return nil }
        return hashOfKey(UnsafeRawBufferPointer(row))
      }
    }

    /// Grows `rows` to hold a row from byte `start` on: by half as many bytes again at least, so that the rows of
    /// many edges are not grown one at a time (through the generic append of a repeated element, byte by byte).
    /// `rows` may then be longer than the rows packed into it.
    func makeRoom(in rows: inout [UInt8], at start: Int) {
      if rows.count < start + rowBytes {
        rows += repeatElement(0, count: max(start + rowBytes - rows.count, rows.count / 2, 4 * rowBytes))
      }
    }

    /// ``pack(_:_:into:)`` into `rows` from byte `start` on (``makeRoom(in:at:)``).
    func pack(
      _ key: UnsafeBufferPointer<UInt32>, _ payload: UnsafeBufferPointer<UInt32>, into rows: inout [UInt8],
      at start: Int
    ) -> Int? {
      makeRoom(in: &rows, at: start)
      return rows.withUnsafeMutableBufferPointer {
        pack(key, payload, into: UnsafeMutableBufferPointer(rebasing: $0[start..<(start + rowBytes)]))
      }
    }

    /// Writes `word` over column `column` of `row`, which this packer packed; false when the word is too wide for
    /// the column (the row is then not one this packer packs).
    @inline(__always)
    func write(_ word: UInt32, column: Int, of row: UnsafeMutableRawBufferPointer) -> Bool {
      let offset = offsets[column]
      switch widths[column] {
      case 1:
        guard word <= 0xFF else { return false }
        row[offset] = UInt8(truncatingIfNeeded: word)
      case 2:
        guard word <= 0xFFFF else { return false }
        row.storeBytes(of: UInt16(truncatingIfNeeded: word).littleEndian, toByteOffset: offset, as: UInt16.self)
      default: row.storeBytes(of: word, toByteOffset: offset, as: UInt32.self)
      }
      return true
    }

    /// A copy whose arrays are its own. A thread packing with it changes no reference count another thread
    /// changes: the threads of `explore --jobs 2` packed every edge with one packer, whose arrays' counts (retained
    /// and released at each edge) the cores then passed back and forth.
    func unshared() -> Packer {
      Packer(
        runs: runs.unshared(), widths: widths.unshared(), offsets: offsets.unshared(), rowBytes: rowBytes,
        firstBytes: firstBytes, widenings: widenings)
    }

    /// The hash of the key of `row`, which this packer packed, as ``pack(_:_:into:)`` returns it.
    func hashOfKey(_ row: UnsafeRawBufferPointer) -> Int {
      PackedRows.hash(UnsafeRawBufferPointer(rebasing: row[..<firstBytes]))
    }

    /// Writes the key and payload of `row`, which this packer packed.
    func unpack(_ row: UnsafeRawBufferPointer, into key: inout [UInt32], _ payload: inout [UInt32]) {
      PackedRows.unpack(row, runs: runs, into: &key, &payload)
    }
  }

  var packer: Packer {
    Packer(
      runs: runs, widths: widths, offsets: offsets, rowBytes: rowBytes, firstBytes: firstBytes, widenings: widenings)
  }

  /// Copies row `row` into `target` (``rowBytes`` long).
  func copy(_ row: Int, into target: UnsafeMutableRawBufferPointer) {
    let base = row % Self.rowsPerChunk * rowBytes
    chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes {
      target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[base..<(base + rowBytes)]))
    }
  }

  /// Copies rows `rows` (none dropped) into `target`, back to back: a copy per chunk rather than per row.
  func copyRows(_ rows: Range<Int>, into target: UnsafeMutableRawBufferPointer) {
    var row = rows.lowerBound
    var written = 0
    while row < rows.upperBound {
      let inChunk = row % Self.rowsPerChunk
      let count = min(rows.upperBound - row, Self.rowsPerChunk - inChunk)
      chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes { stored in
        let bytes = count * rowBytes
        UnsafeMutableRawBufferPointer(rebasing: target[written..<(written + bytes)]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: stored[(inChunk * rowBytes)..<(inChunk * rowBytes + bytes)]))
        written += bytes
      }
      row += count
    }
  }

  /// Appends a row packed by ``pack(_:_:into:)`` (with the current widths).
  mutating func append(_ packed: UnsafeRawBufferPointer) {
    if count % Self.rowsPerChunk == 0 {
      // Room for the whole chunk, on huge pages where it spans some (as ``HashSlots``' table).
      chunks.append(
        [UInt8](unsafeUninitializedCapacity: Self.rowsPerChunk * rowBytes) { buffer, initialized in
          flowkit_advise_huge_pages(buffer.baseAddress!, buffer.count)
          initialized = 0
        })
    }
    chunks[chunks.count - 1].append(contentsOf: packed)
    count += 1
  }

  /// Whether row `row`'s first part is the one packed in `packed` (by ``packFirst(_:into:)``), compared 8 bytes at
  /// a time.
  func row(_ row: Int, hasFirst packed: UnsafeRawBufferPointer) -> Bool {
    let base = row % Self.rowsPerChunk * rowBytes
    let count = firstBytes
    return chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes { stored in
      var offset = 0
      while offset + 8 <= count {
        guard
          stored.loadUnaligned(fromByteOffset: base + offset, as: UInt64.self)
            == packed.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
      }
      while offset < count {
        guard stored[base + offset] == packed[offset] else { return false }
        offset += 1
      }
      return true
    }
  }

  /// Writes row `row`: its first ``split`` columns into `first`, the others into `second`. Inlined, with
  /// ``StateSet/load(_:key:payload:)`` and `Explorer.Exploring.waiting`: the exploring thread loads each waiting
  /// state so, and a call of its own (which the compiler chose once the loop over the waiting states looked for
  /// spare threads) cost the counters' exploration 1.1% more instructions (perf-guard).
  @inline(__always)
  func load(_ row: Int, into first: inout [UInt32], then second: inout [UInt32]) {
    let base = row % Self.rowsPerChunk * rowBytes
    chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes { stored in
      Self.unpack(UnsafeRawBufferPointer(rebasing: stored[base..<(base + rowBytes)]), runs: runs, into: &first, &second)
    }
  }

  /// Writes the packed row `row` (packed with `runs`): its first ``split`` columns into `first`, the others into
  /// `second`.
  fileprivate static func unpack(
    _ row: UnsafeRawBufferPointer, runs: [Run], into first: inout [UInt32], _ second: inout [UInt32]
  ) {
    let stored = row.bindMemory(to: UInt8.self)
    runs.withUnsafeBufferPointer { runs in
      first.withUnsafeMutableBufferPointer { first in
        second.withUnsafeMutableBufferPointer { second in
          for run in runs {
            let words = (run.inFirst ? first.baseAddress! : second.baseAddress!) + run.inPart
            let source = stored.baseAddress! + run.offset
            switch run.width {
            case 1:
              // Eight columns at a time as vectors, then the rest one by one.
              var index = 0
              while index + 8 <= run.count {
                let bytes = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(words + index).storeBytes(
                  of: SIMD8<UInt32>(truncatingIfNeeded: bytes), as: SIMD8<UInt32>.self)
                index += 8
              }
              while index < run.count {
                words[index] = UInt32(source[index])
                index += 1
              }
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

  /// Column `column` of row `row`.
  func word(_ column: Int, ofRow row: Int) -> UInt32 {
    let base = row % Self.rowsPerChunk * rowBytes
    return chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBufferPointer {
      Self.read($0, at: base + offsets[column], width: widths[column])
    }
  }

  /// Whether row `row` is, byte for byte, the packed row `packed` (its key and its payload).
  func row(_ row: Int, is packed: UnsafeRawBufferPointer) -> Bool {
    let base = row % Self.rowsPerChunk * rowBytes
    return chunks[row / Self.rowsPerChunk - firstChunk].withUnsafeBytes { stored in
      UnsafeRawBufferPointer(rebasing: stored[base..<(base + rowBytes)]).elementsEqual(packed)
    }
  }

  /// Drops the chunks of rows all before `row` (they are never read again).
  mutating func dropRows(before row: Int) {
    let drop = row / Self.rowsPerChunk - firstChunk
    guard drop > 0 else { return }
    chunks.removeFirst(drop)
    firstChunk += drop
  }

  /// Widens column `column` to fit `word`, repacking every row.
  mutating func widen(_ column: Int, for word: UInt32) {
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
    widenings += 1
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
