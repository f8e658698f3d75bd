import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLoading
import FlowRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct ExploreFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explore",
    abstract: "Explore every state of a flow: reachable steps, terminals, dead ends, loops, shortest paths.",
    discussion: """
      Tries, from every state, every command and every answer the device can give, under every combination of \
      the declared environment values and initial permission statuses (one permission at a time when the \
      combinations exceed 64), and, for a flow with experiments, under every combination of their variants, \
      pinned; the report then says which steps and terminals each variant reaches. Multi-choice steps are sampled: each option alone and all options together. \
      Text inputs and form fields get the `values` the flow declares on them, or else values of their type and \
      the values on both sides of every comparison that reads them ("year >= 1900" gives 1899 and 1900); a form \
      is filled with every field, the required fields only, and each field's values in turn. The clock stays \
      at the launch time and states keep the last --history-depth steps for back.

      Paths to a terminal are counted over forward moves (not back, restart or reset); a path through a loop \
      counts once.

      A run stopped by --max-states or --max-depth says "explored N states, stopped at the limit \
      (--max-states N)" and its results are partial: the states whose moves were not tried are listed as \
      unexplored, never as states with no way forward. Paths longer than 64 moves are written from an earlier \
      step's shortest path ("(the path to s64), next"), so the report grows linearly with the flow; a command \
      repeated is written once with its count ("next ×64"). With --format json every path lists each command \
      in "commands", one string per move, and a long path names its earlier step in "after".

      When a text input or form refuses every text tried (and its next is not disabled whatever is typed), \
      the state is listed under "states explore did not get past with the inputs tried", with the field, the \
      texts tried, one refusal and the `values` to declare, never as a state with no way forward; the steps it \
      leads to that were not reached are "not reached with the inputs tried", never "reachable under no \
      environment". With --format json: "inputLimited" and "notReachedWithInputsTried".

      While it explores, a line on standard error (when that is a terminal) shows the states found, states per \
      second, the frontier (states found whose moves are not tried yet) and the memory in use; at the end one \
      line on standard error gives the states, moves, time, states per second and peak memory.

      --emit-scenarios DIR writes DIR/FLOW.explore.yaml (atomically: a temporary file beside it, then renamed); \
      an existing file is replaced only with --force, and that is checked before exploring.

      Exit codes: 0 nothing to fix; 1 a state with no way forward, a flow failure, a limit was reached, or an \
      input refused every text tried (the results are then partial, as at a limit); 2 the flow cannot be read \
      or has errors, a usage error (such as a limit out of range), or the --emit-scenarios file exists \
      (without --force) or cannot be written.
      """)

  @Argument(help: "The flow file (YAML or JSON).")
  var flow: String

  @Option(parsing: .unconditional, help: "Stop after this many distinct states (1 to 1000000000).")
  var maxStates = ExploreOptions().maxStates

  @Option(parsing: .unconditional, help: "Do not go further than this many moves from a launch (1 to 1000000000).")
  var maxDepth = ExploreOptions().maxDepth

  @Option(
    parsing: .unconditional, help: "Steps of back history kept in each state (0 to 100; each costs 4 bytes per state).")
  var historyDepth = ExploreOptions().historyDepth

  @Flag(
    help: ArgumentHelp(
      "Keep each state as a 64-bit fingerprint (hash compaction): less memory; two states with the same "
        + "fingerprint would count as one."))
  var compact = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Threads that explore (1 to 256; default 1). The states, their numbering and what the report finds are "
        + "the same for every value. A flow whose launch setups differ in their environment (facts with several "
        + "values) or their experiments' variants is explored in parts, those dealt out to the threads, each part "
        + "with states and a cache of its own (the report's memory line can differ from one thread's), and a part "
        + "shares its states out in batches with a thread no part needs (jobs beyond the parts, or a part's once "
        + "done); otherwise the states are shared out in batches, each thread with a cache of its own, and stored "
        + "in order on one of them. docs/benchmarks.md says what two threads gain on 2 cores."))
  var jobs = ExploreOptions().jobs

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --jobs above 1 and no parts, the states explored on one thread before the others join (0 to "
        + "1000000000; default 32768): the threads start from what it learnt, and a smaller flow is explored on "
        + "one thread.",
      valueName: "states"))
  var oneThreadFirst = ExploreOptions().oneThreadFirst

  @Option(help: "Output format: text or json.")
  var format: OutputFormat = .text

  @Option(
    help: ArgumentHelp(
      "Write scenario skeletons covering every transition taken into DIR, as FLOW.explore.yaml.", valueName: "DIR"))
  var emitScenarios: String?

  @Flag(help: "Replace the file --emit-scenarios writes when it exists.")
  var force = false

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

  /// The limits are parsed `.unconditional`ly, so that `--jobs -1` is out of range rather than an option `-1`.
  func validate() throws {
    for (name, value, range) in [
      ("--max-states", maxStates, ExploreOptions.maxStatesRange),
      ("--max-depth", maxDepth, ExploreOptions.maxDepthRange),
      ("--history-depth", historyDepth, ExploreOptions.historyDepthRange),
      ("--jobs", jobs, ExploreOptions.jobsRange),
      ("--one-thread-first", oneThreadFirst, ExploreOptions.oneThreadFirstRange),
    ] where !range.contains(value) {
      throw ValidationError(
        "\(name) \(value) is out of range; it must be between \(range.lowerBound) and \(range.upperBound)")
    }
    if force && emitScenarios == nil { throw ValidationError("'--force' needs '--emit-scenarios DIR'.") }
  }

  func run() async throws {
    // Refused before exploring, not after: an exploration can take minutes.
    if let emitScenarios,
      let refusal = OutputFile.notAFolder(emitScenarios)
        ?? OutputFile.refusal(
          ScenarioEmitter.path(forFlow: flow, in: emitScenarios), force: force,
          otherwise: "choose another --emit-scenarios folder")
    {
      printError("flowrun explore: error: \(refusal)")
      throw ExitStatus.unusable.exitCode
    }
    let (loaded, compiled) = try FlowArgument.loadDocument(flow)
    var options = ExploreOptions()
    options.flowForEachPart = loaded.flowCopier
    options.maxStates = maxStates
    options.maxDepth = maxDepth
    options.historyDepth = historyDepth
    options.compact = compact
    options.jobs = jobs
    options.oneThreadFirst = oneThreadFirst
    let clock = ContinuousClock()
    let start = clock.now
    if isatty(STDERR_FILENO) == 1 {
      options.progress = { progress in
        let seconds = Self.seconds(clock.now - start)
        let rate = seconds > 0 ? Int(Double(progress.expanded) / seconds) : 0
        let memory = Self.memoryMB("VmRSS").map { ", \($0) MB resident" } ?? ""
        StandardStream.error.write(
          "\r\u{1B}[Kexploring: \(progress.states) states, \(rate) states/s, "
            + "\(progress.frontier) in the frontier\(memory)")
      }
    }
    let exploration = Explorer(flow: compiled, options: options).explore()
    let seconds = Self.seconds(clock.now - start)
    let rate = seconds > 0 ? Int(Double(exploration.processed) / seconds) : 0
    let peak = Self.memoryMB("VmHWM").map { ", \($0) MB peak resident" } ?? ""
    printError(
      (isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : "")
        + "explored \(exploration.stateCount) states and \(exploration.edgeCount) moves in "
        + fixedPoint(seconds, fractionDigits: 2) + " s (\(rate) states/s)\(peak)"
        + (exploration.parts > 1
          ? ", in \(exploration.parts) parts on "
            + (jobs == exploration.parts ? "as many threads" : "\(jobs) threads") : "")
        + (exploration.spareThreadsTaken > 0
          ? " and \(exploration.batches) batches of a part's states on the threads of parts done or spare" : ""))
    let report = ExploreReport(exploration)
    print(format == .json ? report.json.prettyJSON : report.text)
    if let emitScenarios {
      do {
        let written = try ScenarioEmitter(exploration: exploration, flowPath: flow).write(
          to: emitScenarios, replacing: force)
        printError("wrote \(written)")
      } catch let error as TextFile.WriteError {
        printError("flowrun explore: error: \(OutputFile.message(error))")
        throw ExitStatus.unusable.exitCode
      } catch {
        printError("flowrun explore: error: \(error)")
        throw ExitStatus.unusable.exitCode
      }
    }
    if report.hasProblems { throw ExitStatus.findings.exitCode }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// A memory figure of this process from /proc/self/status (`VmRSS` now, `VmHWM` the peak), in MB; nil where
  /// there is no /proc.
  private static func memoryMB(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      return Int(line.filter(\.isNumber)).map { $0 / 1024 }
    }
    return nil
  }
}
