internal import FlowCore

/// A kind in `permissions` that is neither in the permission catalogue nor declared as the flow's own.
struct UncataloguedPermissionRule: LintRule {
  static let description = RuleDescription(
    id: "uncatalogued-permission",
    summary:
      "a kind in 'permissions' must be one of the permission catalogue's, or the flow's own written as {kind: NAME}",
    severity: .warning,
    triggering: [
      .flow(header: "permissions: [↓helthKit]", start: "welcome", steps: "welcome: {kind: screen, next: end}")
    ],
    nonTriggering: [
      .flow(
        header: "permissions: [healthKit, {kind: faceID, api: LAContext.evaluatePolicy, statuses: {granted: success}}]",
        start: "welcome", steps: "welcome: {kind: screen, next: end}")
    ])

  func check(_ context: LintContext) {
    let known = context.flow.declarations.permissions
    let names = known.keys.map(\.rawValue).sorted()
    for permission in context.flow.permissions where known[permission.value] == nil {
      context.report(
        Self.description,
        "'\(permission.value)' is not in the permission catalogue"
          + Suggestion.didYouMean(permission.value.rawValue, in: names),
        at: permission.location,
        notes: [
          "the catalogue has: \(Suggestion.list(names, limit: 30))",
          "a permission of the app's own is declared as {kind: \(permission.value)} (with 'api' and 'statuses' for readers)",
        ])
    }
  }
}
