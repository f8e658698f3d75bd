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
/// that value's copy (``VariableAccess/loadedFromStore``), whatever it is, and whether the store holds a value is read
/// (``VariableAccess/readStorePresence``); reading the variable afterwards reads its stored value
/// (``VariableAccess/readStoredValue``). Its permission statuses are the launch's (``Entries/permissionsFromLaunch``).
package final class AccessLog: Sendable {
  /// What one event did with one variable (``Entries/variables``).
  package struct VariableAccess: OptionSet, Sendable, Equatable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The event read the variable's value from the state before it.
    package static let read = VariableAccess(rawValue: 1 << 0)
    /// The event assigned the variable.
    package static let wrote = VariableAccess(rawValue: 1 << 1)
    /// The variable holds its stored value as a launch loaded it (coerced to its type, or its default when the
    /// stored value does not fit).
    package static let loadedFromStore = VariableAccess(rawValue: 1 << 2)
    /// The event read the variable's stored value (a loaded variable read afterwards).
    package static let readStoredValue = VariableAccess(rawValue: 1 << 3)
    /// The event read whether the store holds a value for the variable (a launch).
    package static let readStorePresence = VariableAccess(rawValue: 1 << 4)
    /// The event wrote the variable's stored value (a persisted variable's store key).
    package static let wroteStore = VariableAccess(rawValue: 1 << 5)
    /// The variable holds a value this event wrote or loaded (reading it then reads nothing before).
    static let holdsOwnValue = VariableAccess(rawValue: 1 << 6)
  }

  /// What one event read and wrote.
  package struct Entries: Sendable, Equatable {
    /// Per variable, in the order the flow declares them, what the event did with it: one array rather than one
    /// per kind of access, so that a copy of the entries (``AccessLog/current``, read after every move the
    /// explorer makes with the engine) retains one buffer, and a copy kept while the log is cleared costs one
    /// allocation, not seven.
    package private(set) var variables: [VariableAccess]
    /// Whether an expression read `store` (all stored values).
    package var readStore = false
    /// Whether an expression read `env` (all facts).
    package var readFacts = false
    /// Whether the event read the permission statuses (all of them).
    package var readPermissions = false
    /// Whether the event wrote permission statuses (counted as writing all of them, and reading them too, so
    /// that the ones it left are known).
    package var wrotePermissions = false
    /// Whether a launch set every permission status to the one it was given (or to undetermined, the default
    /// for one it was not), reading none from the state before. A relaunch in `flowrun explore` is given the
    /// statuses the device keeps of the state's own, so the explorer knows them without the event reading them.
    package var permissionsFromLaunch = false
    /// Whether the event read the experiment variants (all of them).
    package var readVariants = false
    /// Whether the event assigned the experiment variants (a launch; counted as reading them too).
    package var wroteVariants = false

    package init(variableCount: Int) {
      variables = Array(repeating: [], count: variableCount)
    }

    /// The variables with `access` among what the event did with them, in order.
    package func variables(with access: VariableAccess) -> [Int] {
      variables.indices.filter { variables[$0].contains(access) }
    }

    /// Back to nothing noted, as ``init(variableCount:)`` makes it, in place: the array keeps its storage (the
    /// explorer clears its log before every move the engine makes).
    mutating func clear() {
      for index in variables.indices { variables[index] = [] }
      readStore = false
      readFacts = false
      readPermissions = false
      wrotePermissions = false
      permissionsFromLaunch = false
      readVariants = false
      wroteVariants = false
    }

    fileprivate mutating func note(_ access: VariableAccess, of index: Int) { variables[index].formUnion(access) }
    fileprivate mutating func forget(_ access: VariableAccess, of index: Int) {
      variables[index].subtract(access)
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
      let access = entries.variables[index]
      if access.contains(.loadedFromStore) {
        entries.note(.readStoredValue, of: index)
      } else if !access.contains(.holdsOwnValue) {
        entries.note(.read, of: index)
      }
    }
  }

  func wrote(variable index: Int) {
    entries.withLock { entries in
      entries.note([.wrote, .holdsOwnValue], of: index)
      entries.forget(.loadedFromStore, of: index)
    }
  }

  /// A launch replaced the state: every variable holds its default, written by this event.
  func startedAfresh() {
    entries.withLock { entries in
      for index in entries.variables.indices {
        entries.note([.wrote, .holdsOwnValue], of: index)
        entries.forget(.loadedFromStore, of: index)
      }
    }
  }

  /// A launch looked for variable `index`'s stored value.
  func readStorePresence(of index: Int) { entries.withLock { $0.note(.readStorePresence, of: index) } }

  /// A launch loaded variable `index` from its stored value.
  func loadedFromStore(_ index: Int) {
    entries.withLock { entries in
      entries.note([.loadedFromStore, .holdsOwnValue], of: index)
      entries.forget(.wrote, of: index)
    }
  }

  func wroteStore(of index: Int) { entries.withLock { $0.note(.wroteStore, of: index) } }
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
  func tookPermissionsFromLaunch() { entries.withLock { $0.permissionsFromLaunch = true } }
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
      var wroteStore = false
      for index in entries.variables.indices {
        let access = entries.variables[index]
        wroteStore = wroteStore || access.contains(.wroteStore)
        guard access.contains(.holdsOwnValue) else { continue }
        entries.note(access.contains(.loadedFromStore) ? [.read, .readStoredValue] : .read, of: index)
        entries.forget(.holdsOwnValue, of: index)
      }
      if wroteStore { entries.readStore = true }
    }
  }
}
