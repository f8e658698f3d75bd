public import FlowCore
public import Observation

/// A running flow as an app's UI sees it: the current screen, the trace, the last error, and the effects as
/// they fire. A SwiftUI view binds to it; every change happens on the main actor.
///
/// ```swift
/// let model = FlowSessionModel(flow: flow, providers: providers)
/// await model.start()
/// Text(model.screen?.title ?? "")                     // texts in the current language
/// Button(button.label) { Task { await model.send(button.event) } }.disabled(!button.isEnabled)
/// for await effect in model.effects { ... }           // analytics, placements, completion
/// ```
@MainActor @Observable
public final class FlowSessionModel {
  /// What the current step shows (texts in the current language, options, fields, buttons with their
  /// enabled state, how the flow ended); nil before ``start(clock:)``.
  public private(set) var screen: Screen?
  /// Everything that happened so far, in order: the engine's records and the providers' answers.
  public private(set) var trace: [TraceEntry] = []
  /// Why the last event was refused (nothing changed) or why the flow failed; nil after an event that fit.
  public private(set) var error: FlowError?
  /// Every effect that leaves the flow (`track`, `placement`, `completeOnboarding`, ...) as it fires, after the
  /// app's ``EffectHandler`` performed it. Iterate it once; the newest 1,000 effects wait for a reader.
  public nonisolated let effects: AsyncStream<RuntimeEffect>
  private var session: FlowSession

  /// A model running `flow` with the app's providers; call ``start(clock:)`` to show its first screen.
  ///
  /// - Parameters:
  ///   - actionTimeout: how long a permission request or action may take (``FlowSession/actionTimeout``).
  ///   - variantPins: the variant the app chose per experiment (``FlowSession/variantPins``); the others are
  ///     assigned from the flow's stable id.
  public init(
    flow: Flow, providers: Providers, actionTimeout: Duration? = nil, variantPins: [String: String] = [:]
  ) {
    let (effects, continuation) = AsyncStream.makeStream(
      of: RuntimeEffect.self, bufferingPolicy: .bufferingNewest(1000))
    self.effects = effects
    let tee = StreamingEffects(handler: providers.effects, continuation: continuation)
    session = FlowSession(
      flow: flow,
      providers: Providers(
        permissions: providers.permissions, actions: providers.actions, platform: providers.platform,
        store: providers.store, effects: tee))
    session.actionTimeout = actionTimeout
    session.variantPins = variantPins
  }

  /// The flow being run.
  public var flow: Flow { session.flow }

  /// The run's variant of each of the flow's experiments (``FlowSession/variants``); empty before ``start(clock:)``.
  public var variants: [String: String] { session.variants }

  /// Starts the flow, or resumes it where the store says it was left.
  ///
  /// - Parameter clock: seconds since 1970-01-01 00:00 UTC (a value under a day is a time on that day); nil asks
  ///   ``Platform/timeOfDay()``.
  public func start(clock: Double? = nil) async {
    await update { (session) throws(FlowError) in try await session.launch(clock: clock) }
  }

  /// Sends what the user did (a button's ``Screen/Button/event``, `.choose`, `.input`, `.back`); a refused
  /// event leaves everything but ``error`` as it was.
  public func send(_ event: FlowEvent) async {
    await update { (session) throws(FlowError) in try await session.send(event) }
  }

  private func update(_ change: (inout FlowSession) async throws(FlowError) -> [TraceEntry]) async {
    // A copy, so the screen never shows a half-updated session while a provider is answering.
    var next = session
    do throws(FlowError) {
      let happened = try await change(&next)
      session = next
      trace += happened
      error = nil
      do { screen = try session.screen() } catch { self.error = .failed(error) }
    } catch {
      self.error = error
    }
  }
}

/// The app's effect handler, then the model's stream.
private struct StreamingEffects: EffectHandler {
  let handler: any EffectHandler
  let continuation: AsyncStream<RuntimeEffect>.Continuation

  func perform(_ effect: RuntimeEffect) async {
    await handler.perform(effect)
    continuation.yield(effect)
  }
}
