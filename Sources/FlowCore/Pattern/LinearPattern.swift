/// A regular expression compiled for matching in linear time (a JSON Schema `pattern`, and the flow language's
/// `matches(s, pattern)`): a Thompson NFA run as a Pike VM over the text's Unicode scalars, so a pattern such as
/// `^(a|aa)+$` costs O(text length × pattern size) on any input and can never backtrack exponentially.
///
/// The syntax is ECMA-262 with the `u` flag (what JSON Schema specifies), except the two parts that are not
/// regular: backreferences (`\1`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) are refused when the pattern
/// compiles. Supported: literals, `.`, classes with ranges and negation, `\d \D \w \W \s \S` (ASCII `\d` and
/// `\w`, ECMA-262 white space), `\b \B`, `\p{…}`/`\P{…}` for general categories, `\t \n \v \f \r \0 \cX \xHH
/// \uHHHH \u{H…}`, groups (capturing, named and `(?:`), alternation, greedy and lazy quantifiers (`* + ? {n}
/// {n,} {n,m}`), and `^`/`$` (not multiline). A match is searched anywhere in the text unless anchored.
package struct LinearPattern: Sendable {
  private let program: [Instruction]
  private let classes: [ScalarClass]
  /// The same program as a lazily built deterministic automaton, for programs without `\b`/`\B`.
  private let automaton: Automaton?
  /// For a pattern of the shape `^[…][…]*$` over ASCII classes, the two classes: matched without the automaton.
  private let name: NameShape?

  /// Whether the pattern is matched as a name (``NameShape``), for tests.
  package var isMatchedAsName: Bool { name != nil }

  /// Most instructions a pattern may compile to; counted repetitions (`(ab){1000}`) are expanded, so this
  /// bounds what a hostile pattern costs per character.
  package static let maxInstructions = 20_000

  /// Why a pattern cannot be compiled, phrased for the schema's author.
  package struct SyntaxError: Error, CustomStringConvertible {
    package var description: String
  }

  enum Instruction: Sendable {
    case scalar(Int)
    case split(Int, Int)
    case jump(Int)
    case assert(Assertion)
    case match
  }

  enum Assertion: Sendable {
    case start, end, wordBoundary, notWordBoundary
  }

  package init(_ source: String) throws(SyntaxError) {
    var parser = Parser(Array(source.unicodeScalars))
    let tree = try parser.parse()
    var compiler = Compiler()
    try compiler.emit(tree)
    compiler.program.append(.match)
    program = compiler.program
    classes = compiler.classes
    automaton = Automaton(program: program, classes: classes)
    name = NameShape(tree)
  }

  /// The pattern `source` compiles to, compiled once per process. The flow language's `matches(s, pattern)` and a
  /// form field's `pattern` are checked at every event that reads them; compiling the pattern each time, and
  /// building its automaton again from nothing, cost about 68,000 instructions a check, against about 900 for
  /// looking it up here and matching (`flowrun explore flows/ledger-finance.yaml`, whose deep link checks a code,
  /// spent a fifth of its instructions there). The first ``cacheLimit`` patterns met are kept, shared by every
  /// thread; a pattern met after that is compiled at each use. A pattern that does not compile is not kept.
  package static func compiled(_ source: String) throws(SyntaxError) -> LinearPattern {
    if let kept = cache.withLock({ $0[source] }) { return kept }
    let pattern = try LinearPattern(source)
    cache.withLock { kept in
      if kept.count < cacheLimit { kept[source] = pattern }
    }
    return pattern
  }

  /// Most patterns ``compiled(_:)`` keeps: far more than a flow declares, few enough that patterns built from
  /// what a user types cannot grow the process without bound.
  package static let cacheLimit = 256

  private static let cache = Locked<[String: LinearPattern]>([:])

  /// How many patterns ``compiled(_:)`` keeps now.
  package static var keptCount: Int { cache.withLock { $0.count } }

  /// Whether the pattern matches anywhere in `text`.
  ///
  /// One pass over the text's scalars with two thread lists and one work stack, all allocated once per call:
  /// nothing is allocated per character.
  package func matches(_ text: String) -> Bool {
    if let name { return name.matches(text) }
    if let automaton, let answer = automaton.matches(text) { return answer }
    return simulate(text)
  }

  /// The Pike VM itself: what the automaton caches, and the answer when its table is full.
  package func simulate(_ text: String) -> Bool {
    var current = ThreadList(capacity: program.count)
    var next = ThreadList(capacity: program.count)
    var stack: [Int] = []
    stack.reserveCapacity(program.count)
    var scalars = text.unicodeScalars.makeIterator()
    var here = Position(previous: nil, scalar: scalars.next())
    let anchored = program.first.map(isStartAnchor) == true
    while true {
      // An unanchored search starts a thread at every position.
      if add(0, at: here, to: &current, stack: &stack) { return true }
      guard let scalar = here.scalar else { break }
      let following = Position(previous: scalar, scalar: scalars.next())
      next.clear()
      for pc in current.threads {
        guard case .scalar(let index) = program[pc], classes[index].contains(scalar) else { continue }
        if add(pc + 1, at: following, to: &next, stack: &stack) { return true }
      }
      swap(&current, &next)
      if current.threads.isEmpty && anchored { return false }
      here = following
    }
    return false
  }

  private func isStartAnchor(_ instruction: Instruction) -> Bool {
    if case .assert(.start) = instruction { true } else { false }
  }

  /// Where a thread stands: between the scalar before (nil at the start of the text) and the scalar after
  /// (nil at the end).
  private struct Position {
    var previous: Unicode.Scalar?
    var scalar: Unicode.Scalar?
  }

  /// Follows jumps, splits and assertions from `start` and adds the scalar-consuming threads reached; true
  /// when `match` is reached. `stack` is scratch space, empty on return.
  private func add(_ start: Int, at position: Position, to list: inout ThreadList, stack: inout [Int]) -> Bool {
    stack.append(start)
    while let pc = stack.popLast() {
      guard list.insert(pc) else { continue }
      switch program[pc] {
      case .match:
        stack.removeAll(keepingCapacity: true)
        return true
      case .scalar: list.threads.append(pc)
      case .jump(let target): stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .assert(let assertion):
        if holds(assertion, at: position) { stack.append(pc + 1) }
      }
    }
    return false
  }

  private func holds(_ assertion: Assertion, at position: Position) -> Bool {
    switch assertion {
    case .start: return position.previous == nil
    case .end: return position.scalar == nil
    case .wordBoundary, .notWordBoundary:
      let before = position.previous.map(ScalarClass.isWord) ?? false
      let after = position.scalar.map(ScalarClass.isWord) ?? false
      return (before != after) == (assertion == .wordBoundary)
    }
  }

  /// The threads of one step, in order, with a generation-stamped membership test: clearing is O(1).
  struct ThreadList {
    var threads: [Int] = []
    private var stamps: [UInt32]
    private var generation: UInt32 = 1

    init(capacity: Int) {
      stamps = Array(repeating: 0, count: capacity)
      threads.reserveCapacity(capacity)
    }

    mutating func insert(_ pc: Int) -> Bool {
      if stamps[pc] == generation { return false }
      stamps[pc] = generation
      return true
    }

    mutating func clear() {
      threads.removeAll(keepingCapacity: true)
      if generation == .max {
        for index in stamps.indices { stamps[index] = 0 }
        generation = 1
      } else {
        generation += 1
      }
    }
  }
}

