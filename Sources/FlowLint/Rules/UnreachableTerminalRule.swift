internal import FlowCore

/// A terminal the flow can never end at.
struct UnreachableTerminalRule: LintRule {
  static let description = RuleDescription(
    id: "unreachable-terminal",
    summary: "every terminal must be reachable from 'start' (or be the target of a 'resume' route)",
    severity: .error,
    // A likely mistake, not a broken flow: every step that is reached still works.
    suppressible: true,
    triggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: done}
          done: {kind: terminal, outcome: completed}
          ↓paywall: {kind: terminal, outcome: paywall}
          """,
        endStep: false)
    ],
    nonTriggering: [
      .flow(
        header: """
          variables:
            completed: {type: bool, default: false, persist: completed}
          resume:
            - when: completed
              to: home
          """,
        steps: """
          welcome: {kind: screen, next: done}
          done: {kind: terminal, outcome: completed}
          home: {kind: terminal, outcome: home}
          """,
        endStep: false)
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    // From the start and the resume routes to a named step (not those by raw value).
    let starts = context.walk.routes.filter {
      if $0.from != nil { return false }
      if case .rawValue = $0.condition { return false }
      return true
    }.map(\.to)
    let reached = context.graph.reachable(from: starts)
    let startID = flow.steps.indices.contains(flow.start) ? flow.steps[flow.start].id : ""
    for (index, step) in flow.steps.enumerated() where step.isTerminal && !reached[index] && !step.isRetired {
      context.report(
        Self.description, "terminal '\(step.id)' is unreachable from the start step '\(startID)'", at: step.location)
    }
  }
}
