/// Regular expressions for `pattern` and `patternProperties`, built with Swift's `Regex`.
///
/// `Regex` is not `Sendable`, so the compiled program keeps pattern sources and each validation run builds
/// its own `Regex` values lazily (once per pattern per run). Matching follows ECMA-262 as far as `Regex` allows:
/// Unicode scalar semantics, `\d` and `\w` ASCII-only, and unanchored search.
struct PatternMatcher {
  private let sources: [String]
  private var compiled: [Regex<AnyRegexOutput>?]

  init(_ sources: [String]) {
    self.sources = sources
    compiled = Array(repeating: nil, count: sources.count)
  }

  static func regex(_ source: String) throws -> Regex<AnyRegexOutput> {
    try Regex(source).matchingSemantics(.unicodeScalar).asciiOnlyDigits().asciiOnlyWordCharacters()
  }

  /// Whether the pattern matches anywhere in `text`.
  mutating func matches(_ index: Int, _ text: String) -> Bool {
    if compiled[index] == nil { compiled[index] = try? Self.regex(sources[index]) }
    guard let regex = compiled[index] else { return false }
    return (try? regex.firstMatch(in: text)) != nil
  }
}
