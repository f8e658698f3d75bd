internal import FlowCore

/// A live step that moves to a retired one.
struct RetiredTargetRule: LintRule {
  static let description = RuleDescription(
    id: "retired-target",
    summary:
      "a live step should not move to a 'retired: true' step; retired steps are only entered by resuming old progress",
    severity: .warning,
    triggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: ↓account}
          account: {kind: screen, retired: true, next: end}
          """)
    ],
    nonTriggering: [
      .resumingByRawValue(second: "account: {kind: screen, rawValue: 1, retired: true, next: end}")
    ])

  func check(_ context: LintContext) {
    let steps = context.flow.steps
    // A `skipIf` route follows `next`, which is reported itself.
    for route in context.walk.routes where route.kind != .skipIf {
      guard let from = route.from, !steps[from].isRetired, steps[route.to].isRetired else { continue }
      context.report(
        Self.description, "step '\(steps[from].id)' moves to retired step '\(steps[route.to].id)'", at: route.location,
        notes: ["retired steps are kept only for users resuming old progress; move to a live step instead"])
    }
  }
}
