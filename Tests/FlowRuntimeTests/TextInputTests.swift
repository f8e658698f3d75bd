import FlowCore
import FlowTestSupport
import Testing

@Suite struct TextInputTests {
  static let flow = """
    flow: t
    version: "1"
    locales: [en]
    start: name
    environment:
      locale: { type: string, default: en-US }
    variables:
      displayName: { type: string, default: "", persist: name }
      language: { type: string, default: en, values: [en, ja], persist: lang, initial: 'startsWith(env.locale, "ja") ? "ja" : "en"' }
    reset:
      clear: [displayName, language]
    steps:
      name:
        kind: text-input
        variable: displayName
        prefill: 'displayName == "User" ? "" : displayName'
        valid: 'trim(input) != "" && input != "User"'
        next: lang
      lang:
        kind: text-input
        variable: language
        next: done
      done: { kind: terminal }
    """

  @Test func nextConfirmsThePrefilledTextAndIsDisabledWhenItIsNotValid() async throws {
    let store = Fakes.MemoryStore(["name": "User"])
    var session = FlowSession(flow: try compileFlow(Self.flow), providers: .fakes(store: store))
    _ = try await session.launch()
    let screen = try #require(try session.engine.screen(for: session.state))
    #expect(screen.buttons.first { $0.name == "next" }?.isEnabled == false)
    let rejection = (await #expect(throws: FlowError.self) { _ = try await session.send(.next) })?.rejection
    #expect(rejection?.message.hasPrefix("'' is not accepted on 'name'") == true)
    #expect((await #expect(throws: FlowError.self) { _ = try await session.send(.input("User")) })?.rejection != nil)
    #expect(try await session.send(.input("Akira")).entered == ["lang"])
  }

  @Test func aTextOutsideTheVariablesAllowedValuesIsRefused() async throws {
    var session = FlowSession(flow: try compileFlow(Self.flow), providers: .fakes())
    _ = try await session.launch()
    _ = try await session.send(.input("Akira"))
    let rejection = (await #expect(throws: FlowError.self) { _ = try await session.send(.input("fr")) })?.rejection
    #expect(rejection?.message == "'fr' is not one of 'en', 'ja' for 'language'")
    #expect(try await session.send(.input("ja")).entered == ["done"])
  }

  @Test func resetRecomputesInitialValues() async throws {
    let store = Fakes.MemoryStore(["lang": "en", "name": "Akira"])
    let platform = Fakes.Platform(facts: ["locale": "ja-JP"])
    var session = FlowSession(flow: try compileFlow(Self.flow), providers: .fakes(platform: platform, store: store))
    _ = try await session.launch()
    #expect(session.state.variables[1] == "en")
    _ = try await session.send(.reset)
    #expect(session.state.variables == ["", "ja"])
    #expect(store.values["lang"] == nil)
  }
}
