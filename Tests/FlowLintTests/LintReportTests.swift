import FlowCore
import FlowLint
import FlowLoading
import Foundation
import Testing

/// A report of `Linter.lint(path:)` keeps the file as the lint read it, so that `flowlint --against` and `--strings`
/// check the bytes that were linted instead of reading the file a second time.
struct LintReportTests {
  static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Each seed flow's report holds the flow as loading the file gives it: the same document, the same steps.
  @Test(arguments: ["anicca-v04.yaml", "tempoai.yaml"])
  func aFlowsReportHoldsTheFlowItLinted(_ name: String) throws {
    let path = Self.root.appending(path: "flows/\(name)").path
    let report = try Linter.lint(path: path).get()
    let loaded = try #require(report.loaded)
    let reference = try FlowLoader.load(path: path)
    #expect(loaded.file == path)
    #expect(loaded.exportedJSON == reference.exportedJSON)
    #expect(loaded.flow?.steps.map(\.id) == reference.flow?.steps.map(\.id))
    #expect(loaded.diagnostics == reference.diagnostics)
  }

  /// The report holds what was read, not what the file says later: a flow rewritten after the lint does not
  /// change it.
  @Test func theReportDoesNotFollowTheFileAfterwards() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("demo.yaml").path
    func write(_ first: String) throws {
      try """
      flow: demo
      version: "1"
      locales: [en]
      start: \(first)
      steps:
        \(first): {kind: screen, next: end}
        end: {kind: terminal, outcome: completed}

      """.write(toFile: path, atomically: true, encoding: .utf8)
    }
    try write("welcome")
    let report = try Linter.lint(path: path).get()
    try write("hello")
    #expect(report.loaded?.flow?.steps.map(\.id) == ["welcome", "end"])
    #expect(try FlowLoader.load(path: path).flow?.steps.map(\.id) == ["hello", "end"])
  }

  /// A scenario table checked by the table check is not loaded as a flow: its report holds none.
  @Test func aScenarioTablesReportHoldsNoFlow() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("rows.yaml").path
    try """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    flow: flow.yaml
    cases:
      - {name: starts, commands: [next]}

    """.write(toFile: path, atomically: true, encoding: .utf8)
    let report = try Linter.lint(path: path, tables: { _ in [] }).get()
    #expect(report.diagnostics == [])
    #expect(report.loaded == nil)
  }
}
