import FlowCore
import FlowTestSupport
import Testing

@Suite struct EngineTests {
  static let chain = """
    flow: t
    version: "1"
    locales: [en]
    start: a
    back: true
    environment:
      osVersion: { type: int, default: 18 }
      alarmKitAvailable: { type: bool, default: false }
    variables:
      color: { type: string, default: "" }
      step: { type: int, default: 0, persist: savedStep }
    resume:
      - rawValue: step
    hooks:
      enter:
        - set: step
          value: step.rawValue
          when: step.kind != "terminal"
    strings:
      en: { a_title: "Hello {name}", pick: Pick a color, red: Red, blue: Blue }
    steps:
      a:
        kind: screen
        rawValue: 0
        title: { key: a_title, args: { name: '"Ann"' } }
        back: false
        next: pick
      pick:
        kind: single-choice
        rawValue: 1
        title: pick
        options: { red: red, blue: blue }
        variable: color
        skip: alarm
        next: alarm
      alarm:
        kind: screen
        rawValue: 2
        skipIf: '!(env.osVersion >= 26 && env.alarmKitAvailable)'
        next: done
      done:
        kind: terminal
        outcome: paywall
        enter:
          - track: onboarding_completed
            properties: { color: color }
    """

  @Test func runsTheChainSkippingAndEnding() async throws {
    var session = FlowSession(flow: try compileFlow(Self.chain), providers: .fakes())
    let launch = try await session.launch()
    #expect(launch.entered == ["a"])
    #expect(try session.engine.screen(for: session.state)?.title == "Hello Ann")
    _ = try await session.send(.next)
    let trace = try await session.send(.choose(["blue"]))
    #expect(trace.entered == ["done"])
    #expect(trace.skips == ["alarm: !(env.osVersion >= 26 && env.alarmKitAvailable) → !(18 >= 26 && false) → true"])
    #expect(trace.effects.contains("track onboarding_completed {color: \"blue\"}"))
    #expect(session.state.ended?.outcome == "paywall")
  }

  @Test func alarmStepIsShownOnIOS26WithAlarmKit() async throws {
    let platform = Fakes.Platform(facts: ["osVersion": .int(26), "alarmKitAvailable": .bool(true)])
    var session = FlowSession(flow: try compileFlow(Self.chain), providers: .fakes(platform: platform))
    _ = try await session.launch()
    _ = try await session.send(.next)
    let trace = try await session.send(.skip)
    #expect(trace.entered == ["alarm"])
    #expect(trace.skips.isEmpty)
  }

