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
    package var names: FlowNames
    /// The engine the rows of `flow` share, as `flowrun test` shares one per table.
    package var engine: Engine
    package var file: String
  }

  /// Every row of the tables under `path` (a table or a folder of them) whose flow compiles and that fits it,
  /// each flow compiled once (without the schema check, which does not change the compiled flow).
  ///
  /// - Throws: a table that does not load, or a flow that does not compile.
  package static func rows(at path: String) throws -> [Row] {
    var flows: [String: (flow: Flow, names: FlowNames, engine: Engine)] = [:]
    var rows: [Row] = []
    for file in try ScenarioLoader.files(at: path) {
      let table = try ScenarioLoader.load(path: file)
      let flow: Flow
      let names: FlowNames
      let engine: Engine
      if let compiled = flows[table.flowPath] {
        (flow, names, engine) = compiled
      } else {
        guard let data = FileManager.default.contents(atPath: table.flowPath) else {
          throw RunError(message: "\(table.flowPath): cannot read the flow of \(file)")
        }
        flow = try FlowGenerator.compile(String(decoding: data, as: UTF8.self), file: table.flowPath)
        names = FlowNames(flow)
        engine = Engine(flow: flow)
        flows[table.flowPath] = (flow, names, engine)
      }
      for scenarioCase in table.cases where ScenarioRunner.problems(of: scenarioCase, with: flow, names: names).isEmpty
      {
        rows.append(Row(scenarioCase: scenarioCase, flow: flow, names: names, engine: engine, file: file))
      }
    }
    return rows
  }

  /// Runs every row once; returns how many passed.
  package static func run(_ rows: [Row]) async -> Int {
    var passed = 0
    for row in rows
    where await ScenarioRunner.run(
      row.scenarioCase, flow: row.flow, names: row.names, engine: row.engine, file: row.file
    ).passed {
      passed += 1
    }
    return passed
  }

  /// The fastest of `runs` runs of every row: wall-clock seconds, and the process's CPU seconds (user and
  /// system), which a loaded machine inflates less; and how many rows passed in the last run.
  package static func measure(_ rows: [Row], runs: Int = 3) async -> (seconds: Double, cpuSeconds: Double, passed: Int)
  {
    let clock = ContinuousClock()
    var best = Double.infinity
    var bestCPU = Double.infinity
    var passed = 0
    for _ in 0..<runs {
      let cpu = cpuSeconds()
      let start = clock.now
      passed = await run(rows)
      let duration = start.duration(to: clock.now)
      best = min(best, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
      bestCPU = min(bestCPU, cpuSeconds() - cpu)
    }
    return (best, bestCPU, passed)
  }

  /// ``measure(_:runs:)`` run as a task while the calling thread waits for it. flowbench calls this rather than
  /// being an async main, for the reason `FlowRun.main()` gives: an async main's `dispatch_main()` unwinds the
  /// main thread, and in the static build the first unwind sorts the whole binary's unwind tables (about 160
  /// million instructions, which scripts/perf-guard.py would count with the rows).
  package static func measureWaiting(_ rows: [Row], runs: Int = 3) -> (
    seconds: Double, cpuSeconds: Double, passed: Int
  ) {
    final class Outcome: @unchecked Sendable {
      var value = (seconds: 0.0, cpuSeconds: 0.0, passed: 0)
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    // Detached: the task must not wait for the thread that waits for it.
    Task.detached {
      outcome.value = await measure(rows, runs: runs)
      done.signal()
    }
    done.wait()
    return outcome.value
  }

  /// The CPU time the process has used, user and system, in seconds.
  static func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
  }
}
