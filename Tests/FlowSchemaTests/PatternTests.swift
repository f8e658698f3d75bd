import FlowCore
import Foundation
import Synchronization
import Testing

@testable import FlowSchema

/// Schema patterns run on `LinearPattern` (FlowCore's, which the expression function `matches` shares), a Pike VM:
/// it must agree with `Regex` (ECMA-262 semantics as far as `Regex` has them) on every pattern both accept, and stay
/// linear on inputs that make backtracking explode.
struct PatternTests {
  static let patterns = [
    "^[A-Za-z_][A-Za-z0-9_-]*$", "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$", "^[0-2][0-9]:[0-5][0-9]$",
    "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_-]+)?$", "a+b", "^a*a$", "(ab)+c?$", "^\\d{2,}", "\\w-\\w",
    "^(?:x|y)$", "^[^a]$", "^.$", "a{2}", "^(a?){3}b$", "[-a]$", "^x\\$", "a|b", "^(a|ab)(c|bcd)$", "a+?b",
    "\\bab", "b\\B", "^\\D\\W\\S$", "^[\\d\\-x]+$", "^(?<year>\\d{4})-\\d\\d$", "^\\u00e9$", "^\\x41$", "^\\p{L}+$",
    "^\\P{Lu}$", "()*a", "^(|a)+$", "^[\\s]$",
  ]
  static let texts = [
    "", "a", "ab", "abc", "aab", "ababc", "abab", "en", "pt-BR", "pt_BR_x", "eng-US-POSIX", "e", "12:30", "29:99",
    "habitTimes.wake", "habit times.wake", "a.", "_", "x-y", "ünï", "a-b", "aaab", "b", "12", "1", "x$", "x", "é",
    "abcd", "abbcd", "1-x-2", "2024-01", "A", "Ém", " ", "\t", "a b", "é\u{301}", "🐲",
  ]

  @Test(arguments: patterns)
  func agreesWithRegex(_ source: String) throws {
    let pattern = try LinearPattern(source)
    let regex = try Regex(source).matchingSemantics(.unicodeScalar).asciiOnlyDigits().asciiOnlyWordCharacters()
    for text in Self.texts {
      let expected = (try regex.firstMatch(in: text)) != nil
      #expect(pattern.matches(text) == expected, "'\(source)' on '\(text)'")
    }
  }

  /// The issue's example: a backtracking matcher takes exponential time here.
  @Test func nestedAlternationUnderARepetitionIsLinear() throws {
    let pattern = try LinearPattern("^(a|aa)+$")
    let long = String(repeating: "a", count: 10_000)
    let start = ContinuousClock.now
    #expect(pattern.matches(long + "b") == false)
    #expect(pattern.matches(long) == true)
    #expect(try LinearPattern("^(a*)*b$").matches(long) == false)
    #expect(try LinearPattern("(x+x+)+y").matches(String(repeating: "x", count: 10_000)) == false)
    #expect(ContinuousClock.now - start < .seconds(1))
    #expect(try !compile(##"{"pattern": "^(a|aa)+$"}"##).isValid(Node(.string(long + "b"))))
  }

  /// The cached automaton answers as the VM does, also once its table is full (`(a|b)*a(a|b){9}` needs 1,024
  /// states, more than `Automaton.maxStates`), for every string of a's and b's up to length 12.
  @Test(arguments: ["(a|b)*a(a|b){9}", "^(a|ab)*b$", "a(b|)a", "^$", "^(ab|a)*$"])
  func automatonAgreesWithTheVM(_ source: String) throws {
    let pattern = try LinearPattern(source)
    for length in 0...12 {
      for bits in 0..<(1 << length) {
        let text = String((0..<length).map { bits & (1 << $0) == 0 ? "a" : "b" })
        #expect(pattern.matches(text) == pattern.simulate(text), "'\(source)' on '\(text)'")
      }
    }
  }

