internal import FlowCore

/// A step no move leads to.
struct UnreachableStepRule: LintRule {
  static let description = RuleDescription(
    id: "unreachable-step",
    summary: "a step that no move from 'start' or a 'resume' route leads to (silent for 'retired: true' steps)",
    severity: .warning,
    triggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: end}
          ↓orphan: {kind: screen, next: end}
          """)
    ],
    nonTriggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: end}
          account: {kind: screen, retired: true, next: end}
          """),
      .resumingByRawValue(second: "habits: {kind: screen, rawValue: 1, next: end}"),
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    let starts = context.walk.routes.filter { $0.from == nil }.map(\.to)
    let reached = context.graph.reachable(from: starts)
    for (index, step) in flow.steps.enumerated() where !reached[index] && !step.isRetired && !step.isTerminal {
      context.report(
        Self.description,
        "step '\(step.id)' is unreachable: no move from 'start' or a 'resume' route leads to it",
        at: step.location, notes: ["mark it 'retired: true' if it is kept only for old saved progress"])
    }
  }
}

extension Example {
  /// A flow that saves the raw value of the user's step (`savedStep`) and resumes there: `welcome` (raw value
  /// 0) moves to `end`, and the `second` step (raw value 1) is reached only by resuming.
  static func resumingByRawValue(second: String, file: String = #filePath, line: Int = #line) -> Example {
    .flow(
      header: """
        variables:
          savedStep: {type: int, default: 0, persist: step}
        resume:
          - rawValue: savedStep
        """,
      steps: """
        welcome: {kind: screen, rawValue: 0, next: end}
        \(second)
        """, file: file, line: line)
  }
}
