internal import FlowCore

/// The compiled `pattern` and `patternProperties` regular expressions of a schema, matched in linear time
/// (see ``LinearPattern``).
struct PatternMatcher {
  private let program: SchemaProgram
  /// `program.linearPatterns`, looked up without reference counting: `program` keeps them alive.
  private let compiled: LazyObjects<CompiledPattern>.Slots

  init(_ program: SchemaProgram) {
    self.program = program
    compiled = program.linearPatterns.unretainedSlots
  }

  /// Whether the pattern matches anywhere in `text`. A pattern that does not compile (only possible when the
  /// schema was compiled without checking its patterns) matches nothing. Matched in place: copying the pattern out
  /// of a locked list for each string cost more than matching most names.
  func matches(_ index: Int, _ text: String) -> Bool {
    let pattern = compiled.object(index) ?? Unmanaged.passUnretained(program.linearPatterns[index])
    return pattern._withUnsafeGuaranteedRef { $0.pattern?.matches(text) ?? false }
  }
}
