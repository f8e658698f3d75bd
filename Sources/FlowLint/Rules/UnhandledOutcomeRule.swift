internal import FlowCore

/// An `on:` table that leaves an outcome unhandled on a step the user cannot otherwise leave.
struct UnhandledOutcomeRule: LintRule {
  static let description = RuleDescription(
    id: "unhandled-outcome",
    summary:
      "a permission or action step (or action button) with 'on' must handle every outcome when the step has no 'next', 'skip' or button that leaves it",
    severity: .error,
    triggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        permissions: [notifications]
        start: ask
        steps:
          ask:
            kind: permission
            permission: notifications
            ↓on: {granted: end, denied: end}
          end: {kind: terminal, outcome: completed}
        """)
    ],
    nonTriggering: [
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        permissions: [notifications]
        start: ask
        steps:
          ask:
            kind: permission
            permission: notifications
            next: end
            on: {granted: end, denied: end}
          end: {kind: terminal, outcome: completed}
        """),
      Example(
        """
        flow: demo
        version: "1"
        locales: [en]
        start: review
        steps:
          review:
            kind: action
            action: request-review
            on: {shown: end, suppressed: end}
          end: {kind: terminal, outcome: completed}
        """),
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    for table in context.walk.outcomeTables where !table.outcomes.isEmpty {
      guard let allowed = table.action.value.outcomes else { continue }
      let handled = Set(table.outcomes.map(\.name))
      let missing = allowed.filter { !handled.contains($0) }
      guard !missing.isEmpty else { continue }
      let step = flow.steps[table.step]
      guard !Self.hasOtherWayOut(from: table.step, in: flow) else { continue }
      let stepNode = context.stepNodes[step.id]
      let onEntry = table.button.map { stepNode?["buttons"]?[$0]?.entry("on") } ?? stepNode?.entry("on")
      let what = table.isPermission ? "the permission request" : "action '\(table.action.value)'"
      context.report(
        Self.description,
        "\(what) of step '\(step.id)' leaves \(missing.count == 1 ? "outcome" : "outcomes") \(Suggestion.list(missing)) unhandled, and the step has no 'next', 'skip' or button that leaves it; a user who gets \(missing.count == 1 ? "it" : "one") would be stuck",
        at: onEntry?.keyLocation ?? table.action.location,
        notes: [
          "handle \(Suggestion.list(missing)) in 'on' (use 'stay' to keep the user on the step on purpose), or add a 'next'"
        ])
    }
  }

  /// A `next`, `skip` or a button moving to another step.
  static func hasOtherWayOut(from index: StepIndex, in flow: Flow) -> Bool {
    flow.exits(of: index).contains { exit in
      switch exit.kind {
      case .next, .skip: true
      case .button: exit.routes.contains { $0.to != index }
      case .outcome, .skipIf, .resume: false
      }
    }
  }
}
