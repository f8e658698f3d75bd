import FlowCore
import FlowRuntime
import Foundation
import Testing

@Suite struct CoverageTests {
  static let flow = """
    flow: c
    version: "1"
    locales: [en]
    start: a
    permissions: [notifications]
    steps:
      a:
        kind: screen
        next: ask
        skip: done
      ask:
        kind: permission
        permission: notifications
        on: { granted: done, denied: done }
      done:
        kind: terminal
        outcome: completed
    """

  /// Runs a scenario table written inline next to the flow; returns each case's observation.
  func run(_ cases: String) async throws -> (Flow, [Observation]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.flow.write(toFile: directory + "/c.yaml", atomically: true, encoding: .utf8)
    try ("flow: c.yaml\ncases:\n" + cases).write(toFile: directory + "/t.yaml", atomically: true, encoding: .utf8)
    let file = try ScenarioLoader.load(path: directory + "/t.yaml")
    let flow = try compileFlow(Self.flow)
    var observations: [Observation] = []
    for scenarioCase in file.cases {
      let result = await ScenarioRunner.run(scenarioCase, flow: flow)
      #expect(result.passed, "\(result.failures)")
      observations.append(result.observation)
    }
    return (flow, observations)
  }

  @Test func countsWhatTheCasesExercise() async throws {
    let (flow, observations) = try await run(
      """
        - { name: ask, source: t, answers: { notifications: [granted] }, commands: [next, tap request] }
        - { name: skip, source: t, commands: [skip] }
      """)
    let one = observations[0]
    let two = observations[1]
    let coverage = FlowCoverage(flow: flow, observations: [one])
    #expect(coverage.steps.covered == ["a", "ask", "done"])
    // Declared: launch -> a, a -> ask (next), a -> done (skip), ask -> done (granted), ask -> done (denied).
    #expect(
      coverage.transitions.covered.map(\.description) == [
        "launch -> a (route)", "a -> ask (next)", "ask -> done (outcome granted)",
      ])
    #expect(coverage.transitions.missed.map(\.description) == ["a -> done (skip)", "ask -> done (outcome denied)"])
    #expect(coverage.permissionOutcomes.covered.map(\.outcome) == ["granted"])
    #expect(coverage.permissionOutcomes.missed.count == 5)
    // 3 + 3 + 1 of 3 + 5 + 6.
    #expect(coverage.covered == 7)
    #expect(coverage.total == 14)
    #expect(coverage.percent == 50)

    let both = FlowCoverage(flow: flow, observations: [one, two])
    #expect(both.transitions.missed.map(\.description) == ["ask -> done (outcome denied)"])
  }
}

@Suite struct EngineMoveRecordTests {
  static let flow = """
    flow: m
    version: "1"
    locales: [en]
    start: a
    steps:
      a:
        kind: screen
        next: b
        buttons:
          skip: { to: c }
      b:
        kind: screen
        skipIf: 'true'
        next: c
      c:
        kind: screen
        skipIf: 'true'
        next: d
      d:
        kind: terminal
        outcome: completed
    """

  func moves(_ records: [Record]) -> [String] {
    records.compactMap { FlowTransition(taken: $0)?.description }
  }

  @Test func theEngineRecordsEveryRouteItTakes() throws {
    let engine = Engine(flow: try compileFlow(Self.flow))
    var (state, launched) = try engine.launch(Launch())
    #expect(moves(launched) == ["launch -> a (route)"])
    // A button named 'skip' is a button, not the step's skip.
    let tapped = try engine.handle(.tap("skip"), in: &state)
    #expect(moves(tapped) == ["a -> c (button skip)", "c -> d (skipIf)"])
    _ = try engine.handle(.reset, in: &state)
    let next = try engine.handle(.next, in: &state)
    #expect(moves(next) == ["a -> b (next)", "b -> c (skipIf)", "c -> d (skipIf)"])
  }
}

/// The coverage percentage and explore's seconds are printed with `fixedPoint`, which must round as `printf` does.
struct FixedPointTests {
  @Test(arguments: [0.0, 0.05, 0.15, 0.25, 0.125, 2.675, 95.45, 95.55, 99.95, 100, 1e9 + 0.5, -0.05, 12.345678])
  func roundsAsPrintfDoes(_ value: Double) {
    for digits in 0...3 {
      #expect(fixedPoint(value, fractionDigits: digits) == String(format: "%.\(digits)f", value))
    }
  }
}
