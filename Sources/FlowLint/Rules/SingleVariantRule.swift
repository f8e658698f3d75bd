internal import FlowCore

/// An experiment with one variant: every run gets it, so nothing is compared.
struct SingleVariantRule: LintRule {
  static let description = RuleDescription(
    id: "single-variant",
    summary:
      "an experiment needs at least two variants to compare; with one, every run gets it (write the flow without the experiment)",
    severity: .warning,
    triggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            ↓paywall: {id: env.deviceId, variants: {early: 100}}
          """,
        start: "end")
    ],
    nonTriggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 50, late: 50}}
          """,
        start: "end")
    ])

  func check(_ context: LintContext) {
    for experiment in context.flow.experiments where experiment.variants.count == 1 {
      context.report(
        Self.description,
        "experiment '\(experiment.name)' has one variant ('\(experiment.variants[0].name)'), which every run gets; "
          + "add another to compare, or remove the experiment", at: experiment.location)
    }
  }
}
