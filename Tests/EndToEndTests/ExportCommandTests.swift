import FlowLoading
import Foundation
import Testing

/// `flowrun export FLOW --json` from the command line.
struct ExportCommandTests {
  /// The command writes the flow's export, byte for byte, to standard output; what the export looks like is
  /// FlowRuntimeTests/ExportTests'.
  @Test func exportWritesTheFlowsExportToStandardOutput() throws {
    let result = try Tool.run("flowrun", ["export", "flows/tempoai.yaml", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    let path = Tool.packageRoot.appendingPathComponent("flows/tempoai.yaml").path
    let export = try #require(try FlowLoader.load(path: path).exportedJSON)
    #expect(result.stdout == export)
    #expect(result.stdout.hasPrefix("{\n  \"flow\": \"tempoai-onboarding\",\n"), "\(result.stdout.prefix(80))")
  }

  @Test func exportWithoutAFormatIsAUsageMistake() throws {
    let result = try Tool.run("flowrun", ["export", "flows/tempoai.yaml"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("Error: Missing the export format: add '--json'.\n"), "\(result.stderr)")
  }
}
