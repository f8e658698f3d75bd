// Rules whose findings come from loading: the reader, the schema and the compiler. Their `check` is empty;
// they are registered so that `--list-rules`, suppressions and the documentation know them.

internal import FlowCore

/// The file is not a readable YAML or JSON document.
struct LoadRule: LintRule {
  static let description = RuleDescription(
    id: "load",
    summary:
      "the file must be one readable YAML or JSON document (UTF-8 text, no duplicate keys, bounded size, nesting and aliases)",
    severity: .error,
    triggering: [
      Example(
        """
        flow: demo
        version: "1"
        ↓flow: again
        """)
    ],
    nonTriggering: [
      .flow(
        start: "end")
    ])
}

/// The document does not match `schemas/flow.schema.json`.
struct SchemaRule: LintRule {
  static let description = RuleDescription(
    id: "schema",
    summary:
      "the document must match the flow schema (keys, kinds, value types); choices of shape are reported against the branch the 'kind' or effect type selects",
    severity: .error,
    triggering: [
      .flow(
        start: "end",
        steps: "end: {kind: terminal, outcome: completed, ↓nxt: end}",
        endStep: false)
    ],
    nonTriggering: [
      .flow(
        start: "end")
    ])
}

/// The compiler could not make sense of a part the schema accepted.
struct FlowShapeRule: LintRule {
  static let description = RuleDescription(
    id: "flow-shape",
    summary: "a part of the flow the schema accepts but the compiler cannot use (reported by the compiler)",
    severity: .error,
    nonTriggering: [
      .flow(
        start: "end")
    ])
}

/// A transition, route or `start` names a step that does not exist.
struct UnknownStepRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-step",
    summary: "'start', transitions, buttons, outcomes and routes must name a step of 'steps'",
    severity: .error,
    triggering: [
      .flow(
        steps: "welcome: {kind: screen, next: ↓ends}"),
      .flow(
        start: "↓welcom",
        steps: "welcome: {kind: screen, next: end}"),
    ],
    nonTriggering: [
      .flow(
        steps: "welcome: {kind: screen, next: end}")
    ])
}

/// An expression does not parse.
struct ExpressionSyntaxRule: LintRule {
  static let description = RuleDescription(
    id: "expression-syntax",
    summary: "every expression must parse; the finding points at the offending character inside the expression",
    severity: .error,
    triggering: [
      .flow(
        header: """
          variables:
            step: {type: int, default: 0}
          """,
        steps: #"welcome: {kind: screen, skipIf: "step == ↓", next: end}"#),
      .flow(
        header: """
          variables:
            count: {type: int, default: 0}
          """,
        steps: "welcome: {kind: screen, skipIf: count >↓) 1, next: end}"),
    ],
    nonTriggering: [
      .flow(
        header: """
          variables:
            count: {type: int, default: 0}
          """,
        steps: #"welcome: {kind: screen, skipIf: "count > 1", next: end}"#)
    ])
}
