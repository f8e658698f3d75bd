extension FlowExpression {
  struct Token: Sendable {
    enum Kind: Equatable, Sendable {
      /// An integer literal's magnitude (the sign is a separate `-`).
      case integer(UInt64)
      /// A decimal literal's magnitude (`80.5`, `1e-5`; the sign is a separate `-`).
      case decimal(Double)
      case string(String)
      case identifier(String)
      case symbol(String)
      case end
    }

    var kind: Kind
    /// 1-based column of the token's first scalar.
    var column: Int
    /// The token as written, for messages.
    var text: String

    /// `')'`, `'foo'`, `string "abc"`, `end of expression`: the token as an error message names it.
    var quoted: String {
      switch kind {
      case .end: "end of expression"
      case .string: "string " + text
      default: "'\(text)'"
      }
    }

    func `is`(_ symbol: String) -> Bool { kind == .symbol(symbol) }
  }

  /// Splits a source into tokens; the last token is always `.end`.
  struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ source: String) {
      scalars = Array(source.unicodeScalars)
    }

    static func tokens(of source: String) throws(ExpressionError) -> [Token] {
      var lexer = Lexer(source)
      // Every token but the last takes at least one scalar: room for all of them at once, so that the array of a
      // usual expression never grows; at most 64, so that a huge one (one long string) reserves no more than that.
      var tokens: [Token] = []
      tokens.reserveCapacity(min(lexer.scalars.count + 1, 64))
      while true {
        let token = try lexer.next()
        tokens.append(token)
        if token.kind == .end { return tokens }
      }
    }

    private static func twoCharacterSymbol(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> String? {
      switch (first, second) {
      case ("?", "?"): "??"
      case ("!", "="): "!="
      case ("=", "="): "=="
      case ("<", "="): "<="
      case (">", "="): ">="
      case ("&", "&"): "&&"
      case ("|", "|"): "||"
      default: nil
      }
    }
    /// A switch, not a `Set<Unicode.Scalar>`: building the set was a lookup of its Hashable conformance over
    /// every conformance in the binary, about 0.4M instructions in each flowlint process. The symbols are string
    /// literals, which cost nothing to make, where `String(scalar)` made each one anew.
    private static func oneCharacterSymbol(_ scalar: Unicode.Scalar) -> String? {
      switch scalar {
      case "(": "("
      case ")": ")"
      case "[": "["
      case "]": "]"
      case "{": "{"
      case "}": "}"
      case ",": ","
      case ".": "."
      case "?": "?"
      case ":": ":"
      case "!": "!"
      case "<": "<"
      case ">": ">"
      case "+": "+"
      case "-": "-"
      case "*": "*"
      case "/": "/"
      case "%": "%"
      default: nil
      }
    }

    private mutating func next() throws(ExpressionError) -> Token {
      while position < scalars.count, Self.isWhitespace(scalars[position]) { position += 1 }
      let start = position
      let column = start + 1
      guard position < scalars.count else { return Token(kind: .end, column: column, text: "") }
      let scalar = scalars[position]

      if Self.isIdentifierStart(scalar) {
        while position < scalars.count, Self.isIdentifierStart(scalars[position]) || Self.isDigit(scalars[position]) {
          position += 1
        }
        let name = text(from: start)
        return Token(kind: .identifier(name), column: column, text: name)
      }
      if Self.isDigit(scalar) { return try integer(from: start) }
      if scalar == "\"" || scalar == "'" { return try string(from: start) }

      if position + 1 < scalars.count, let pair = Self.twoCharacterSymbol(scalar, scalars[position + 1]) {
        position += 2
        return Token(kind: .symbol(pair), column: column, text: pair)
      }
      if let symbol = Self.oneCharacterSymbol(scalar) {
        position += 1
        return Token(kind: .symbol(symbol), column: column, text: symbol)
      }
      let hint: String =
        switch scalar {
        case "=": "; did you mean '=='?"
        case "&": "; did you mean '&&'?"
        case "|": "; did you mean '||'?"
        default: ""
        }
      throw ExpressionError(.syntax, "unexpected character '\(Self.printable(scalar))'\(hint)", column: column)
    }

    private mutating func integer(from start: Int) throws(ExpressionError) -> Token {
      var value: UInt64 = 0
      var overflow = false
      while position < scalars.count, Self.isDigit(scalars[position]) {
        let digit = UInt64(scalars[position].value - 48)
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(digit)
        overflow = overflow || o1 || o2
        value = sum
        position += 1
      }
      var isDecimal = false
      if position < scalars.count, scalars[position] == ".", position + 1 < scalars.count,
        Self.isDigit(scalars[position + 1])
      {
        isDecimal = true
        position += 1
        while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
      }
      if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
        var end = position + 1
        if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
        if end < scalars.count, Self.isDigit(scalars[end]) {
          isDecimal = true
          position = end
          while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
        }
      }
      if isDecimal {
        if position < scalars.count, Self.isIdentifierStart(scalars[position]) {
          throw ExpressionError(
            .syntax, "unexpected '\(Self.printable(scalars[position]))' after a number", column: position + 1)
        }
        let literal = text(from: start)
        guard let number = Double(literal), number.isFinite else {
          throw ExpressionError(
            .syntax, "decimal literal '\(literal)' is too large; at most \(Double.greatestFiniteMagnitude)",
            column: start + 1)
        }
        return Token(kind: .decimal(number), column: start + 1, text: literal)
      }
      if position < scalars.count, Self.isIdentifierStart(scalars[position]) {
        throw ExpressionError(
          .syntax, "unexpected '\(Self.printable(scalars[position]))' after a number", column: position + 1)
      }
      let literal = text(from: start)
      if overflow || value > UInt64(Int.max) + 1 {
        throw ExpressionError(
          .syntax, "integer literal '\(literal)' is too large; at most \(Int.max)", column: start + 1)
      }
      return Token(kind: .integer(value), column: start + 1, text: literal)
    }

    private mutating func string(from start: Int) throws(ExpressionError) -> Token {
      let quote = scalars[start]
      position += 1
      var value: [UInt8] = []
      while true {
        guard position < scalars.count else {
          throw ExpressionError(.syntax, "unterminated string", column: start + 1)
        }
        let scalar = scalars[position]
        if scalar == quote {
          position += 1
          return Token(
            kind: .string(String(decoding: value, as: UTF8.self)), column: start + 1, text: text(from: start))
        }
        if scalar == "\n" || scalar == "\r" {
          throw ExpressionError(.syntax, "unterminated string", column: start + 1)
        }
        guard scalar == "\\" else {
          Self.append(scalar, to: &value)
          position += 1
          continue
        }
        let escapeColumn = position + 1
        position += 1
        guard position < scalars.count else {
          throw ExpressionError(.syntax, "unterminated string", column: start + 1)
        }
        let escaped = scalars[position]
        position += 1
        switch escaped {
        case "n": Self.append("\n", to: &value)
        case "t": Self.append("\t", to: &value)
        case "r": Self.append("\r", to: &value)
        case "0": Self.append("\0", to: &value)
        case "\\", "\"", "'": Self.append(escaped, to: &value)
        case "u": Self.append(try unicodeEscape(at: escapeColumn), to: &value)
        default:
          throw ExpressionError(
            .syntax,
            "unknown escape '\\\(Self.printable(escaped))'; expected one of \\n \\t \\r \\0 \\\\ \\\" \\' \\u{...}",
            column: escapeColumn)
        }
      }
    }

    /// The rest of `\u{1F600}` after the `u`.
    private mutating func unicodeEscape(at column: Int) throws(ExpressionError) -> Unicode.Scalar {
      let invalid = ExpressionError(
        .syntax, "invalid unicode escape; expected \\u{XXXX} with 1 to 8 hex digits", column: column)
      guard position < scalars.count, scalars[position] == "{" else { throw invalid }
      position += 1
      var code: UInt32 = 0
      var digits = 0
      while position < scalars.count, let digit = Self.hexValue(scalars[position]) {
        guard digits < 8 else { throw invalid }
        code = code &* 16 &+ digit
        digits += 1
        position += 1
      }
      guard digits > 0, position < scalars.count, scalars[position] == "}" else { throw invalid }
      position += 1
      guard let scalar = Unicode.Scalar(code) else {
        throw ExpressionError(.syntax, "invalid unicode scalar in \\u{...}", column: column)
      }
      return scalar
    }

    /// The scalars from `start` to `position` as a string, written as UTF-8 directly (appending the scalars to
    /// a `String.UnicodeScalarView` was an unspecialized generic call costing thousands of instructions), into the
    /// string's own storage: no array in between (a name or a number fits in a string without any allocation).
    private func text(from start: Int) -> String {
      let scalars = scalars[start..<position]
      let count = scalars.reduce(0) { $0 + UTF8.width($1) }
      return String(unsafeUninitializedCapacity: count) { buffer in
        var offset = 0
        for scalar in scalars {
          for byte in UTF8.encode(scalar)! {
            buffer[offset] = byte
            offset += 1
          }
        }
        return offset
      }
    }

    private static func append(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
      if scalar.value < 0x80 {
        utf8.append(UInt8(truncatingIfNeeded: scalar.value))
      } else {
        utf8.append(contentsOf: UTF8.encode(scalar)!)
      }
    }

    private static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
      (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_"
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }

    /// Unicode's White_Space property, answered without the property lookup for ASCII (tab to carriage
    /// return, and space).
    private static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
      s.value < 0x80 ? s == " " || (s.value >= 0x09 && s.value <= 0x0D) : s.properties.isWhitespace
    }

    private static func hexValue(_ s: Unicode.Scalar) -> UInt32? {
      switch s {
      case "0"..."9": s.value - 48
      case "a"..."f": s.value - 87
      case "A"..."F": s.value - 55
      default: nil
      }
    }

    /// A scalar as it can be shown in a message (control characters escaped).
    static func printable(_ s: Unicode.Scalar) -> String {
      s.value < 0x20 || s.value == 0x7F ? s.escaped(asASCII: true) : String(s)
    }
  }
}
