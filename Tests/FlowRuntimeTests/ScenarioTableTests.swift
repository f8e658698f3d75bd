import FlowCore
import FlowLint
import FlowLoading
import FlowRuntime
import Foundation
import Testing

/// Every row of every table under Tests/Scenarios, as one parameterised test each, so `swift test` runs the
/// same tables as `flowrun test Tests/Scenarios`.
struct ScenarioTableTests {
  struct Row: Sendable, CustomTestStringConvertible {
    let file: String
    let scenarioCase: ScenarioCase
    let flow: Flow
    var testDescription: String {
      "\((file as NSString).lastPathComponent):\(scenarioCase.location.line) \(scenarioCase.name)"
    }
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scenarios").path

  /// Files that could not be loaded, with why (reported by `everyTableLoads`).
  static let (rows, problems): ([Row], [String]) = {
    var rows: [Row] = []
    var problems: [String] = []
    for path in (try? ScenarioLoader.files(at: directory)) ?? [] {
      do {
        let file = try ScenarioLoader.load(path: path)
        let loaded = try FlowLoader.load(path: file.flowPath)
        let diagnostics = Linter.lint(loaded)
        guard let flow = loaded.flow, !diagnostics.contains(where: { $0.severity == .error }) else {
          problems.append("\(path): its flow has errors: \(diagnostics.map(\.description))")
          continue
        }
        rows += file.cases.map { Row(file: path, scenarioCase: $0, flow: flow) }
      } catch {
        problems.append("\(path): \(error)")
      }
    }
    return (rows, problems)
  }()

  @Test func everyTableLoads() {
    #expect(Self.problems.isEmpty, "\(Self.problems.joined(separator: "\n"))")
    #expect(!Self.rows.isEmpty, "no scenario rows found under \(Self.directory)")
  }

  @Test(arguments: Self.rows)
  func row(_ row: Row) async {
    let problems = ScenarioRunner.problems(of: row.scenarioCase, with: row.flow).map { "\($0.location): \($0.message)" }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    let result = await ScenarioRunner.run(row.scenarioCase, flow: row.flow, file: row.file)
    #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
  }
}
