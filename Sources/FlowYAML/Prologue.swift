internal import FlowCore

/// A line pass over the input before libyaml reads it, for document prologues that libyaml (a YAML 1.1
/// parser) gets wrong. It edits bytes in place without changing their number or the line structure, so every
/// position libyaml reports stays true:
///
/// - a reserved directive (`%FOO ...`) and a `%YAML 1.x` directive with x > 2 are ignored, as YAML 1.2 asks,
///   by turning their `%` into `#`;
/// - a `...` line where no document is open is turned into a comment;
/// - a `...` followed by a bare document becomes `---`, which starts the next document just the same;
/// - a `%YAML` directive must read `%YAML <major>.<minor>` followed by a space, a comment or the line end.
enum Prologue {
  static func rewrite(_ buffer: UnsafeMutableBufferPointer<UInt8>, file: String) throws(LoadError) {
    let n = buffer.count
    var lineStart = (n >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF) ? 3 : 0
    var line = 1
    // Between documents: at the start, or after `...`.
    var inPrologue = true
    // The `...` that closed the last document, while only comments and blank lines followed it.
    var pendingEnd: Int?
    while lineStart < n {
      var lineEnd = lineStart
      while lineEnd < n && buffer[lineEnd] != 0x0A && buffer[lineEnd] != 0x0D { lineEnd += 1 }
      let first = buffer[lineStart]
      if isMarker(buffer, lineStart, lineEnd, UInt8(ascii: "-")) {
        inPrologue = false
        pendingEnd = nil
      } else if isMarker(buffer, lineStart, lineEnd, UInt8(ascii: ".")) {
        if inPrologue {
          buffer[lineStart] = UInt8(ascii: "#")
        } else {
          inPrologue = true
          pendingEnd = lineStart
        }
      } else if first == UInt8(ascii: "%") && inPrologue {
        pendingEnd = nil
        try directive(buffer, lineStart, lineEnd, line: line, file: file)
      } else if inPrologue && !isBlankOrComment(buffer, lineStart, lineEnd) {
        // (Inside a document this changes nothing: the line is not looked at.)
        if let end = pendingEnd {
          for i in end..<(end + 3) { buffer[i] = UInt8(ascii: "-") }
        }
        inPrologue = false
        pendingEnd = nil
      }
      // Next line (CR LF, CR or LF).
      lineStart = lineEnd
      if lineStart < n && buffer[lineStart] == 0x0D { lineStart += 1 }
      if lineStart < n && buffer[lineStart] == 0x0A { lineStart += 1 }
      line += 1
    }
  }

  private static func directive(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int, file: String
  ) throws(LoadError) {
    var i = start + 1
    while i < end && !isSpace(buffer[i]) { i += 1 }
    let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[(start + 1)..<i]), as: UTF8.self)
    switch name {
    case "TAG":
      return
    case "YAML":
      while i < end && isSpace(buffer[i]) { i += 1 }
      let versionStart = i
      var major = 0
      var minor = 0
      var digits = 0
      while i < end && isDigit(buffer[i]) {
        major = min(major * 10 + Int(buffer[i] - 0x30), 1000)
        i += 1
        digits += 1
      }
      var valid = digits > 0 && i < end && buffer[i] == UInt8(ascii: ".")
      i += 1
      digits = 0
      while valid && i < end && isDigit(buffer[i]) {
        minor = min(minor * 10 + Int(buffer[i] - 0x30), 1000)
        i += 1
        digits += 1
      }
      valid = valid && digits > 0 && (i >= end || isSpace(buffer[i]))
      while valid && i < end && isSpace(buffer[i]) { i += 1 }
      valid = valid && (i >= end || buffer[i] == UInt8(ascii: "#") && isSpace(buffer[i - 1]))
      guard valid else {
        throw LoadError(
          .syntax, "invalid YAML: malformed %YAML directive; expected '%YAML 1.2' followed by a space or the line end",
          file: file, at: SourceLocation(line: line, column: max(1, versionStart - start + 1)))
      }
      if major == 1 && minor > 2 { buffer[start] = UInt8(ascii: "#") }
    default:
      // Reserved directive: ignored.
      buffer[start] = UInt8(ascii: "#")
    }
  }

  /// `---` or `...` at the start of a line, followed by a space, a tab or the line end.
  private static func isMarker(_ b: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ end: Int, _ c: UInt8) -> Bool {
    end - start >= 3 && b[start] == c && b[start + 1] == c && b[start + 2] == c
      && (end == start + 3 || isSpace(b[start + 3]))
  }

  private static func isBlankOrComment(_ b: UnsafeMutableBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var i = start
    while i < end && isSpace(b[i]) { i += 1 }
    return i == end || b[i] == UInt8(ascii: "#")
  }

  @inline(__always) private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
  @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
