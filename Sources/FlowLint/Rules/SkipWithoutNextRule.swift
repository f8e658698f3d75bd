internal import FlowCore

/// A step with `skipIf` but no `next` to continue to when it is skipped.
struct SkipWithoutNextRule: LintRule {
  static let description = RuleDescription(
    id: "skip-without-next",
    summary: "a step with 'skipIf' needs a 'next' that leaves it: a skipped step continues along 'next'",
    severity: .error,
    triggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: intro}
          intro: {kind: screen, skipIf: ↓"true", buttons: {go: {label: go, to: end}}}
          """,
        trailer: """
          strings:
            en: {go: Go}
          """),
      .flow(
        steps: """
          welcome: {kind: screen, next: intro}
          intro: {kind: screen, skipIf: ↓"true", next: stay, buttons: {go: {label: go, to: end}}}
          """,
        trailer: """
          strings:
            en: {go: Go}
          """),
    ],
    nonTriggering: [
      .flow(
        steps: """
          welcome: {kind: screen, next: intro}
          intro: {kind: screen, skipIf: "true", next: end}
          """)
    ])

  func check(_ context: LintContext) {
    for step in context.flow.steps {
      guard let skipIf = step.skipIf else { continue }
      switch step.next?.target {
      case nil:
        context.report(
          Self.description, "step '\(step.id)' has 'skipIf' but no 'next' to continue to when it is skipped",
          at: skipIf.location, notes: ["add a 'next' for the skipped case, or remove 'skipIf'"])
      case .stay?:
        context.report(
          Self.description, "step '\(step.id)' has 'skipIf' but its 'next' stays on it, so a skip cannot leave it",
          at: skipIf.location, notes: ["give 'next' a step to continue to when the step is skipped"])
      case .step?, .routes?:
        break
      }
    }
  }
}
