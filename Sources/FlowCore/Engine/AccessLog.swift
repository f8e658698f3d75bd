import Synchronization

/// What one event read and wrote of a run's variables, stored values, facts, permission statuses and experiment
/// variants, kept while the engine handles it (``Engine/handle(_:at:in:records:log:)``).
///
/// The engine is a pure function of what it reads: from two states that agree on everything an event read (and
/// on the rest of the run's state: step, history, pending answer, timer), the event does the same, and writes
/// the same values to the same variables. `flowrun explore` relies on that to reuse a move's result for every
/// state that agrees with the first on what the move read.
///
/// A value the event wrote itself is not read from the state before: reading it again is not noted. A variable
/// that is written and later put back (the engine undoes part of an event: a route that stays after the
/// `advance` hook ran) holds its value from before again, so it counts as read. A launch starts from a fresh
/// state (every variable written) and loads each persisted variable from its stored value: the variable is then
/// that value's copy (``Entries/loadedFromStore``), whatever it is, and whether the store holds a value is read
/// (``Entries/readStorePresence``); reading the variable afterwards reads its stored value
/// (``Entries/readStoredValue``).
package final class AccessLog: Sendable {
  /// What one event read and wrote; per variable, in the order the flow declares them.
  package struct Entries: Sendable, Equatable {
    /// Whether the event read the variable's value from the state before it.
    package var readVariables: [Bool]
    /// Whether the event assigned the variable.
    package var wroteVariables: [Bool]
    /// Whether the variable holds its stored value as a launch loaded it (coerced to its type, or its default
    /// when the stored value does not fit).
    package var loadedFromStore: [Bool]
    /// Whether the event read the variable's stored value (a loaded variable read afterwards).
    package var readStoredValue: [Bool]
    /// Whether the event read whether the store holds a value for the variable (a launch).
    package var readStorePresence: [Bool]
    /// Whether the event wrote the variable's stored value (a persisted variable's store key).
    package var wroteStore: [Bool]
    /// Whether the variable holds a value this event wrote or loaded (reading it then reads nothing before).
    var holdsOwnValue: [Bool]
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
    /// Whether the event assigned the experiment variants (a launch; counted as reading them too).
    package var wroteVariants = false

    package init(variableCount: Int) {
      let none = Array(repeating: false, count: variableCount)
      readVariables = none
      wroteVariables = none
      loadedFromStore = none
      readStoredValue = none
      readStorePresence = none
      wroteStore = none
      holdsOwnValue = none
    }

    /// Back to nothing noted, as ``init(variableCount:)`` makes it, in place: the arrays keep their storage (the
    /// explorer clears its log before every move the engine makes).
    mutating func clear() {
      for index in readVariables.indices {
        readVariables[index] = false
        wroteVariables[index] = false
        loadedFromStore[index] = false
        readStoredValue[index] = false
        readStorePresence[index] = false
        wroteStore[index] = false
        holdsOwnValue[index] = false
      }
      readStore = false
      readFacts = false
      readPermissions = false
      wrotePermissions = false
      readVariants = false
      wroteVariants = false
    }
  }

  // A rejection's message is composed when it is read, by a closure that holds the run (and its log); the
  // lock keeps such a late reader from racing the thread that handles the next event.
  private let entries: Mutex<Entries>

  /// A log for a run of a flow with `variableCount` variables.
  package init(variableCount: Int) {
    entries = Mutex(Entries(variableCount: variableCount))
  }

  /// What was noted since the last ``clear()``.
  package var current: Entries { entries.withLock { $0 } }

  /// Forgets what was noted.
  package func clear() { entries.withLock { $0.clear() } }

  func read(variable index: Int) {
    entries.withLock { entries in
      if entries.loadedFromStore[index] {
        entries.readStoredValue[index] = true
      } else if !entries.holdsOwnValue[index] {
        entries.readVariables[index] = true
      }
    }
  }

  func wrote(variable index: Int) {
    entries.withLock { entries in
      entries.wroteVariables[index] = true
      entries.holdsOwnValue[index] = true
      entries.loadedFromStore[index] = false
    }
  }

  /// A launch replaced the state: every variable holds its default, written by this event.
  func startedAfresh() {
    entries.withLock { entries in
      for index in entries.wroteVariables.indices {
        entries.wroteVariables[index] = true
        entries.holdsOwnValue[index] = true
        entries.loadedFromStore[index] = false
      }
    }
  }

  /// A launch looked for variable `index`'s stored value.
  func readStorePresence(of index: Int) { entries.withLock { $0.readStorePresence[index] = true } }

  /// A launch loaded variable `index` from its stored value.
  func loadedFromStore(_ index: Int) {
    entries.withLock { entries in
      entries.loadedFromStore[index] = true
      entries.wroteVariables[index] = false
      entries.holdsOwnValue[index] = true
    }
  }

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
  func wroteVariants() {
    entries.withLock { entries in
      entries.wroteVariants = true
      entries.readVariants = true
    }
  }

  /// The state went back to what it was before some writes: each value written so far is the one the state
  /// held before again, so it counts as read.
  func restored() {
    entries.withLock { entries in
      for index in entries.wroteVariables.indices where entries.holdsOwnValue[index] {
        entries.readVariables[index] = true
        if entries.loadedFromStore[index] { entries.readStoredValue[index] = true }
        entries.holdsOwnValue[index] = false
      }
      if entries.wroteStore.contains(true) { entries.readStore = true }
    }
  }
}
