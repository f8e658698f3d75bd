import FlowCore
import FlowRuntime
import Foundation
import Testing

@Suite struct ExploreTests {
  /// A command repeated is written once with its count (the text report's paths; `next ×64` in a real report
  /// is checked by ExploreBenchmarkTests); the JSON report keeps one string per move.
  @Test func aRepeatedCommandIsWrittenOnceWithItsCount() {
    let commands = ["next", "next", "tap signIn"] + Array(repeating: "next", count: 9_999) + ["back"]
    #expect(ExploreReport.StepPath.runs(of: commands) == ["next ×2", "tap signIn", "next ×9,999", "back"])
    #expect(ExploreReport.StepPath.runs(of: Array(repeating: "next", count: 1_234_567)) == ["next ×1,234,567"])
    #expect(ExploreReport.StepPath.runs(of: Array(repeating: "next", count: 999)) == ["next ×999"])
    #expect(ExploreReport.StepPath.runs(of: []) == [])
  }

  /// welcome -> pick (a | b) -> done / other; `stuck` has no way forward; `loop` goes back to welcome.
  static let small = """
    flow: small
    version: "1"
    locales: [en]
    start: welcome
    environment:
      beta: { type: bool, default: false }
    variables:
      color: { type: string, default: "" }
    steps:
      welcome:
        kind: screen
        next: pick
        buttons:
          hidden: { to: stuck, visible: env.beta }
      pick:
        kind: single-choice
        options: { a: A, b: B }
        variable: color
        next:
          to:
            - when: color == "a"
              to: done
            - to: other
      other:
        kind: screen
        buttons:
          again: { to: welcome }
        next: done
      stuck:
        kind: screen
      done:
        kind: terminal
        outcome: completed
    """

  @Test func countsStatesTerminalsAndPaths() throws {
    let flow = try compileFlow(Self.small)
    let exploration = Explorer(flow: flow).explore()
    let report = ExploreReport(exploration)
    #expect(!report.hitLimit)
    #expect(report.setups == 2)
    #expect(report.reachable == ["welcome", "pick", "other", "stuck", "done"])
    #expect(report.unreachable.isEmpty)
    // Two launches; per launch: welcome, pick, other, done(a), done(b via other), stuck only with beta.
    #expect(report.terminals.count == 1)
    #expect(report.terminals.first?.step == "done")
    #expect(report.states == exploration.stateCount)
    #expect(report.shortest.first { $0.step == "done" }?.commands == ["next", "choose a"])
    #expect(report.shortest.first { $0.step == "stuck" }?.setup == "beta=true")
  }

  @Test func findsDeadEndsAndLoops() throws {
    let flow = try compileFlow(Self.small)
    let report = ExploreReport(Explorer(flow: flow).explore())
    #expect(report.deadEnds.map(\.step) == ["stuck"])
    #expect(report.deadEnds.first?.example.commands == ["tap hidden"])
    #expect(report.loops.count == 1)
    #expect(report.loops.first?.steps == ["welcome", "pick", "other"])
    #expect(report.hasProblems)
    #expect(report.untakenTransitions.isEmpty)
  }

