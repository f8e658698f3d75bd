/// Runs a flow against real or fake providers: feeds events to the pure engine, performs the effects it
/// returns in order, asks providers for action outcomes and feeds them back.
///
/// ```swift
/// let (flow, diagnostics) = FlowCompiler.compile(json: bytes, file: "onboarding.json")
/// guard let flow, !diagnostics.contains(where: { $0.severity == .error }) else { return }
/// var session = FlowSession(flow: flow, providers: providers)
/// _ = try await session.launch()
/// let screen = try session.screen()                    // what to show
/// _ = try await session.send(.next, at: screen?.step)  // what the user did
/// ```
public struct FlowSession: Sendable {
  /// The engine that interprets the flow.
  package var engine: Engine
  package var providers: Providers
  /// The run so far; ``screen()`` tells what it shows.
  public private(set) var state = RunState()
  /// How long a permission request or another action may take before the session stops waiting; nil waits
  /// as long as the provider takes.
  ///
  /// A permission request that has not answered in time answers `timeout` (an outcome every permission step
  /// has); an action answers `timeout` when it declares that outcome, and otherwise fails the run with
  /// ``FlowError/failed(_:)``. An action's own declared `timeout` takes precedence. The provider's late answer
  /// is ignored.
  public var actionTimeout: Duration?

  /// A session that has not started; call ``launch(clock:)`` first.
  ///
  /// - Parameters:
  ///   - flow: a flow compiled without errors (``FlowCompiler/compile(json:file:)``).
  ///   - providers: what performs actions, permission requests, storage and outward effects.
  public init(flow: Flow, providers: Providers) {
    self.init(engine: Engine(flow: flow), providers: providers)
  }

  /// A session that has not started, on `engine`: sessions of one flow that share an engine (a scenario table's
  /// rows) work out what the engine keeps per flow once, not once per session.
  package init(engine: Engine, providers: Providers) {
    self.engine = engine
    self.providers = providers
  }

  /// The flow being run.
  public var flow: Flow { engine.flow }

  /// The language texts are shown in instead of the one the flow's `language` chooses; nil follows the flow.
  public var languageOverride: String? {
    get { engine.languageOverride }
    set { engine.languageOverride = newValue }
  }

  /// The variant the app chose for each experiment, by experiment name (a server's assignment, a QA menu):
  /// from the next ``launch(clock:)`` on, it wins over the assignment by the flow's stable id. A pin the flow
  /// does not know (an experiment that ended, a variant it lacks) is reported as a warning in the trace and the
  /// experiment is assigned as usual.
  public var variantPins: [String: String] = [:]

  /// The variant this run was assigned of each of the flow's experiments, by experiment name; empty before
  /// ``launch(clock:)``. `track` effects carry the same names and variants as properties.
  public var variants: [String: String] { engine.flow.variants(in: state) }

  /// What the current step shows, or nil before ``launch(clock:)``.
  ///
  /// - Throws: ``RunError`` when a text argument or a button condition cannot be evaluated.
  public func screen() throws(RunError) -> Screen? { try engine.screen(for: state) }

  /// The commands the current step accepts, as `flowrun` writes them (`next`, `choose sleep|focus`,
  /// `answer granted`); what a generic UI or a test can offer.
  public var commands: [String] { engine.commands(for: state) }

  /// Starts (or restarts, after the app was killed) the flow: reads the device, the permission statuses and
  /// the store, then resumes as the flow says.
  ///
  /// A store that cannot be read is not an error: the run starts from the declared defaults and the trace
  /// holds a warning.
  ///
  /// - Parameter clock: seconds since 1970-01-01 00:00 UTC (a value under a day is a time on that day); nil asks
  ///   ``Platform/timeOfDay()``.
  /// - Returns: what happened, in order, including the providers' answers.
  /// - Throws: ``FlowError/failed(_:)`` when the flow itself fails while starting.
  public mutating func launch(clock: Double? = nil) async throws(FlowError) -> [TraceEntry] {
    var environment = await providers.platform.environment()
    _ = environment.removeValue(forKey: "")
    var permissions: [PermissionKind: PermissionStatus] = [:]
    for permission in engine.flow.permissions {
      permissions[permission.value] = await providers.permissions.status(of: permission.value)
    }
    var store: [String: Value]? = nil
    var problem: String? = nil
    do {
      store = try await providers.store.load()
    } catch {
      problem = error.message
    }
    let now: Double
    if let clock { now = clock } else { now = await providers.platform.timeOfDay() }
    let launch = Launch(
      environment: environment, permissions: permissions, store: store, storeProblem: problem, clock: now,
      variants: variantPins)
    return try await send(.launch(launch))
  }

