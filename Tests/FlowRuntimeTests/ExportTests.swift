import FlowCore
import FlowLoading
import FlowRuntime
import Foundation
import Testing

/// `flowrun export --json` writes JSON that FlowCore alone loads and runs exactly as the YAML runs.
struct ExportTests {
  static let tables = (try? ScenarioLoader.files(at: ScenarioTableTests.directory)) ?? []

  @Test func thereAreTablesToRun() { #expect(Self.tables.count >= 5) }

  /// Every row of the table, once with the flow loaded from YAML by FlowLoading and once with the flow FlowCore
  /// compiles from the exported JSON: the same traces, the same failures (none).
  @Test(arguments: Self.tables)
  func everyScenarioRowRunsTheSameFromTheExportedJSON(_ table: String) async throws {
    let file = try ScenarioLoader.load(path: table)
    let loaded = try FlowLoader.load(path: file.flowPath)
    let yamlFlow = try #require(loaded.flow)
    let json = try #require(loaded.exportedJSON)
    let (jsonFlow, diagnostics) = FlowCompiler.compile(json: Array(json.utf8), file: "exported.json")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let exported = try #require(jsonFlow)
    for scenarioCase in file.cases {
      let fromYAML = await ScenarioRunner.run(scenarioCase, flow: yamlFlow)
      let fromJSON = await ScenarioRunner.run(scenarioCase, flow: exported)
      #expect(!fromYAML.observation.trace.isEmpty, "\(scenarioCase.name)")
      #expect(fromJSON.observation.trace == fromYAML.observation.trace, "\(table): \(scenarioCase.name)")
      #expect(fromJSON.observation == fromYAML.observation, "\(table): \(scenarioCase.name)")
      #expect(fromJSON.failures == fromYAML.failures, "\(table): \(scenarioCase.name)")
      #expect(fromYAML.failures.isEmpty, "\(table): \(scenarioCase.name): \(fromYAML.failures)")
    }
  }

  /// One form for one document: YAML styles, comments and anchors do not show in the export, and exporting the
  /// export gives the same bytes.
  @Test func theExportIsOneFormForTheDocument() throws {
    let yaml = """
      # a comment
      flow: tiny
      version: '1.0'
      locales: [en]
      start: a
      steps:
        a: &screen
          kind: screen
          title: "t"
          next: end
        end: { kind: terminal, outcome: completed }
      strings:
        en: { t: "Hello \\"you\\"" }
      """
    let loaded = FlowLoader.load(bytes: Array(yaml.utf8), file: "tiny.yaml")
    let json = try #require(loaded.exportedJSON)
    #expect(
      json == """
        {
          "flow": "tiny",
          "version": "1.0",
          "locales": [
            "en"
          ],
          "start": "a",
          "steps": {
            "a": {
              "kind": "screen",
              "title": "t",
              "next": "end"
            },
            "end": {
              "kind": "terminal",
              "outcome": "completed"
            }
          },
          "strings": {
            "en": {
              "t": "Hello \\"you\\""
            }
          }
        }

        """)
    #expect(FlowLoader.load(bytes: Array(json.utf8), file: "tiny.json").exportedJSON == json)
  }
}