// MARK: - Classes of scalars

extension LinearPattern {
  /// A set of scalars: ranges and named classes, possibly negated.
  struct ScalarClass: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var named: [Named] = []
    var negated = false

    enum Named: Sendable {
      case digit(Bool), word(Bool), space(Bool)
      case category(Set<Unicode.GeneralCategory>, Bool)

      func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .digit(let negated): return ("0"..."9").contains(scalar) != negated
        case .word(let negated): return ScalarClass.isWord(scalar) != negated
        case .space(let negated): return ScalarClass.isSpace(scalar) != negated
        case .category(let set, let negated): return set.contains(scalar.properties.generalCategory) != negated
        }
      }
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
      let found = ranges.contains { $0.contains(scalar.value) } || named.contains { $0.contains(scalar) }
      return found != negated
    }

    /// Marks in `bounds` (129 flags, one per ASCII value and one for the end) each ASCII value where whether the
    /// class contains a scalar may change from the scalar before it: between two bounds, it contains all of the
    /// ASCII scalars or none. False for a Unicode category, whose ASCII members are not worked out.
    func markASCIIBounds(in bounds: inout [Bool]) -> Bool {
      func mark(_ values: UInt32...) { for value in values where value < 128 { bounds[Int(value)] = true } }
      for range in ranges { mark(range.lowerBound, range.upperBound &+ 1) }
      for name in named {
        switch name {
        case .digit: mark(0x30, 0x3A)
        case .word: mark(0x30, 0x3A, 0x41, 0x5B, 0x5F, 0x60, 0x61, 0x7B)
        case .space: mark(0x09, 0x0E, 0x20, 0x21)
        case .category: return false
        }
      }
      return true
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    /// ECMA-262 white space and line terminators.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
      default: false
      }
    }

    /// `.`: everything but line terminators.
    static let any = ScalarClass(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true)

    static func single(_ scalar: Unicode.Scalar) -> ScalarClass { ScalarClass(ranges: [scalar.value...scalar.value]) }
  }
}

