internal import FlowCore

/// An `on:` key that the action or permission request never produces (an unknown action is `unknown-action`'s).
struct UnknownOutcomeRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-outcome",
    summary:
      "'on' keys must be outcomes the step's or button's action declares ('granted', 'denied', ... for permissions), or 'else'",
    severity: .error,
    triggering: [
      .askingForNotifications(on: "{granted: end, ↓allowed: end}")
    ],
    nonTriggering: [
      .askingForNotifications(on: "{granted: end, denied: end}")
    ])

  func check(_ context: LintContext) {
    for table in context.walk.outcomeTables {
      guard let allowed = context.outcomes(of: table) else { continue }
      for outcome in table.outcomes where !outcome.isCatchAll && !allowed.contains(outcome.name) {
        context.report(
          Self.description,
          "unknown outcome '\(outcome.name)' of '\(table.action.value)'; expected one of \(Suggestion.list(allowed))"
            + Suggestion.didYouMean(outcome.name, in: allowed),
          at: outcome.location)
      }
    }
  }
}