  @Test func nextIsRefusedUntilAChoiceAndStateIsUnchanged() async throws {
    var session = FlowSession(flow: try compileFlow(Self.chain), providers: .fakes())
    _ = try await session.launch()
    _ = try await session.send(.next)
    let before = session.state
    let rejection = (await #expect(throws: FlowError.self) { _ = try await session.send(.next) })?.rejection
    #expect(rejection?.message == "next is disabled until an option is chosen on 'pick'")
    #expect(rejection?.allowed == ["choose red|blue", "skip", "back"])
    let unknown = (await #expect(throws: FlowError.self) { _ = try await session.send(.choose(["bleu"])) })?.rejection
    #expect(unknown?.message == "'bleu' is not an option of 'pick' (did you mean 'blue'?)")
    #expect(session.state == before)
  }

  @Test func backKeepsAnswersAndIsNotOfferedOnTheFirstStep() async throws {
    var session = FlowSession(flow: try compileFlow(Self.chain), providers: .fakes())
    _ = try await session.launch()
    #expect((await #expect(throws: FlowError.self) { _ = try await session.send(.back) })?.rejection != nil)
    _ = try await session.send(.next)
    _ = try await session.send(.back)
    #expect(session.state.current == 0)
  }

  @Test func resumesAtTheSavedRawValueAndFallsBackToStart() async throws {
    let flow = try compileFlow(Self.chain)
    let store = Fakes.MemoryStore(["savedStep": .int(1)])
    var session = FlowSession(flow: flow, providers: .fakes(store: store))
    #expect(try await session.launch().entered == ["pick"])

    var unknown = FlowSession(flow: flow, providers: .fakes(store: Fakes.MemoryStore(["savedStep": .int(42)])))
    #expect(try await unknown.launch().entered == ["a"])
  }

  @Test func aMistypedOrCorruptedStoreFallsBackToDefaultsWithAWarning() async throws {
    let flow = try compileFlow(Self.chain)
    var mistyped = FlowSession(flow: flow, providers: .fakes(store: Fakes.MemoryStore(["savedStep": .string("x")])))
    let trace = try await mistyped.launch()
    #expect(trace.entered == ["a"])
    #expect(trace.contains { if case .record(.warning(let text)) = $0 { text.contains("savedStep") } else { false } })

    let corrupted = Fakes.MemoryStore(corrupted: true)
    var broken = FlowSession(flow: flow, providers: .fakes(store: corrupted))
    let brokenTrace = try await broken.launch()
    #expect(brokenTrace.entered == ["a"])
    #expect(corrupted.values["savedStep"] == .int(0))
  }

  @Test func aStaleEventIsIgnoredAndRecorded() async throws {
    var session = FlowSession(flow: try compileFlow(Self.chain), providers: .fakes())
    _ = try await session.launch()
    _ = try await session.send(.next, at: "a")
    let trace = try await session.send(.next, at: "a")
    #expect(trace == [.record(.stale(event: "next", step: "a"))])
    #expect(session.state.current == 1)
  }

  @Test func sameInputsGiveTheSameTrace() async throws {
    let flow = try compileFlow(Self.chain)
    func run() async throws -> [TraceEntry] {
      var session = FlowSession(flow: flow, providers: .fakes())
      var trace = try await session.launch()
      trace += try await session.send(.next)
      trace += try await session.send(.choose(["red"]))
      return trace
    }
    #expect(try await run() == (try await run()))
  }

  @Test func anEndlessSkipLoopStopsWithTheStepsNamed() async throws {
    let flow = try compileFlow(
      """
      flow: loop
      version: "1"
      locales: [en]
      start: a
      steps:
        a: { kind: screen, next: b }
        b: { kind: screen, skipIf: "true", next: c }
        c: { kind: screen, skipIf: "true", next: b }
      """)
    var session = FlowSession(flow: flow, providers: .fakes())
    _ = try await session.launch()
    let error = (await #expect(throws: FlowError.self) { _ = try await session.send(.next) })?.failure
    #expect(error?.message == "automatic moves loop without a user action: b → c → b")
    #expect(session.state.current == 0)
  }

  static let permission = """
    flow: p
    version: "1"
    locales: [en]
    start: mic
    permissions: [microphone]
    steps:
      mic:
        kind: permission
        permission: microphone
        skipIf: permission.microphone == "granted"
        autoAdvance: { after: 0.5, when: permission.microphone == "granted" }
        next: done
      done: { kind: terminal }
    """

  @Test func permissionGrantAdvancesAfterHalfASecondNotSooner() async throws {
    let permissions = Fakes.Permissions(answers: ["microphone": ["granted"]])
    var session = FlowSession(flow: try compileFlow(Self.permission), providers: .fakes(permissions: permissions))
    _ = try await session.launch()
    let trace = try await session.send(.tap("request"))
    #expect(trace.contains(.dialog(.permission(.microphone), answer: ActionAnswer("granted"))))
    #expect(session.state.current == 0)
    _ = try await session.send(.elapse(seconds: 0.4))
    #expect(session.state.current == 0)
    let later = try await session.send(.elapse(seconds: 0.1))
    #expect(later.entered == ["done"])
    #expect(permissions.dialogsShown == ["microphone"])
  }

  @Test func alreadyGrantedPermissionStepIsSkippedWithoutADialog() async throws {
    let permissions = Fakes.Permissions(statuses: [.microphone: .granted])
    var session = FlowSession(flow: try compileFlow(Self.permission), providers: .fakes(permissions: permissions))
    let trace = try await session.launch()
    #expect(trace.entered == ["done"])
    #expect(permissions.dialogsShown.isEmpty)
  }
}