  /// The automaton's table by ASCII scalar: every pair of ASCII scalars, after a prefix, gives the VM's answer, on
  /// patterns with classes, negations and ranges.
  @Test(arguments: [
    "^[a-z][a-z0-9_-]*$", "[A-Fa-f0-9]{2}", #"\w+@\d"#, #"^[^\s]+$"#, "^.b", "^(ab|[^a])*$", #"[\x20-\x2F]x"#,
    #"^[\W\D]\S"#, #"\p{Lu}[a-z]"#,
  ])
  func automatonAgreesWithTheVMOnEveryASCIIPair(_ source: String) throws {
    let pattern = try LinearPattern(source)
    for first in 0..<128 {
      for second in 0..<128 {
        let text = "a" + String(Unicode.Scalar(UInt8(first))) + String(Unicode.Scalar(UInt8(second)))
        #expect(pattern.matches(text) == pattern.simulate(text), "'\(source)' on \(Array(text.unicodeScalars))")
      }
    }
  }

  /// A pattern `^[…][…]*$` over ASCII classes is matched a byte at a time, without the automaton: it gives the
  /// VM's answer on every text of up to three scalars from the classes' edges, non-ASCII ones included. Patterns of
  /// any other shape, or with a class that holds non-ASCII scalars, keep the automaton.
  @Test func namePatternsAgreeWithTheVM() throws {
    let names = [
      "^[A-Za-z_][A-Za-z0-9_]*$", "^[A-Za-z_][A-Za-z0-9_-]*$", "^[a-z][a-z0-9_.-]*$", #"^\d[\w]*$"#, "^[0-9][_]*$",
      // A group of one class is that class.
      "^(?:[a-z])[a-z]*$",
    ]
    let others = [
      "^[A-Za-z_][A-Za-z0-9_]+$", "[A-Za-z_][A-Za-z0-9_]*$", "^[^a][a-z]*$", #"^[a-z][\s]*$"#, #"^\w\W*$"#,
      "^[a-zé][a-z]*$", #"^\p{Lu}[a-z]*$"#, "^[a-z][a-z]*",
    ]
    let alphabet: [Unicode.Scalar] = [
      "a", "z", "A", "Z", "0", "9", "_", "-", ".", " ", "`", "{", "@", "[", "/", ":", "\u{7F}", "é", "\u{A0}", "😀",
    ]
    var texts = [""]
    for length in 1...3 {
      texts += texts.filter { $0.unicodeScalars.count == length - 1 }.flatMap { text in
        alphabet.map { text + String($0) }
      }
    }
    for source in names + others {
      let pattern = try LinearPattern(source)
      #expect(pattern.isMatchedAsName == names.contains(source), "\(source)")
      let wrong = texts.filter { pattern.matches($0) != pattern.simulate($0) }
      #expect(wrong.isEmpty, "'\(source)' on \(wrong.prefix(5))")
    }
  }

  @Test func longTextsAreMatched() throws {
    let long = "en" + String(repeating: "-aa", count: 100_000)
    #expect(try compile(##"{"pattern": "^[a-z]{2}([-_][a-z]{2})*$"}"##).isValid(Node(.string(long))))
    #expect(try LinearPattern("^[a-z]*$").matches(String(repeating: "a", count: 100_000)))
  }

  @Test func ecmaScriptEscapesThatRegexLacks() throws {
    #expect(try LinearPattern("^\\cC$").matches("\u{03}"))
    #expect(try LinearPattern("^\\s$").matches("\u{FEFF}"))
    #expect(try LinearPattern("^\\p{digit}+$").matches("৪২"))
    #expect(try LinearPattern("^\\u{1F432}*$").matches("🐲🐲"))
  }

  @Test(arguments: [
    ("(", "missing ')'"), ("[a", "missing ']'"), ("a{2,1}", "numbers out of order in {2,1}"),
    ("[z-a]", "range out of order in character class"), ("(a)\\1", "backreferences are not supported"),
    ("a(?=b)", "lookaround assertions are not supported"), ("(?<!a)b", "lookaround assertions are not supported"),
    ("*a", "nothing to repeat"), ("\\p{Nope}", "unknown Unicode property 'Nope'"), ("a)", "unmatched ')'"),
    ("((ab){10000}){10000}", "the pattern is too large"),
  ])
  func invalidOrUnsupportedPatternsAreRefusedUnlessCheckingIsOff(_ source: String, _ phrase: String) throws {
    let error = #expect(throws: LinearPattern.SyntaxError.self) { try LinearPattern(source) }
    #expect(error?.description.contains(phrase) == true, "\(String(describing: error))")
    let text = try String(data: JSONSerialization.data(withJSONObject: ["pattern": source]), encoding: .utf8) ?? ""
    #expect(throws: SchemaError.self) { try compile(text) }
    let node = try JSONReader.read(bytes: Array(text.utf8), file: "s.json")
    let unchecked = try JSONSchema(node, file: "s.json", checkingPatterns: false)
    // Validation then treats the pattern as matching nothing.
    #expect(!unchecked.isValid(Node(.string("a"))))
  }
}

