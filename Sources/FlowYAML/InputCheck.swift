internal import FlowCore

/// Checks raw input before libyaml sees it: size, encoding and binary content, each reported with the
/// position of the first offending byte.
enum InputCheck {
  /// Throws when `bytes` is larger than `limits.maxBytes`, is not UTF-8, or holds NUL or control characters.
  /// Tab, line feed and carriage return are the only C0 controls allowed, as in YAML; U+0085 (NEL) is the
  /// only C1 control allowed. Returns whether the input is all ASCII.
  @discardableResult
  static func validate(_ bytes: [UInt8], file: String, limits: LoadLimits) throws(LoadError) -> Bool {
    if bytes.count > limits.maxBytes {
      throw LoadError(
        .tooLarge,
        "the input is \(bytes.count) bytes, more than the limit of \(limits.maxBytes) bytes",
        file: file, at: SourceLocation(line: 1, column: 1))
    }
    if let encoding = FileInput.otherEncoding(bytes) {
      throw LoadError(
        .notUTF8, "the input is \(encoding) (it starts with its byte order mark); save it as UTF-8",
        file: file, at: SourceLocation(line: 1, column: 1))
    }
    var isASCII = true
    guard let problem = bytes.withUnsafeBufferPointer({ firstProblem($0, isASCII: &isASCII) }) else {
      return isASCII
    }
    let location = TextPosition.location(of: problem.offset, in: bytes)
    switch problem.kind {
    case .nul:
      throw LoadError(
        .binary,
        "the input contains a NUL byte at byte offset \(problem.offset); it looks like a binary file, not text",
        file: file, at: location)
    case .control(let scalar):
      throw LoadError(
        .binary,
        "the input contains the control character \(unicodeName(scalar)) at byte offset \(problem.offset); "
          + "only tab, line feed and carriage return are allowed",
        file: file, at: location)
    case .invalidUTF8(let byte):
      throw LoadError(
        .notUTF8,
        "the input is not valid UTF-8: byte 0x\(hex(byte)) at byte offset \(problem.offset) "
          + "does not start a valid UTF-8 sequence; save the file as UTF-8",
        file: file, at: location)
    }
  }
}

// MARK: - Scanning

extension InputCheck {
  /// Whether `validate` would pass `bytes` on its size and byte order mark: what it checks before reading every
  /// byte. For input that is read in parts, each part then checking its bytes with ``scan(_:)``.
  static func mayPass(_ bytes: [UInt8], limits: LoadLimits) -> Bool {
    bytes.count <= limits.maxBytes && FileInput.otherEncoding(bytes) == nil
  }

  /// `validate`'s scan of every byte, on a part of an input that ``mayPass(_:limits:)``: nil when it finds a
  /// problem, else whether the bytes are all ASCII.
  static func scan(_ bytes: [UInt8]) -> Bool? {
    var isASCII = true
    guard bytes.withUnsafeBufferPointer({ firstProblem($0, isASCII: &isASCII) }) == nil else { return nil }
    return isASCII
  }

  enum ProblemKind: Equatable {
    case nul
    case control(UInt32)
    case invalidUTF8(UInt8)
  }

  struct Problem: Equatable {
    var offset: Int
    var kind: ProblemKind
  }

  /// The first NUL, disallowed control character or invalid UTF-8 sequence, or nil.
  static func firstProblem(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: inout Bool) -> Problem? {
    var i = 0
    let n = bytes.count
    while i < n {
      // Eight printable ASCII bytes at a time: most of a file is. Only a word holding a line feed or anything else
      // goes through the byte loop below.
      if i + 8 <= n, isPrintableASCII(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)) {
        i += 8
        continue
      }
      let b = bytes[i]
      if b >= 0x20 && b < 0x7F {
        i += 1
        continue
      }
      if b < 0x80 {
        if b == 0x09 || b == 0x0A || b == 0x0D {
          i += 1
          continue
        }
        return Problem(offset: i, kind: b == 0 ? .nul : .control(UInt32(b)))
      }
      isASCII = false
      guard let (scalar, length) = decodeUTF8(bytes, at: i) else {
        return Problem(offset: i, kind: .invalidUTF8(b))
      }
      if scalar >= 0x80 && scalar <= 0x9F && scalar != 0x85 {
        return Problem(offset: i, kind: .control(scalar))
      }
      i += length
    }
    return nil
  }

  /// Whether all eight bytes of `word` are printable ASCII (0x20 to 0x7E), with the bit tricks of "Bit Twiddling
  /// Hacks": a byte of 0x80 or more has its top bit set; subtracting 0x20 from a byte below it borrows into its top
  /// bit; 0x7F is the one byte that adding 1 carries into the top bit.
  @inline(__always)
  static func isPrintableASCII(_ word: UInt64) -> Bool {
    let high: UInt64 = 0x8080_8080_8080_8080
    let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & high
    let delete = (word &+ 0x0101_0101_0101_0101) & ~word & high
    return (word | belowSpace | delete) & high == 0
  }

  /// Decodes one UTF-8 sequence at `i` (rejecting overlong forms, surrogates and values above U+10FFFF).
  static func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
    let b0 = bytes[i]
    let n = bytes.count
    @inline(__always) func cont(_ j: Int) -> UInt32? {
      guard j < n, bytes[j] & 0xC0 == 0x80 else { return nil }
      return UInt32(bytes[j] & 0x3F)
    }
    switch b0 {
    case 0xC2...0xDF:
      guard let c1 = cont(i + 1) else { return nil }
      return ((UInt32(b0 & 0x1F) << 6) | c1, 2)
    case 0xE0...0xEF:
      guard let c1 = cont(i + 1), let c2 = cont(i + 2) else { return nil }
      let scalar = (UInt32(b0 & 0x0F) << 12) | (c1 << 6) | c2
      guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar) else { return nil }
      return (scalar, 3)
    case 0xF0...0xF4:
      guard let c1 = cont(i + 1), let c2 = cont(i + 2), let c3 = cont(i + 3) else { return nil }
      let scalar = (UInt32(b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3
      guard scalar >= 0x10000, scalar <= 0x10FFFF else { return nil }
      return (scalar, 4)
    default:
      return nil
    }
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }

  private static func unicodeName(_ scalar: UInt32) -> String {
    var text = String(scalar, radix: 16, uppercase: true)
    while text.count < 4 { text = "0" + text }
    return "U+" + text
  }
}
