internal import FlowCore

/// `experiment.NAME` of an experiment the flow does not declare, or a comparison with a variant it lacks.
struct UnknownVariantRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-variant",
    summary:
      "'experiment.NAME' in expressions must name a declared experiment, and the strings it is compared with (==, !=, in) must be its variants",
    severity: .error,
    triggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 50, late: 50}}
          """,
        steps: #"welcome: {kind: screen, skipIf: 'experiment.paywall == ↓"erly"', next: end}"#),
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 50, late: 50}}
          """,
        steps: #"welcome: {kind: screen, skipIf: '↓experiment.paywal == "early"', next: end}"#),
    ],
    nonTriggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 50, late: 50}}
          """,
        steps: #"welcome: {kind: screen, skipIf: 'experiment.paywall in ["early", "late"]', next: end}"#)
    ])

  func check(_ context: LintContext) {
    let flow = context.flow
    let names = flow.experiments.map(\.name)
    let declared = names.isEmpty ? "the flow declares no 'experiments'" : "declared: " + Suggestion.list(names)
    for site in context.walk.expressions {
      for reference in site.references where reference.path.count > 1 && reference.path[0] == "experiment" {
        let name = reference.path[1]
        guard let experiment = flow.experiment(name) else {
          context.report(
            Self.description,
            "experiment '\(name)' is not declared in 'experiments'; \(declared)"
              + Suggestion.didYouMean(name, in: names),
            at: context.location(of: site.expr, column: reference.column))
          continue
        }
        let variants = experiment.variants.map(\.name)
        for (text, column) in site.expr.expression.comparedStrings(with: ["experiment", name])
        where !variants.contains(text) {
          context.report(
            Self.description,
            "'\(text)' is not a variant of experiment '\(name)'; its variants: \(Suggestion.list(variants))"
              + Suggestion.didYouMean(text, in: variants),
            at: context.location(of: site.expr, column: column))
        }
      }
    }
  }
}
