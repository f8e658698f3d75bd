// Findings about `# flowlint-disable-next-line` comments themselves; reported by ``Suppressions``.

internal import FlowCore

/// A suppression that silences nothing.
struct UnusedSuppressionRule: LintRule {
  static let description = RuleDescription(
    id: "unused-suppression",
    summary: "a '# flowlint-disable-next-line' comment names a rule that reports nothing on the next line",
    severity: .warning,
    triggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        start: welcome
        steps:
          # flowlint-disable-next-line ↓dead-end
          welcome: {kind: screen, next: end}
          end: {kind: terminal, outcome: completed}
        """)
    ],
    nonTriggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        start: welcome
        steps:
          welcome: {kind: screen, next: end}
          # flowlint-disable-next-line unreachable-step
          orphan: {kind: screen, next: end}
          end: {kind: terminal, outcome: completed}
        """)
    ])
}

/// A suppression naming a rule that does not exist.
struct UnknownRuleRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-rule",
    summary: "a '# flowlint-disable-next-line' comment names a rule id that does not exist",
    severity: .warning,
    triggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        start: welcome
        steps:
          welcome: {kind: screen, next: end}
          # flowlint-disable-next-line ↓unreachable-stp
          orphan: {kind: screen, next: end}
          end: {kind: terminal, outcome: completed}
        """)
    ],
    nonTriggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        start: welcome
        steps:
          welcome: {kind: screen, next: end}
          # flowlint-disable-next-line unreachable-step
          orphan: {kind: screen, next: end}
          end: {kind: terminal, outcome: completed}
        """)
    ])
}
