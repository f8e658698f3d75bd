/// The operating system and the outside world, behind small protocols. The engine never calls these; a
/// ``FlowSession`` does, so an app can implement them with the real frameworks and tests with scripted fakes.

/// What a system action answered: an outcome name and the values it returned.
public struct ActionAnswer: Sendable, Hashable {
  /// The outcome's name (`success`, `granted`, ...), as the flow's `on:` tables name it.
  public var outcome: String
  /// What the action returned, bound as `result` in the outcome's transition.
  public var result: [String: Value]
  /// Whether a system dialog was shown to get this answer.
  public var dialogShown: Bool

  /// An answer with an outcome, its result, and whether a dialog was shown.
  public init(_ outcome: String, result: [String: Value] = [:], dialogShown: Bool = true) {
    self.outcome = outcome
    self.result = result
    self.dialogShown = dialogShown
  }
}

/// Permission statuses and requests, per kind (`notifications`, `microphone`, `healthKit`, `location`, ...).
///
/// Conformers guarantee: `status(of:)` has no side effects; `request(_:)` shows no dialog when the status is
/// already determined (`granted`, `denied`, `partial` where the system does not ask again) or `unavailable`,
/// and then answers at once with that status.
public protocol PermissionProvider: Sendable {
  /// `notDetermined`, `granted`, `denied`, `partial` or `unavailable`.
  func status(of kind: PermissionKind) async -> PermissionStatus
  /// Outcome one of `granted`, `denied`, `partial`, `unavailable`, `error`, `timeout`.
  func request(_ kind: PermissionKind) async -> ActionAnswer
}

/// A call of a declared action: its name, its arguments' values, and the outcomes the flow declares for it.
public struct ActionRequest: Sendable, Hashable {
  /// The action (`purchase`, `sign-in-with-apple`, or one the flow declares).
  public let name: ActionName
  /// The arguments' values, by name (`product: "pro.yearly"`).
  public let arguments: [String: Value]
  /// The declaration the request was made by (prelude or flow).
  package let declaration: ActionDeclaration
  /// Whether the flow waits for the answer to route it (an action step or button); false for the
  /// `requestReview` effect, whose answer nothing reads, so scripted providers answer it without asking.
  package let isAwaited: Bool

  package init(name: ActionName, arguments: [String: Value], declaration: ActionDeclaration, isAwaited: Bool = true) {
    self.name = name
    self.arguments = arguments
    self.declaration = declaration
    self.isAwaited = isAwaited
  }

  /// The outcomes the flow declares for the action, in order: an answer's outcome is one of them.
  public var outcomes: [String] { declaration.outcomeNames }
}

/// Performs every action a flow declares, keyed by name: sign-in, purchases, server calls, the review prompt,
/// and the app's own (`check-username`, `fetch-remote-config`). One object answers them all; the flow's
/// declarations say which outcomes and `result` fields each has.
///
/// Conformers answer with one of ``ActionRequest/outcomes``; any other outcome is refused by the engine and
/// fails the session's `send`.
public protocol ActionProvider: Sendable {
  /// Performs the action and answers how it ended, with the `result` fields the outcome declares.
  func perform(_ request: ActionRequest) async -> ActionAnswer
}

/// Device facts (`osVersion`, `alarmKitAvailable`, `locale`, `deviceId`) and the clock.
public protocol Platform: Sendable {
  /// The device's facts by name, read at launch.
  func environment() async -> [String: Value]
  /// The clock now: seconds since 1970-01-01 00:00 UTC (`timestamp()` and `today()` read the date, `now()` the
  /// time of day). A value under 86,400, the seconds since midnight, is that time on 1970-01-01: enough for flows
  /// that read only the time of day.
  func timeOfDay() async -> Double
}

/// The persisted key-value store. Writes are atomic: after a crash the store holds either the old or the new
/// contents, never a mix.
public protocol KeyValueStore: Sendable {
  /// Every stored value. Throws ``StoreError`` when the store is corrupted or unreadable.
  func load() async throws(StoreError) -> [String: Value]
  /// Stores a value under a key.
  func set(_ key: String, to value: Value) async throws(StoreError)
  /// Removes a key.
  func remove(_ key: String) async throws(StoreError)
}

/// Performs the effects that leave the flow: analytics, user properties, placements, profile syncs, completion,
/// logs, and the custom effects the flow declares (``RuntimeEffect/custom(name:arguments:)``).
public protocol EffectHandler: Sendable {
  /// Performs one effect; called in the order the flow emits them.
  func perform(_ effect: RuntimeEffect) async
}

/// A store that could not be read or written.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why the store failed, for the trace.
  public var message: String
  /// A store error with its message.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Every provider a session needs.
public struct Providers: Sendable {
  package let permissions: any PermissionProvider
  package let actions: any ActionProvider
  package let platform: any Platform
  package let store: any KeyValueStore
  package let effects: any EffectHandler

  /// Every provider, each an app object (one object may play several roles).
  public init(
    permissions: any PermissionProvider, actions: any ActionProvider, platform: any Platform,
    store: any KeyValueStore, effects: any EffectHandler
  ) {
    self.permissions = permissions
    self.actions = actions
    self.platform = platform
    self.store = store
    self.effects = effects
  }
}
