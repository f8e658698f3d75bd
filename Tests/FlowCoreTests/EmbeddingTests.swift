import FlowCore
import Synchronization
import Testing

/// What an app does with FlowCore alone: read a compiled JSON flow, compile it, and run it through a
/// ``FlowSession`` with its own providers. Only public API is used here (no `@testable`, no FlowTestSupport).
struct EmbeddingTests {
  static let flowJSON = """
    {
      "flow": "embedded", "version": "1.0", "locales": ["en"], "start": "welcome",
      "permissions": ["notifications"],
      "variables": {
        "goal": {"type": "string", "default": "", "values": ["", "sleep", "focus"], "persist": "Goal"}
      },
      "strings": {"en": {"welcome": "Welcome", "goal": "Pick a goal", "sleep": "Sleep", "focus": "Focus"}},
      "steps": {
        "welcome": {"kind": "screen", "title": "welcome", "next": "goal"},
        "goal": {
          "kind": "single-choice", "title": "goal", "variable": "goal",
          "options": {"sleep": "sleep", "focus": "focus"}, "next": "notify"
        },
        "notify": {
          "kind": "permission", "permission": "notifications",
          "on": {"granted": "done", "denied": "done"}
        },
        "done": {
          "kind": "terminal", "outcome": "completed",
          "enter": [{"track": "onboarding_done", "properties": {"goal": "goal"}}]
        }
      }
    }
    """

  static func compile(_ json: String) throws -> Flow {
    let (flow, diagnostics) = FlowCompiler.compile(json: Array(json.utf8), file: "embedded.json")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(flow)
  }

  @Test func appRunsACompiledFlowThroughTheSession() async throws {
    let flow = try Self.compile(Self.flowJSON)
    let app = FakeApp(permissionAnswer: "granted")
    var session = FlowSession(flow: flow, providers: app.providers)

    let launched = try await session.launch(clock: 8 * 3600)
    #expect(launched.contains(.record(.entered(step: "welcome"))))
    var screen = try #require(try session.screen())
    #expect(screen.step == "welcome")
    #expect(screen.title == "Welcome")
    #expect(screen.buttons.map(\.name) == ["next"])

    _ = try await session.send(.next, at: "welcome")
    screen = try #require(try session.screen())
    #expect(screen.title == "Pick a goal")
    #expect(screen.options.map(\.label) == ["Sleep", "Focus"])
    #expect(session.commands.contains("choose sleep|focus"))

    // A refused event leaves the state as it was.
    let before = session.state
    #expect((await #expect(throws: FlowError.self) { try await session.send(.choose(["nap"])) })?.rejection != nil)
    #expect(session.state == before)

    _ = try await session.send(.choose(["focus"]))
    #expect(app.stored["Goal"] == .string("focus"))
    screen = try #require(try session.screen())
    #expect(screen.buttons.map(\.name) == ["request"])
    #expect(screen.buttons.map(\.event) == [.tap("request")])
    #expect(session.commands == ["tap request"])

    // The permission request goes to the app's provider; its answer moves the flow on.
    let trace = try await session.send(.tap("request"), at: "notify")
    #expect(trace.contains(.dialog(.permission(.notifications), answer: ActionAnswer("granted"))))
    #expect(session.state.ended?.outcome == .completed)
    #expect(session.state.permissions[.notifications] == .granted)
    #expect(app.effects.contains(.track(event: "onboarding_done", properties: ["goal": .string("focus")])))
  }

  @Test func relaunchReadsTheAppStore() async throws {
    let flow = try Self.compile(Self.flowJSON)
    let app = FakeApp(permissionAnswer: "denied")
    app.storeValue(.string("sleep"), for: "Goal")
    var session = FlowSession(flow: flow, providers: app.providers)
    _ = try await session.launch(clock: 0)
    #expect(session.state.variables == [.string("sleep")])
    _ = try await session.send(.next)
    let screen = try #require(try session.screen())
    #expect(screen.options.filter(\.isSelected).map(\.id) == ["sleep"])
  }

  /// A permission dialog the provider never answers resolves to `timeout` once the session's timeout passes.
  @Test func permissionRequestThatNeverAnswersTimesOut() async throws {
    let app = FakeApp(permissionAnswer: nil)
    var session = FlowSession(flow: try Self.compile(Self.flowJSON), providers: app.providers)
    session.actionTimeout = .milliseconds(50)
    _ = try await session.launch(clock: 0)
    _ = try await session.send(.next)
    _ = try await session.send(.choose(["sleep"]))
    let trace = try await session.send(.tap("request"), at: "notify")
    #expect(trace.contains(.dialog(.permission(.notifications), answer: ActionAnswer("timeout"))))
    #expect(app.waitingRequests == 1)
    // `notify` has no `timeout` route: the flow stays there, the request can be made again.
    #expect(session.commands == ["tap request"])
    #expect(try session.screen()?.step == "notify")
  }

  /// A provider that answers within the timeout is not affected by it.
  @Test func permissionRequestAnsweredInTimeIsNotATimeout() async throws {
    var session = FlowSession(
      flow: try Self.compile(Self.flowJSON), providers: FakeApp(permissionAnswer: "denied").providers)
    session.actionTimeout = .seconds(60)
    _ = try await session.launch(clock: 0)
    _ = try await session.send(.next)
    _ = try await session.send(.choose(["sleep"]))
    let trace = try await session.send(.tap("request"), at: "notify")
    #expect(trace.contains(.dialog(.permission(.notifications), answer: ActionAnswer("denied"))))
    #expect(session.state.ended?.outcome == .completed)
  }