/// `LinearPattern.compiled(_:)`: the patterns of `matches(s, pattern)` and of form fields, compiled once per process.
struct CompiledPatternTests {
  /// A pattern from the cache matches as one compiled afresh, the first time and every time after.
  @Test(arguments: PatternTests.patterns)
  func aKeptPatternMatchesAsAFreshOne(_ source: String) throws {
    let fresh = try LinearPattern(source)
    for _ in 0..<2 {
      let kept = try LinearPattern.compiled(source)
      for text in PatternTests.texts {
        #expect(kept.matches(text) == fresh.matches(text), "'\(source)' on '\(text)'")
      }
    }
  }

  /// Threads matching with one kept pattern at once (its automaton is built as they go, behind one lock) each get
  /// what a pattern of their own gives.
  @Test func threadsSharingAKeptPatternMatchAsAPatternOfTheirOwn() throws {
    let source = "^[A-Za-z0-9]{4,12}$"
    let fresh = try LinearPattern(source)
    let texts = (0..<400).map { String(repeating: "ab1Z", count: $0 % 5) + ($0 % 3 == 0 ? "-" : "") }
    let expected = texts.map(fresh.matches)
    let mismatches = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      guard let kept = try? LinearPattern.compiled(source) else { return mismatches.withLock { $0 += 1 } }
      for (index, text) in texts.enumerated().shuffled() where kept.matches(text) != expected[index] {
        mismatches.withLock { $0 += 1 }
      }
    }
    #expect(mismatches.withLock { $0 } == 0)
    #expect(expected.contains(true) && expected.contains(false))
  }

  /// A pattern that does not compile is refused each time with its reason, never kept as if it had compiled.
  @Test func aPatternThatDoesNotCompileIsRefusedEveryTime() {
    var reasons: [String] = []
    for _ in 0..<2 {
      do {
        _ = try LinearPattern.compiled("(a")
        Issue.record("'(a' compiled")
      } catch {
        reasons.append(error.description)
      }
    }
    #expect(reasons.count == 2 && reasons[0] == reasons[1] && !reasons[0].isEmpty)
  }

  /// More distinct patterns than the cache keeps: the cache stops growing at its limit, and the patterns met after
  /// that are still compiled and matched.
  @Test func theCacheStopsGrowingAtItsLimitAndLaterPatternsStillMatch() throws {
    for number in 0..<(2 * LinearPattern.cacheLimit) {
      let pattern = try LinearPattern.compiled("^cache-limit-\(number)$")
      #expect(pattern.matches("cache-limit-\(number)"))
      #expect(!pattern.matches("cache-limit-\(number)x"))
    }
    #expect(LinearPattern.keptCount == LinearPattern.cacheLimit)
  }
}

/// The text explore types for a `pattern` field or a `matches` test: built from the pattern and matched in full.
struct PatternExampleTests {
  @Test(arguments: [
    ("[A-Z]{3}-[0-9]{4}", 0, "AAA-0000"), ("(cat|dog)s?", 0, "cat"), ("[a-z]+", 4, "aaaa"), (#"\d{6}"#, 0, "000000"),
    ("^[0-9]{2}(:[0-5][0-9])?$", 0, "00"), ("x(ab){1,2}", 5, "xabab"), (#"[^\s]@[^\s]+\.jp"#, 0, "a@a.jp"),
  ])
  func anExampleMatchesThePatternInFull(pattern: String, minLength: Int, expected: String) throws {
    let example = LinearPattern.example(matching: pattern, minLength: minLength)
    #expect(example == expected)
    #expect(try LinearPattern("^(?:" + pattern + ")$").matches(expected))
  }

  /// No text: an empty class; a bounded repetition that cannot reach the length asked for.
  @Test(arguments: [(#"[^\s\S]"#, 0), ("a{1,3}", 4)])
  func aPatternWithNoSuchTextHasNoExample(pattern: String, minLength: Int) {
    #expect(LinearPattern.example(matching: pattern, minLength: minLength) == nil)
  }
}
