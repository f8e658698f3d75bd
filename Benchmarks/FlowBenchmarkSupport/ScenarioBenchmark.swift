package import FlowCore
package import FlowRuntime
import Foundation

/// The rows of scenario tables, loaded once, and the time to run them (for `flowbench scenarios`): what
/// `flowrun test` does with each row once its table and flow are loaded (the engine, the scripted providers,
/// the row's checks), without reading, parsing or compiling anything.
package enum ScenarioBenchmark {
  /// One row with the flow it runs against.
  package struct Row: Sendable {
    package var scenarioCase: ScenarioCase
    package var flow: Flow
    package var file: String
  }

  /// Every row of the tables under `path` (a table or a folder of them) whose flow compiles and that fits it,
  /// each flow compiled once (without the schema check, which does not change the compiled flow).
  ///
  /// - Throws: a table that does not load, or a flow that does not compile.
  package static func rows(at path: String) throws -> [Row] {
    var flows: [String: Flow] = [:]
    var rows: [Row] = []
    for file in try ScenarioLoader.files(at: path) {
      let table = try ScenarioLoader.load(path: file)
      let flow: Flow
      if let compiled = flows[table.flowPath] {
        flow = compiled
      } else {
        guard let data = FileManager.default.contents(atPath: table.flowPath) else {
          throw RunError(message: "\(table.flowPath): cannot read the flow of \(file)")
        }
        flow = try FlowGenerator.compile(String(decoding: data, as: UTF8.self), file: table.flowPath)
        flows[table.flowPath] = flow
      }
      for scenarioCase in table.cases where ScenarioRunner.problems(of: scenarioCase, with: flow).isEmpty {
        rows.append(Row(scenarioCase: scenarioCase, flow: flow, file: file))
      }
    }
    return rows
  }

  /// Runs every row once; returns how many passed.
  package static func run(_ rows: [Row]) async -> Int {
    var passed = 0
    for row in rows where await ScenarioRunner.run(row.scenarioCase, flow: row.flow, file: row.file).passed {
      passed += 1
    }
    return passed
  }

  /// The fastest of `runs` runs of every row, in seconds, and how many rows passed in the last.
  package static func measure(_ rows: [Row], runs: Int = 3) async -> (seconds: Double, passed: Int) {
    let clock = ContinuousClock()
    var best = Double.infinity
    var passed = 0
    for _ in 0..<runs {
      let start = clock.now
      passed = await run(rows)
      let duration = start.duration(to: clock.now)
      best = min(best, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
    return (best, passed)
  }
}
