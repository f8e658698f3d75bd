package import FlowCore

/// An `else` that takes an outcome the action's declaration gained since an older version of the flow. No single
/// file triggers it: `flowlint NEW --against OLD` reports it (``findings(in:against:file:)``); it is registered so
/// that `--list-rules`, SARIF and the documentation know it.
package struct ElseCoversNewOutcomeRule: LintRule {
  package static let description = RuleDescription(
    id: "else-covers-new-outcome",
    summary:
      "with '--against OLD': an 'else' that handles an outcome the action did not declare in OLD is a warning "
      + "(the new outcome is routed without anyone having decided where)",
    severity: .warning,
    explanation: """
      Reported only by `flowlint NEW.yaml --against OLD.yaml`, which compares each action's declared outcomes in \
      both flows: an `else` in NEW that covers an outcome OLD's declaration of the action lacks is reported at \
      the `else`. Name the outcome in `on:` to route it on purpose. A flow checked alone never reports it. A \
      clean flow:
      """,
    nonTriggering: [
      .flow(
        start: "buy",
        steps: """
          buy:
            kind: action
            action: purchase
            arguments: {product: "'pro.yearly'"}
            on: {purchased: end, else: end}
          """)
    ])

  package init() {}

  /// The `else` entries of `flow` that take an outcome `old` did not declare for the same action, each with the
  /// outcomes it takes; actions `old` did not declare at all are new as a whole and left out.
  package static func findings(in flow: Flow, against old: Flow, file: String) -> [Diagnostic] {
    var result: [Diagnostic] = []
    for (index, step) in flow.steps.enumerated() {
      for exit in flow.exits(of: index) where exit.kind == .outcome && exit.name == Outcome.catchAll {
        guard let source = exit.resultOf, let before = old.action(source.action) else { continue }
        let added = source.outcomes.filter { before.outcome($0) == nil }
        guard !added.isEmpty else { continue }
        result.append(
          Diagnostic(
            description.severity,
            "'else' on step '\(step.id)' takes \(Suggestion.list(added)) of '\(source.action)', "
              + "\(added.count == 1 ? "an outcome" : "outcomes") the flow it is checked against did not declare",
            file: file, at: exit.transition.location, rule: description.id,
            notes: ["name \(Suggestion.list(added)) in 'on' to route \(added.count == 1 ? "it" : "them") on purpose"]))
      }
    }
    return result
  }
}
