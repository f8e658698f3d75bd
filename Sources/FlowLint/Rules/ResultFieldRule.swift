internal import FlowCore

/// `result.FIELD` read in the `on:` entry of an outcome that does not return the field (another outcome of
/// the action does; a field no outcome returns is `expression-type`'s).
struct ResultFieldRule: LintRule {
  static let description = RuleDescription(
    id: "result-field",
    summary:
      "'result.FIELD' may be read only in the 'on' entry of an outcome whose declaration returns FIELD (for 'else', every outcome it covers)",
    severity: .error,
    triggering: [
      .flow(
        header: #"variables: {name: {type: string, default: "", persist: name}}"#,
        start: "restore",
        steps: """
          restore:
            kind: action
            action: restore-profile
            on:
              found: end
              empty: {to: end, effects: [{set: name, value: '↓result.displayName ?? ""'}]}
              error: end
          """)
    ],
    nonTriggering: [
      .flow(
        header: #"variables: {name: {type: string, default: "", persist: name}}"#,
        start: "restore",
        steps: """
          restore:
            kind: action
            action: restore-profile
            on:
              found: {to: end, effects: [{set: name, value: 'result.displayName ?? ""'}]}
              else: end
          """)
    ])

  func check(_ context: LintContext) {
    for site in context.walk.expressions {
      guard let source = site.resultOf, let declaration = context.flow.action(source.action) else { continue }
      for reference in site.references where reference.path.count > 1 && reference.path[0] == "result" {
        let field = reference.path[1]
        let returning = declaration.outcomes.filter { $0.result.contains { $0.name == field } }.map(\.name)
        guard !returning.isEmpty else { continue }  // no outcome returns it: expression-type reports it
        let lacking = source.outcomes.filter { !returning.contains($0) }
        guard !lacking.isEmpty else { continue }
        context.report(
          Self.description,
          "'result.\(field)' is read where '\(source.action)' answered \(Suggestion.list(lacking)), which "
            + "\(lacking.count == 1 ? "does" : "do") not return '\(field)'; only \(Suggestion.list(returning)) "
            + "\(returning.count == 1 ? "returns" : "return") it",
          at: context.location(of: site.expr, column: reference.column),
          notes: ["read it in the 'on' entry of \(Suggestion.list(returning)), or use a value the flow keeps"])
      }
    }
  }
}
