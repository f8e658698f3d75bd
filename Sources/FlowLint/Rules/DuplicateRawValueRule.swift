internal import FlowCore

/// Two steps with the same `rawValue`.
struct DuplicateRawValueRule: LintRule {
  static let description = RuleDescription(
    id: "duplicate-raw-value",
    summary: "each step's 'rawValue' must be unique, so a 'rawValue' resume route finds exactly one step",
    severity: .error,
    triggering: [
      .flow(
        steps: """
          welcome: {kind: screen, rawValue: 0, next: habits}
          habits: {kind: screen, rawValue: ↓0, next: end}
          """)
    ],
    nonTriggering: [
      .flow(
        steps: """
          welcome: {kind: screen, rawValue: 0, next: habits}
          habits: {kind: screen, rawValue: 1, next: end}
          """)
    ])

  func check(_ context: LintContext) {
    var firstByRawValue: [Int: String] = [:]
    for step in context.flow.steps {
      guard let rawValue = step.rawValue else { continue }
      if let first = firstByRawValue[rawValue] {
        context.report(
          Self.description, "rawValue \(rawValue) of step '\(step.id)' is already used by step '\(first)'",
          at: context.location(inStep: step.id, key: "rawValue") ?? step.location)
      } else {
        firstByRawValue[rawValue] = step.id
      }
    }
  }
}
