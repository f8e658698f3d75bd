/// Runs a flow against real or fake providers: feeds events to the pure ``Engine``, performs the effects it
/// returns in order, asks providers for action outcomes and feeds them back.
public struct FlowSession: Sendable {
  public var engine: Engine
  public var providers: Providers
  public private(set) var state = RunState()

  public init(flow: Flow, providers: Providers) {
    self.engine = Engine(flow: flow)
    self.providers = providers
  }

  /// Starts (or restarts, after the app was killed) the flow: reads the device, the permission statuses and
  /// the store, then resumes as the flow says.
  public mutating func launch(clock: Double? = nil) async throws -> [TraceEntry] {
    var environment = await providers.platform.environment()
    _ = environment.removeValue(forKey: "")
    var permissions: [String: String] = [:]
    for permission in engine.flow.permissions {
      permissions[permission.name] = await providers.permissions.status(of: permission.name)
    }
    var store: [String: Value]? = nil
    var problem: String? = nil
    do {
      store = try await providers.store.load()
    } catch {
      problem = error.message
    }
    var now = clock ?? 0
    if clock == nil { now = await providers.platform.timeOfDay() }
    let launch = Launch(
      environment: environment, permissions: permissions, store: store, storeProblem: problem, clock: now)
    return try await send(.launch(launch))
  }

  /// Sends one event (a user command, time passing) and performs everything that follows from it.
  /// - Throws: ``Rejection`` (state unchanged) or ``RunError``.
  public mutating func send(_ event: FlowEvent, at step: String? = nil) async throws -> [TraceEntry] {
    var trace: [TraceEntry] = []
    if case .reset = event {
      // A reset re-reads the permission statuses: the user may have changed them in Settings meanwhile.
      for permission in engine.flow.permissions {
        state.permissions[permission.name] = await providers.permissions.status(of: permission.name)
      }
    }
    var records = try engine.handle(event, at: step, in: &state)
    while true {
      var followUp: FlowEvent? = nil
      for record in records {
        trace.append(.record(record))
        guard case .effect(let effect) = record else { continue }
        if let answer = try await perform(effect, trace: &trace) { followUp = answer }
      }
      guard let event = followUp else { break }
      records = try engine.handle(event, in: &state)
    }
    return trace
  }

  /// Reads the permission statuses again (after the user changed them in Settings, say).
  public func permissionStatus(of kind: String) async -> String {
    await providers.permissions.status(of: kind)
  }

  /// Performs one effect; returns the outcome event when the effect was an action.
  private func perform(_ effect: RuntimeEffect, trace: inout [TraceEntry]) async throws -> FlowEvent? {
    switch effect {
    case .persist(let key, let value):
      do { try await providers.store.set(key, to: value) } catch { trace.append(.storeFailed(error.message)) }
    case .remove(let key):
      do { try await providers.store.remove(key) } catch { trace.append(.storeFailed(error.message)) }
    case .set:
      break
    case .requestReview:
      let answer = await providers.review.requestReview()
      trace.append(.dialog(action: "request-review", answer: answer))
      await providers.effects.perform(effect)
    case .perform(let action, let permission):
      let answer: ActionAnswer
      switch action {
      case "request-permission": answer = await providers.permissions.request(permission ?? "")
      case "sign-in-with-apple": answer = await providers.auth.signInWithApple()
      case "restore-profile": answer = await providers.profiles.restoreProfile()
      case "request-review": answer = await providers.review.requestReview()
      default: throw RunError(message: "no provider performs the action '\(action)'")
      }
      let name = permission.map { "\(action) \($0)" } ?? action
      trace.append(.dialog(action: name, answer: answer))
      return .outcome(answer.outcome, result: answer.result)
    case .syncProfile(let userID):
      await providers.profiles.syncProfile(userID: userID)
      await providers.effects.perform(effect)
    default:
      await providers.effects.perform(effect)
    }
    return nil
  }
}

/// One line of a session's trace: what the engine did, and what the providers answered.
public enum TraceEntry: Sendable, Hashable {
  case record(Record)
  /// A system dialog or action answered by a provider (`answer.dialogShown` is false when no dialog appeared).
  /// Permission requests are named `request-permission KIND`.
  case dialog(action: String, answer: ActionAnswer)
  case storeFailed(String)
}
