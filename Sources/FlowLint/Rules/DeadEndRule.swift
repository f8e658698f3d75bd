internal import FlowCore

/// A non-terminal step the user can never leave.
struct DeadEndRule: LintRule {
  static let description = RuleDescription(
    id: "dead-end",
    summary: "a non-terminal step must have a way out: 'next', 'skip', a button or an outcome leading to another step",
    severity: .error,
    triggering: [
      .flow(
        steps: "↓welcome: {kind: screen}"),
      .flow(
        steps: "↓welcome: {kind: screen, next: stay}"),
    ],
    nonTriggering: [
      .flow(
        steps: """
          welcome:
            kind: screen
            buttons:
              start: {label: start, to: end}
          """,
        trailer: """
          strings:
            en: {start: Start}
          """)
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    var leaves = [Bool](repeating: false, count: flow.steps.count)
    for route in context.walk.routes {
      if let from = route.from, from != route.to { leaves[from] = true }
    }
    for (index, step) in flow.steps.enumerated() where !step.isTerminal && !leaves[index] {
      context.report(
        Self.description,
        "step '\(step.id)' has no way out: no 'next', 'skip', button or outcome leads to another step",
        at: step.location, notes: ["add a 'next', or make it a 'terminal' step"])
    }
  }
}
