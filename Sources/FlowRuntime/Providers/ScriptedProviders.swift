package import FlowCore
import Synchronization

/// The operating system as `flowrun` and scenario tables simulate it: each provider answers from its script
/// (flags, a table row), then asks a person when `ask` is given, then falls back as ``PermissionScript`` and
/// ``ActionScript`` say.
extension Providers {
  /// Providers scripted from one table of answers, keyed by permission kind (`healthKit: [granted]`) or by
  /// the name of a declared action (`sign-in-with-apple`, `purchase`, one the flow declares), as scenario
  /// tables and `flowrun` flags give them, and by step id (`stepAnswers`: used first for a dialog shown on that
  /// step).
  /// - Parameters:
  ///   - facts: the device's environment facts.
  ///   - clock: the clock at launch, seconds since 1970-01-01 00:00 UTC (under a day: a time on that day).
  ///   - permissionStatuses: each permission's status at launch (default `notDetermined`).
  ///   - answers: successive answers per permission kind or action.
  ///   - stepAnswers: successive answers per step id, for whatever dialog the step shows.
  ///   - store: the key-value store.
  ///   - unscripted: who answers a dialog of a permission or an awaited action that nothing scripted (the
  ///     review prompt, which nothing awaits, takes its declared default, `shown`).
  package static func scripted(
    facts: [String: Value] = [:], clock: Double = 9 * 3600,
    permissionStatuses: [PermissionKind: PermissionStatus] = [:],
    answers: [String: [ActionAnswer]] = [:], stepAnswers: [String: [ActionAnswer]] = [:],
    store: any KeyValueStore = MemoryStore(), unscripted: Unscripted = .fallback
  ) -> Providers {
    // A key is a permission kind or an action name; each script reads the keys it is asked about (flags and
    // scenario keys are checked against the flow's names before they get here).
    var permissionAnswers: [PermissionKind: [ActionAnswer]] = [:]
    var actionAnswers: [ActionName: [ActionAnswer]] = [:]
    for (key, scripted) in answers {
      permissionAnswers[PermissionKind(rawValue: key)] = scripted
      actionAnswers[ActionName(rawValue: key)] = scripted
    }
    return Providers(
      permissions: ScriptedPermissions(
        PermissionScript(statuses: permissionStatuses, answers: permissionAnswers, stepAnswers: stepAnswers),
        unscripted: unscripted),
      actions: ScriptedActions(
        ActionScript(answers: actionAnswers).answering(steps: stepAnswers), unscripted: unscripted),
      platform: FixedPlatform(facts: facts, clock: clock), store: store, effects: IgnoredEffects())
  }
}

/// Permissions answered by a ``PermissionScript``; `settings KIND=STATUS` changes their statuses.
package final class ScriptedPermissions: PermissionProvider, ScriptKeeper {
  private let script: Mutex<PermissionScript>
  private let unscripted: Unscripted

  package init(_ script: PermissionScript, unscripted: Unscripted = .fallback) {
    self.script = Mutex(script)
    self.unscripted = unscripted
  }

  /// Changes a status, as the user would in Settings.
  package func setStatus(_ status: PermissionStatus, of kind: PermissionKind) {
    script.withLock { $0.setStatus(status, of: kind) }
  }

  package func status(of kind: PermissionKind) async -> PermissionStatus { script.withLock { $0.status(of: kind) } }

  package func request(_ kind: PermissionKind) async -> ActionAnswer {
    await answerRequest(kind, unscripted: unscripted)
  }

  package func withScript<Result: Sendable>(_ body: (inout PermissionScript) -> Result) -> Result {
    script.withLock { body(&$0) }
  }
}

/// Every declared action, answered by an ``ActionScript``.
package final class ScriptedActions: ActionProvider, ScriptKeeper {
  private let script: Mutex<ActionScript>
  private let unscripted: Unscripted

  package init(_ script: ActionScript, unscripted: Unscripted = .fallback) {
    self.script = Mutex(script)
    self.unscripted = unscripted
  }

  package func withScript<Result: Sendable>(_ body: (inout ActionScript) -> Result) -> Result {
    script.withLock { body(&$0) }
  }

  package func perform(_ request: ActionRequest) async -> ActionAnswer {
    await answerAction(request, unscripted: unscripted)
  }
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
