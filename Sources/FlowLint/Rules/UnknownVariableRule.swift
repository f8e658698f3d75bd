internal import FlowCore

/// A name used as a variable that the flow does not declare.
struct UnknownVariableRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-variable",
    summary:
      "'set' targets, choice and input variables, form targets, 'reset.clear' and names read by expressions must be declared",
    severity: .error,
    triggering: [
      .flow(
        header: """
          variables:
            language: {type: string, default: en}
          """,
        start: "end",
        steps: """
          end:
            kind: terminal
            outcome: completed
            enter:
              - set: ↓langauge
                value: '"ja"'
          """,
        endStep: false),
      .flow(
        header: """
          variables:
            onboardingStep: {type: int, default: 0}
          """,
        steps: #"welcome: {kind: screen, skipIf: "↓onboardingStpe > 2", next: end}"#),
      .flow(
        header: """
          variables:
            name: {type: string, default: ""}
          """,
        start: "end",
        steps: """
          end:
            kind: terminal
            outcome: completed
            enter: [{set: name, value: ↓result.name}]
          """,
        endStep: false),
    ],
    nonTriggering: [
      .flow(
        header: """
          variables:
            name: {type: string, default: "", persist: name}
          """,
        start: "signIn",
        steps: """
          signIn:
            kind: action
            action: sign-in-with-apple
            on:
              success: {to: end, effects: [{set: name, value: 'result.name ?? ""'}]}
              failure: end
              cancelled: end
          """)
    ])

  func check(_ context: LintContext) {
    let flow = context.flow
    let declared = flow.variables.map(\.name)
    for use in context.walk.variableUses where flow.variable(use.name) == nil {
      let expected =
        declared.isEmpty ? "the flow declares no variables" : "expected one of " + Suggestion.list(declared)
      context.report(
        Self.description, "unknown variable '\(use.name)'; \(expected)" + Suggestion.didYouMean(use.name, in: declared),
        at: use.location)
    }
    for site in context.walk.expressions {
      let scope = context.scope(for: site)
      for reference in site.references where scope[reference.path[0]] == nil {
        let name = reference.path[0]
        let location = context.location(of: site.expr, column: reference.column)
        switch name {
        case "result":
          context.report(
            Self.description, "'result' is only bound in the outcomes of an action ('on' of an action step or button)",
            at: location)
        case "input":
          context.report(
            Self.description, "'input' is only bound in the 'valid' expression of a text-input step", at: location)
        default:
          let names = scope.keys
          context.report(
            Self.description,
            "unknown variable '\(name)'; expected a declared variable or one of 'env', 'permission', 'store', 'step'"
              + Suggestion.didYouMean(name, in: names),
            at: location, notes: ["names in scope: " + Suggestion.list(names, limit: 20)])
        }
      }
    }
  }
}
