internal import FlowCore

/// An `on:` table that leaves an outcome unhandled on a step the user cannot otherwise leave.
struct UnhandledOutcomeRule: LintRule {
  static let description = RuleDescription(
    id: "unhandled-outcome",
    summary:
      "a permission or action step (or action button) with 'on' must handle every outcome when the step has no 'next', 'skip' or button that leaves it",
    severity: .error,
    triggering: [
      .askingForNotifications(next: false, on: "{granted: end, denied: end}", marked: true)
    ],
    nonTriggering: [
      .askingForNotifications(on: "{granted: end, denied: end}"),
      .flow(
        start: "review",
        steps: """
          review:
            kind: action
            action: request-review
            on: {shown: end, suppressed: end}
          """),
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    // A launch action's unhandled outcome runs nothing and the flow goes on: no one is stuck.
    for table in context.walk.outcomeTables where !table.outcomes.isEmpty {
      guard let stepIndex = table.step else { continue }
      guard let allowed = context.outcomes(of: table), !table.outcomes.contains(where: \.isCatchAll) else { continue }
      let handled = Set(table.outcomes.map(\.name))
      let missing = allowed.filter { !handled.contains($0) }
      guard !missing.isEmpty else { continue }
      let step = flow.steps[stepIndex]
      guard !Self.hasOtherWayOut(from: stepIndex, in: flow) else { continue }
      let stepNode = context.stepNode(step.id)
      let onEntry = table.button.map { stepNode?["buttons"]?[$0]?.entry("on") } ?? stepNode?.entry("on")
      let what = table.isPermission ? "the permission request" : "action '\(table.action.value)'"
      context.report(
        Self.description,
        "\(what) of step '\(step.id)' leaves \(missing.count == 1 ? "outcome" : "outcomes") \(Suggestion.list(missing)) unhandled, and the step has no 'next', 'skip' or button that leaves it; a user who gets \(missing.count == 1 ? "it" : "one") would be stuck",
        at: onEntry?.keyLocation ?? table.action.location,
        notes: [
          "handle \(Suggestion.list(missing)) in 'on' (use 'stay' to keep the user on the step on purpose, 'else' for every outcome not named), or add a 'next'"
        ])
    }
  }

  /// A `next`, `skip` or a button moving to another step.
  static func hasOtherWayOut(from index: StepIndex, in flow: Flow) -> Bool {
    flow.exits(of: index).contains { exit in
      switch exit.kind {
      case .next, .skip: true
      case .button: exit.routes.contains { $0.to != index }
      case .outcome, .skipIf, .resume, .foreground, .open: false
      }
    }
  }
}

extension Example {
  /// A flow whose start step `ask` requests the notifications permission, moves on to `end` unless `next` is
  /// false, and handles the outcomes `on`; with `marked`, a marker stands before the `on` key.
  static func askingForNotifications(
    next: Bool = true, on: String, marked: Bool = false, file: String = #filePath, line: Int = #line
  ) -> Example {
    .flow(
      header: "permissions: [notifications]", start: "ask",
      steps: """
        ask:
          kind: permission
          permission: notifications\(next ? "\n  next: end" : "")
          \(marked ? String(marker) : "")on: \(on)
        """, file: file, line: line)
  }
}