// MARK: - Names

extension LinearPattern {
  /// A pattern `^[…][…]*$` whose two classes hold only ASCII scalars: most of a schema's patterns for names
  /// (`^[A-Za-z_][A-Za-z0-9_]*$`), which a flow's validation matches tens of thousands of times. It is matched a
  /// byte at a time against two sets of 128 bits, without the automaton's lock or table: a text with a byte
  /// outside ASCII cannot match.
  struct NameShape: Sendable {
    var first: ASCIISet
    var rest: ASCIISet

    init?(_ tree: Tree) {
      guard case .sequence(let parts) = tree, parts.count == 4, case .assertion(.start) = parts[0],
        case .scalar(let first) = parts[1], case .repetition(.scalar(let rest), min: 0, max: nil) = parts[2],
        case .assertion(.end) = parts[3], let first = ASCIISet(first), let rest = ASCIISet(rest)
      else { return nil }
      (self.first, self.rest) = (first, rest)
    }

    func matches(_ text: String) -> Bool {
      // In place: a native or small string has its UTF-8 at hand.
      text.utf8.withContiguousStorageIfAvailable(matches) ?? matches(Array(text.utf8))
    }

    private func matches(_ bytes: some Collection<UInt8>) -> Bool {
      guard let head = bytes.first, first.contains(head) else { return false }
      return bytes.dropFirst().allSatisfy(rest.contains)
    }
  }

  /// A set of ASCII values as two 64-bit masks.
  struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// Nil for a class that holds a scalar outside ASCII: a negated class, a Unicode category, `\s`, `\W`, `\S`,
    /// a range past U+007F.
    init?(_ scalars: ScalarClass) {
      guard !scalars.negated else { return nil }
      for range in scalars.ranges {
        guard range.upperBound < 128 else { return nil }
        for value in range { insert(UInt8(value)) }
      }
      for name in scalars.named {
        switch name {
        case .digit(false): for value in UInt8(ascii: "0")...UInt8(ascii: "9") { insert(value) }
        case .word(false): for value in 0..<UInt8(128) where ScalarClass.isWord(Unicode.Scalar(value)) { insert(value) }
        // `\s` holds white space outside ASCII too.
        default: return nil
        }
      }
    }

    private mutating func insert(_ value: UInt8) {
      if value < 64 { low |= 1 << value } else { high |= 1 << (value - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
      byte < 64 ? low & (1 << byte) != 0 : byte < 128 && high & (1 << (byte - 64)) != 0
    }
  }
}

// MARK: - Parsing

extension LinearPattern {
  indirect enum Tree {
    case empty
    case scalar(ScalarClass)
    case sequence([Tree])
    case alternation([Tree])
    case repetition(Tree, min: Int, max: Int?)
    case assertion(Assertion)
  }

