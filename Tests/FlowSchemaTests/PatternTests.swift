import FlowCore
import Testing

@testable import FlowSchema

/// The byte matcher for simple patterns must agree with `Regex` wherever it accepts a pattern.
struct PatternTests {
  static let patterns = [
    "^[A-Za-z_][A-Za-z0-9_-]*$", "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$", "^[0-2][0-9]:[0-5][0-9]$",
    "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_-]+)?$", "a+b", "^a*a$", "(ab)+c?$", "^\\d{2,}", "\\w-\\w",
    "^(?:x|y)$", "^[^a]$", "^.$", "a{2}", "^(a?){3}b$", "[-a]$", "^x\\$",
  ]
  static let texts = [
    "", "a", "ab", "abc", "aab", "ababc", "abab", "en", "pt-BR", "pt_BR_x", "eng-US-POSIX", "e", "12:30", "29:99",
    "habitTimes.wake", "habit times.wake", "a.", "_", "x-y", "ünï", "a-b", "aaab", "b", "12", "1", "x$", "x", "é",
  ]

  @Test(arguments: patterns)
  func agreesWithRegex(_ source: String) throws {
    guard let simple = SimplePattern(source) else { return }
    let regex = try PatternMatcher.regex(source)
    for text in Self.texts {
      let expected = (try regex.firstMatch(in: text)) != nil
      #expect(simple.matches(text) == expected, "'\(source)' on '\(text)'")
    }
  }

  @Test func handlesTheFlowSchemaPatterns() {
    #expect(SimplePattern("^[A-Za-z_][A-Za-z0-9_-]*$") != nil)
    #expect(SimplePattern("^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$") != nil)
    #expect(SimplePattern("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_-]+)?$") != nil)
  }

  @Test func longTextsUnderGroupsAreLeftToRegex() throws {
    let pattern = try #require(SimplePattern("^[a-z]{2}([-_][a-z]{2})*$"))
    let long = "en" + String(repeating: "-aa", count: 100_000)
    #expect(pattern.matches(long) == nil)
    #expect(try compile(##"{"pattern": "^[a-z]{2}([-_][a-z]{2})*$"}"##).isValid(Node(.string(long))))
    #expect(SimplePattern("^[a-z]*$")?.matches(String(repeating: "a", count: 100_000)) == true)
  }

  @Test(arguments: ["(", "[a", "a{2,1}", "[z-a]"])
  func invalidPatternsAreRefusedUnlessCheckingIsOff(_ source: String) throws {
    let text = "{\"pattern\": \"\(source)\"}"
    #expect(throws: SchemaError.self) { try compile(text) }
    let node = try JSONReader.read(bytes: Array(text.utf8), file: "s.json")
    let unchecked = try JSONSchema(node, file: "s.json", checkingPatterns: false)
    // Validation then treats the pattern as matching nothing, as it would a pattern `Regex` cannot build.
    #expect(!unchecked.isValid(Node(.string("a"))))
  }

  @Test(arguments: ["a|b", "^[^a]$", "^.$", "a+?", "\\s", "x\\$", "[\\b]"])
  func leavesOtherPatternsToRegex(_ source: String) {
    #expect(SimplePattern(source) == nil)
  }
}
