internal import FlowCore

/// An `action:` that names an action neither the standard prelude nor the flow declares.
struct UnknownActionRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-action",
    summary:
      "'action' on an action step or a button must name an action the prelude or the flow's 'actions' declares",
    severity: .error,
    triggering: [
      .flow(
        steps: "welcome: {kind: action, action: ↓sign-in-with-gogle, on: {success: end, failure: end, cancelled: end}}"
      ),
      .flow(
        steps: "welcome: {kind: action, action: ↓check-username, on: {free: end, taken: end}}"),
    ],
    nonTriggering: [
      .flow(
        steps: "welcome: {kind: action, action: sign-in-with-apple, on: {success: end, failure: end, cancelled: end}}"
      ),
      .flow(
        header: "actions: {check-username: {outcomes: {free: {}, taken: {}}}}",
        steps: "welcome: {kind: action, action: check-username, on: {free: end, taken: end}}"),
    ])

  func check(_ context: LintContext) {
    let declarations = context.flow.declarations
    for table in context.walk.outcomeTables where !table.isPermission {
      let name = table.action.value
      guard declarations.action(name) == nil else { continue }
      let names = declarations.actionNames
      context.report(
        Self.description,
        "unknown action '\(name)'; expected one of \(Suggestion.list(names))"
          + Suggestion.didYouMean(name.rawValue, in: names),
        at: table.action.location,
        notes: ["an action of the app's own is declared under 'actions:' with its outcomes"])
    }
  }
}
