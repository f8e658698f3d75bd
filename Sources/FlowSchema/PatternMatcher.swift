/// Regular expressions for `pattern` and `patternProperties`.
///
/// Simple patterns (see `SimplePattern`) are matched by a small byte matcher compiled with the schema. Others
/// use Swift's `Regex`; `Regex` is not `Sendable`, so each validation run builds its own lazily (once per
/// pattern per run). Matching follows ECMA-262 as far as `Regex` allows: Unicode scalar semantics, `\\d` and
/// `\\w` ASCII-only, unanchored search.
struct PatternMatcher {
  private let sources: [String]
  private let simple: [SimplePattern?]
  private var compiled: [Regex<AnyRegexOutput>?]

  init(_ program: SchemaProgram) {
    sources = program.patterns
    simple = program.simplePatterns
    compiled = Array(repeating: nil, count: sources.count)
  }

  static func regex(_ source: String) throws -> Regex<AnyRegexOutput> {
    try Regex(source).matchingSemantics(.unicodeScalar).asciiOnlyDigits().asciiOnlyWordCharacters()
  }

  /// Whether the pattern matches anywhere in `text`.
  mutating func matches(_ index: Int, _ text: String) -> Bool {
    if let pattern = simple[index], let result = pattern.matches(text) { return result }
    if compiled[index] == nil { compiled[index] = try? Self.regex(sources[index]) }
    guard let regex = compiled[index] else { return false }
    return (try? regex.firstMatch(in: text)) != nil
  }
}
