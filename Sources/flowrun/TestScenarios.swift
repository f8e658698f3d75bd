import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLint
import FlowRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct TestScenarios: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run scenario tables and report every case that diverges.",
    discussion: """
      PATH is a scenario file or a directory searched for *.yaml files (default Tests/Scenarios); flow files \
      found in a directory beside the tables are left out (--verbose names them). Each failing \
      case is printed with the first point where it diverged; the run ends with the line `N passed, N failed`. \
      With --format junit the report is JUnit XML instead (failure messages start with the row's file and line).

      Exit codes: 0 all passed; 1 a case failed; 2 a file could not be read or is not a valid scenario table, or \
      nothing ran (no table found, or no case matches --filter).
      """)

  @Argument(help: "Scenario files or directories.")
  var paths: [String] = ["Tests/Scenarios"]

  @Option(help: "Run only cases whose name or source contains this text.")
  var filter: String?

  @Flag(help: "Print every case, not only the failing ones.")
  var verbose = false

  @Flag(
    help: ArgumentHelp(
      "Report, per flow, the steps, transitions and permission outcomes the cases exercise and miss, and for a flow "
        + "with experiments the variants the cases ran and the steps each reached."))
  var coverage = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Fail (exit 1) when a flow's coverage is below P percent, 0 to 100 (implies --coverage).", valueName: "P"))
  var minCoverage: Double?

  @Option(
    help: """
      text (the failing cases and the 'N passed, N failed' line) or junit (JUnit XML for CI dashboards: one \
      testsuite per table, one testcase per row; coverage, when asked for, goes to standard error).
      """)
  var format: Format = .text

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, junit }

  /// A percentage outside 0 to 100 (or not a number: `nan` would pass every flow, 500 fail them all) is a usage
  /// mistake; parsed `.unconditional`ly, so that `-5` is out of range rather than an option.
  func validate() throws {
    if let minCoverage, !(0...100).contains(minCoverage) {
      throw ValidationError(
        "--min-coverage \(minCoverage) is out of range; it must be a percentage between 0 and 100, e.g. 90")
    }
  }

  func run() async throws {
    var files: [String] = []
    var found: Set<String> = []
    for path in paths {
      do {
        let listed = try ScenarioLoader.files(at: path)
        files += listed
        if listed != [path] { found.formUnion(listed) }
      } catch {
        printError("flowrun test: \(error)")
        throw ExitStatus.unusable.exitCode
      }
    }
    let junit = format == .junit
    let summary = await ScenarioSuite.run(
      files: files, found: found, filter: filter, verbose: verbose, check: { Linter.lint($0) }
    ) { line in
      if !junit { print(line) }
    }
    if junit {
      print(JUnitReport.xml(summary.tables), terminator: "")
    } else {
      print("\(summary.passed) passed, \(summary.failed) failed")
    }
    // With junit, standard output holds the XML alone; the coverage report goes to standard error.
    let say: (String) -> Void = junit ? { printError($0) } : { print($0) }
    var belowMinimum = false
    if coverage || minCoverage != nil {
      for (path, flow) in summary.flows.sorted(by: { $0.key < $1.key }) {
        let report = FlowCoverage(flow: flow, observations: summary.observations[path] ?? [])
        say(report.text)
        if let minCoverage, report.percent < minCoverage {
          say("coverage of \(path) is below --min-coverage \(minCoverage)%")
          belowMinimum = true
        }
      }
    }
    if summary.unreadable > 0 { throw ExitStatus.unusable.exitCode }
    // Nothing run is no pass: a CI step naming the wrong folder, or a filter with a typo, would stay green.
    if summary.passed + summary.failed == 0 {
      let named = paths.map { "'\($0)'" }.joined(separator: ", ")
      if let filter, !summary.tables.isEmpty {
        printError(
          "flowrun test: error: no case of the \(summary.tables.count) "
            + (summary.tables.count == 1 ? "table" : "tables") + " in \(named) matches --filter "
            + "'\(filter)' (it matches a case's name or source text)")
      } else {
        printError(
          "flowrun test: error: no scenario table in \(named); a table is a YAML file with 'flow:' and 'cases:' "
            + "(flow files are left out; --verbose names them)")
      }
      throw ExitStatus.unusable.exitCode
    }
    if summary.failed > 0 || belowMinimum { throw ExitStatus.findings.exitCode }
  }
}
