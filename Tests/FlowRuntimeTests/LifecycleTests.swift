import FlowCore
import FlowRuntime
import FlowYAML
import Testing

/// The app's life around the flow: actions run at launch before the first step, the return from the background,
/// deep links.
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
        .effect(.set(variable: "opened", value: .int(1))),
        .effect(.perform(action: "restore-profile", permission: nil, arguments: [:])),
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

  static let linked = """
    flow: t
    version: "1"
    locales: [en]
    start: a
    permissions: [notifications]
    variables:
      code: { type: string, default: "" }
      reminded: { type: bool, default: false }
    foreground:
      effects:
        - set: reminded
          value: permission.notifications == "granted"
      to:
        - when: permission.notifications == "granted"
          to: c
        - to: stay
    open:
      referral:
        params:
          code: string
          days: { type: int, required: false }
        effects:
          - set: code
            value: 'params.code + "/" + string(params.days ?? 0)'
        to: b
    steps:
      a: { kind: screen, next: b }
      b: { kind: screen, next: c }
      c: { kind: terminal }
    """

  @Test func aDeepLinkRunsItsEntryWithTheQueryAsParamsAndGoesToItsStep() throws {
    let engine = Engine(flow: try compileFlow(Self.linked))
    var (state, _) = try engine.launch(Launch())
    let records = try engine.handle(.open("anicca://referral?code=A%201&days=3&utm_source=mail"), in: &state)
    #expect(
      records == [
        .effect(.set(variable: "code", value: .string("A 1/3"))),
        .moved(from: "open", to: "b", route: .open, name: "referral"), .entered(step: "b"),
      ])
    var other = try engine.launch(Launch()).0
    _ = try engine.handle(.open("https://anicca.app/referral/x?code=Z+Z#top"), in: &other)
    #expect(other.variables[0] == .string("Z Z/0"))
  }

  @Test(arguments: [
    (
      "anicca://refferal?code=A",
      "'anicca://refferal?code=A' names no 'open' entry ('refferal'); expected one of "
        + "'referral'; did you mean 'referral'?"
    ),
    ("anicca://referral", "'anicca://referral' lacks the parameter 'code' that 'open' entry 'referral' needs"),
    (
      "anicca://referral?code=A&days=many",
      "parameter 'days' of 'anicca://referral?code=A&days=many' is 'many', not a valid int"
    ),
  ])
  func aLinkTheFlowCannotOpenIsRefusedAndChangesNothing(_ url: String, _ message: String) throws {
    let engine = Engine(flow: try compileFlow(Self.linked))
    var (state, _) = try engine.launch(Launch())
    let before = state
    #expect(throws: FlowError.self) { try engine.handle(.open(url), in: &state) }
    do {
      _ = try engine.handle(.open(url), in: &state)
    } catch {
      #expect(error.rejection?.message == message)
    }
    #expect(state == before)
  }

  @Test func theReturnFromTheBackgroundReadsThePermissionsThenRunsForeground() throws {
    let engine = Engine(flow: try compileFlow(Self.linked))
    var (state, _) = try engine.launch(Launch())
    #expect(
      throws: FlowError.rejected(
        Rejection(message: "the app is not in the background ('background' first)", allowed: []))
    ) {
      try engine.handle(.foreground(permissions: [:]), in: &state)
    }
    #expect(try engine.handle(.background, in: &state) == [])
    #expect(engine.commands(for: state) == ["foreground"])
    for event in [FlowEvent.next, .background] {
      #expect(throws: FlowError.self) { try engine.handle(event, in: &state) }
    }
    var stayed = state
    #expect(
      try engine.handle(.foreground(permissions: ["notifications": .denied]), in: &stayed) == [
        .effect(.set(variable: "reminded", value: .bool(false))),
        .routed(from: "a", to: "stay", why: "otherwise"),
      ])
    #expect(stayed.permissions["notifications"] == .denied)
    let records = try engine.handle(.foreground(permissions: ["notifications": .granted]), in: &state)
    #expect(
      records == [
        .effect(.set(variable: "reminded", value: .bool(true))),
        .routed(from: "a", to: "c", why: "permission.notifications == \"granted\" → \"granted\" == \"granted\" → true"),
        .moved(from: "foreground", to: "c", route: .foreground, name: nil), .entered(step: "c"),
        .ended(step: "c", outcome: .completed),
      ])
  }

  @Test func lifecycleCommandsReadAndPrintAsTyped() throws {
    for line in ["background", "foreground", "open anicca://referral?code=A1", "open \"anicca://x?q=a b\""] {
      let command = try #require(try Command.parse(line))
      #expect(command.description == line)
    }
    #expect(throws: CommandError(message: "open needs one URL: open anicca://referral?code=A1")) {
      try Command.parse("open")
    }
  }
}
