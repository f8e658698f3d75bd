package import FlowCore
package import FlowLoading

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
    /// Every table in the order run, with each case's outcome (for `flowrun test --format junit`).
    package var tables: [TableResult] = []
  }

  /// One scenario table's outcome.
  package struct TableResult: Sendable, Hashable {
    package var path: String
    /// Why the table could not be run at all (it does not load, or its flow has errors); nil when it ran.
    package var error: String?
    package var cases: [CaseOutcome] = []

    package init(path: String, error: String? = nil, cases: [CaseOutcome] = []) {
      self.path = path
      self.error = error
      self.cases = cases
    }
  }

  /// One row's outcome: passed when `failures` is empty; `isError` when the row does not fit its flow.
  package struct CaseOutcome: Sendable, Hashable {
    package var name: String
    package var line: Int
    package var failures: [String]
    package var isError = false

    package init(name: String, line: Int, failures: [String], isError: Bool = false) {
      self.name = name
      self.line = line
      self.failures = failures
      self.isError = isError
    }
  }

  /// Runs every case of every table in `files`. Each table's flow is loaded with ``FlowLoader`` and its cases
  /// run only when `check` (by default the load, schema and compiler diagnostics; `flowrun test` passes the
  /// linter) finds no error in it. A flow file among `found` (files found in a folder, beside the tables) is
  /// left out; a flow file named on its own is an error.
  package static func run(
    files: [String], found: Set<String> = [], filter: String?, verbose: Bool,
    check: (LoadedFlow) -> [Diagnostic] = \.diagnostics, print: (String) -> Void
  ) async -> Summary {
    var summary = Summary()
    var flows: [String: (flow: Flow?, diagnostics: [Diagnostic])] = [:]
    for path in files {
      let file: ScenarioFile
      do {
        file = try ScenarioLoader.load(path: path)
      } catch  where error.isFlowFile && found.contains(path) {
        if verbose { print("SKIP \(path): a flow file, not a scenario table") }
        continue
      } catch {
        print("ERROR \(path): not a valid scenario table\n\(indent(error.description))")
        summary.tables.append(TableResult(path: path, error: "not a valid scenario table\n\(error.description)"))
        summary.failed += 1
        summary.unreadable += 1
        continue
      }
      let loaded = flows[file.flowPath] ?? load(file.flowPath, check: check)
      flows[file.flowPath] = loaded
      guard let flow = loaded.flow, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
        print(
          "ERROR \(path): its flow \(file.flowPath) has errors\n"
            + indent(loaded.diagnostics.map(\.description).joined(separator: "\n")))
        summary.tables.append(
          TableResult(
            path: path,
            error: "its flow \(file.flowPath) has errors\n"
              + loaded.diagnostics.map(\.description).joined(separator: "\n")))
        summary.failed += file.cases.count
        summary.unreadable += 1
        continue
      }
      summary.tables.append(TableResult(path: path))
      let names = FlowNames(flow)
      let engine = Engine(flow: flow)
      for scenarioCase in file.cases {
        if let filter, !scenarioCase.name.contains(filter), !(scenarioCase.source ?? "").contains(filter) { continue }
        let problems = ScenarioRunner.problems(of: scenarioCase, with: flow, names: names)
        if !problems.isEmpty {
          print("ERROR \(path):\(scenarioCase.location.line) \(scenarioCase.title): the case does not fit its flow")
          for problem in problems {
            print(indent("\(path):\(problem.location.line):\(problem.location.column): \(problem.message)"))
          }
          summary.tables[summary.tables.count - 1].cases.append(
            CaseOutcome(
              name: scenarioCase.name, line: scenarioCase.location.line,
              failures: problems.map {
                "\(path):\($0.location.line):\($0.location.column): the case does not fit its flow: \($0.message)"
              }, isError: true))
          summary.failed += 1
          summary.unreadable += 1
          continue
        }
        let result = await ScenarioRunner.run(scenarioCase, flow: flow, names: names, engine: engine, file: path)
        summary.flows[file.flowPath] = flow
        summary.observations[file.flowPath, default: []].append(result.observation)
        summary.tables[summary.tables.count - 1].cases.append(
          CaseOutcome(name: scenarioCase.name, line: scenarioCase.location.line, failures: result.failures))
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

  /// The problems of the scenario table at `path`, as `flowlint` reports them (rule `scenario-table`, or
  /// `load` for a file that is not a YAML document): what loading the table finds, then, when its flow loads
  /// without errors, each row's settings the flow does not declare; its flow's own errors are one finding at
  /// `flow:`. No row runs.
  package static func lintTable(path: String) -> [Diagnostic] {
    let rule = "scenario-table"
    let file: ScenarioFile
    do {
      file = try ScenarioLoader.load(path: path)
    } catch {
      if let problem = error.ioProblem { return [Diagnostic(.error, problem, file: path, at: .unknown, rule: "load")] }
      return error.diagnostics.map { diagnostic in
        var finding = diagnostic
        if finding.ruleID != "load" { finding.ruleID = rule }
        return finding
      }
    }
    let (flow, diagnostics) = load(file.flowPath, check: \.diagnostics)
    guard let flow, !diagnostics.contains(where: { $0.severity == .error }) else {
      let first = diagnostics.first { $0.severity == .error }.map { ": \($0)" } ?? ""
      return [
        Diagnostic(
          .error, "its flow \(file.flowPath) does not load, so the rows cannot be checked against it\(first)",
          file: path, at: file.flowLocation, rule: rule)
      ]
    }
    return file.cases.flatMap { scenarioCase in
      ScenarioRunner.problems(of: scenarioCase, with: flow).map {
        Diagnostic(.error, $0.message, file: path, at: $0.location, rule: rule)
      }
    }
  }

  /// The flow at `path` and what `check` finds in it; an unreadable path is one `io` error.
  ///
  /// A file that parsed but is not a flow (no mapping with `flow` and `steps`: a scenario's `flow:` naming some
  /// other file) gives one error that says so, never the schema's findings, which would quote its contents.
  static func load(_ path: String, check: (LoadedFlow) -> [Diagnostic]) -> (flow: Flow?, diagnostics: [Diagnostic]) {
    do {
      let loaded = try FlowLoader.load(path: path)
      if let node = loaded.node, node["flow"] == nil || node["steps"] == nil {
        let found = node.entries == nil ? node.kindDescription : "a mapping without them"
        let message = "not a flow file: expected a mapping with 'flow' and 'steps', found \(found)"
        return (nil, [Diagnostic(.error, message, file: path, at: node.location, rule: "load")])
      }
      return (loaded.flow, check(loaded))
    } catch {
      return (nil, [Diagnostic(.error, error.reason, file: path, at: .unknown, rule: "io")])
    }
  }

  static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n")
  }
}
