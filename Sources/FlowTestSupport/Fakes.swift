public import FlowCore
import Synchronization

/// Scripted fakes of every provider, for tests, `flowrun` and scenario tables. Each records what it was asked.
public enum Fakes {}

/// Asks a person (or a script) to answer a system dialog the fake has no scripted answer for.
public typealias AskUser = @Sendable (_ question: String, _ choices: [String]) async -> String?

extension Fakes {
  /// Permission statuses at start and scripted answers to requests, per kind.
  ///
  /// A request for a kind whose status is already `granted`, `denied` or `unavailable` answers that status at
  /// once without a dialog, as iOS does. Otherwise the next scripted answer is used, then `ask`, then `granted`.
  public final class Permissions: PermissionProvider, Sendable {
    struct State {
      var statuses: [PermissionKind: PermissionStatus]
      var answers: [PermissionKind: [ActionAnswer]]
      var dialogs: [PermissionKind] = []
    }
    private let state: Mutex<State>
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
      state = Mutex(State(statuses: statuses, answers: scripted))
      self.ask = ask
    }

    /// The kinds a system dialog was shown for, in order.
    public var dialogsShown: [PermissionKind] { state.withLock { $0.dialogs } }

    /// Changes a status, as the user would in Settings.
    public func setStatus(_ status: PermissionStatus, of kind: PermissionKind) {
      state.withLock { $0.statuses[kind] = status }
    }

    public func status(of kind: PermissionKind) async -> PermissionStatus {
      state.withLock { $0.statuses[kind] ?? .notDetermined }
    }

