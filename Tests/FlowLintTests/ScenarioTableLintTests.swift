import Foundation
import Testing

/// `flowlint DIR` checks the scenario tables it finds beside flows as tables, not as flows (issue 15, item 8).
struct ScenarioTableLintTests {
  /// The flow (with a permission to answer), a table beside it, and `files`.
  func directory(_ files: [String: String]) throws -> URL {
    let dir = try CommandTests.temporaryDirectory()
    let flow = """
      flow: demo
      version: "1"
      locales: [en]
      permissions: [healthKit]
      start: ask
      steps:
        ask: {kind: permission, permission: healthKit, next: end, on: {granted: end, denied: end}}
        end: {kind: terminal, outcome: completed}

      """
    try flow.write(to: dir.appending(path: "flow.yaml"), atomically: true, encoding: .utf8)
    for (name, text) in files { try text.write(to: dir.appending(path: name), atomically: true, encoding: .utf8) }
    return dir
  }

  @Test func aCleanTableBesideItsFlowHasNoFindings() throws {
    let dir = try directory([
      "rows.yaml": """
      # yaml-language-server: $schema=../schemas/scenario.schema.json
      flow: flow.yaml
      cases:
        - {name: grants, source: "issue 15", answers: {healthKit: [granted]}, commands: [tap request]}

      """
    ])
    let output = try CommandTests.run(["."], in: dir, environment: ["NO_COLOR": "1"])
    #expect(output.stdout == "")
    #expect(output.stderr == "flowlint: checked 2 files: no findings\n")
    #expect(output.status == 0)
  }

  @Test func aTableIsCheckedByTheScenarioLoaderAndAgainstItsFlow() throws {
    let dir = try directory([
      "rows.yaml": """
      flow: flow.yaml
      cases:
        - {name: typo, source: "issue 15", answers: {helthKit: [granted]}, commands: [tap request]}
        - {name: bad, source: "issue 15", clock: "9am", commands: [tap request]}

      """
    ])
    let output = try CommandTests.run(["."], in: dir, environment: ["NO_COLOR": "1"])
    #expect(
      output.stdout == """
        ./rows.yaml:4:44: error: expected a string matching '^([0-2][0-9]:[0-5][0-9]|[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?)?)$', found '9am' [scenario-table]
          - {name: bad, source: "issue 15", clock: "9am", commands: [tap request]}
                                                   ^

        """)
    let fixed = try directory([
      "rows.yaml": """
      flow: flow.yaml
      cases:
        - {name: typo, source: "issue 15", answers: {helthKit: [granted]}, commands: [tap request]}

      """
    ])
    let typo = try CommandTests.run(["."], in: fixed, environment: ["NO_COLOR": "1"])
    #expect(
      typo.stdout == """
        ./rows.yaml:3:48: error: unknown key 'helthKit' in answers; did you mean 'healthKit'? (answers are keyed by a permission the flow asks for, an action it performs or a step that shows a dialog: 'ask', 'healthKit') [scenario-table]
          - {name: typo, source: "issue 15", answers: {helthKit: [granted]}, commands: [tap request]}
                                                       ^

        """)
    #expect(typo.stderr == "flowlint: checked 2 files: 1 error, 0 warnings\n")
    #expect(typo.status == 1)
  }

  @Test func aFileOfNeitherKindIsCheckedAsAFlowAndSaysSo() throws {
    let dir = try CommandTests.temporaryDirectory()
    try "name: x\n".write(to: dir.appending(path: "other.yaml"), atomically: true, encoding: .utf8)
    let output = try CommandTests.run(["other.yaml", "--format", "json"], in: dir)
    #expect(output.status == 1)
    #expect(
      output.stdout.hasPrefix(
        """
        [
          {
            "column" : 1,
            "file" : "other.yaml",
            "line" : 1,
            "message" : "missing required property 'flow'",
            "notes" : [
              "flowlint took this file for a flow: it has no $schema modeline and neither 'steps' (a flow) nor 'cases' (a scenario table) at the top"
            ],
        """))
  }
}
