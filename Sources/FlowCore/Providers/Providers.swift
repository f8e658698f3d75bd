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

/// Sign in with Apple: `success` (result `name`, `userId`), `failure` or `cancelled`.
public protocol AuthProvider: Sendable {
  /// Shows Sign in with Apple and answers how it ended.
  func signInWithApple() async -> ActionAnswer
}

/// The profile server: restore answers `found` (result `displayName`, `habits`), `empty` or `error`.
public protocol ProfileServer: Sendable {
  /// Looks up the user's profile on the server.
  func restoreProfile() async -> ActionAnswer
  /// Sends the profile for a user id (no answer is awaited).
  func syncProfile(userID: Value) async
}

/// The system review prompt: `shown`, or `suppressed` by the system's yearly limit.
public protocol ReviewPrompt: Sendable {
  /// Asks the system to show its review prompt.
  func requestReview() async -> ActionAnswer
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

/// Performs the effects that leave the flow: analytics, user properties, placements, completion, logs.
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
  package let auth: any AuthProvider
  package let profiles: any ProfileServer
  package let review: any ReviewPrompt
  package let platform: any Platform
  package let store: any KeyValueStore
  package let effects: any EffectHandler

  /// Every provider, each an app object (one object may play several roles).
  public init(
    permissions: any PermissionProvider, auth: any AuthProvider, profiles: any ProfileServer,
    review: any ReviewPrompt, platform: any Platform, store: any KeyValueStore, effects: any EffectHandler
  ) {
    self.permissions = permissions
    self.auth = auth
    self.profiles = profiles
    self.review = review
    self.platform = platform
    self.store = store
    self.effects = effects
  }
}
