internal import FlowCore

/// The compiled `pattern` and `patternProperties` regular expressions of a schema, matched in linear time
/// (see ``LinearPattern``).
struct PatternMatcher {
  private let compiled: [LinearPattern?]

  init(_ program: SchemaProgram) {
    compiled = program.linearPatterns
  }

  /// Whether the pattern matches anywhere in `text`. A pattern that does not compile (only possible when the
  /// schema was compiled without checking its patterns) matches nothing.
  func matches(_ index: Int, _ text: String) -> Bool {
    compiled[index]?.matches(text) ?? false
  }
}