  /// The app goes to the background (the user switched to another app or to Settings).
  ///
  /// - Returns: what happened, in order.
  /// - Throws: ``FlowError/rejected(_:)`` when the app is already in the background.
  public mutating func background() async throws(FlowError) -> [TraceEntry] {
    try await send(.background)
  }

  /// The app returns from the background: reads every permission status again (the user may have changed one
  /// in Settings meanwhile; it shows as changed, with no new request), then runs the flow's `foreground:`.
  ///
  /// - Returns: what happened, in order.
  /// - Throws: ``FlowError/rejected(_:)`` when the app is not in the background, ``FlowError/failed(_:)`` when
  ///   the flow fails.
  public mutating func foreground() async throws(FlowError) -> [TraceEntry] {
    var permissions: [PermissionKind: PermissionStatus] = [:]
    for permission in engine.flow.permissions {
      permissions[permission.value] = await providers.permissions.status(of: permission.value)
    }
    return try await send(.foreground(permissions: permissions))
  }

  /// Opens a deep link (`anicca://referral?code=A1`): the flow's `open:` entry named by the URL's first path
  /// segment (a custom scheme's host counts as one) runs with the URL's query items as `params`.
  ///
  /// - Returns: what happened, in order.
  /// - Throws: ``FlowError/rejected(_:)`` when the URL names no entry or lacks a required parameter, the flow
  ///   has ended or is waiting for an answer; the state is then unchanged.
  public mutating func open(_ url: String) async throws(FlowError) -> [TraceEntry] {
    try await send(.open(url))
  }

  /// Sends one event (a user command, time passing) and performs everything that follows from it: effects go
  /// to the providers in order, and an action's answer is sent back to the engine until nothing is pending.
  ///
  /// - Parameters:
  ///   - event: what happened.
  ///   - step: the step the event was meant for; when another step is current, the event is recorded as
  ///     stale and ignored (a double tap during a transition).
  /// - Returns: what happened, in order, including the providers' answers and failed store writes.
  /// - Throws: ``FlowError/rejected(_:)`` when the event does not fit the current step (the state is
  ///   unchanged), or ``FlowError/failed(_:)`` when the flow itself fails or no provider performs an action.
  public mutating func send(_ event: FlowEvent, at step: String? = nil) async throws(FlowError) -> [TraceEntry] {
    var trace: [TraceEntry] = []
    if case .reset = event {
      // A reset re-reads the permission statuses: the user may have changed them in Settings meanwhile.
      for permission in engine.flow.permissions {
        state.permissions[permission.value] = await providers.permissions.status(of: permission.value)
      }
    }
    var records = try engine.handle(event, at: step, in: &state)
    while true {
      var followUp: FlowEvent? = nil
      for record in records {
        trace.append(.record(record))
        guard case .effect(let effect) = record else { continue }
        do {
          if let answer = try await perform(effect, trace: &trace) { followUp = answer }
        } catch {
          throw .failed(error)
        }
      }
      guard let event = followUp else { break }
      records = try engine.handle(event, in: &state)
    }
    return trace
  }

  /// The current step's id (the step an action or request is performed on, while it is answered).
  private var currentStepID: String? { state.current.map { engine.flow.steps[$0].id } }

