/// One entry of what the engine did, in order: steps entered and skipped, routes decided, effects emitted.
public enum Record: Sendable, Hashable {
  case entered(step: String)
  /// A step whose `skipIf` held; `why` shows the condition with the values it saw.
  case skipped(step: String, why: String)
  /// A guarded route or resume rule that decided where to go.
  case routed(from: String, to: String, why: String)
  case wentBack(from: String, to: String)
  case effect(RuntimeEffect)
  /// An event addressed to a step that is no longer current (a double tap during a transition).
  case stale(event: String, step: String)
  case warning(String)
  case ended(step: String, outcome: TerminalOutcome)
}

/// An effect with its values computed, ready for a handler.
public enum RuntimeEffect: Sendable, Hashable {
  case set(variable: String, value: Value)
  case persist(key: String, value: Value)
  case remove(key: String)
  case track(event: String, properties: [String: Value])
  case userProperty(name: String, value: Value)
  case requestReview
  case syncProfile(userID: Value)
  case placement(String)
  case completeOnboarding
  case log(String)
  /// Ask a provider: a system action or a permission request. The answer comes back as ``FlowEvent/outcome(_:result:)``.
  case perform(action: ActionName, permission: PermissionKind?)

  /// The effect's type name (`set`, `persist`, `track`, ...).
  package var typeName: String {
    switch self {
    case .set: "set"
    case .persist: "persist"
    case .remove: "remove"
    case .track: "track"
    case .userProperty: "userProperty"
    case .requestReview: "requestReview"
    case .syncProfile: "syncProfile"
    case .placement: "placement"
    case .completeOnboarding: "completeOnboarding"
    case .log: "log"
    case .perform: "perform"
    }
  }
}

/// Why the engine refused an event; the state is unchanged.
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// The commands the current step accepts.
  public var allowed: [String]

  package init(message: String, allowed: [String]) {
    self.message = message
    self.allowed = allowed
  }
  public var description: String {
    allowed.isEmpty ? message : "\(message); allowed here: \(allowed.joined(separator: ", "))"
  }
}

/// A failure of the flow itself while running (an endless automatic loop, a route that matches nothing).
public struct RunError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  package init(message: String) { self.message = message }
  public var description: String { message }
}
