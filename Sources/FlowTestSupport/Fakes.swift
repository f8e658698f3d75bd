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

  /// Answers every declared action from a script keyed by action name, then from `ask`, then with the
  /// declaration's `default` outcome (with its result fields' examples). Records every request.
  public final class Actions: ActionProvider, ScriptKeeper {
    private let script: Mutex<ActionScript>
    private let received = Mutex<[ActionRequest]>([])
    private let ask: AskUser?

    /// - Parameters:
    ///   - answers: the answers of successive calls, per action (`["purchase": [ActionAnswer("purchased")]]`).
    ///   - ask: asked for an answer when nothing is scripted for a call the flow waits on.
    public init(answers: [ActionName: [ActionAnswer]] = [:], ask: AskUser? = nil) {
      script = Mutex(ActionScript(answers: answers))
      self.ask = ask
    }

    /// How many times `action` was performed.
    public func callCount(of action: ActionName) -> Int { script.withLock { $0.calls[action] ?? 0 } }

    /// Every request, in order, with its arguments.
    public var requests: [ActionRequest] { received.withLock { $0 } }

    public func perform(_ request: ActionRequest) async -> ActionAnswer {
      received.withLock { $0.append(request) }
      return await answerAction(request, unscripted: Unscripted(asking: ask))
    }

    package func withScript<Result: Sendable>(_ body: (inout ActionScript) -> Result) -> Result {
      script.withLock { body(&$0) }
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
    permissions: Fakes.Permissions = .init(), actions: Fakes.Actions = .init(), platform: Fakes.Platform = .init(),
    store: any KeyValueStore = Fakes.MemoryStore(), effects: any EffectHandler = Fakes.RecordingEffects()
  ) -> Providers {
    Providers(permissions: permissions, actions: actions, platform: platform, store: store, effects: effects)
  }
}