  /// Performs one effect; returns the outcome event when the effect was an action.
  private func perform(_ effect: RuntimeEffect, trace: inout [TraceEntry]) async throws(RunError) -> FlowEvent? {
    switch effect {
    case .persist(let key, let value):
      do { try await providers.store.set(key, to: value) } catch { trace.append(.storeFailed(error.message)) }
    case .remove(let key):
      do { try await providers.store.remove(key) } catch { trace.append(.storeFailed(error.message)) }
    case .set:
      break
    case .requestReview:
      // A fire-and-forget call of the prelude's review prompt: the flow does not branch on its answer.
      if let answer = try? await perform(.requestReview, arguments: [:], awaited: false) {
        trace.append(.dialog(.action(.requestReview), answer: answer))
      }
      await providers.effects.perform(effect)
    case .perform(_, let permission?, _):
      let providers = self.providers
      let timeout = actionTimeout
      let answer =
        await PerformingStep.$id.withValue(currentStepID) {
          await Self.answer(within: timeout) { await providers.permissions.request(permission) }
        } ?? ActionAnswer(PermissionStatus.timeout.rawValue)
      trace.append(.dialog(.permission(permission), answer: answer))
      return .outcome(answer.outcome, result: answer.result)
    case .perform(let action, nil, let arguments):
      let answer = try await perform(action, arguments: arguments)
      trace.append(.dialog(.action(action), answer: answer))
      return .outcome(answer.outcome, result: answer.result)
    default:
      await providers.effects.perform(effect)
    }
    return nil
  }

  /// Performs the declared action `name` with `arguments` through the ``ActionProvider``: the one way a session
  /// runs an action (an action step, a button, the `requestReview` effect), waiting at most the action's
  /// declared `timeout`, else ``actionTimeout``. An action that has not answered in time answers `timeout` when
  /// it declares that outcome, and fails otherwise. `awaited` is false when nothing routes the answer (the
  /// `requestReview` effect).
  ///
  /// - Throws: ``RunError`` when the flow declares no action `name`, or it did not answer in time.
  package func perform(
    _ name: ActionName, arguments: [String: Value], awaited: Bool = true
  ) async throws(RunError) -> ActionAnswer {
    guard let declaration = flow.action(name) else {
      throw RunError(message: "the flow declares no action '\(name)'")
    }
    let request = ActionRequest(name: name, arguments: arguments, declaration: declaration, isAwaited: awaited)
    let timeout = declaration.timeout.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) } ?? actionTimeout
    let actions = providers.actions
    let answered = await PerformingStep.$id.withValue(currentStepID) {
      await Self.answer(within: timeout) { await actions.perform(request) }
    }
    if let answer = answered { return answer }
    if declaration.outcome(PermissionStatus.timeout.rawValue) != nil {
      return ActionAnswer(PermissionStatus.timeout.rawValue, dialogShown: false)
    }
    throw RunError(message: "'\(name)' did not answer within \(timeout!)")
  }

  /// What `call` answers, or nil when it has not answered within `timeout` (a provider that never answers
  /// is left waiting; its answer, if it ever comes, is dropped).
  private static func answer(
    within timeout: Duration?, _ call: @escaping @Sendable () async -> ActionAnswer
  ) async -> ActionAnswer? {
    guard let timeout else { return await call() }
    return await withCheckedContinuation { continuation in
      let first = FirstAnswer(continuation)
      let timer = Task {
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        await first.resume(with: nil)
      }
      Task {
        let answer = await call()
        timer.cancel()
        await first.resume(with: answer)
      }
    }
  }
}

/// Resumes a continuation with the first of two racing answers, the provider's or the timer's.
private actor FirstAnswer {
  private var continuation: CheckedContinuation<ActionAnswer?, Never>?

  init(_ continuation: CheckedContinuation<ActionAnswer?, Never>) { self.continuation = continuation }

  func resume(with answer: ActionAnswer?) {
    continuation?.resume(returning: answer)
    continuation = nil
  }
}

/// One line of a session's trace: what the engine did, and what the providers answered.
public enum TraceEntry: Sendable, Hashable {
  /// Something the engine did.
  case record(Record)
  /// A system dialog or action answered by a provider (`answer.dialogShown` is false when no dialog appeared).
  case dialog(DialogName, answer: ActionAnswer)
  /// A store write that failed, with the store's message; the run goes on.
  case storeFailed(String)
}
