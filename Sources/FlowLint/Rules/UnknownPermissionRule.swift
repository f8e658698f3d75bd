internal import FlowCore

/// A permission kind used without being declared in `permissions`.
struct UnknownPermissionRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-permission",
    summary: "permission steps and 'permission.KIND' in expressions must use a kind declared in 'permissions'",
    severity: .error,
    triggering: [
      .flow(
        header: "permissions: [notifications]",
        start: "ask",
        steps: "ask: {kind: permission, permission: ↓microphone, next: end}"),
      .flow(
        header: "permissions: [notifications]",
        start: "ask",
        steps: #"ask: {kind: screen, skipIf: '↓permission.notification == "granted"', next: end}"#),
    ],
    nonTriggering: [
      .flow(
        header: "permissions: [notifications]",
        start: "ask",
        steps:
          #"ask: {kind: permission, permission: notifications, skipIf: 'permission.notifications == "granted"', next: end}"#
      )
    ])

  func check(_ context: LintContext) {
    let declared = context.declaredPermissions
    // Written only for a finding (a clean flow has none).
    lazy var expected =
      declared.isEmpty ? "the flow declares no 'permissions'" : "declared: " + Suggestion.list(declared)
    for step in context.flow.steps {
      for (kind, _, _) in step.permissionRequests
      where !kind.value.rawValue.isEmpty && !declared.contains(kind.value.rawValue) {
        context.report(
          Self.description,
          "permission '\(kind.value)' is not declared in 'permissions'; \(expected)"
            + Suggestion.didYouMean(kind.value.rawValue, in: declared),
          at: kind.location)
      }
    }
    for site in context.walk.expressions {
      for reference in site.references
      where reference.path.count > 1 && reference.path[0] == "permission" && !declared.contains(reference.path[1]) {
        let kind = reference.path[1]
        context.report(
          Self.description,
          "permission '\(kind)' is not declared in 'permissions'; \(expected)"
            + Suggestion.didYouMean(kind, in: declared),
          at: context.location(of: site.expr, column: reference.column))
      }
    }
  }
}
