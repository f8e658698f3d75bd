import FlowApp
import FlowCore
import FlowTestSupport
import Synchronization
import Testing

/// What a SwiftUI view bound to the model sees: the screen, the trace, the error, the effects as they fire.
@MainActor struct FlowSessionModelTests {
  static let flowJSON = """
    {
      "flow": "model", "version": "1.0", "locales": ["en"], "start": "goal",
      "permissions": ["notifications"],
      "variables": {"goal": {"type": "string", "default": "", "values": ["", "sleep", "focus"]}},
      "strings": {"en": {"goal": "Pick a goal", "sleep": "Sleep", "focus": "Focus"}},
      "steps": {
        "goal": {
          "kind": "single-choice", "title": "goal", "variable": "goal",
          "options": {"sleep": "sleep", "focus": "focus"}, "next": "notify"
        },
        "notify": {"kind": "permission", "permission": "notifications", "on": {"granted": "done", "timeout": "done"}},
        "done": {
          "kind": "terminal", "outcome": "completed",
          "enter": [{"track": "onboarding_done", "properties": {"goal": "goal"}}]
        }
      }
    }
    """

  /// Permission dialogs nobody answers: kept, so they are neither resumed nor leaked.
  nonisolated static let neverAnswered = Mutex<[CheckedContinuation<String?, Never>]>([])

  static func flow() throws -> Flow {
    let (flow, diagnostics) = FlowCompiler.compile(json: Array(flowJSON.utf8), file: "model.json")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(flow)
  }

  /// The app pins an experiment's variant through the model; the others are assigned from the stable id.
  @Test func theModelPinsTheAppsVariantsAndShowsTheAssignedOnes() async throws {
    let json = """
      {"flow": "ab", "version": "1", "locales": ["en"], "start": "a",
       "environment": {"deviceId": {"type": "string", "default": "device-0001"}},
       "experiments": {
         "paywall": {"id": "env.deviceId", "variants": {"early": 50, "late": 50}},
         "path": {"id": "env.deviceId", "salt": "path-2026-11", "variants": {"full": 90, "short": 10}}
       },
       "steps": {"a": {"kind": "terminal", "outcome": "completed"}}}
      """
    let (flow, diagnostics) = FlowCompiler.compile(json: Array(json.utf8), file: "ab.json")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let model = FlowSessionModel(flow: try #require(flow), providers: .fakes(), variantPins: ["path": "short"])
    #expect(model.variants == [:])
    await model.start(clock: 0)
    // bucket("device-0001", "paywall") is 53: late.
    #expect(model.variants == ["paywall": "late", "path": "short"])
  }

  @Test func theModelShowsTheScreenAndStreamsTheEffects() async throws {
    let recorded = Fakes.RecordingEffects()
    let model = FlowSessionModel(flow: try Self.flow(), providers: .fakes(effects: recorded))
    #expect(model.screen == nil)
    await model.start(clock: 0)
    #expect(model.screen?.title == "Pick a goal")
    #expect(model.screen?.options.map(\.label) == ["Sleep", "Focus"])
    #expect(model.trace.contains(.record(.entered(step: "goal"))))

    await model.send(.choose(["nap"]))
    #expect(model.error?.rejection?.message == "'nap' is not an option of 'goal'")
    #expect(model.screen?.step == "goal")

    await model.send(.choose(["focus"]))
    #expect(model.error == nil)
    #expect(model.screen?.buttons.map(\.name) == ["request"])
    #expect(model.screen?.buttons.map(\.isEnabled) == [true])

    await model.send(.tap("request"))
    #expect(model.trace.contains(.dialog(.permission(.notifications), answer: ActionAnswer("granted"))))
    #expect(model.screen?.endedWith == .completed)
    let done = RuntimeEffect.track(event: "onboarding_done", properties: ["goal": .string("focus")])
    var effects = model.effects.makeAsyncIterator()
    #expect(await effects.next() == done)
    #expect(recorded.effects == [done])
  }

  @Test func aPermissionThatNeverAnswersTimesOutThroughTheModel() async throws {
    let never = Fakes.Permissions(ask: { _, _ in
      await withCheckedContinuation { continuation in Self.neverAnswered.withLock { $0.append(continuation) } }
    })
    let model = FlowSessionModel(
      flow: try Self.flow(), providers: .fakes(permissions: never), actionTimeout: .milliseconds(20))
    await model.start(clock: 0)
    await model.send(.choose(["sleep"]))
    await model.send(.tap("request"))
    #expect(model.trace.contains(.dialog(.permission(.notifications), answer: ActionAnswer("timeout"))))
    #expect(model.screen?.endedWith == .completed)
  }
}
