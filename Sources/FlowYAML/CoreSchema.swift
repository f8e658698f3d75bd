internal import FlowCore

/// YAML 1.2 core schema resolution of plain scalars, working on the scalar's UTF-8 bytes so that the common
/// case (a word) is decided from its first byte without building anything.
enum CoreSchema {
  /// The value of a plain (unquoted, untagged) scalar: null, bool, int, float, or nil for a string.
  static func resolvePlain(_ text: UnsafeBufferPointer<UInt8>) -> Node.Content? {
    guard let first = text.first else { return .null }
    switch first {
    case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
      return isNull(text) ? .null : nil
    case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
      return bool(text).map { .bool($0) }
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
      return number(text)
    default:
      return nil
    }
  }

  static func isNull(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    text.isEmpty || equals(text, "~") || equals(text, "null") || equals(text, "Null") || equals(text, "NULL")
  }

  static func bool(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
    if equals(text, "true") || equals(text, "True") || equals(text, "TRUE") { return true }
    if equals(text, "false") || equals(text, "False") || equals(text, "FALSE") { return false }
    return nil
  }

  /// An int (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`) or a float (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
  /// `[-+]?.inf`, `.nan` in three spellings each). Integers too large for `Int` become doubles.
  static func number(_ text: UnsafeBufferPointer<UInt8>) -> Node.Content? {
    let n = text.count
    if n > 2 && text[0] == UInt8(ascii: "0") && (text[1] == UInt8(ascii: "o") || text[1] == UInt8(ascii: "x")) {
      let radix = text[1] == UInt8(ascii: "o") ? 8 : 16
      var value = 0
      var overflow = false
      var big = 0.0
      for i in 2..<n {
        guard let digit = digitValue(text[i]), digit < radix else { return nil }
        big = big * Double(radix) + Double(digit)
        if !overflow {
          let (m, o1) = value.multipliedReportingOverflow(by: radix)
          let (a, o2) = m.addingReportingOverflow(digit)
          if o1 || o2 { overflow = true } else { value = a }
        }
      }
      return overflow ? .double(big) : .int(value)
    }
    var i = 0
    var negative = false
    if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
      negative = text[0] == UInt8(ascii: "-")
      i = 1
    }
    if i < n && text[i] == UInt8(ascii: ".") {
      let rest = UnsafeBufferPointer(rebasing: text[(i + 1)...])
      if equals(rest, "inf") || equals(rest, "Inf") || equals(rest, "INF") {
        return .double(negative ? -.infinity : .infinity)
      }
      if i == 0 && (equals(rest, "nan") || equals(rest, "NaN") || equals(rest, "NAN")) {
        return .double(.nan)
      }
    }
    // Integer part.
    let intStart = i
    var value = 0
    var overflow = false
    while i < n, let d = decimal(text[i]) {
      if !overflow {
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (a, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
        if o1 || o2 { overflow = true } else { value = a }
      }
      i += 1
    }
    let intDigits = i - intStart
    if i == n {
      guard intDigits > 0 else { return nil }
      return overflow ? parseDouble(text).map { .double($0) } : .int(value)
    }
    // Fraction.
    var fracDigits = 0
    if text[i] == UInt8(ascii: ".") {
      i += 1
      while i < n, decimal(text[i]) != nil {
        i += 1
        fracDigits += 1
      }
      // `.` alone, or `.e5`, is not a number; `1.` is.
      if intDigits == 0 && fracDigits == 0 { return nil }
    } else if intDigits == 0 {
      return nil
    }
    // Exponent.
    if i < n && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
      i += 1
      if i < n && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) { i += 1 }
      let expStart = i
      while i < n, decimal(text[i]) != nil { i += 1 }
      if i == expStart { return nil }
    }
    guard i == n else { return nil }
    return parseDouble(text).map { .double($0) }
  }

  /// Whether the text is an integer literal: `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
  static func isIntegerLiteral(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var digits = UnsafeBufferPointer(rebasing: text[...])
    if text.count > 2 && text[0] == UInt8(ascii: "0") && (text[1] == UInt8(ascii: "o") || text[1] == UInt8(ascii: "x"))
    {
      let radix = text[1] == UInt8(ascii: "o") ? 8 : 16
      return text.dropFirst(2).allSatisfy { digitValue($0).map { $0 < radix } ?? false }
    }
    if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      digits = UnsafeBufferPointer(rebasing: text[1...])
    }
    return !digits.isEmpty && digits.allSatisfy { decimal($0) != nil }
  }

  /// Parses a string already known to match the core float pattern.
  private static func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    var string = String(decoding: text, as: UTF8.self)
    // Swift's parser wants a digit before an exponent: `1.e5` → `1.0e5`.
    if string.contains(".e") || string.contains(".E") {
      string = string.replacing(".e", with: ".0e").replacing(".E", with: ".0E")
    }
    return Double(string)
  }

  @inline(__always) private static func decimal(_ b: UInt8) -> Int? {
    b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") ? Int(b - UInt8(ascii: "0")) : nil
  }

  @inline(__always) private static func digitValue(_ b: UInt8) -> Int? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A")) + 10
    default: nil
    }
  }

  @inline(__always) static func equals(_ text: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard text.count == literal.utf8CodeUnitCount else { return false }
    let p = literal.utf8Start
    for i in 0..<text.count where text[i] != p[i] { return false }
    return true
  }
}
