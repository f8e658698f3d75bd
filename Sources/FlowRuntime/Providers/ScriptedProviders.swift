package import FlowCore
import Synchronization

/// The operating system as `flowrun` and scenario tables simulate it: each provider answers from its script
/// (flags, a table row), then asks a person when `ask` is given, then falls back as ``PermissionScript`` and
/// ``ActionScript`` say.
extension Providers {
  /// Providers scripted from one table of answers, keyed by permission kind (`healthKit: [granted]`) or by
  /// action name (`sign-in-with-apple`, `restore-profile`, `request-review`), as scenario tables and `flowrun`
  /// flags give them.
  /// - Parameters:
  ///   - facts: the device's environment facts.
  ///   - clock: seconds since midnight at launch.
  ///   - permissionStatuses: each permission's status at launch (default `notDetermined`).
  ///   - answers: successive answers per permission kind or action.
  ///   - store: the key-value store.
  ///   - ask: asks a person for a dialog's answer when nothing is scripted.
  package static func scripted(
    facts: [String: Value] = [:], clock: Double = 9 * 3600,
    permissionStatuses: [PermissionKind: PermissionStatus] = [:],
    answers: [String: [ActionAnswer]] = [:], store: any KeyValueStore = MemoryStore(), ask: AskForAnswer? = nil
  ) -> Providers {
    var permissionAnswers: [PermissionKind: [ActionAnswer]] = [:]
    for (key, scripted) in answers where ActionName(rawValue: key).outcomes == nil {
      permissionAnswers[PermissionKind(rawValue: key)] = scripted
    }
    return Providers(
      permissions: ScriptedPermissions(
        PermissionScript(statuses: permissionStatuses, answers: permissionAnswers), ask: ask),
      auth: ScriptedAction(.signIn(answers[ActionName.signInWithApple.rawValue] ?? []), ask: ask),
      profiles: ScriptedAction(.restoreProfile(answers[ActionName.restoreProfile.rawValue] ?? []), ask: ask),
      review: ScriptedAction(.requestReview(answers[ActionName.requestReview.rawValue] ?? [])),
      platform: FixedPlatform(facts: facts, clock: clock), store: store, effects: IgnoredEffects())
  }
}

/// Permissions answered by a ``PermissionScript``; `settings KIND=STATUS` changes their statuses.
package final class ScriptedPermissions: PermissionProvider, ScriptKeeper {
  private let script: Mutex<PermissionScript>
  private let ask: AskForAnswer?

  package init(_ script: PermissionScript, ask: AskForAnswer? = nil) {
    self.script = Mutex(script)
    self.ask = ask
  }

  /// Changes a status, as the user would in Settings.
  package func setStatus(_ status: PermissionStatus, of kind: PermissionKind) {
    script.withLock { $0.setStatus(status, of: kind) }
  }

  package func status(of kind: PermissionKind) async -> PermissionStatus { script.withLock { $0.status(of: kind) } }

  package func request(_ kind: PermissionKind) async -> ActionAnswer { await answerRequest(kind, ask: ask) }

  package func withScript<Result: Sendable>(_ body: (inout PermissionScript) -> Result) -> Result {
    script.withLock { body(&$0) }
  }
}

/// Sign in, profile restore and the review prompt, answered by an ``ActionScript``.
package final class ScriptedAction: AuthProvider, ProfileServer, ReviewPrompt, ScriptKeeper {
  private let script: Mutex<ActionScript>
  private let ask: AskForAnswer?

  package init(_ script: ActionScript, ask: AskForAnswer? = nil) {
    self.script = Mutex(script)
    self.ask = ask
  }

  package func withScript<Result: Sendable>(_ body: (inout ActionScript) -> Result) -> Result {
    script.withLock { body(&$0) }
  }

  package func signInWithApple() async -> ActionAnswer { await answerAction(ask: ask) }
  package func restoreProfile() async -> ActionAnswer { await answerAction(ask: ask) }
  package func syncProfile(userID: Value) async {}
  package func requestReview() async -> ActionAnswer { await answerAction(ask: ask) }
}

/// Fixed device facts and a fixed clock.
package struct FixedPlatform: Platform {
  let facts: [String: Value]
  let clock: Double
  package func environment() async -> [String: Value] { facts }
  package func timeOfDay() async -> Double { clock }
}

/// A store in memory (`flowrun` without `--state`, scenario tables), kept by a ``StoreScript``.
package final class MemoryStore: KeyValueStore, Sendable {
  private let script: Mutex<StoreScript>
  package init(_ values: [String: Value] = [:], corrupted: Bool = false) {
    script = Mutex(StoreScript(values, corrupted: corrupted))
  }
  package var values: [String: Value] { script.withLock { $0.values } }
  package func load() async throws(StoreError) -> [String: Value] { try script.withLock { $0 }.load() }
  package func set(_ key: String, to value: Value) async throws(StoreError) {
    script.withLock { $0.set(key, to: value) }
  }
  package func remove(_ key: String) async throws(StoreError) { script.withLock { $0.remove(key) } }
}

/// Effects leave the flow only as trace records: nothing outside is told.
package struct IgnoredEffects: EffectHandler {
  package func perform(_ effect: RuntimeEffect) async {}
}
