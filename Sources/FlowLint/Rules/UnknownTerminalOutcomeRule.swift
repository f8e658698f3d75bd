internal import FlowCore

/// A terminal step's `outcome` that neither the prelude nor the flow's `outcomes` declares.
struct UnknownTerminalOutcomeRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-terminal-outcome",
    summary:
      "a terminal step's 'outcome' must be 'completed', 'paywall', 'home' or a name the flow declares under 'outcomes'",
    severity: .error,
    triggering: [
      .flow(
        start: "blocked", steps: "blocked: {kind: terminal, outcome: ↓ineligible}", endStep: false)
    ],
    nonTriggering: [
      .flow(
        header: "outcomes: [ineligible]",
        start: "blocked", steps: "blocked: {kind: terminal, outcome: ineligible}", endStep: false)
    ])

  func check(_ context: LintContext) {
    let declared = context.flow.declarations.outcomes.map(\.rawValue)
    for step in context.flow.steps {
      guard let outcome = step.terminalOutcome, !declared.contains(outcome.rawValue) else { continue }
      context.report(
        Self.description,
        "unknown terminal outcome '\(outcome)' of step '\(step.id)'; expected one of \(Suggestion.list(declared))"
          + Suggestion.didYouMean(outcome.rawValue, in: declared),
        at: context.location(inStep: step.id, key: "outcome") ?? step.location,
        notes: ["an end of the app's own is declared at the top of the flow: outcomes: [\(outcome)]"])
    }
  }
}
