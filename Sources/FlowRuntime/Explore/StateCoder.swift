import FlowCore

/// Turns a normalized ``RunState`` into a fixed-width key of 32-bit words: each variable, stored value, fact and
/// permission status is interned per slot, so equal states get equal keys and the key is all that is kept.
///
/// Layout: current step + 1, ended, pending answer, pending timer, history (most recent `historyDepth` steps,
/// oldest first, 0 = none), variables, store values by persisted key (0 = absent), facts, permission statuses,
/// the variant of each experiment.
struct StateCoder {
  let historyDepth: Int
  let variableCount: Int
  let storeKeys: [String]
  let factNames: [String]
  let permissionKinds: [PermissionKind]
  let experimentCount: Int
  let width: Int
  private var values: [[Value: UInt32]]
  private var pendings: [RunState.Pending: UInt32] = [:]
  private var timers: [Double: UInt32] = [:]
  private var statuses: [PermissionStatus: UInt32] = [:]
  /// Per variable and per store key: whether its value is compared, or only whether it is empty.
  let variableMatters: [Bool]
  let storeKeyMatters: [Bool]

  init(flow: Flow, historyDepth: Int) {
    self.historyDepth = historyDepth
    variableCount = flow.variables.count
    storeKeys = flow.variables.compactMap(\.persistKey)
    factNames = flow.facts.map(\.name)
    permissionKinds = flow.permissions.map(\.value)
    experimentCount = flow.experiments.count
    width =
      4 + historyDepth + variableCount + storeKeys.count + factNames.count + permissionKinds.count + experimentCount
    values = Array(repeating: [:], count: variableCount + storeKeys.count + factNames.count)
    let reads = flow.controlReads
    variableMatters = flow.variables.map { reads.variables.contains($0.name) }
    storeKeyMatters = flow.variables.filter { $0.persistKey != nil }.map {
      reads.wholeStore || reads.variables.contains($0.name) || reads.storeKeys.contains($0.persistKey ?? "")
    }
  }

  mutating func encode(_ state: RunState, into key: inout [UInt32]) {
    key[0] = UInt32(truncatingIfNeeded: (state.current ?? -1) + 1)
    key[1] = state.ended == nil ? 0 : 1
    key[2] = state.pending.map { Self.intern($0, in: &pendings) } ?? 0
    key[3] = state.timer.map { Self.intern($0, in: &timers) } ?? 0
    var slot = 4
    var history = state.history
    for offset in 0..<historyDepth {
      key[slot + historyDepth - 1 - offset] = history.isEmpty ? 0 : UInt32(truncatingIfNeeded: history.removeLast() + 1)
    }
    slot += historyDepth
    var table = 0
    for value in state.variables {
      key[slot] = variableMatters[table] ? Self.intern(value, in: &values[table]) : Self.emptiness(value)
      slot += 1
      table += 1
    }
    for (offset, storeKey) in storeKeys.enumerated() {
      let matters = storeKeyMatters[offset]
      key[slot] = state.store[storeKey].map { matters ? Self.intern($0, in: &values[table]) : Self.emptiness($0) } ?? 0
      slot += 1
      table += 1
    }
    for name in factNames {
      key[slot] = state.environment[name].map { Self.intern($0, in: &values[table]) } ?? 0
      slot += 1
      table += 1
    }
    for kind in permissionKinds {
      key[slot] = state.permissions[kind].map { Self.intern($0, in: &statuses) } ?? 0
      slot += 1
    }
    for offset in 0..<experimentCount {
      key[slot] = offset < state.variants.count ? UInt32(truncatingIfNeeded: state.variants[offset] + 1) : 0
      slot += 1
    }
  }

  /// 1 for an empty string, list or map (or null), 2 otherwise.
  private static func emptiness(_ value: Value) -> UInt32 {
    switch value {
    case .null: 1
    case .string(let s): s.isEmpty ? 1 : 2
    case .list(let l): l.isEmpty ? 1 : 2
    case .map(let m): m.isEmpty ? 1 : 2
    default: 2
    }
  }

  private static func intern<T: Hashable>(_ value: T, in table: inout [T: UInt32]) -> UInt32 {
    if let id = table[value] { return id }
    let id = UInt32(table.count + 1)
    table[value] = id
    return id
  }
}
