import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowRuntime
import Foundation

struct ExploreFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explore",
    abstract: "Explore every state of a flow: reachable steps, terminals, dead ends, loops, shortest paths.",
    discussion: """
      Tries, from every state, every command and every answer the device can give, under every combination of
      the declared environment values and initial permission statuses (one permission at a time when the
      combinations exceed 64). Multi-choice steps are sampled: each option alone and all options together;
      text inputs get "", "User" and "Akira"; forms every field, and the required fields only. The clock stays
      at the launch time and states keep the last --history-depth steps for back.

      Paths to a terminal are counted over forward moves (not back, restart or reset); a path through a loop
      counts once.

      Exit codes: 0 nothing to fix; 1 a state with no way forward, a flow failure, or --max-states was hit;
      2 the flow cannot be read or has errors.
      """)

  @Argument(help: "The flow file (YAML or JSON).")
  var flow: String

  @Option(help: "Stop after this many distinct states.")
  var maxStates = 2_000_000

  @Option(help: "Steps of back history kept in each state.")
  var historyDepth = 2

  @Option(help: "Output format: text or json.")
  var format: OutputFormat = .text

  @Option(help: ArgumentHelp("Write scenario skeletons covering every transition taken into DIR.", valueName: "DIR"))
  var emitScenarios: String?

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

  func run() async throws {
    let compiled = try FlowArgument.load(flow)
    var options = ExploreOptions()
    options.maxStates = maxStates
    options.historyDepth = historyDepth
    let exploration = Explorer(flow: compiled, options: options).explore()
    let report = ExploreReport(exploration)
    print(format == .json ? report.json.prettyJSON : report.text)
    if let emitScenarios {
      do {
        let written = try ScenarioEmitter(exploration: exploration, flowPath: flow).write(to: emitScenarios)
        printError("wrote \(written)")
      } catch {
        printError("flowrun explore: \(error)")
        throw ExitStatus.unusable.exitCode
      }
    }
    if report.hasProblems { throw ExitStatus.findings.exitCode }
  }
}
