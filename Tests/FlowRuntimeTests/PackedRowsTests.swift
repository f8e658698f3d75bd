import Testing

@testable import FlowRuntime

/// The explorer's state storage: rows packed column by column in as few bytes as their values need, read back
/// run by run (``PackedRows``), and the hash set of keys over them (``StateSet``).
struct PackedRowsTests {
  /// Row `row`'s words: small values in most columns, a column that needs 2 bytes after row 100 and one that needs
  /// 4 after row 200 (in the payload), so columns widen while rows are stored and runs change width inside a part.
  static func words(_ row: Int) -> (key: [UInt32], payload: [UInt32]) {
    let n = UInt32(row)
    let key: [UInt32] = [n % 7, row > 100 ? 300 + n : n % 200, n % 250, n / 3 % 255]
    let payload: [UInt32] = [row > 200 ? 70_000 + n : 1, n % 2, row > 150 ? 65_535 : 9]
    return (key, payload)
  }

  @Test func rowsReadBackAsWrittenWhileColumnsWiden() {
    var rows = PackedRows(columns: 7, split: 4)
    var packed: [UInt8] = []
    let count = PackedRows.rowsPerChunk + 300
    for row in 0..<count {
      let (key, payload) = Self.words(row)
      rows.pack(key, payload, into: &packed)
      packed.withUnsafeBytes { rows.append($0) }
    }
    #expect(rows.widths == [1, 2, 1, 1, 4, 1, 2])
    var key = [UInt32](repeating: 0, count: 4)
    var payload = [UInt32](repeating: 0, count: 3)
    for row in 0..<count {
      rows.load(row, into: &key, then: &payload)
      #expect(key == Self.words(row).key && payload == Self.words(row).payload, "row \(row)")
    }
  }

  /// A row's key compared packed (``PackedRows/row(_:hasFirst:)``), in columns of 1, 2 and 4 bytes and over more
  /// than 8 bytes: its own key matches; a key with any one word changed does not, and one with a value too wide
  /// for its column does not pack (``PackedRows/packFirst(_:into:)`` names the column).
  @Test func aRowHasItsOwnKeyAndNoOther() {
    var rows = PackedRows(columns: 7, split: 6)
    var packed: [UInt8] = []
    let keys: [[UInt32]] = (0..<50).map { n in
      [UInt32(n), 1_000 + UInt32(n), 100_000 + UInt32(n), 7, UInt32(n) % 3, 200]
    }
    for key in keys {
      rows.pack(key, [UInt32(9)], into: &packed)
      packed.withUnsafeBytes { rows.append($0) }
    }
    #expect(rows.widths == [1, 2, 4, 1, 1, 1, 1])
    #expect(rows.firstBytes == 10)
    for (row, key) in keys.enumerated() {
      #expect(rows.packFirst(key, into: &packed) == -1)
      #expect(packed.withUnsafeBytes { rows.row(row, hasFirst: $0) }, "row \(row)")
      #expect(rows.hashOfFirst(packed) == rows.hashOfFirst(ofRow: row), "row \(row)")
      for column in key.indices {
        for changed in [key[column] + 1, key[column] + (1 << 8), key[column] + (1 << 16), key[column] + (1 << 31)] {
          var other = key
          other[column] = changed
          let tooWide = rows.packFirst(other, into: &packed)
          if tooWide >= 0 {
            #expect(tooWide == column && changed > [0xFF, 0xFFFF, 0xFFFF_FFFF][rows.widths[column] / 2])
          } else {
            let matches = packed.withUnsafeBytes { rows.row(row, hasFirst: $0) }
            #expect(!matches, "row \(row), column \(column) as \(changed)")
          }
        }
      }
    }
  }

  @Test func aStateSetKnowsEachKeyOnceAndKeepsItsFirstPayload() {
    var set = StateSet(width: 4, payloadWidth: 3, capacity: 16)
    let count = 5_000
    for row in 0..<count {
      let (key, payload) = Self.words(row)
      #expect(set.insert(key, payload: payload) == (true, Int32(row)), "row \(row)")
    }
    for row in stride(from: 0, to: count, by: 7) {
      let (key, _) = Self.words(row)
      #expect(set.insert(key, payload: [0, 0, 0]) == (false, Int32(row)), "row \(row) again")
    }
    #expect(set.count == count)
    var key = [UInt32](repeating: 0, count: 4)
    var payload = [UInt32](repeating: 0, count: 3)
    for row in 0..<count {
      set.load(row, key: &key, payload: &payload)
      #expect(key == Self.words(row).key && payload == Self.words(row).payload, "row \(row)")
    }
  }

