/// A fast matcher for the patterns schemas usually hold (`^[A-Za-z_][A-Za-z0-9_-]*$`,
/// `^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$`): ASCII literals and classes, `\d`, `\w`, groups and greedy
/// quantifiers, optionally anchored. No alternation, negated classes, `.` or lazy quantifiers; for those the
/// parser returns nil and `Regex` is used. Works on UTF-8 bytes: only ASCII can match, so a non-ASCII scalar
/// fails exactly as it would with scalar semantics.
struct SimplePattern: Sendable {
  private let items: [Quantified]
  private let anchoredStart: Bool
  private let anchoredEnd: Bool
  private let hasGroups: Bool

  /// Longest text matched here by a pattern with groups, which recurse once per repetition.
  static let maxGroupTextLength = 2_000

  /// 128 bits, one per ASCII code.
  struct ByteSet: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    mutating func insert(_ byte: UInt8) {
      if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
      byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }
  }

  indirect enum Piece: Sendable {
    case set(ByteSet)
    case group([Quantified])
  }

  struct Quantified: Sendable {
    var piece: Piece
    var min: Int
    var max: Int
  }

  /// Parses `source`, or returns nil when it uses anything this matcher does not handle.
  init?(_ source: String) {
    var bytes = Array(source.utf8)[...]
    guard bytes.allSatisfy({ $0 < 128 }) else { return nil }
    anchoredStart = bytes.first == UInt8(ascii: "^")
    if anchoredStart { bytes = bytes.dropFirst() }
    anchoredEnd = bytes.last == UInt8(ascii: "$")
    if anchoredEnd {
      bytes = bytes.dropLast()
      // `\$` is a literal dollar sign; leave such patterns to `Regex`.
      if bytes.last == UInt8(ascii: "\\") { return nil }
    }
    guard let items = Self.parseSequence(&bytes, nested: false), bytes.isEmpty else { return nil }
    self.items = items
    hasGroups = items.contains { if case .group = $0.piece { true } else { false } }
  }

  /// Whether the pattern matches anywhere in `text`; nil when the text is too long for this recursive matcher
  /// (only patterns with groups recurse per repetition), so the caller should use `Regex`.
  func matches(_ text: String) -> Bool? {
    if hasGroups && text.utf8.count > Self.maxGroupTextLength { return nil }
    var text = text
    return text.withUTF8 { buffer in
      let last = anchoredStart ? 0 : buffer.count
      for start in 0...last {
        if Self.match(items, 0, start, buffer, { end in !anchoredEnd || end == buffer.count }) { return true }
      }
      return false
    }
  }
}

// MARK: - Matching

extension SimplePattern {
  private static func match(
    _ sequence: [Quantified], _ index: Int, _ position: Int, _ text: UnsafeBufferPointer<UInt8>,
    _ next: (Int) -> Bool
  ) -> Bool {
    guard index < sequence.count else { return next(position) }
    let item = sequence[index]
    switch item.piece {
    case .set(let set):
      var end = position
      while end < text.count && end - position < item.max && set.contains(text[end]) { end += 1 }
      guard end - position >= item.min else { return false }
      while true {
        if match(sequence, index + 1, end, text, next) { return true }
        if end - position == item.min { return false }
        end -= 1
      }
    case .group(let inner):
      return repeatGroup(inner, item, count: 0, position, text) { match(sequence, index + 1, $0, text, next) }
    }
  }

  private static func repeatGroup(
    _ inner: [Quantified], _ item: Quantified, count: Int, _ position: Int, _ text: UnsafeBufferPointer<UInt8>,
    _ next: (Int) -> Bool
  ) -> Bool {
    if count < item.max {
      let more = match(inner, 0, position, text) { end in
        // An empty iteration only counts towards the minimum; beyond it, it would loop without progress.
        (end != position || count < item.min) && repeatGroup(inner, item, count: count + 1, end, text, next)
      }
      if more { return true }
    }
    return count >= item.min && next(position)
  }
}

// MARK: - Parsing

