internal import FlowCore

/// A variant whose weight is not a positive whole number, or so small that it gets none of the 100 buckets
/// (reported by the compiler: such an experiment cannot be assigned).
struct VariantWeightRule: LintRule {
  static let description = RuleDescription(
    id: "variant-weight",
    summary:
      "each variant's weight must be a positive whole number, large enough against the others to get at least one of the 100 buckets runs are assigned by (reported by the compiler)",
    severity: .error,
    triggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 50, late: ↓0}}
          """,
        start: "end"),
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {↓early: 1, late: 1000}}
          """,
        start: "end"),
    ],
    nonTriggering: [
      .flow(
        header: """
          environment:
            deviceId: {type: string, default: device-1}
          experiments:
            paywall: {id: env.deviceId, variants: {early: 90, late: 10}}
          """,
        start: "end")
    ])
}