  struct Parser {
    let text: [Unicode.Scalar]
    var index = 0

    init(_ text: [Unicode.Scalar]) { self.text = text }

    var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }

    func error(_ message: String) -> SyntaxError { SyntaxError(description: message) }

    mutating func parse() throws(SyntaxError) -> Tree {
      let tree = try alternation(depth: 0)
      if index < text.count { throw error("unmatched ')' at character \(index + 1)") }
      return tree
    }

    mutating func alternation(depth: Int) throws(SyntaxError) -> Tree {
      guard depth < 100 else { throw error("groups nest deeper than 100 levels") }
      var branches = [try sequence(depth: depth)]
      while peek == "|" {
        index += 1
        branches.append(try sequence(depth: depth))
      }
      return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func sequence(depth: Int) throws(SyntaxError) -> Tree {
      var items: [Tree] = []
      while let scalar = peek, scalar != "|", scalar != ")" {
        let atom = try self.atom(depth: depth)
        items.append(try quantified(atom))
      }
      return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func atom(depth: Int) throws(SyntaxError) -> Tree {
      let scalar = text[index]
      index += 1
      switch scalar {
      case "^": return .assertion(.start)
      case "$": return .assertion(.end)
      case ".": return .scalar(.any)
      case "(":
        if peek == "?" {
          let next = index + 1 < text.count ? text[index + 1] : nil
          if next == ":" {
            index += 2
          } else if next == "<", index + 2 < text.count, text[index + 2] != "=", text[index + 2] != "!" {
            // A named group: (?<name>…)
            guard let close = text[index...].firstIndex(of: ">") else { throw error("unterminated group name") }
            index = close + 1
          } else if next == "=" || next == "!" || next == "<" {
            throw error("lookaround assertions are not supported: patterns run on a linear-time automaton")
          } else {
            throw error("invalid group '(?' at character \(index)")
          }
        }
        let inner = try alternation(depth: depth + 1)
        guard peek == ")" else { throw error("missing ')'") }
        index += 1
        return inner
      case "[": return .scalar(try characterClass())
      case "\\": return try escape()
      case "*", "+", "?", "{":
        throw error("nothing to repeat before '\(scalar)' at character \(index)")
      case "]", "}":
        throw error("lone '\(scalar)' at character \(index); escape it as '\\\(scalar)'")
      default: return .scalar(.single(scalar))
      }
    }

    mutating func quantified(_ atom: Tree) throws(SyntaxError) -> Tree {
      if case .assertion = atom, let next = peek, "*+?{".unicodeScalars.contains(next) {
        throw error("nothing to repeat before '\(next)' at character \(index + 1)")
      }
      let min: Int
      let max: Int?
      switch peek {
      case "*": (min, max) = (0, nil)
      case "+": (min, max) = (1, nil)
      case "?": (min, max) = (0, 1)
      case "{":
        let start = index
        index += 1
        guard let low = number() else { throw error("invalid quantifier at character \(start + 1)") }
        var high: Int? = low
        if peek == "," {
          index += 1
          high = peek == "}" ? nil : number()
          if high == nil && peek != "}" { throw error("invalid quantifier at character \(start + 1)") }
        }
        guard peek == "}" else { throw error("invalid quantifier at character \(start + 1)") }
        if let high, high < low { throw error("numbers out of order in {\(low),\(high)}") }
        (min, max) = (low, high)
      default: return atom
      }
      index += 1
      if peek == "?" { index += 1 }  // lazy: the same set of matches
      return .repetition(atom, min: min, max: max)
    }

    mutating func number() -> Int? {
      var value = 0
      var digits = 0
      while let scalar = peek, ("0"..."9").contains(scalar) {
        value = Swift.min(value * 10 + Int(scalar.value - 48), 1_000_000)
        digits += 1
        index += 1
      }
      return digits > 0 ? value : nil
    }

    mutating func characterClass() throws(SyntaxError) -> ScalarClass {
      var result = ScalarClass()
      if peek == "^" {
        result.negated = true
        index += 1
      }
      while true {
        guard let scalar = peek else { throw error("missing ']'") }
        index += 1
        if scalar == "]" { return result }
        let low: Unicode.Scalar
        if scalar == "\\" {
          switch try classEscape() {
          case .scalar(let value): low = value
          case .named(let named):
            result.named.append(named)
            continue
          }
        } else {
          low = scalar
        }
        if peek == "-", index + 1 < text.count, text[index + 1] != "]" {
          index += 1
          var high = text[index]
          index += 1
          if high == "\\" {
            guard case .scalar(let value) = try classEscape() else {
              throw error("a class like \\d cannot end a range")
            }
            high = value
          }
          guard low.value <= high.value else { throw error("range out of order in character class") }
          result.ranges.append(low.value...high.value)
        } else {
          result.ranges.append(low.value...low.value)
        }
      }
    }

    enum ClassEscape {
      case scalar(Unicode.Scalar)
      case named(ScalarClass.Named)
    }

    mutating func escape() throws(SyntaxError) -> Tree {
      guard let scalar = peek else { throw error("'\\' at the end of the pattern") }
      switch scalar {
      case "b":
        index += 1
        return .assertion(.wordBoundary)
      case "B":
        index += 1
        return .assertion(.notWordBoundary)
      case "1"..."9":
        throw error("backreferences are not supported: patterns run on a linear-time automaton")
      default:
        switch try classEscape() {
        case .scalar(let value): return .scalar(.single(value))
        case .named(let named): return .scalar(ScalarClass(named: [named]))
        }
      }
    }

    /// An escape after `\` (inside or outside a class; `\b` here is backspace).
    mutating func classEscape() throws(SyntaxError) -> ClassEscape {
      guard let scalar = peek else { throw error("'\\' at the end of the pattern") }
      index += 1
      switch scalar {
      case "d": return .named(.digit(false))
      case "D": return .named(.digit(true))
      case "w": return .named(.word(false))
      case "W": return .named(.word(true))
      case "s": return .named(.space(false))
      case "S": return .named(.space(true))
      case "t": return .scalar("\t")
      case "n": return .scalar("\n")
      case "v": return .scalar("\u{0B}")
      case "f": return .scalar("\u{0C}")
      case "r": return .scalar("\r")
      case "b": return .scalar("\u{08}")
      case "-": return .scalar("-")
      case "0":
        if let next = peek, ("0"..."9").contains(next) { throw error("octal escapes are not allowed") }
        return .scalar("\0")
      case "c":
        guard let letter = peek, ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) else {
          throw error("'\\c' must be followed by a letter")
        }
        index += 1
        return .scalar(Unicode.Scalar(UInt8(letter.value % 32)))
      case "x": return .scalar(try hex(count: 2))
      case "u":
        if peek == "{" {
          index += 1
          guard let close = text[index...].firstIndex(of: "}"), close > index, close - index <= 6,
            let value = UInt32(String(String.UnicodeScalarView(text[index..<close])), radix: 16),
            let result = Unicode.Scalar(value)
          else { throw error("invalid '\\u{…}' escape") }
          index = close + 1
          return .scalar(result)
        }
        return .scalar(try hex(count: 4))
      case "p", "P":
        guard peek == "{", let close = text[index...].firstIndex(of: "}") else {
          throw error("'\\\(scalar)' must be followed by a property in braces, e.g. \\p{Letter}")
        }
        let name = String(String.UnicodeScalarView(text[(index + 1)..<close]))
        index = close + 1
        guard let categories = Self.categories(named: name) else {
          throw error("unknown Unicode property '\(name)'; use a general category such as Letter, Lu or Nd")
        }
        return .named(.category(categories, scalar == "P"))
      case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
        return .scalar(scalar)
      default:
        throw error("invalid escape '\\\(scalar)'")
      }
    }

    mutating func hex(count: Int) throws(SyntaxError) -> Unicode.Scalar {
      guard index + count <= text.count,
        let value = UInt32(String(String.UnicodeScalarView(text[index..<(index + count)])), radix: 16),
        let scalar = Unicode.Scalar(value)
      else { throw error("invalid hexadecimal escape") }
      index += count
      return scalar
    }

    /// General categories by their long or short name (`Letter`, `L`, `Lu`, `Decimal_Number`, `digit`, …).
    static func categories(named name: String) -> Set<Unicode.GeneralCategory>? {
      let key = name.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
      let letters: Set<Unicode.GeneralCategory> = [
        .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      ]
      let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
      let numbers: Set<Unicode.GeneralCategory> = [.decimalNumber, .letterNumber, .otherNumber]
      let punctuation: Set<Unicode.GeneralCategory> = [
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
        .finalPunctuation, .otherPunctuation,
      ]
      let symbols: Set<Unicode.GeneralCategory> = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
      let separators: Set<Unicode.GeneralCategory> = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
      let others: Set<Unicode.GeneralCategory> = [.control, .format, .surrogate, .privateUse, .unassigned]
      let table: [String: Set<Unicode.GeneralCategory>] = [
        "l": letters, "letter": letters, "lu": [.uppercaseLetter], "uppercaseletter": [.uppercaseLetter],
        "ll": [.lowercaseLetter], "lowercaseletter": [.lowercaseLetter], "lt": [.titlecaseLetter],
        "titlecaseletter": [.titlecaseLetter], "lm": [.modifierLetter], "modifierletter": [.modifierLetter],
        "lo": [.otherLetter], "otherletter": [.otherLetter], "m": marks, "mark": marks,
        "mn": [.nonspacingMark], "mc": [.spacingMark], "me": [.enclosingMark], "n": numbers, "number": numbers,
        "nd": [.decimalNumber], "decimalnumber": [.decimalNumber], "digit": [.decimalNumber],
        "nl": [.letterNumber], "no": [.otherNumber], "p": punctuation, "punctuation": punctuation,
        "s": symbols, "symbol": symbols, "sm": [.mathSymbol], "sc": [.currencySymbol], "sk": [.modifierSymbol],
        "so": [.otherSymbol], "z": separators, "separator": separators, "zs": [.spaceSeparator],
        "zl": [.lineSeparator], "zp": [.paragraphSeparator], "c": others, "other": others, "cc": [.control],
        "control": [.control], "cf": [.format], "format": [.format], "co": [.privateUse], "cn": [.unassigned],
        "cs": [.surrogate],
      ]
      return table[key]
    }
  }
}

// MARK: - Compiling

extension LinearPattern {
  struct Compiler {
    var program: [Instruction] = []
    var classes: [ScalarClass] = []

