public import FlowCore
import Synchronization

/// Scripted fakes of every provider, for an app's own tests. Each records what it was asked.
///
/// They answer by the same rules as `flowrun` (`PermissionScript`, `ActionScript` and `StoreScript` in
/// FlowCore); these types only add a lock and what a test inspects.
public enum Fakes {}

/// Asks a person (or a script) to answer a system dialog the fake has no scripted answer for.
public typealias AskUser = @Sendable (_ question: String, _ choices: [String]) async -> String?

extension Fakes {
  /// Permission statuses at start and scripted answers to requests, per kind.
  ///
  /// A request shows a dialog only where iOS would: when the status is undetermined, and after `partial` for
  /// notifications and location. Then the next scripted answer is used, then `ask`, then `granted`. Otherwise
  /// (`granted`, `denied`, `unavailable`, `partial` of another kind) it answers the status at once without a
  /// dialog. Every answer but `error` and `timeout` is kept as the status (`partial` as partial); an
  /// `unavailable` answer shows no dialog.
  public final class Permissions: PermissionProvider, ScriptKeeper {
    private let script: Mutex<PermissionScript>
    private let ask: AskUser?

    /// - Parameters:
    ///   - statuses: the status of each kind at start (default `notDetermined`).
    ///   - answers: outcomes of successive requests per kind.
    public convenience init(
      statuses: [PermissionKind: PermissionStatus] = [:], answers: [PermissionKind: [String]] = [:],
      ask: AskUser? = nil
    ) {
      self.init(statuses: statuses, scripted: answers.mapValues { $0.map { ActionAnswer($0) } }, ask: ask)
    }

    /// Like `init(statuses:answers:ask:)`, with full answers (an answer with `dialogShown: false` shows no dialog).
    public init(
      statuses: [PermissionKind: PermissionStatus] = [:], scripted: [PermissionKind: [ActionAnswer]],
      ask: AskUser? = nil
    ) {
      script = Mutex(PermissionScript(statuses: statuses, answers: scripted))
      self.ask = ask
    }

    /// The kinds a system dialog was shown for, in order.
    public var dialogsShown: [PermissionKind] { script.withLock { $0.dialogsShown } }

    /// Changes a status, as the user would in Settings.
    public func setStatus(_ status: PermissionStatus, of kind: PermissionKind) {
      script.withLock { $0.setStatus(status, of: kind) }
    }

    public func status(of kind: PermissionKind) async -> PermissionStatus { script.withLock { $0.status(of: kind) } }

    public func request(_ kind: PermissionKind) async -> ActionAnswer {
      await answerRequest(kind, unscripted: Unscripted(asking: ask))
    }

    package func withScript<Result: Sendable>(_ body: (inout PermissionScript) -> Result) -> Result {
      script.withLock { body(&$0) }
    }
  }

  /// Answers a system action from a script, then from `ask`, then with a default outcome.
  public final class Action: ScriptKeeper {
    private let script: Mutex<ActionScript>
    private let ask: AskUser?

    init(_ script: ActionScript, ask: AskUser? = nil) {
      self.script = Mutex(script)
      self.ask = ask
    }

    /// How many times the action was performed.
    public var callCount: Int { script.withLock { $0.calls } }

    func answer() async -> ActionAnswer { await answerAction(unscripted: Unscripted(asking: ask)) }

    package func withScript<Result: Sendable>(_ body: (inout ActionScript) -> Result) -> Result {
      script.withLock { body(&$0) }
    }
  }

  public final class Auth: AuthProvider, Sendable {
    public let action: Action
    public init(answers: [ActionAnswer] = [], ask: AskUser? = nil) {
      action = Action(.signIn(answers), ask: ask)
    }
    public func signInWithApple() async -> ActionAnswer { await action.answer() }
  }

  public final class Profiles: ProfileServer, Sendable {
    public let restore: Action
    private let synced = Mutex<[Value]>([])
    public init(restores: [ActionAnswer] = [], ask: AskUser? = nil) {
      restore = Action(.restoreProfile(restores), ask: ask)
    }
    /// The user ids profiles were synced with, in order.
    public var syncedUserIDs: [Value] { synced.withLock { $0 } }
    /// A server call: it never shows a system dialog.
    public func restoreProfile() async -> ActionAnswer { await restore.answer() }
    public func syncProfile(userID: Value) async { synced.withLock { $0.append(userID) } }
  }

  public final class Review: ReviewPrompt, Sendable {
    public let action: Action
    public init(answers: [ActionAnswer] = []) {
      action = Action(.requestReview(answers))
    }
    public func requestReview() async -> ActionAnswer { await action.answer() }
  }

  public struct Platform: FlowCore.Platform {
    public var facts: [String: Value]
    public var clock: Double
    public init(facts: [String: Value] = [:], clock: Double = 9 * 3600) {
      self.facts = facts
      self.clock = clock
    }
    public func environment() async -> [String: Value] { facts }
    public func timeOfDay() async -> Double { clock }
  }

  /// An in-memory store; `corrupted` makes `load` fail as a damaged file would.
  public final class MemoryStore: KeyValueStore, Sendable {
    private let script: Mutex<StoreScript>
    public init(_ values: [String: Value] = [:], corrupted: Bool = false) {
      script = Mutex(StoreScript(values, corrupted: corrupted))
    }
    public var values: [String: Value] { script.withLock { $0.values } }
    public func load() async throws(StoreError) -> [String: Value] { try script.withLock { $0 }.load() }
    public func set(_ key: String, to value: Value) async throws(StoreError) {
      script.withLock { $0.set(key, to: value) }
    }
    public func remove(_ key: String) async throws(StoreError) { script.withLock { $0.remove(key) } }
  }

  /// Keeps every effect it is asked to perform.
  public final class RecordingEffects: EffectHandler, Sendable {
    private let performed = Mutex<[RuntimeEffect]>([])
    public init() {}
    public var effects: [RuntimeEffect] { performed.withLock { $0 } }
    public func perform(_ effect: RuntimeEffect) async { performed.withLock { $0.append(effect) } }
  }
}

extension Providers {
  /// Providers made of fakes, each scripted as given.
  public static func fakes(
    permissions: Fakes.Permissions = .init(), auth: Fakes.Auth = .init(), profiles: Fakes.Profiles = .init(),
    review: Fakes.Review = .init(), platform: Fakes.Platform = .init(), store: any KeyValueStore = Fakes.MemoryStore(),
    effects: any EffectHandler = Fakes.RecordingEffects()
  ) -> Providers {
    Providers(
      permissions: permissions, auth: auth, profiles: profiles, review: review, platform: platform, store: store,
      effects: effects)
  }
}
