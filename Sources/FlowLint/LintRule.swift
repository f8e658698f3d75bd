internal import FlowCore

/// A check on a loaded flow. One rule per file; each carries its ``RuleDescription``.
///
/// Rules whose findings come from the loader (the schema, the compiler) have an empty ``check(_:)``; they
/// are registered so that `--list-rules`, suppressions and the documentation know them.
package protocol LintRule: Sendable {
  static var description: RuleDescription { get }
  /// Whether the rule reasons about the flow as a whole (reachability, loops, usage) and so only runs when
  /// loading reported no error: a misspelled key or step id is then reported once, not again as a dead end.
  static var needsCleanLoad: Bool { get }
  init()
  /// Reports findings through `context.report`.
  func check(_ context: LintContext)
}

extension LintRule {
  package static var needsCleanLoad: Bool { false }
  package func check(_ context: LintContext) {}
  package var ruleDescription: RuleDescription { Self.description }
}
