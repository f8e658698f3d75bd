internal import FlowCore

/// A scenario table found among the files flowlint checks that does not load or does not fit its flow. No flow
/// triggers it: `flowlint` reports it for a file its `$schema` modeline or its `cases` key shows to be a table;
/// it is registered so that `--list-rules`, SARIF and the documentation know it.
package struct ScenarioTableRule: LintRule {
  package static let description = RuleDescription(
    id: "scenario-table",
    summary:
      "a scenario table among the linted files must match the scenario schema, its commands and clock must parse, "
      + "its flow must load, and its env, permissions and answers must be ones the flow declares",
    severity: .error,
    explanation: """
      Reported only for a file flowlint takes for a scenario table (its `$schema` modeline names \
      scenario.schema.json, or it has `cases` and no `steps`), which it checks as `flowrun test` loads it, \
      without running the rows. A flow never reports it. A clean flow:
      """,
    nonTriggering: [.flow(start: "end")])

  package init() {}
}
