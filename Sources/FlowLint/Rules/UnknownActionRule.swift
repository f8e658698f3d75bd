internal import FlowCore

/// An `action:` that names no known system action.
struct UnknownActionRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-action",
    summary: "'action' on an action step or a button must name a known system action",
    severity: .error,
    triggering: [
      .flow(
        steps: "welcome: {kind: action, action: ↓sign-in-with-gogle, on: {success: end, failure: end, cancelled: end}}"
      )
    ],
    nonTriggering: [
      .flow(
        steps: "welcome: {kind: action, action: sign-in-with-apple, on: {success: end, failure: end, cancelled: end}}"
      )
    ])

  func check(_ context: LintContext) {
    for table in context.walk.outcomeTables where table.action.value.outcomes == nil {
      do {
        _ = try ActionName.parse(table.action.value.rawValue)
      } catch {
        context.report(Self.description, error.message, at: table.action.location)
      }
    }
  }
}