    public func request(_ kind: PermissionKind) async -> ActionAnswer {
      let (current, scripted) = state.withLock { state -> (PermissionStatus, ActionAnswer?) in
        let status = state.statuses[kind] ?? .notDetermined
        guard status == .notDetermined else { return (status, nil) }
        let next = state.answers[kind]?.isEmpty == false ? state.answers[kind]?.removeFirst() : nil
        return (status, next)
      }
      if current != .notDetermined { return ActionAnswer(current.rawValue, dialogShown: false) }
      var answer = scripted
      if answer == nil, let ask,
        let outcome = await ask(
          "Allow \(kind)?", PermissionStatus.requestOutcomes.filter { $0 != .unavailable }.map(\.rawValue))
      {
        answer = ActionAnswer(outcome)
      }
      let result = answer ?? ActionAnswer(PermissionStatus.granted.rawValue)
      state.withLock { state in
        if result.dialogShown { state.dialogs.append(kind) }
        // An unavailable answer is not remembered here: the fake asks again, as a device may later offer it.
        if let status = PermissionStatus(rawValue: result.outcome), status != .unavailable {
          state.statuses[kind] = status.remembered
        }
      }
      return result
    }
  }

  /// Answers a system action from a script, then from `ask`, then with a default outcome.
  public final class Action: Sendable {
    private let answers: Mutex<[ActionAnswer]>
    private let calls = Mutex(0)
    private let ask: AskUser?
    private let name: ActionName
    private let outcomes: [String]
    private let fallback: ActionAnswer

    public init(_ name: ActionName, answers: [ActionAnswer], ask: AskUser? = nil, fallback: ActionAnswer) {
      self.answers = Mutex(answers)
      self.ask = ask
      self.name = name
      self.outcomes = name.outcomes ?? []
      self.fallback = fallback
    }

    /// How many times the action was performed.
    public var callCount: Int { calls.withLock { $0 } }

    func answer() async -> ActionAnswer {
      calls.withLock { $0 += 1 }
      if let scripted = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return scripted }
      if let ask, let outcome = await ask("\(name)?", outcomes) { return ActionAnswer(outcome) }
      return fallback
    }
  }

  public final class Auth: AuthProvider, Sendable {
    public let action: Action
    public init(answers: [ActionAnswer] = [], ask: AskUser? = nil) {
      action = Action(.signInWithApple, answers: answers, ask: ask, fallback: ActionAnswer("cancelled"))
    }
    public func signInWithApple() async -> ActionAnswer { await action.answer() }
  }

  public final class Profiles: ProfileServer, Sendable {
    public let restore: Action
    private let synced = Mutex<[Value]>([])
    public init(restores: [ActionAnswer] = [], ask: AskUser? = nil) {
      restore = Action(
        .restoreProfile, answers: restores, ask: ask, fallback: ActionAnswer("empty", dialogShown: false))
    }
    /// The user ids profiles were synced with, in order.
    public var syncedUserIDs: [Value] { synced.withLock { $0 } }
    /// A server call: it never shows a system dialog.
    public func restoreProfile() async -> ActionAnswer {
      let answer = await restore.answer()
      return ActionAnswer(answer.outcome, result: answer.result, dialogShown: false)
    }
    public func syncProfile(userID: Value) async { synced.withLock { $0.append(userID) } }
  }

  public final class Review: ReviewPrompt, Sendable {
    public let action: Action
    public init(answers: [ActionAnswer] = []) {
      action = Action(.requestReview, answers: answers, fallback: ActionAnswer("shown"))
    }
    public func requestReview() async -> ActionAnswer {
      let answer = await action.answer()
      return ActionAnswer(answer.outcome, result: answer.result, dialogShown: answer.outcome == "shown")
    }
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
    private let state: Mutex<(values: [String: Value], corrupted: Bool)>
    public init(_ values: [String: Value] = [:], corrupted: Bool = false) {
      state = Mutex((values, corrupted))
    }
    public var values: [String: Value] { state.withLock { $0.values } }
    public func load() async throws(StoreError) -> [String: Value] {
      let (values, corrupted) = state.withLock { ($0.values, $0.corrupted) }
      if corrupted { throw StoreError("the stored data is corrupted") }
      return values
    }
    public func set(_ key: String, to value: Value) async throws(StoreError) {
      state.withLock {
        if $0.corrupted { $0 = ([:], false) }
        $0.values[key] = value
      }
    }
    public func remove(_ key: String) async throws(StoreError) {
      state.withLock { _ = $0.values.removeValue(forKey: key) }
    }
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

extension Providers {
  /// Fakes scripted from one table of answers, keyed by permission kind (`healthKit: [granted]`) or by action
  /// name (`sign-in-with-apple`, `restore-profile`, `request-review`), as scenario tables and `flowrun` flags
  /// give them.
  /// - Parameters:
  ///   - facts: the device's environment facts.
  ///   - clock: seconds since midnight at launch.
  ///   - permissionStatuses: each permission's status at launch (default `notDetermined`).
  ///   - answers: successive answers per permission kind or action.
  ///   - store: the key-value store.
  ///   - ask: asks a person for a dialog's answer when nothing is scripted.
  public static func scripted(
    facts: [String: Value] = [:], clock: Double = 9 * 3600,
    permissionStatuses: [PermissionKind: PermissionStatus] = [:],
    answers: [String: [ActionAnswer]] = [:], store: any KeyValueStore = Fakes.MemoryStore(), ask: AskUser? = nil
  ) -> Providers {
    var permissionAnswers: [PermissionKind: [ActionAnswer]] = [:]
    for (key, scripted) in answers where ActionName(rawValue: key).outcomes == nil {
      permissionAnswers[PermissionKind(rawValue: key)] = scripted
    }
    return .fakes(
      permissions: Fakes.Permissions(statuses: permissionStatuses, scripted: permissionAnswers, ask: ask),
      auth: Fakes.Auth(answers: answers[ActionName.signInWithApple.rawValue] ?? [], ask: ask),
      profiles: Fakes.Profiles(restores: answers[ActionName.restoreProfile.rawValue] ?? [], ask: ask),
      review: Fakes.Review(answers: answers[ActionName.requestReview.rawValue] ?? []),
      platform: Fakes.Platform(facts: facts, clock: clock), store: store)
  }
}