  @Test func maxStatesStopsWithAClearMessage() throws {
    let flow = try compileFlow(Self.small)
    var options = ExploreOptions()
    options.maxStates = 3
    let report = ExploreReport(Explorer(flow: flow, options: options).explore())
    #expect(report.hitLimit)
    #expect(report.states == 3)
    #expect(report.hasProblems)
    #expect(
      report.text.split(separator: "\n").first.map(String.init)
        == "small 1: 3 states, 1 moves from 2 launch setups (explored 3 states, stopped at the limit "
        + "(--max-states 3): the results below are partial; raise the limit to see everything)")
    guard case .map(let json) = report.json else { Issue.record("not a map"); return }
    #expect(json["stoppedAt"] == .string("--max-states 3"))
  }

  @Test func maxDepthStopsWithAClearMessage() throws {
    let flow = try compileFlow(Self.small)
    var options = ExploreOptions()
    options.maxDepth = 1
    let exploration = Explorer(flow: flow, options: options).explore()
    #expect(exploration.stoppedAt == .maxDepth)
    #expect((0..<Int32(exploration.stateCount)).allSatisfy { exploration.depth(of: $0) <= 2 })
    let report = ExploreReport(exploration)
    #expect(report.hasProblems)
    #expect(report.text.contains("stopped at the limit (--max-depth 1)"))
    // States beyond the limit were not expanded, so none of them is reported as a dead end.
    #expect(report.deadEnds.isEmpty)
  }

  @Test func limitDefaultsAreTheDocumentedOnes() {
    let options = ExploreOptions()
    #expect(options.maxStates == 2_000_000)
    #expect(options.maxDepth == 1_000_000)
    #expect(options.historyDepth == 2)
    #expect(ExploreOptions.historyDepthRange == 0...100)
    #expect(ExploreOptions.maxStatesRange == 1...1_000_000_000)
    #expect(ExploreOptions.maxDepthRange == 1...1_000_000_000)
  }

  /// A question of three answers, then the end.
  static let threeAnswers = """
    flow: paths
    version: "1"
    locales: [en]
    start: q
    variables:
      x: { type: string, default: "" }
    steps:
      q:
        kind: single-choice
        options: { a: A, b: B, c: C }
        variable: x
        next: end
      end:
        kind: terminal
        outcome: paywall
    """

  @Test func pathsAreCountedThroughTheCondensation() throws {
    let flow = try compileFlow(Self.threeAnswers)
    let report = ExploreReport(Explorer(flow: flow).explore())
    // x is read by nothing: the three answers reach one state by three distinct paths.
    #expect(report.terminals.first?.paths == 3)
    #expect(report.terminals.first?.states == 1)
    #expect(report.deadEnds.isEmpty)
  }

  @Test func permissionRequestsBranchOverEveryOutcome() throws {
    let flow = try compileFlow(
      """
      flow: perm
      version: "1"
      locales: [en]
      start: ask
      permissions: [notifications]
      steps:
        ask:
          kind: permission
          permission: notifications
          on: { granted: done, denied: done }
        done:
          kind: terminal
          outcome: completed
      """)
    let exploration = Explorer(flow: flow).explore()
    #expect(exploration.setups.count == 4)
    let outcomes = Set(exploration.permissionOutcomeWitness.keys.map(\.outcome))
    #expect(outcomes == ["granted", "denied", "partial", "error", "timeout", "unavailable"])
    let report = ExploreReport(exploration)
    // partial, error and timeout have no entry in `on`: the user stays and can ask again.
    #expect(report.deadEnds.isEmpty)
  }

  /// An effect the flow declares reaches the app like a track: the emitted rows expect it where the runner
  /// reports it (they used to leave it out, so every emitted row through it failed).
  @Test func emittedScenariosExpectTheFlowsOwnEffects() async throws {
    let source = """
      flow: own-effect
      version: "1"
      locales: [en]
      start: welcome
      effects:
        saveGoal: { arguments: { minutes: int } }
      steps:
        welcome:
          kind: screen
          next: { to: done, effects: [{ saveGoal: { minutes: "10" } }, { track: goal_saved }] }
        done:
          kind: terminal
          outcome: completed
      """
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let flowPath = directory + "/own-effect.yaml"
    try source.write(toFile: flowPath, atomically: true, encoding: .utf8)
    let flow = try compileFlow(source)
    let exploration = Explorer(flow: flow).explore()
    let written = try ScenarioEmitter(exploration: exploration, flowPath: flowPath).write(
      to: directory + "/generated", replacing: false)
    let file = try ScenarioLoader.load(path: written)
    #expect(file.cases.map(\.expect.events) == [[], ["saveGoal {minutes: 10}", "track goal_saved"]])
    for scenarioCase in file.cases {
      let result = await ScenarioRunner.run(scenarioCase, flow: flow)
      #expect(result.failures.isEmpty, "\(scenarioCase.name): \(result.failures)")
    }
  }

  @Test func emittedScenariosPassUnderTheRunner() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let flowPath = directory + "/small.yaml"
    try Self.small.write(toFile: flowPath, atomically: true, encoding: .utf8)
    let flow = try compileFlow(Self.small)
    let exploration = Explorer(flow: flow).explore()
    let written = try ScenarioEmitter(exploration: exploration, flowPath: flowPath).write(
      to: directory + "/generated", replacing: false)
    let file = try ScenarioLoader.load(path: written)
    #expect(file.flowPath == flowPath)
    // One case per declared transition (some share a path).
    #expect(file.cases.count >= 5)
    for scenarioCase in file.cases {
      let result = await ScenarioRunner.run(scenarioCase, flow: flow)
      #expect(result.failures.isEmpty, "\(scenarioCase.name): \(result.failures)")
      #expect(scenarioCase.expect.path != nil)
    }
  }
}
