internal import FlowCore

/// Turns byte offsets into 1-based line and column positions (columns count Unicode scalars).
enum TextPosition {
  /// The position of the byte at `offset`. Line breaks are LF, CR LF and a lone CR; a leading byte order
  /// mark takes no column. Works on any bytes, valid UTF-8 or not (each non-continuation byte is a column).
  static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
    var line = 1
    var column = 1
    var i = (bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) ? 3 : 0
    let end = min(offset, bytes.count)
    while i < end {
      let b = bytes[i]
      if b == 0x0A {
        line += 1
        column = 1
      } else if b == 0x0D {
        if i + 1 < bytes.count && bytes[i + 1] == 0x0A {
          // The LF that follows ends the line.
        } else {
          line += 1
          column = 1
        }
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
      i += 1
    }
    return SourceLocation(line: line, column: column)
  }
}
