import FlowCore
import FlowRuntime
import FlowTestSupport
import Testing

/// Actions, effects and terminal outcomes a flow declares (issue 12): the prelude, the one action provider,
/// `else` routes, declared timeouts, explore and the fakes, with no code per action.
@Suite struct DeclaredActionTests {
  static let flow = """
    flow: declared
    version: "1"
    locales: [en]
    actions:
      check-username:
        arguments: { username: string, attempt: int }
        outcomes:
          free: {}
          taken: { result: { suggestion: { type: string, example: akira2 } } }
          error: {}
        default: taken
        dialog: false
    effects:
      followUser: { arguments: { userId: string } }
    outcomes: [ineligible]
    variables:
      username: { type: string, default: akira }
    start: check
    steps:
      check:
        kind: action
        action: check-username
        arguments: { username: username, attempt: "1" }
        on:
          free: { to: done, effects: [{ followUser: { userId: username } }] }
          taken: { to: done, effects: [{ set: username, value: result.suggestion }] }
          else: blocked
      done: { kind: terminal, outcome: completed }
      blocked: { kind: terminal, outcome: ineligible }
    """

  @Test func thePreludeCompilesWithoutDiagnosticsAndDeclaresTheBuiltInActions() {
    #expect(Prelude.diagnostics.isEmpty, "\(Prelude.diagnostics)")
    let actions = Prelude.declarations.actions.mapValues(\.outcomeNames)
    #expect(
      actions == [
        "sign-in-with-apple": ["success", "failure", "cancelled"],
        "restore-profile": ["found", "empty", "error"],
        "request-review": ["shown", "suppressed"],
        "purchase": ["purchased", "cancelled", "pending", "failed", "restored", "alreadyOwned"],
        "restore-purchases": ["restored", "nothingToRestore", "failed"],
      ])
    #expect(Prelude.declarations.outcomes == ["completed", "paywall", "home"])
    #expect(Prelude.declarations.action("purchase")?.arguments.map(\.name) == ["product"])
  }

  @Test func aDeclaredActionRunsThroughTheOneProviderWithItsArguments() async throws {
    let flow = try compileFlow(Self.flow)
    let actions = Fakes.Actions(answers: ["check-username": [ActionAnswer("free")]])
    let effects = Fakes.RecordingEffects()
    var session = FlowSession(flow: flow, providers: .fakes(actions: actions, effects: effects))
    let trace = try await session.launch()
    #expect(actions.requests.map(\.name) == ["check-username"])
    #expect(actions.requests.first?.arguments == ["username": "akira", "attempt": 1])
    #expect(actions.requests.first?.outcomes == ["free", "taken", "error"])
    #expect(trace.entered == ["check", "done"])
    #expect(effects.effects.filter(\.isCustom) == [.custom(name: "followUser", arguments: ["userId": "akira"])])
    #expect(
      trace.contains(.dialog(.action("check-username"), answer: ActionAnswer("free", dialogShown: false))))
  }

  @Test func anUnscriptedCallAnswersTheDeclaredDefaultWithItsExamples() async throws {
    let flow = try compileFlow(Self.flow)
    var session = FlowSession(flow: flow, providers: .fakes())
    _ = try await session.launch()
    #expect(session.state.variables == ["akira2"])
  }

  /// `taken` scripted without its `suggestion`: the declared example fills it, so `result.suggestion` is never
  /// null where the declaration says it is a string.
  @Test func aScriptedAnswerWithoutAResultFieldGetsItsExample() async throws {
    let flow = try compileFlow(Self.flow)
    let actions = Fakes.Actions(answers: ["check-username": [ActionAnswer("taken")]])
    var session = FlowSession(flow: flow, providers: .fakes(actions: actions))
    _ = try await session.launch()
    #expect(session.state.variables == ["akira2"])
    #expect(session.state.ended?.outcome == "completed")
  }

  @Test func elseTakesEveryOutcomeNotNamedAndTheMoveIsNamedElse() async throws {
    let flow = try compileFlow(Self.flow)
    let actions = Fakes.Actions(answers: ["check-username": [ActionAnswer("error")]])
    var session = FlowSession(flow: flow, providers: .fakes(actions: actions))
    let trace = try await session.launch()
    #expect(trace.entered == ["check", "blocked"])
    #expect(trace.contains(.record(.moved(from: "check", to: "blocked", route: .outcome, name: "else"))))
    #expect(session.state.ended?.outcome == "ineligible")
  }

  @Test func anOutcomeTheDeclarationLacksIsRefused() async throws {
    let flow = try compileFlow(Self.flow)
    let actions = Fakes.Actions(answers: ["check-username": [ActionAnswer("maybe")]])
    var session = FlowSession(flow: flow, providers: .fakes(actions: actions))
    let error = await #expect(throws: FlowError.self) { try await session.launch() }
    #expect(
      error?.description
        == "'maybe' is not an outcome of 'check-username'; allowed here: answer free, answer taken, answer error")
  }

  @Test(arguments: [true, false])
  func aDeclaredTimeoutAnswersTimeoutWhenDeclaredAndFailsOtherwise(_ declaresTimeout: Bool) async throws {
    let yaml = """
      flow: slow
      version: "1"
      locales: [en]
      actions:
        fetch-config:
          outcomes: { done: {}\(declaresTimeout ? ", timeout: {}" : "") }
          timeout: 0.05
      start: fetch
      steps:
        fetch:
          kind: action
          action: fetch-config
          on: { else: end }
        end: { kind: terminal, outcome: completed }
      """
    let providers = Providers(
      permissions: Fakes.Permissions(), actions: NeverAnswers(), platform: Fakes.Platform(),
      store: Fakes.MemoryStore(), effects: Fakes.RecordingEffects())
    var session = FlowSession(flow: try compileFlow(yaml), providers: providers)
    if declaresTimeout {
      let trace = try await session.launch()
      #expect(trace.contains(.dialog(.action("fetch-config"), answer: ActionAnswer("timeout", dialogShown: false))))
      #expect(trace.entered == ["fetch", "end"])
    } else {
      let error = await #expect(throws: FlowError.self) { try await session.launch() }
      #expect(error?.description == "'fetch-config' did not answer within 0.05 seconds")
    }
  }

  @Test func exploreTriesEveryDeclaredOutcomeWithTheResultExamples() throws {
    let flow = try compileFlow(Self.flow)
    let explorer = Explorer(flow: flow)
    let (state, _) = try Engine(flow: flow).launch(
      Launch(environment: [:], permissions: [:], store: [:], clock: 9 * 3600))
    #expect(
      explorer.moves(from: state) == [
        .answer(action: "check-username", permission: nil, outcome: "free", result: [:]),
        .answer(action: "check-username", permission: nil, outcome: "taken", result: ["suggestion": "akira2"]),
        .answer(action: "check-username", permission: nil, outcome: "error", result: [:]),
      ])
  }
}

/// An action provider that answers only after an hour (the session stops waiting long before).
private struct NeverAnswers: ActionProvider {
  func perform(_ request: ActionRequest) async -> ActionAnswer {
    try? await Task.sleep(for: .seconds(3600))
    return ActionAnswer("never")
  }
}
