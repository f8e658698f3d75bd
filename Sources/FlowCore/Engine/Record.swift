/// One entry of what the engine did, in order: steps entered and skipped, routes decided, effects emitted.
public enum Record: Sendable, Hashable {
  /// The flow entered a step.
  case entered(step: String)
  /// A step whose `skipIf` held; `why` shows the condition with the values it saw.
  case skipped(step: String, why: String)
  /// A guarded route or resume rule that decided where to go.
  case routed(from: String, to: String, why: String)
  /// The route taken from a step (or from `launch`) to the step it names, before skipped steps are passed over;
  /// passing over a skipped step is its own `skipIf` move. `name` is the button or outcome.
  case moved(from: String, to: String, route: RouteKind, name: String?)
  /// The user went back from one step to another.
  case wentBack(from: String, to: String)
  /// An effect, in the order it happens.
  case effect(RuntimeEffect)
  /// An event addressed to a step that is no longer current (a double tap during a transition).
  case stale(event: String, step: String)
  /// Something the run tolerated, such as a store it could not read.
  case warning(String)
  /// The flow reached a terminal step with its outcome.
  case ended(step: String, outcome: TerminalOutcome)
  /// At launch, the run was assigned a variant of an experiment; `why` shows the id's bucket, or that it was
  /// pinned.
  case assigned(experiment: String, variant: String, why: String)
}

/// What kind of route a move follows.
public enum RouteKind: String, Sendable, Hashable, CaseIterable {
  /// `next` (also choose, input and an auto-advance, which follow it).
  case next
  /// `skip`.
  case skip
  /// A named button that goes to a step.
  case button
  /// An outcome of an action or permission request.
  case outcome
  /// A step whose `skipIf` held, passed over to its `next`.
  case skipIf
  /// A `resume` route, or the start step, taken on launch, restart or reset (written `route`).
  case resume = "route"
  /// A route of the flow's `foreground:`, taken when the app returns from the background (from `foreground`).
  case foreground
  /// A route of an `open:` entry, taken for a deep link; `name` is the entry (from `open`).
  case open
}

/// An effect with its values computed, ready for a handler.
public enum RuntimeEffect: Sendable, Hashable {
  /// A variable took a new value.
  case set(variable: String, value: Value)
  /// Write a value to the store under a key.
  case persist(key: String, value: Value)
  /// Remove a key from the store.
  case remove(key: String)
  /// An analytics event with its properties.
  case track(event: String, properties: TrackProperties)
  /// An analytics user property.
  case userProperty(name: String, value: Value)
  /// Ask for the system review prompt (the session performs the prelude's `request-review` action through the
  /// ``ActionProvider``); the flow does not branch on it.
  case requestReview
  /// Send the profile to the server for a user id.
  case syncProfile(userID: Value)
  /// Show a placement (a paywall or an offer) by name.
  case placement(String)
  /// Onboarding is complete.
  case completeOnboarding
  /// A line for the app's log.
  case log(String)
  /// A custom effect the flow declares (`followUser`), with its arguments' values.
  case custom(name: String, arguments: [String: Value])
  /// Ask a provider: a declared action with its arguments' values, or a permission request. The answer comes
  /// back as ``FlowEvent/outcome(_:result:)``.
  case perform(action: ActionName, permission: PermissionKind?, arguments: [String: Value])

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
    case .custom(let name, _): name
    }
  }
}

/// Why the engine refused an event; the state is unchanged.
///
/// The engine composes the message and the allowed commands only when they are read: `flowrun explore` tries
/// many moves that are refused and reads neither.
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was refused and why.
  public var message: String {
    get { composeMessage() }
    set { composeMessage = { newValue } }
  }
  /// The commands the current step accepts.
  public var allowed: [String] {
    get { composeAllowed() }
    set { composeAllowed = { newValue } }
  }
  private var composeMessage: @Sendable () -> String
  private var composeAllowed: @Sendable () -> [String]

  package init(message: String, allowed: [String]) {
    composeMessage = { message }
    composeAllowed = { allowed }
  }

  /// A rejection whose message and allowed commands are composed when read.
  package init(message: @escaping @Sendable () -> String, allowed: @escaping @Sendable () -> [String]) {
    composeMessage = message
    composeAllowed = allowed
  }

  public static func == (lhs: Rejection, rhs: Rejection) -> Bool {
    lhs.message == rhs.message && lhs.allowed == rhs.allowed
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(message)
    hasher.combine(allowed)
  }
  public var description: String {
    allowed.isEmpty ? message : "\(message); allowed here: \(allowed.joined(separator: ", "))"
  }
}

/// A failure of the flow itself while running (an endless automatic loop, a route that matches nothing).
public struct RunError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  package init(message: String) { self.message = message }
  public var description: String { message }
}

/// Why an event was not handled: the engine refused it (the state is unchanged), or the flow itself failed.
public enum FlowError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The event does not fit the current step; nothing changed.
  case rejected(Rejection)
  /// The flow failed: an endless automatic loop, a route that matches nothing, an expression that cannot be
  /// evaluated, an action no provider performs.
  case failed(RunError)

  /// The refusal's or the failure's message.
  public var description: String {
    switch self {
    case .rejected(let rejection): rejection.description
    case .failed(let error): error.description
    }
  }

  /// The refusal, when the event was refused.
  public var rejection: Rejection? { if case .rejected(let rejection) = self { rejection } else { nil } }

  /// The failure, when the flow failed.
  public var failure: RunError? { if case .failed(let error) = self { error } else { nil } }

  /// The error as the engine's internals throw it: a ``Rejection`` or a ``RunError``.
  package init(_ error: any Error) {
    switch error {
    case let rejection as Rejection: self = .rejected(rejection)
    case let failure as RunError: self = .failed(failure)
    default: self = .failed(RunError(message: String(describing: error)))
    }
  }
}

extension RuntimeEffect {
  /// Whether the effect is one the flow declares (``custom(name:arguments:)``).
  package var isCustom: Bool { if case .custom = self { true } else { false } }
}
