import FlowCore
import FlowYAML
import Testing

/// The app's life around the flow: actions run at launch before the first step.
@Suite struct LifecycleTests {
  static let fetching = """
    flow: t
    version: "1"
    locales: [en]
    start: a
    variables:
      name: { type: string, default: "", persist: name }
      opened: { type: int, default: 0 }
    launch:
      - set: opened
        value: opened + 1
      - action: restore-profile
        when: opened > 0
        on:
          found:
            effects:
              - set: name
                value: result.displayName ?? name
      - track: launched
        properties: { name: name }
    resume:
      - when: name != ""
        to: b
    steps:
      a: { kind: screen, next: b }
      b: { kind: terminal }
    """

  @Test func aLaunchActionWaitsBeforeTheFirstStepThenItsOutcomeRunsAndResumeDecides() throws {
    let engine = Engine(flow: try compileFlow(Self.fetching))
    var (state, records) = try engine.launch(Launch())
    #expect(state.current == nil)
    #expect(
      records == [
        .effect(.set(variable: "opened", value: .int(1))), .effect(.perform(action: .restoreProfile, permission: nil)),
      ])
    #expect(engine.commands(for: state) == ["answer found", "answer empty", "answer error"])
    #expect(try engine.screen(for: state) == nil)
    #expect(
      throws: FlowError.rejected(
        Rejection(
          message: "the app is starting: waiting for the answer to 'restore-profile'",
          allowed: ["answer found", "answer empty", "answer error"]))
    ) {
      try engine.handle(.next, in: &state)
    }
    #expect(
      throws: FlowError.rejected(
        Rejection(
          message: "'fond' is not an outcome of 'restore-profile' (did you mean 'found'?)",
          allowed: ["answer found", "answer empty", "answer error"]))
    ) {
      try engine.handle(.outcome("fond", result: [:]), in: &state)
    }
    records = try engine.handle(.outcome("found", result: ["displayName": .string("Mei")]), in: &state)
    #expect(
      records == [
        .effect(.set(variable: "name", value: .string("Mei"))), .effect(.persist(key: "name", value: .string("Mei"))),
        .effect(.track(event: "launched", properties: ["name": .string("Mei")])),
        .routed(from: "launch", to: "b", why: "name != \"\" → \"Mei\" != \"\" → true"),
        .moved(from: "launch", to: "b", route: .resume, name: nil), .entered(step: "b"),
        .ended(step: "b", outcome: .completed),
      ])
  }

  @Test func anOutcomeWithNoEntryRunsNothingAndTheNextEntriesRun() throws {
    let engine = Engine(flow: try compileFlow(Self.fetching))
    var (state, _) = try engine.launch(Launch())
    let records = try engine.handle(.outcome("empty", result: [:]), in: &state)
    #expect(
      records == [
        .effect(.track(event: "launched", properties: ["name": .string("")])),
        .routed(from: "launch", to: "a", why: "start"), .moved(from: "launch", to: "a", route: .resume, name: nil),
        .entered(step: "a"),
      ])
  }

  @Test func aLaunchActionOutcomeCannotGoToAStep() throws {
    let yaml = """
      flow: t
      version: "1"
      locales: [en]
      start: a
      launch:
        - action: restore-profile
          on: { found: a, empty: stay }
      steps:
        a: { kind: terminal }
      """
    let (_, diagnostics) = FlowCompiler.compile(
      try YAMLLoader.load(bytes: Array(yaml.utf8), file: "t.yaml"), file: "t.yaml")
    #expect(
      diagnostics.map(\.description) == [
        "t.yaml:7:18: error: outcome 'found' of a launch action cannot go to a step: the 'resume' routes choose the "
          + "first step; give it 'effects' only [flow-shape]"
      ])
  }
}
