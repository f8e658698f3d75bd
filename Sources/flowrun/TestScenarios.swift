import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLint
import FlowRuntime
import Foundation

struct TestScenarios: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run scenario tables and report every case that diverges.",
    discussion: """
      PATH is a scenario file or a directory searched for *.yaml files (default Tests/Scenarios). Each failing
      case is printed with the first point where it diverged; the run ends with the line `N passed, N failed`.
      Exit codes: 0 all passed; 1 a case failed; 2 a file could not be read or is not a valid scenario table.
      """)

  @Argument(help: "Scenario files or directories.")
  var paths: [String] = ["Tests/Scenarios"]

  @Option(help: "Run only cases whose name or source contains this text.")
  var filter: String?

  @Flag(help: "Print every case, not only the failing ones.")
  var verbose = false

  @Flag(help: "Report, per flow, the steps, transitions and permission outcomes the cases exercise and miss.")
  var coverage = false

  @Option(
    help: ArgumentHelp("Fail (exit 1) when a flow's coverage is below P percent (implies --coverage).", valueName: "P"))
  var minCoverage: Double?

  func run() async throws {
    var files: [String] = []
    for path in paths {
      do { files += try ScenarioLoader.files(at: path) } catch {
        printError("flowrun test: \(error)")
        throw ExitStatus.unusable.exitCode
      }
    }
    let summary = await ScenarioSuite.run(
      files: files, filter: filter, verbose: verbose, check: { Linter.lint($0) }
    ) { line in
      print(line)
    }
    print("\(summary.passed) passed, \(summary.failed) failed")
    var belowMinimum = false
    if coverage || minCoverage != nil {
      for (path, flow) in summary.flows.sorted(by: { $0.key < $1.key }) {
        let report = FlowCoverage(flow: flow, observations: summary.observations[path] ?? [])
        print(report.text)
        if let minCoverage, report.percent < minCoverage {
          print("coverage of \(path) is below --min-coverage \(minCoverage)%")
          belowMinimum = true
        }
      }
    }
    if summary.unreadable > 0 { throw ExitStatus.unusable.exitCode }
    if summary.failed > 0 || belowMinimum { throw ExitStatus.findings.exitCode }
  }
}
