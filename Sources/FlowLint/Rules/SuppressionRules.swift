// Findings about `# flowlint-disable-next-line` comments themselves; reported by ``Suppressions``.

internal import FlowCore

/// A suppression that silences nothing.
struct UnusedSuppressionRule: LintRule {
  static let description = RuleDescription(
    id: "unused-suppression",
    summary: "a '# flowlint-disable-next-line' comment names a rule that reports nothing on the next line",
    severity: .warning,
    triggering: [
      .flow(
        steps: """
          # flowlint-disable-next-line ↓unreachable-step
          welcome: {kind: screen, next: end}
          """)
    ],
    nonTriggering: [
      .suppressingOrphan(rule: "unreachable-step")
    ])
}

/// A suppression naming a rule that does not exist.
struct UnknownRuleRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-rule",
    summary: "a '# flowlint-disable-next-line' comment names a rule id that does not exist",
    severity: .warning,
    triggering: [
      .suppressingOrphan(rule: "↓unreachable-stp")
    ],
    nonTriggering: [
      .suppressingOrphan(rule: "unreachable-step")
    ])
}

/// A suppression naming a rule whose findings mean the flow is broken.
struct UnsuppressibleRuleRule: LintRule {
  /// Why `rule` cannot be silenced (by a comment) or, say, `turned off` (by a configuration).
  static func refusal(of rule: String, _ what: String = "silenced") -> String {
    "'\(rule)' cannot be \(what): its findings mean the flow is broken; fix the flow instead"
  }

  static let description = RuleDescription(
    id: "unsuppressible-rule",
    summary:
      "a '# flowlint-disable-next-line' comment names a rule that cannot be silenced: findings of load, schema and compiler rules (unknown steps, strings, variables, types, dead ends) mean the flow is broken",
    severity: .error,
    triggering: [
      .flow(
        steps: """
          # flowlint-disable-next-line ↓unknown-step
          welcome: {kind: screen, next: nowhere}
          """)
    ],
    nonTriggering: [
      .suppressingOrphan(rule: "unreachable-step")
    ])
}

extension Example {
  /// A flow with an unreachable step `orphan` whose finding a suppression comment naming `rule` silences;
  /// with `unreachable-step`, the suppression is needed and allowed, and no suppression rule reports it.
  fileprivate static func suppressingOrphan(rule: String, file: String = #filePath, line: Int = #line) -> Example {
    .flow(
      steps: """
        welcome: {kind: screen, next: end}
        # flowlint-disable-next-line \(rule)
        orphan: {kind: screen, next: end}
        """, file: file, line: line)
  }
}