  /// Documents the engine cannot start (it starts at `flow.steps[start]`) are compiler errors, so an app that
  /// checks the diagnostics never runs them.
  @Test(arguments: [
    (#"{"flow": "a", "steps": {}}"#, "embedded.json:1:24: error: 'steps' is empty: a flow needs at least one step"),
    (
      #"{"flow": "a", "steps": []}"#,
      "embedded.json:1:24: error: 'steps' must be a mapping of step ids to steps; found a list"
    ),
    (#"{"flow": "a", "steps": {"x": {"kind": "terminal"}}}"#, "embedded.json:1:1: error: missing 'start'"),
  ])
  func flowsWithoutAStartingStepDoNotCompile(_ json: String, _ expected: String) throws {
    let diagnostics = FlowCompiler.compile(json: Array(json.utf8), file: "embedded.json").diagnostics
    #expect(diagnostics.map(\.description).contains(expected + " [flow-shape]"), "\(diagnostics)")
  }

  /// An undeclared choice variable is FlowLint's to report; the engine shows the options unselected and fails
  /// the run on a choice instead of trapping.
  @Test func undeclaredChoiceVariableDoesNotTrap() async throws {
    let json = #"""
      {"flow": "a", "version": "1", "locales": ["en"], "start": "x",
       "steps": {"x": {"kind": "single-choice", "variable": "v", "options": {"a": "a"}, "next": "x"}}}
      """#
    var session = FlowSession(flow: try Self.compile(json), providers: FakeApp(permissionAnswer: "granted").providers)
    _ = try await session.launch()
    let screen = try #require(try session.screen())
    #expect(screen.options.map(\.isSelected) == [false])
    let error = (await #expect(throws: FlowError.self) { try await session.send(.choose(["a"])) })?.failure
    #expect(error?.message == "unknown variable 'v'")
  }

  /// The app pins an experiment's variant (a server's assignment, a QA menu); the session reports the variants and
  /// the app's analytics gets them on every track event.
  @Test func appPinsAVariantAndItsAnalyticsGetTheVariants() async throws {
    let json = #"""
      {"flow": "ab", "version": "1", "locales": ["en"], "start": "a",
       "environment": {"deviceId": {"type": "string", "default": "device-0001"}},
       "experiments": {"paywall": {"id": "env.deviceId", "variants": {"early": 50, "late": 50}}},
       "steps": {"a": {"kind": "terminal", "outcome": "completed", "enter": [{"track": "done"}]}}}
      """#
    let app = FakeApp(permissionAnswer: "granted")
    var session = FlowSession(flow: try Self.compile(json), providers: app.providers)
    #expect(session.variants == [:])
    session.variantPins = ["paywall": "early"]
    let trace = try await session.launch(clock: 0)
    #expect(trace.first == .record(.assigned(experiment: "paywall", variant: "early", why: "pinned")))
    #expect(session.variants == ["paywall": "early"])
    #expect(app.effects == [.track(event: "done", properties: ["paywall": .string("early")])])
  }
}

// MARK: - The app's own providers

/// Every provider an app must supply, answered from memory.
private final class FakeApp: PermissionProvider, ActionProvider, Platform, KeyValueStore, EffectHandler {
  // Providers are called from the session's task; a Mutex keeps the class Sendable without @unchecked.
  private let store = Mutex<[String: Value]>([:])
  private let performed = Mutex<[RuntimeEffect]>([])
  /// Permission requests the app never answers (kept, so they are never resumed nor leaked).
  private let waiting = Mutex<[CheckedContinuation<ActionAnswer, Never>]>([])
  private let permissionAnswer: String?

  /// An app that answers every permission request with `permissionAnswer`, or never when it is nil.
  init(permissionAnswer: String?) { self.permissionAnswer = permissionAnswer }

  var providers: Providers {
    Providers(permissions: self, actions: self, platform: self, store: self, effects: self)
  }
  var stored: [String: Value] { store.withLock { $0 } }
  var effects: [RuntimeEffect] { performed.withLock { $0 } }
  func storeValue(_ value: Value, for key: String) { store.withLock { $0[key] = value } }

  func status(of kind: PermissionKind) async -> PermissionStatus { .notDetermined }
  var waitingRequests: Int { waiting.withLock { $0.count } }
  func request(_ kind: PermissionKind) async -> ActionAnswer {
    guard let permissionAnswer else {
      return await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
    }
    return ActionAnswer(permissionAnswer)
  }
  func perform(_ request: ActionRequest) async -> ActionAnswer {
    switch request.name.rawValue {
    case "sign-in-with-apple": ActionAnswer("cancelled")
    case "restore-profile": ActionAnswer("empty")
    case "request-review": ActionAnswer("suppressed", dialogShown: false)
    default: ActionAnswer(request.outcomes.first ?? "")
    }
  }
  func environment() async -> [String: Value] { ["osVersion": 18] }
  func timeOfDay() async -> Double { 12 * 3600 }
  func load() async throws(StoreError) -> [String: Value] { store.withLock { $0 } }
  func set(_ key: String, to value: Value) async throws(StoreError) { store.withLock { $0[key] = value } }
  func remove(_ key: String) async throws(StoreError) { _ = store.withLock { $0.removeValue(forKey: key) } }
  func perform(_ effect: RuntimeEffect) async { performed.withLock { $0.append(effect) } }
}