  /// A packer (``PackedRows/Packer``) packs a row as the rows it was taken from do, with the hash of its key, and
  /// reads it back; it refuses a value too wide for its columns, and is stale once one of theirs widened. A state
  /// set takes the rows it packed (``StateSet/insert(packed:hash:)``) as it takes keys and payloads.
  @Test func aPackerPacksAsItsRowsDidUntilAColumnWidens() {
    var set = StateSet(width: 4, payloadWidth: 3, capacity: 16)
    var packed: [UInt8] = []
    var key = [UInt32](repeating: 0, count: 4)
    var payload = [UInt32](repeating: 0, count: 3)
    // Rows 0..<100 fit in one byte a column: a packer taken then packs them all.
    for row in 0..<50 {
      let (key, payload) = Self.words(row)
      #expect(set.insert(key, payload: payload) == (true, Int32(row)))
    }
    let packer = set.packer!
    #expect(packer.rowBytes == 7 && set.packs(with: packer))
    var row = [UInt8](repeating: 0, count: packer.rowBytes)
    for n in 0..<100 {
      let words = Self.words(n)
      let hash = words.key.withUnsafeBufferPointer { key in
        words.payload.withUnsafeBufferPointer { payload in
          row.withUnsafeMutableBufferPointer { packer.pack(key, payload, into: $0) }
        }
      }
      var rows = PackedRows(columns: 7, split: 4)
      rows.pack(words.key, words.payload, into: &packed)
      #expect(row == packed && hash == rows.hashOfFirst(packed), "row \(n)")
      row.withUnsafeBytes { packer.unpack($0, into: &key, &payload) }
      #expect(key == words.key && payload == words.payload, "row \(n)")
      let inserted = row.withUnsafeBytes { set.insert(packed: $0, hash: hash!) }
      #expect(inserted == (n >= 50, Int32(n)), "row \(n)")
      #expect(row.withUnsafeBytes { set.state(Int32(n), is: $0) }, "row \(n)")
      #expect(!row.withUnsafeBytes { set.state(Int32((n + 1) % 50), is: $0) }, "row \(n)")
    }
    // Row 101 needs 2 bytes in the key's second column: the packer refuses it, and once the set has taken it
    // (widening the column) the packer no longer packs as the set does.
    let wide = Self.words(101)
    let refused = wide.key.withUnsafeBufferPointer { key in
      wide.payload.withUnsafeBufferPointer { payload in
        row.withUnsafeMutableBufferPointer { packer.pack(key, payload, into: $0) }
      }
    }
    #expect(refused == nil)
    #expect(set.insert(wide.key, payload: wide.payload) == (true, 100))
    #expect(!set.packs(with: packer) && set.packs(with: set.packer!) && set.packer!.rowBytes == 8)
    set.load(7, key: &key, payload: &payload)
    #expect(key == Self.words(7).key && payload == Self.words(7).payload)
    // With --compact there are no rows to pack.
    #expect(StateSet(width: 4, compact: true).packer == nil)
  }

  /// A word written over a packed row (``PackedRows/Packer/write(_:column:of:)``, as the explorer makes a reused
  /// move's successor from its state's row, copied out of the set with ``StateSet/copy(_:into:)``) gives the row
  /// that packing the changed words gives, with the same hash of its key, in columns of 1, 2 and 4 bytes, key and
  /// payload; a word too wide for its column is refused.
  @Test func aWordWrittenOverAPackedRowIsTheRowOfTheChangedWords() {
    var set = StateSet(width: 4, payloadWidth: 3, capacity: 16)
    for n in [0, 101, 201] {
      let (key, payload) = Self.words(n)
      _ = set.insert(key, payload: payload)
    }
    let packer = set.packer!
    #expect(set.rows.widths == [1, 2, 1, 1, 4, 1, 2])
    let limits: [UInt32] = [0xFF, 0xFFFF, 0xFF, 0xFF, 0xFFFF_FFFF, 0xFF, 0xFFFF]
    for id in 0..<3 {
      for column in 0..<7 {
        for word in [0, 1, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0xFFFF_FFFF] as [UInt32] {
          var row = [UInt8](repeating: 0, count: packer.rowBytes)
          row.withUnsafeMutableBytes { set.copy(Int32(id), into: $0) }
          let fits = row.withUnsafeMutableBytes { packer.write(word, column: column, of: $0) }
          #expect(fits == (word <= limits[column]), "state \(id), column \(column), word \(word)")
          guard fits else { continue }
          var (key, payload) = Self.words([0, 101, 201][id])
          if column < 4 { key[column] = word } else { payload[column - 4] = word }
          var packed = [UInt8](repeating: 0, count: packer.rowBytes)
          let hash = key.withUnsafeBufferPointer { key in
            payload.withUnsafeBufferPointer { payload in
              packed.withUnsafeMutableBufferPointer { packer.pack(key, payload, into: $0) }
            }
          }
          #expect(row == packed, "state \(id), column \(column), word \(word)")
          #expect(row.withUnsafeBytes { packer.hashOfKey($0) } == hash, "state \(id), column \(column), word \(word)")
        }
      }
    }
  }

