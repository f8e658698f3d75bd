package import FlowCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines of a source file, for carets under a finding and for reading the text at a position.
///
/// Lines are found with one scan for line feeds and decoded only when asked for, so a 10,000-step flow costs little.
package struct SourceText: Sendable, Hashable {
  /// The file's bytes (none when they are not UTF-8 text).
  package let bytes: [UInt8]
  /// Byte offset where each line starts; empty when the file is not UTF-8 text.
  private let lineStarts: [Int]

  package init(bytes: [UInt8]) {
    guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
      self.init(bytes: [], lineStarts: [])
      return
    }
    self.init(checkedBytes: bytes)
  }

  /// The text of `bytes` that are known to be UTF-8 without a NUL byte (a YAML reader accepted them:
  /// `InputCheck`), so they are not checked again.
  package init(checkedBytes bytes: [UInt8]) {
    var starts = [0]
    // memchr finds each line feed several bytes at a time: a byte loop took a tenth of a large file's lint.
    bytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while let found = memchr(base + offset, 0x0A, bytes.count - offset) {
        offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        starts.append(offset)
      }
    }
    self.init(bytes: bytes, lineStarts: starts)
  }

  private init(bytes: [UInt8], lineStarts: [Int]) {
    self.bytes = bytes
    self.lineStarts = lineStarts
  }

  package init(_ text: String) {
    self.init(bytes: Array(text.utf8))
  }

  /// How many lines there are.
  package var lineCount: Int { lineStarts.count }

  /// The 1-based line `number` without its line break, or nil.
  package func line(_ number: Int) -> Substring? {
    guard number >= 1, number <= lineStarts.count else { return nil }
    let start = lineStarts[number - 1]
    var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return Substring(String(decoding: bytes[start..<max(start, end)], as: UTF8.self))
  }

  /// The 1-based numbers of the lines that contain `needle` (ASCII): `memchr` finds each occurrence of its first
  /// byte, and `memcmp` compares the rest.
  package func lines(containing needle: String) -> [Int] {
    let pattern = Array(needle.utf8)
    guard let first = pattern.first, bytes.count >= pattern.count else { return [] }
    var found: [Int] = []
    bytes.withUnsafeBufferPointer { bytes in
      pattern.withUnsafeBufferPointer { pattern in
        guard let base = bytes.baseAddress, let needle = pattern.baseAddress else { return }
        let last = bytes.count - pattern.count
        var offset = 0
        while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
          let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
          if memcmp(base + start, needle, pattern.count) == 0 {
            let line = lineNumber(ofOffset: start)
            if found.last != line { found.append(line) }
          }
          offset = start + 1
        }
      }
    }
    return found
  }

  /// The 1-based number of the line holding byte `offset` (a binary search of the line starts).
  private func lineNumber(ofOffset offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count
    while low < high {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The Unicode scalar at a 1-based line and column, or nil.
  package func scalar(at location: SourceLocation) -> Unicode.Scalar? {
    guard let line = line(location.line), location.column >= 1 else { return nil }
    let scalars = line.unicodeScalars
    guard let index = scalars.index(scalars.startIndex, offsetBy: location.column - 1, limitedBy: scalars.endIndex),
      index < scalars.endIndex
    else { return nil }
    return scalars[index]
  }
}