    mutating func append(_ instruction: Instruction) throws(SyntaxError) {
      guard program.count < LinearPattern.maxInstructions else {
        throw SyntaxError(
          description: "the pattern is too large: more than \(LinearPattern.maxInstructions) steps once its "
            + "counted repetitions are expanded")
      }
      program.append(instruction)
    }

    mutating func emit(_ tree: Tree) throws(SyntaxError) {
      switch tree {
      case .empty: break
      case .scalar(let set):
        classes.append(set)
        try append(.scalar(classes.count - 1))
      case .assertion(let assertion): try append(.assert(assertion))
      case .sequence(let items): for item in items { try emit(item) }
      case .alternation(let branches):
        var jumps: [Int] = []
        for (offset, branch) in branches.enumerated() {
          if offset < branches.count - 1 {
            let split = program.count
            try append(.split(split + 1, -1))
            try emit(branch)
            jumps.append(program.count)
            try append(.jump(-1))
            program[split] = .split(split + 1, program.count)
          } else {
            try emit(branch)
          }
        }
        for jump in jumps { program[jump] = .jump(program.count) }
      case .repetition(let inner, let min, let max):
        for _ in 0..<min { try emit(inner) }
        if let max {
          // Optional copies: each may be skipped, and skipping one skips the rest.
          var skips: [Int] = []
          for _ in min..<max {
            skips.append(program.count)
            try append(.split(program.count + 1, -1))
            try emit(inner)
          }
          for skip in skips { program[skip] = .split(skip + 1, program.count) }
        } else {
          let loop = program.count
          try append(.split(loop + 1, -1))
          try emit(inner)
          try append(.jump(loop))
          program[loop] = .split(loop + 1, program.count)
        }
      }
    }
  }
}
