internal import FlowCore

/// The compiled `pattern` and `patternProperties` regular expressions of a schema, matched in linear time
/// (see ``LinearPattern``).
struct PatternMatcher {
  private let program: SchemaProgram

  init(_ program: SchemaProgram) {
    self.program = program
  }

  /// Whether the pattern matches anywhere in `text`. A pattern that does not compile (only possible when the
  /// schema was compiled without checking its patterns) matches nothing.
  func matches(_ index: Int, _ text: String) -> Bool {
    program.linearPattern(index)?.matches(text) ?? false
  }
}
