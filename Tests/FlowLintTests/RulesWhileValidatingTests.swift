import FlowCore
import FlowLint
import FlowLoading
import Foundation
import Testing

/// `Linter.lint(path:)` runs the rules while the schema is checked on another thread, so the rules that need a
/// clean load run before the schema's verdict is in. When the schema then reports an error, what they found and
/// the suppressions they used must be as if they had never run.
struct RulesWhileValidatingTests {
  /// A flow with an unreachable step (rule `unreachable-step`, which needs a clean load), with or without a
  /// suppression of it, and with or without a key the schema refuses and the compiler ignores.
  static func flow(schemaError: Bool, suppressed: Bool) -> String {
    """
    flow: demo
    version: "1"
    locales: [en]
    start: a
    steps:
      a: {kind: screen, next: end\(schemaError ? ", colour: red" : "")}
    \(suppressed ? "  # flowlint-disable-next-line unreachable-step" : "  # lost is never reached")
      lost: {kind: screen, next: end}
      end: {kind: terminal, outcome: completed}

    """
  }

  static let schemaFinding =
    "demo.yaml:6:32: error: unknown property 'colour'; expected one of 'autoAdvance', 'back', 'body', 'buttons', "
    + "'enter', 'kind', 'next', 'rawValue', 'retired', 'skip', 'skipIf', 'title' [schema]"
  static let unreachable =
    "demo.yaml:8:3: warning: step 'lost' is unreachable: no move from 'start' or a 'resume' route leads to it "
    + "[unreachable-step]"

  /// The findings of `flowlint` on the flow (through a file, as the command reads it), and of the linter given
  /// the flow loaded first (the rules run after the schema); both must be the same.
  func findings(schemaError: Bool, suppressed: Bool) throws -> [String] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("demo.yaml").path
    try Self.flow(schemaError: schemaError, suppressed: suppressed).write(
      toFile: path, atomically: true, encoding: .utf8)
    let report = try Linter.lint(path: path).get()
    let afterLoading = Linter.lint(try FlowLoader.load(path: path))
    #expect(report.diagnostics == afterLoading)
    return report.diagnostics.map { $0.description.replacingOccurrences(of: directory.path + "/", with: "") }
  }

  @Test func aCleanFlowGetsTheGraphRulesFindings() throws {
    #expect(try findings(schemaError: false, suppressed: false) == [Self.unreachable])
    #expect(try findings(schemaError: false, suppressed: true) == [])
  }

  /// The schema error alone: no unreachable-step finding, and no `unused-suppression` for the suppression that the
  /// rule used before the schema's error came in.
  @Test func aSchemaErrorTakesBackWhatTheGraphRulesFound() throws {
    #expect(try findings(schemaError: true, suppressed: false) == [Self.schemaFinding])
    #expect(try findings(schemaError: true, suppressed: true) == [Self.schemaFinding])
  }
}
