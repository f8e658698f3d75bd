/// Reads JSON text (RFC 8259, strictly: no comments, no trailing commas) into a positioned `Node` tree,
/// without Foundation, so an app can load a compiled flow with the core alone.
///
/// Integers that fit in `Int` become `.int`; numbers with a fraction or an exponent, and larger integers,
/// become `.double`. Duplicate keys are an error. Positions are 1-based; columns count Unicode scalars.
package enum JSONReader {
  /// Reads one JSON value.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 text (a leading byte order mark is skipped).
  ///   - file: the path shown in errors.
  ///   - limits: bounds on size, nesting and node count (`maxAliasExpansion` does not apply).
  /// - Returns: the value's node.
  /// - Throws: `LoadError` with code `.tooLarge`, `.empty`, `.syntax`, `.notUTF8`, `.binary` (a NUL byte),
  ///   `.duplicateKey` or `.tooDeep`.
  package static func read(bytes: [UInt8], file: String, limits: LoadLimits = .default) throws(LoadError) -> Node {
    let values = try readValues(bytes: bytes, file: file, limits: limits, stream: false)
    guard let value = values.first else {
      throw LoadError(.empty, "the document is empty", file: file, at: SourceLocation(line: 1, column: 1))
    }
    return value
  }

  /// Reads a sequence of JSON values separated by optional whitespace (as in JSON Lines or concatenated
  /// JSON), with the same rules as `read(bytes:file:limits:)`; empty input gives no values.
  package static func readStream(
    bytes: [UInt8], file: String, limits: LoadLimits = .default
  ) throws(LoadError) -> [Node] {
    try readValues(bytes: bytes, file: file, limits: limits, stream: true)
  }

  private static func readValues(
    bytes: [UInt8], file: String, limits: LoadLimits, stream: Bool
  ) throws(LoadError) -> [Node] {
    if bytes.count > limits.maxBytes {
      throw LoadError(
        .tooLarge, "the input is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes",
        file: file, at: SourceLocation(line: 1, column: 1))
    }
    let result: Result<[Node], LoadError> = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(buffer, file: file, limits: limits)
      do throws(LoadError) {
        return .success(try parser.values(stream: stream))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

// MARK: - Parser

private struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let file: String
  let limits: LoadLimits
  var pos = 0
  var line = 1
  var lineStart = 0
  /// Column cache on the current line: the column of byte `columnPos`, so positions cost O(1) amortized.
  var columnPos = 0
  var column = 1
  var depth = 0
  var nodeCount = 0
  /// Scratch buffer for strings with escapes.
  var scratch: [UInt8] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>, file: String, limits: LoadLimits) {
    self.bytes = bytes
    self.file = file
    self.limits = limits
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      pos = 3
      lineStart = 3
      columnPos = 3
    }
  }

  mutating func values(stream: Bool) throws(LoadError) -> [Node] {
    var values: [Node] = []
    skipWhitespace()
    while pos < bytes.count {
      if !stream && !values.isEmpty {
        throw error(.syntax, "invalid JSON: unexpected \(describeHere()) after the end of the value")
      }
      values.append(try value())
      skipWhitespace()
    }
    return values
  }

  // MARK: Values

  mutating func value() throws(LoadError) -> Node {
    guard pos < bytes.count else { throw error(.syntax, "invalid JSON: expected a value, found the end of the input") }
    let at = location()
    nodeCount += 1
    if nodeCount > limits.maxNodes {
      throw error(.tooLarge, "the document has more than \(limits.maxNodes) values (the node limit)")
    }
    switch bytes[pos] {
    case UInt8(ascii: "{"): return try object(at: at)
    case UInt8(ascii: "["): return try array(at: at)
    case UInt8(ascii: "\""): return Node(string: try string(), at: at, textStart: at.advanced(by: 1))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(try number(), at: at)
    case UInt8(ascii: "t"):
      try literal("true")
      return Node(.bool(true), at: at)
    case UInt8(ascii: "f"):
      try literal("false")
      return Node(.bool(false), at: at)
    case UInt8(ascii: "n"):
      try literal("null")
      return Node(.null, at: at)
    default:
      throw try unexpected("a value")
    }
  }

  mutating func object(at: SourceLocation) throws(LoadError) -> Node {
    try enter()
    pos += 1
    var entries = MappingEntries()
    skipWhitespace()
    if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") {
      pos += 1
      depth -= 1
      return Node(.mapping([]), at: at)
    }
    while true {
      skipWhitespace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
        throw try unexpected(entries.isEmpty ? "a string key or '}'" : "a string key after ','")
      }
      let keyAt = location()
      let key = try string()
      try entries.refuseDuplicate(key, at: keyAt, file: file)
      skipWhitespace()
      guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw try unexpected("':' after the key") }
      pos += 1
      skipWhitespace()
      let value = try value()
      entries.append(Node.Entry(key: key, keyLocation: keyAt, value: value))
      skipWhitespace()
      guard pos < bytes.count else { throw try unexpected("',' or '}'") }
      if bytes[pos] == UInt8(ascii: ",") {
        pos += 1
        continue
      }
      if bytes[pos] == UInt8(ascii: "}") {
        pos += 1
        break
      }
      throw try unexpected("',' or '}'")
    }
    depth -= 1
    return Node(.mapping(entries.entries), at: at)
  }

  mutating func array(at: SourceLocation) throws(LoadError) -> Node {
    try enter()
    pos += 1
    var items: [Node] = []
    skipWhitespace()
    if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
      pos += 1
      depth -= 1
      return Node(.sequence(items), at: at)
    }
    while true {
      skipWhitespace()
      if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
        throw try unexpected("a value after ','")
      }
      items.append(try value())
      skipWhitespace()
      guard pos < bytes.count else { throw try unexpected("',' or ']'") }
      if bytes[pos] == UInt8(ascii: ",") {
        pos += 1
        continue
      }
      if bytes[pos] == UInt8(ascii: "]") {
        pos += 1
        break
      }
      throw try unexpected("',' or ']'")
    }
    depth -= 1
    return Node(.sequence(items), at: at)
  }

  mutating func literal(_ word: StaticString) throws(LoadError) {
    let p = word.utf8Start
    let n = word.utf8CodeUnitCount
    for i in 0..<n where pos + i >= bytes.count || bytes[pos + i] != p[i] {
      throw try unexpected("a value")
    }
    pos += n
  }

  // MARK: Numbers

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`
  mutating func number() throws(LoadError) -> Node.Content {
    let start = pos
    let negative = bytes[pos] == UInt8(ascii: "-")
    if negative { pos += 1 }
    guard pos < bytes.count, isDigit(bytes[pos]) else {
      throw try unexpected("a digit after '-'")
    }
    var value = 0
    var overflow = false
    if bytes[pos] == UInt8(ascii: "0") {
      pos += 1
      if pos < bytes.count && isDigit(bytes[pos]) {
        throw error(.syntax, "invalid JSON: numbers must not have leading zeros")
      }
    } else {
      while pos < bytes.count && isDigit(bytes[pos]) {
        let digit = Int(bytes[pos] - UInt8(ascii: "0"))
        if !overflow {
          let (m, o1) = value.multipliedReportingOverflow(by: 10)
          let (a, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
          if o1 || o2 { overflow = true } else { value = a }
        }
        pos += 1
      }
    }
    var isInteger = true
    if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
      isInteger = false
      pos += 1
      guard pos < bytes.count, isDigit(bytes[pos]) else { throw try unexpected("a digit after '.'") }
      while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
    }
    if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
      isInteger = false
      pos += 1
      if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
      guard pos < bytes.count, isDigit(bytes[pos]) else { throw try unexpected("a digit in the exponent") }
      while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
    }
    if isInteger && !overflow { return .int(value) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
    guard let double = Double(text) else {
      throw error(.syntax, "invalid JSON: '\(text)' is not a number")
    }
    return .double(double)
  }

  // MARK: Strings

  mutating func string() throws(LoadError) -> String {
    pos += 1  // opening quote
    let start = pos
    // Fast path: no escapes.
    while pos < bytes.count {
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        pos += 1
        return text
      }
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 { throw controlInString(b) }
      if b >= 0x80 { try skipUTF8() } else { pos += 1 }
    }
    guard pos < bytes.count else { throw error(.syntax, "invalid JSON: unterminated string") }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<pos]))
    while pos < bytes.count {
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        pos += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if b < 0x20 { throw controlInString(b) }
      if b >= 0x80 {
        let from = pos
        try skipUTF8()
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<pos]))
        continue
      }
      if b != UInt8(ascii: "\\") {
        scratch.append(b)
        pos += 1
        continue
      }
      pos += 1
      guard pos < bytes.count else { break }
      let escape = bytes[pos]
      pos += 1
      switch escape {
      case UInt8(ascii: "\""): scratch.append(0x22)
      case UInt8(ascii: "\\"): scratch.append(0x5C)
      case UInt8(ascii: "/"): scratch.append(0x2F)
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
            throw error(.syntax, "invalid JSON: unpaired surrogate \\u\(hex(scalar)) in a string")
          }
          pos += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else {
            throw error(.syntax, "invalid JSON: unpaired surrogate \\u\(hex(scalar)) in a string")
          }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
          throw error(.syntax, "invalid JSON: unpaired surrogate \\u\(hex(scalar)) in a string")
        }
        appendUTF8(scalar)
      default:
        pos -= 2
        throw error(.syntax, "invalid JSON: unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
      }
    }
    throw error(.syntax, "invalid JSON: unterminated string")
  }

  mutating func hex4() throws(LoadError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard pos < bytes.count else { throw error(.syntax, "invalid JSON: unterminated string") }
      let b = bytes[pos]
      let digit: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A")) + 10
      default: throw error(.syntax, "invalid JSON: '\\u' must be followed by four hex digits")
      }
      value = value << 4 | digit
      pos += 1
    }
    return value
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
      scratch.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// Steps over one multi-byte UTF-8 sequence, or throws `.notUTF8` at its first byte.
  mutating func skipUTF8() throws(LoadError) {
    guard let length = utf8Length(at: pos) else {
      var hexByte = String(bytes[pos], radix: 16, uppercase: true)
      if hexByte.count < 2 { hexByte = "0" + hexByte }
      throw error(
        .notUTF8,
        "the input is not valid UTF-8: byte 0x\(hexByte) at byte offset \(pos) does not start a valid UTF-8 "
          + "sequence; save the file as UTF-8")
    }
    pos += length
  }

  /// The length of the valid UTF-8 sequence at `i` (overlong forms, surrogates and values above U+10FFFF are
  /// invalid), or nil.
  func utf8Length(at i: Int) -> Int? {
    let b0 = bytes[i]
    func cont(_ j: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      j < bytes.count && bytes[j] >= low && bytes[j] <= high
    }
    switch b0 {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: return cont(i + 1) ? 2 : nil
    case 0xE0: return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : nil
    case 0xED: return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : nil
    case 0xE1...0xEF: return cont(i + 1) && cont(i + 2) ? 3 : nil
    case 0xF0: return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : nil
    case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : nil
    case 0xF4: return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : nil
    default: return nil
    }
  }

  // MARK: Whitespace and positions

  mutating func skipWhitespace() {
    while pos < bytes.count {
      switch bytes[pos] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        pos += 1
      case UInt8(ascii: "\n"):
        pos += 1
        line += 1
        lineStart = pos
      default:
        return
      }
    }
  }

  /// The 1-based position of `pos`; a carriage return alone does not start a line (JSON text uses LF or CR LF).
  mutating func location() -> SourceLocation {
    if columnPos < lineStart || columnPos > pos {
      columnPos = lineStart
      column = 1
    }
    while columnPos < pos {
      if bytes[columnPos] & 0xC0 != 0x80 { column += 1 }
      columnPos += 1
    }
    return SourceLocation(line: line, column: column)
  }

  mutating func enter() throws(LoadError) {
    depth += 1
    if depth > limits.maxDepth {
      throw error(.tooDeep, "arrays and objects nest deeper than \(limits.maxDepth) levels")
    }
  }

  func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

  func hex(_ value: UInt32) -> String {
    var text = String(value, radix: 16, uppercase: true)
    while text.count < 4 { text = "0" + text }
    return text
  }

  // MARK: Errors

  mutating func error(_ code: LoadError.Code, _ message: String) -> LoadError {
    LoadError(code, message, file: file, at: location())
  }

  mutating func controlInString(_ b: UInt8) -> LoadError {
    if b == 0 {
      return error(
        .binary, "the input contains a NUL byte at byte offset \(pos); it looks like a binary file, not text")
    }
    if b == 0x0A { return error(.syntax, "invalid JSON: unterminated string (a line break must be written '\\n')") }
    return error(.syntax, "invalid JSON: control character U+00\(hex(UInt32(b)).suffix(2)) in a string must be escaped")
  }

  /// `expected X, found Y` at the current position; a NUL byte is reported as binary input and an invalid
  /// byte as not UTF-8.
  mutating func unexpected(_ expected: String) throws(LoadError) -> LoadError {
    if pos < bytes.count && bytes[pos] == 0 {
      return error(
        .binary, "the input contains a NUL byte at byte offset \(pos); it looks like a binary file, not text")
    }
    if pos < bytes.count && bytes[pos] >= 0x80 && utf8Length(at: pos) == nil {
      try skipUTF8()
    }
    return error(.syntax, "invalid JSON: expected \(expected), found \(describeHere())")
  }

  func describeHere() -> String {
    guard pos < bytes.count else { return "the end of the input" }
    let b = bytes[pos]
    if b == 0x0A || b == 0x0D { return "a line break" }
    if b < 0x20 { return "control character U+00\(hex(UInt32(b)).suffix(2))" }
    let length = utf8Length(at: pos) ?? 1
    let text = String(
      decoding: UnsafeBufferPointer(rebasing: bytes[pos..<min(pos + length, bytes.count)]), as: UTF8.self)
    return "'\(text)'"
  }
}