extension SimplePattern {
  private static func parseSequence(_ bytes: inout ArraySlice<UInt8>, nested: Bool) -> [Quantified]? {
    var items: [Quantified] = []
    while let byte = bytes.first {
      if byte == UInt8(ascii: ")") { return nested ? items : nil }
      bytes.removeFirst()
      let piece: Piece
      switch byte {
      case UInt8(ascii: "("):
        if bytes.first == UInt8(ascii: "?") {
          // Only a non-capturing group `(?:`.
          guard bytes.dropFirst().first == UInt8(ascii: ":") else { return nil }
          bytes.removeFirst(2)
        }
        guard let inner = parseSequence(&bytes, nested: true), bytes.first == UInt8(ascii: ")") else { return nil }
        bytes.removeFirst()
        piece = .group(inner)
      case UInt8(ascii: "["):
        guard let set = parseClass(&bytes) else { return nil }
        piece = .set(set)
      case UInt8(ascii: "\\"):
        guard let escaped = bytes.popFirst(), let set = escapeSet(escaped) else { return nil }
        piece = .set(set)
      case UInt8(ascii: "|"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"),
        UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
        return nil
      default:
        var set = ByteSet()
        set.insert(byte)
        piece = .set(set)
      }
      guard let (min, max) = parseQuantifier(&bytes) else { return nil }
      items.append(Quantified(piece: piece, min: min, max: max))
    }
    return nested ? nil : items
  }

  /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` or nothing; nil for a lazy or possessive quantifier or bad braces.
  private static func parseQuantifier(_ bytes: inout ArraySlice<UInt8>) -> (Int, Int)? {
    let result: (Int, Int)
    switch bytes.first {
    case UInt8(ascii: "*"): bytes.removeFirst(); result = (0, .max)
    case UInt8(ascii: "+"): bytes.removeFirst(); result = (1, .max)
    case UInt8(ascii: "?"): bytes.removeFirst(); result = (0, 1)
    case UInt8(ascii: "{"):
      guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else { return nil }
      let body = String(decoding: bytes[bytes.index(after: bytes.startIndex)..<close], as: UTF8.self)
      bytes = bytes[bytes.index(after: close)...]
      let parts = body.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count <= 2, let low = Int(parts[0]) else { return nil }
      if parts.count == 1 {
        result = (low, low)
      } else if parts[1].isEmpty {
        result = (low, .max)
      } else {
        guard let high = Int(parts[1]), high >= low else { return nil }
        result = (low, high)
      }
    default:
      return (1, 1)
    }
    if let next = bytes.first, next == UInt8(ascii: "?") || next == UInt8(ascii: "+") { return nil }
    return result
  }

  private static func parseClass(_ bytes: inout ArraySlice<UInt8>) -> ByteSet? {
    var set = ByteSet()
    guard bytes.first != UInt8(ascii: "^") else { return nil }
    var first = true
    while let byte = bytes.popFirst() {
      if byte == UInt8(ascii: "]") && !first { return set }
      first = false
      var low = byte
      if byte == UInt8(ascii: "\\") {
        guard let escaped = bytes.popFirst() else { return nil }
        if let named = escapeSet(escaped), !isPunctuation(escaped) {
          set.low |= named.low
          set.high |= named.high
          continue
        }
        guard isPunctuation(escaped) else { return nil }
        low = escaped
      } else if byte == UInt8(ascii: "[") {
        return nil
      }
      if bytes.first == UInt8(ascii: "-"), let after = bytes.dropFirst().first, after != UInt8(ascii: "]") {
        bytes.removeFirst()
        var high = bytes.removeFirst()
        if high == UInt8(ascii: "\\") {
          guard let escaped = bytes.popFirst(), isPunctuation(escaped) else { return nil }
          high = escaped
        }
        guard low <= high else { return nil }
        for value in low...high { set.insert(value) }
      } else {
        set.insert(low)
      }
    }
    return nil
  }

  /// `\d`, `\w`, or an escaped punctuation character; nil for anything else (`\s`, `\b`, `\u`, ...).
  private static func escapeSet(_ escaped: UInt8) -> ByteSet? {
    var set = ByteSet()
    switch escaped {
    case UInt8(ascii: "d"):
      for value in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(value) }
    case UInt8(ascii: "w"):
      for value in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(value) }
      for value in UInt8(ascii: "a")...UInt8(ascii: "z") { set.insert(value) }
      for value in UInt8(ascii: "A")...UInt8(ascii: "Z") { set.insert(value) }
      set.insert(UInt8(ascii: "_"))
    case _ where isPunctuation(escaped):
      set.insert(escaped)
    default:
      return nil
    }
    return set
  }

  private static func isPunctuation(_ byte: UInt8) -> Bool {
    (33...47).contains(byte) || (58...64).contains(byte) || (91...96).contains(byte) || (123...126).contains(byte)
  }
}
