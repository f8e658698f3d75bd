package import FlowCore

/// Runs whole scenario files and reports in the `flowrun test` format.
package enum ScenarioSuite {
  package struct Summary: Sendable {
    package var passed = 0
    package var failed = 0
    /// Files that could not be read or are not valid tables (each also counted as one failure).
    package var unreadable = 0
    /// What the cases observed, by flow file (for coverage).
    package var observations: [String: [Observation]] = [:]
    package var flows: [String: Flow] = [:]
  }

  package static func run(
    files: [String], filter: String?, verbose: Bool, print: (String) -> Void
  ) async -> Summary {
    var summary = Summary()
    var flows: [String: FlowFile.Loaded] = [:]
    for path in files {
      let file: ScenarioFile
      do {
        file = try ScenarioLoader.load(path: path)
      } catch {
        print("ERROR \(path): not a valid scenario table\n\(indent(error.description))")
        summary.failed += 1
        summary.unreadable += 1
        continue
      }
      let loaded = flows[file.flowPath] ?? FlowFile.load(path: file.flowPath)
      flows[file.flowPath] = loaded
      guard let flow = loaded.flow, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
        print(
          "ERROR \(path): its flow \(file.flowPath) has errors\n"
            + indent(loaded.diagnostics.map(\.description).joined(separator: "\n")))
        summary.failed += file.cases.count
        summary.unreadable += 1
        continue
      }
      for scenarioCase in file.cases {
        if let filter, !scenarioCase.name.contains(filter), !(scenarioCase.source ?? "").contains(filter) { continue }
        let result = await ScenarioRunner.run(scenarioCase, flow: flow)
        summary.flows[file.flowPath] = flow
        summary.observations[file.flowPath, default: []].append(result.observation)
        if result.passed {
          summary.passed += 1
          if verbose { print("PASS \(path):\(scenarioCase.location.line) \(scenarioCase.title)") }
        } else {
          summary.failed += 1
          print("FAIL \(path):\(scenarioCase.location.line) \(scenarioCase.title)")
          for failure in result.failures { print(indent(failure)) }
        }
      }
    }
    return summary
  }

  static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n")
  }
}