  /// Rows packed one after another into one array (``PackedRows/Packer/pack(_:_:into:at:)``, as a thread's piece
  /// and the edges waiting to be taken do): the array grows ahead of the rows, by more than a row at a time; a row
  /// with a value too wide is refused, and the next row packed at the same place overwrites what it left there.
  @Test func rowsPackedEndToEndIntoOneGrowingArrayReadBackAsPacked() {
    var set = StateSet(width: 4, payloadWidth: 3, capacity: 16)
    let (firstKey, firstPayload) = Self.words(0)
    _ = set.insert(firstKey, payload: firstPayload)
    let packer = set.packer!
    var rows: [UInt8] = []
    var end = 0
    var hashes: [Int] = []
    var packedWords: [(key: [UInt32], payload: [UInt32])] = []
    var sizes: Set<Int> = []
    for n in 0..<300 {
      // Rows 101 on need 2 bytes in the key's second column: refused, with nothing kept.
      let words = Self.words(n)
      let hash = words.key.withUnsafeBufferPointer { key in
        words.payload.withUnsafeBufferPointer { packer.pack(key, $0, into: &rows, at: end) }
      }
      sizes.insert(rows.count)
      #expect((hash == nil) == (n > 100), "row \(n)")
      guard let hash else { continue }
      end += packer.rowBytes
      hashes.append(hash)
      packedWords.append(words)
    }
    #expect(end == 101 * packer.rowBytes && rows.count >= end)
    // Grown a few times, not once per row.
    #expect(sizes.count < 12, "\(sizes.sorted())")
    var key = [UInt32](repeating: 0, count: 4)
    var payload = [UInt32](repeating: 0, count: 3)
    rows.withUnsafeBytes { rows in
      for (index, words) in packedWords.enumerated() {
        let row = UnsafeRawBufferPointer(rebasing: rows[(index * packer.rowBytes)..<((index + 1) * packer.rowBytes)])
        packer.unpack(row, into: &key, &payload)
        #expect(key == words.key && payload == words.payload, "row \(index)")
        var alone = PackedRows(columns: 7, split: 4)
        var packed: [UInt8] = []
        alone.pack(words.key, words.payload, into: &packed)
        #expect(Array(row) == packed && hashes[index] == alone.hashOfFirst(packed), "row \(index)")
      }
    }
  }

  /// The explorer's hash table (``HashSlots``) with hashes that collide: ids whose hashes share their low bits
  /// (one probe run), ids whose hashes agree in all 32 bits a slot keeps (told apart by the caller's key), and
  /// growth past several doublings. Each id is found by its own hash and key, and a key never put is not.
  @Test func hashSlotsFindEveryIdThroughCollisionsAndGrowth() {
    var table = HashSlots(capacity: 4)
    // Key `k`'s hash: the low 12 bits 0 for every key (all start at slot 0 while the table is small), and the
    // 32 bits a slot keeps equal for keys that differ only in their lowest bit.
    func hash(_ key: Int) -> Int { (key >> 1) << 32 | (key >> 1) << 12 }
    let count = 300
    for key in 0..<count {
      let (found, slot) = table.find(hash: hash(key)) { Int($0) == key }
      #expect(found == nil, "key \(key) found before it was put")
      table.put(Int32(key), hash: hash(key), at: slot, count: key + 1)
    }
    #expect(table.slots.count == 1_024)
    for key in 0..<count {
      #expect(table.find(hash: hash(key)) { Int($0) == key }.id == Int32(key), "key \(key)")
    }
    #expect(table.find(hash: hash(count)) { Int($0) == count }.id == nil)
    // Placed again with other hashes (as after a key column widened), each id is found by its new hash only.
    table.rebuild(count: count) { $0 &* 0x9E37_79B9 }
    for key in 0..<count {
      #expect(table.find(hash: key &* 0x9E37_79B9) { Int($0) == key }.id == Int32(key), "key \(key) rebuilt")
    }
    #expect(table.find(hash: hash(5)) { Int($0) == 5 }.id == nil)
  }
}
