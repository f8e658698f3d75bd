import Synchronization

/// What one event read and wrote of a run's variables, stored values, facts, permission statuses and experiment
/// variants, kept while the engine handles it (``Engine/handle(_:at:in:records:log:)``).
///
/// The engine is a pure function of what it reads: from two states that agree on everything an event read (and
/// on the rest of the run's state: step, history, pending answer, timer), the event does the same, and writes
/// the same values to the same variables. `flowrun
/// explore` relies on that to reuse a move's result for every state that agrees with the first on what the
/// move read.
///
/// A variable that is written and later put back (the engine undoes part of an event: a route that stays after
/// the `advance` hook ran) holds its value from before again, so it counts as read too.
package final class AccessLog: Sendable {
  /// What one event read and wrote.
  package struct Entries: Sendable {
    /// Per variable, in the order the flow declares them: whether the event read it.
    package var readVariables: [Bool]
    /// Per variable: whether the event assigned it.
    package var wroteVariables: [Bool]
    /// Per variable: whether the event wrote its stored value (a persisted variable's store key).
    package var wroteStore: [Bool]
    /// Whether an expression read `store` (all stored values).
    package var readStore = false
    /// Whether an expression read `env` (all facts).
    package var readFacts = false
    /// Whether the event read the permission statuses (all of them).
    package var readPermissions = false
    /// Whether the event wrote permission statuses (counted as writing all of them, and reading them too, so
    /// that the ones it left are known).
    package var wrotePermissions = false
    /// Whether the event read the experiment variants (all of them).
    package var readVariants = false
    /// Whether the event did what depends on more than the log says (a launch, which starts from the launch's
    /// store, not the state's): its result holds only for this state.
    package var isPartial = false
  }

  // A rejection's message is composed when it is read, by a closure that holds the run (and its log); the
  // lock keeps such a late reader from racing the thread that handles the next event.
  private let entries: Mutex<Entries>

  /// A log for a run of a flow with `variableCount` variables.
  package init(variableCount: Int) {
    let none = Array(repeating: false, count: variableCount)
    entries = Mutex(Entries(readVariables: none, wroteVariables: none, wroteStore: none))
  }

  /// What was noted since the last ``clear()``.
  package var current: Entries { entries.withLock { $0 } }

  /// Forgets what was noted.
  package func clear() {
    entries.withLock { entries in
      for index in entries.readVariables.indices {
        entries.readVariables[index] = false
        entries.wroteVariables[index] = false
        entries.wroteStore[index] = false
      }
      entries.readStore = false
      entries.readFacts = false
      entries.readPermissions = false
      entries.wrotePermissions = false
      entries.readVariants = false
      entries.isPartial = false
    }
  }

  func read(variable index: Int) { entries.withLock { $0.readVariables[index] = true } }
  func wrote(variable index: Int) { entries.withLock { $0.wroteVariables[index] = true } }
  func wroteStore(of index: Int) { entries.withLock { $0.wroteStore[index] = true } }
  func readWholeStore() { entries.withLock { $0.readStore = true } }
  func readFacts() { entries.withLock { $0.readFacts = true } }
  func readPermissions() { entries.withLock { $0.readPermissions = true } }
  func readVariants() { entries.withLock { $0.readVariants = true } }
  func wrotePermissions() {
    entries.withLock { entries in
      entries.wrotePermissions = true
      entries.readPermissions = true
    }
  }
  func markPartial() { entries.withLock { $0.isPartial = true } }

  /// The state went back to what it was before some writes: each value written so far is the one the state
  /// held before the event again, so it counts as read.
  func restored() {
    entries.withLock { entries in
      for index in entries.wroteVariables.indices where entries.wroteVariables[index] {
        entries.readVariables[index] = true
      }
      if entries.wroteStore.contains(true) { entries.readStore = true }
    }
  }
}
