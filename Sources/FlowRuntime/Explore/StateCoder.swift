import FlowCore

/// Turns a normalized ``RunState`` into a fixed-width key of 32-bit words and back: each variable, stored value,
/// fact and permission status is interned per slot, so equal states get equal keys and the key (with a few
/// payload words while the state waits in the queue) is all that is kept.
///
/// Key layout: current step + 1, ended step + 1, pending answer, pending timer, history (most recent
/// `historyDepth` steps, oldest first, 0 = none), variables, store values by persisted key (0 = absent), facts,
/// permission statuses, the variant of each experiment + 1 (0 = none yet). A variable or stored value that no condition reads is compared only by whether it is
/// empty (1 empty, 2 not); its value's id goes to the payload, which rebuilds the state exactly but is not
/// compared.
struct StateCoder {
  let historyDepth: Int
  let variableCount: Int
  let storeKeys: [String]
  let factNames: [String]
  let permissionKinds: [PermissionKind]
  let experimentCount: Int
  let width: Int
  /// Payload words: one per variable and per store key compared only by emptiness.
  let payloadWidth: Int
  /// The payload words of the variables (the store keys' follow).
  let variablePayload: Int
  private var values: [[Value: UInt32]]
  /// Per value table, the value ``interned(_:table:)`` gave an id last, and that id.
  private var lastInterned: [(value: Value, id: UInt32)?]
  /// The ids of the stored values and facts being encoded, and the order ``ids(of:names:firstTable:into:order:)``
  /// last met their names in.
  private var storeIDs: [UInt32]
  private var storeOrder: [Int] = []
  private var factIDs: [UInt32]
  private var factOrder: [Int] = []
  /// The interned values by id - 1, per table.
  private var valueList: [[Value]]
  private var pendings: [RunState.Pending: UInt32] = [:]
  private var pendingList: [RunState.Pending] = []
  private var timers: [Double: UInt32] = [:]
  private var timerList: [Double] = []
  private var statuses: [PermissionStatus: UInt32] = [:]
  private var statusList: [PermissionStatus] = []
  /// Per variable and per store key: whether its value is compared, or only whether it is empty.
  let variableMatters: [Bool]
  let storeKeyMatters: [Bool]
  private let outcomes: [TerminalOutcome]
  /// The flow's variables, and the store slot of each persisted one.
  private let variables: [Variable]
  private let storeSlotOfVariable: [Int?]
  /// Where each part of a state is among its words: its key's, then its payload's.
  let layout: Layout

  /// The offsets of a state's parts among its words (key, then payload).
  struct Layout {
    /// Step, ended step, pending answer, timer and history.
    let control: [Int]
    /// Per variable: its key word, and its payload word when the key compares only whether it is empty.
    let variables: [[Int]]
    /// Per variable: its stored value's words the same way (none for a variable that is not persisted).
    let storedValues: [[Int]]
    let facts: [Int]
    let permissions: [Int]
    let variants: [Int]
  }
  /// The key and payload of the state being expanded, once there is one.
  private var parentKey: [UInt32] = []
  private var parentPayload: [UInt32] = []
  private var hasParentWords = false
  /// The state being expanded, decoded, when `hasParent` (the parts of a successor equal to its, most of them,
  /// are copied from its key instead of looked up again); else the state decoded last, if any
  /// (`hasDecoded`), whose key and payload are `previousKey` and `previousPayload`.
  private var parent = RunState()
  private var hasParent = false
  private var hasDecoded = false
  private var previousKey: [UInt32] = []
  private var previousPayload: [UInt32] = []
  /// Whether ``encode(_:into:payload:)`` gives a new value the next id (the exploring thread's coder), or fails
  /// on it (a copy on a thread of ``ExpansionBatch``, which only reads the tables: the exploring thread encodes
  /// that state again).
  var interns = true

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
    valueList = Array(repeating: [], count: values.count)
    lastInterned = Array(repeating: nil, count: values.count)
    storeIDs = Array(repeating: 0, count: storeKeys.count)
    factIDs = Array(repeating: 0, count: factNames.count)
    let reads = flow.controlReads
    variableMatters = flow.variables.map { reads.variables.contains($0.name) }
    storeKeyMatters = flow.variables.filter { $0.persistKey != nil }.map {
      reads.wholeStore || reads.variables.contains($0.name) || reads.storeKeys.contains($0.persistKey ?? "")
    }
    payloadWidth = (variableMatters + storeKeyMatters).filter { !$0 }.count
    variablePayload = variableMatters.filter { !$0 }.count
    outcomes = flow.steps.map { $0.terminalOutcome ?? .completed }
    variables = flow.variables
    var slot = 0
    let storeSlotOfVariable: [Int?] = flow.variables.map { variable in
      guard variable.persistKey != nil else { return nil }
      defer { slot += 1 }
      return slot
    }
    self.storeSlotOfVariable = storeSlotOfVariable
    layout = Self.layout(
      historyDepth: historyDepth, variableMatters: variableMatters, storeKeyMatters: storeKeyMatters,
      storeSlotOfVariable: storeSlotOfVariable, facts: factNames.count, permissions: permissionKinds.count,
      width: width)
    parentKey = .zeroWords(width)
    parentPayload = .zeroWords(payloadWidth)
    previousKey = .zeroWords(width)
    previousPayload = .zeroWords(payloadWidth)
  }

  /// Makes the state with `key` and `payload` the one whose successors are encoded next, without decoding it
  /// (``expanding(clock:)`` decodes it when it is needed: most states' moves are all reused,
  /// ``TransitionCache``).
  mutating func expandWords(key: UnsafeBufferPointer<UInt32>, payload: UnsafeBufferPointer<UInt32>) {
    if hasParent {
      // The decoded state's words become the previous ones: the next decoding shares what is alike.
      swap(&parentKey, &previousKey)
      swap(&parentPayload, &previousPayload)
    }
    // One copy each, from the callers' buffers: slices of their arrays were retained and copied word by word.
    _ = parentKey.withUnsafeMutableBufferPointer {
      $0.update(fromContentsOf: UnsafeBufferPointer(rebasing: key[..<width]))
    }
    // A flow with no payload words has nothing to copy (about 45 instructions a state saved on the counters).
    if payloadWidth > 0 {
      _ = parentPayload.withUnsafeMutableBufferPointer {
        $0.update(fromContentsOf: UnsafeBufferPointer(rebasing: payload[..<payloadWidth]))
      }
    }
    hasParent = false
    hasParentWords = true
  }

  /// The state being expanded, decoded on the first call (its clock is `clock`).
  mutating func expanding(clock: Double) -> RunState {
    if !hasParent {
      parent = decode(
        parentKey, payload: parentPayload, clock: clock, previous: hasDecoded ? parent : nil,
        previousKey: previousKey, previousPayload: previousPayload)
      hasParent = true
      hasDecoded = true
    }
    return parent
  }

  /// The step of the state being expanded (nil before its first), whether it has ended and whether an answer is
  /// pending, read from its key.
  var expandingStep: Int? { parentKey[0] == 0 ? nil : Int(parentKey[0]) - 1 }
  var expandingHasEnded: Bool { parentKey[1] != 0 }
  var expandingIsPending: Bool { parentKey[2] != 0 }

  /// Makes `state`, decoded (``decode(_:payload:clock:previous:previousKey:previousPayload:)``) from `key` and
  /// `payload`, the one whose successors are encoded next.
  mutating func expand(_ state: RunState, key: [UInt32], payload: [UInt32]) {
    parent = state
    parentKey = key
    parentPayload = payload
    hasParent = true
    hasDecoded = true
    hasParentWords = true
  }

  /// What a relaunch from the state being expanded depends on: its stored values (with the payload's), facts
  /// and permission statuses.
  func launchInputs() -> LaunchInputs {
    // In the key they follow the control words and the variables (``Layout``).
    LaunchInputs(words: Array(parentKey[(layout.control.count + variableCount)...]) + parentPayload[variablePayload...])
  }

  /// Whether `key` and `payload` are the state being expanded's (a move that changes nothing).
  func isExpanding(key: [UInt32], payload: [UInt32]) -> Bool {
    hasParentWords && key == parentKey && payload == parentPayload
  }

  /// Writes `state`'s key and payload. False when the coder does not intern (``interns``) and the state holds a
  /// value it has no id for; `key` and `payload` are then partly written.
  @discardableResult
  mutating func encode(_ state: RunState, into key: inout [UInt32], payload: inout [UInt32]) -> Bool {
    key[0] = UInt32(truncatingIfNeeded: (state.current ?? -1) + 1)
    key[1] = state.ended.map { UInt32(truncatingIfNeeded: $0.step + 1) } ?? 0
    if hasParent, state.pending == parent.pending {
      key[2] = parentKey[2]
    } else if let pending = state.pending {
      guard let id = Self.interned(pending, in: &pendings, list: &pendingList, interns: interns) else { return false }
      key[2] = id
    } else {
      key[2] = 0
    }
    if let timer = state.timer {
      guard let id = Self.interned(timer, in: &timers, list: &timerList, interns: interns) else { return false }
      key[3] = id
    } else {
      key[3] = 0
    }
    var slot = 4
    var history = state.history
    for offset in 0..<historyDepth {
      key[slot + historyDepth - 1 - offset] = history.isEmpty ? 0 : UInt32(truncatingIfNeeded: history.removeLast() + 1)
    }
    slot += historyDepth
    var table = 0
    var extra = 0
    for (index, value) in state.variables.enumerated() {
      let matters = variableMatters[table]
      if hasParent, parent.variables[index] == value {
        key[slot] = parentKey[slot]
        if !matters { payload[extra] = parentPayload[extra] }
      } else {
        guard let id = interned(value, table: table) else { return false }
        if matters {
          key[slot] = id
        } else {
          key[slot] = Self.emptiness(value)
          payload[extra] = id
        }
      }
      if !matters { extra += 1 }
      slot += 1
      table += 1
    }
    // Most moves write no stored value and no move changes a fact: the dictionary is then the parent's own (the
    // engine copies a state's dictionaries only when it writes them), and so are its words.
    if hasParent, Self.sharesStorage(state.store, parent.store) {
      for offset in 0..<storeKeys.count { key[slot + offset] = parentKey[slot + offset] }
      for offset in extra..<payloadWidth { payload[offset] = parentPayload[offset] }
      slot += storeKeys.count
      table += storeKeys.count
    } else {
      guard fillIDs(of: state.store, group: .store, firstTable: table) else { return false }
      for offset in 0..<storeKeys.count {
        let id = storeIDs[offset]
        if storeKeyMatters[offset] {
          key[slot] = id
        } else {
          key[slot] = id == 0 ? 0 : Self.emptiness(valueList[table][Int(id) - 1])
          payload[extra] = id
          extra += 1
        }
        slot += 1
        table += 1
      }
    }
    if hasParent, Self.sharesStorage(state.environment, parent.environment) {
      for offset in 0..<factNames.count { key[slot + offset] = parentKey[slot + offset] }
    } else {
      guard fillIDs(of: state.environment, group: .facts, firstTable: table) else { return false }
      for offset in 0..<factNames.count { key[slot + offset] = factIDs[offset] }
    }
    slot += factNames.count
    table += factNames.count
    if hasParent, state.permissions == parent.permissions {
      for offset in 0..<permissionKinds.count {
        key[slot + offset] = parentKey[slot + offset]
      }
      slot += permissionKinds.count
    } else {
      for kind in permissionKinds {
        key[slot] = 0
        if let status = state.permissions[kind] {
          guard let id = Self.interned(status, in: &statuses, list: &statusList, interns: interns) else { return false }
          key[slot] = id
        }
        slot += 1
      }
    }
    for offset in 0..<experimentCount {
      key[slot] = offset < state.variants.count ? UInt32(truncatingIfNeeded: state.variants[offset] + 1) : 0
      slot += 1
    }
    return true
  }

  /// The state `key` and `payload` were encoded from (its clock is `clock`, the normalized launch time). The
  /// variables, stored values, facts and permissions of `previous` (decoded from `previousKey` and
  /// `previousPayload`) are shared where their words are the same, instead of built again.
  func decode(
    _ key: [UInt32], payload: [UInt32], clock: Double, previous: RunState? = nil, previousKey: [UInt32] = [],
    previousPayload: [UInt32] = []
  ) -> RunState {
    // `previous` is read a part at a time (`previous?.store`): binding it whole would copy every buffer it holds.
    let hasPrevious: Bool
    if case .some = previous { hasPrevious = true } else { hasPrevious = false }
    func same(_ slots: Range<Int>, _ extras: Range<Int> = 0..<0) -> Bool {
      guard hasPrevious else { return false }
      for slot in slots where key[slot] != previousKey[slot] { return false }
      for extra in extras where payload[extra] != previousPayload[extra] { return false }
      return true
    }
    var state = RunState()
    state.clock = clock
    state.current = key[0] == 0 ? nil : Int(key[0]) - 1
    if key[1] != 0 {
      let step = Int(key[1]) - 1
      state.ended = .init(step: step, outcome: outcomes[step])
    }
    state.pending = key[2] == 0 ? nil : pendingList[Int(key[2]) - 1]
    state.timer = key[3] == 0 ? nil : timerList[Int(key[3]) - 1]
    var slot = 4
    for offset in 0..<historyDepth where key[slot + offset] != 0 { state.history.append(Int(key[slot + offset]) - 1) }
    slot += historyDepth
    var table = 0
    var extra = 0
    if same(slot..<(slot + variableCount), 0..<variablePayload), let variables = previous?.variables {
      state.variables = variables
      slot += variableCount
      table += variableCount
      extra += variablePayload
    } else {
      state.variables.reserveCapacity(variableCount)
      for matters in variableMatters {
        let id = matters ? key[slot] : payload[extra]
        state.variables.append(valueList[table][Int(id) - 1])
        if !matters { extra += 1 }
        slot += 1
        table += 1
      }
    }
    if same(slot..<(slot + storeKeys.count), variablePayload..<payloadWidth), let store = previous?.store {
      state.store = store
      slot += storeKeys.count
      table += storeKeys.count
    } else {
      // Sized once: growing a dictionary key by key rehashes it at each doubling.
      state.store.reserveCapacity(storeKeys.count)
      for (offset, storeKey) in storeKeys.enumerated() {
        let id = storeKeyMatters[offset] ? key[slot] : payload[extra]
        if id != 0 { state.store[storeKey] = valueList[table][Int(id) - 1] }
        if !storeKeyMatters[offset] { extra += 1 }
        slot += 1
        table += 1
      }
    }
    if same(slot..<(slot + factNames.count)), let environment = previous?.environment {
      state.environment = environment
      slot += factNames.count
      table += factNames.count
    } else {
      state.environment.reserveCapacity(factNames.count)
      for name in factNames {
        if key[slot] != 0 { state.environment[name] = valueList[table][Int(key[slot]) - 1] }
        slot += 1
        table += 1
      }
    }
    if same(slot..<(slot + permissionKinds.count)), let permissions = previous?.permissions {
      state.permissions = permissions
      slot += permissionKinds.count
    } else {
      state.permissions.reserveCapacity(permissionKinds.count)
      for kind in permissionKinds {
        if key[slot] != 0 { state.permissions[kind] = statusList[Int(key[slot]) - 1] }
        slot += 1
      }
    }
    for offset in 0..<experimentCount where key[slot + offset] != 0 {
      state.variants.append(Int(key[slot + offset]) - 1)
    }
    return state
  }

  /// The layout ``encode(_:into:payload:)`` writes: the key's slots in order, then one payload word per variable
  /// and per stored value compared only by whether it is empty, variables first.
  private static func layout(
    historyDepth: Int, variableMatters: [Bool], storeKeyMatters: [Bool], storeSlotOfVariable: [Int?], facts: Int,
    permissions: Int, width: Int
  ) -> Layout {
    let first = 4 + historyDepth
    let storeStart = first + variableMatters.count
    let factStart = storeStart + storeKeyMatters.count
    let permissionStart = factStart + facts
    let variantStart = permissionStart + permissions
    var payloadOffset = width
    func offsets(key: Int, matters: Bool) -> [Int] {
      guard !matters else { return [key] }
      defer { payloadOffset += 1 }
      return [key, payloadOffset]
    }
    let variables = variableMatters.enumerated().map { offsets(key: first + $0.offset, matters: $0.element) }
    let storedValues = storeSlotOfVariable.map { slot in
      slot.map { offsets(key: storeStart + $0, matters: storeKeyMatters[$0]) } ?? []
    }
    return Layout(
      control: Array(0..<first), variables: variables, storedValues: storedValues,
      facts: Array(factStart..<permissionStart), permissions: Array(permissionStart..<variantStart),
      variants: Array(variantStart..<width))
  }

  /// The words of variable `index` (its key word, and its payload word when the key compares only whether it is
  /// empty) once a launch has loaded it (``Variable/loaded(from:)``) from its stored value with id `stored`; nil
  /// when the coder does not intern (``interns``) and has no id for the value loaded.
  mutating func loadedWords(variable index: Int, stored: UInt32) -> (key: UInt32, payload: UInt32?)? {
    guard let slot = storeSlotOfVariable[index] else { preconditionFailure("variable \(index) is not persisted") }
    let value = variables[index].loaded(from: valueList[variableCount + slot][Int(stored) - 1])
    guard let id = interned(value, table: index) else { return nil }
    return variableMatters[index] ? (id, nil) : (Self.emptiness(value), id)
  }

  /// The word of the status a relaunch gives a permission whose word is `word`: the status the device keeps of
  /// it (``PermissionStatus/remembered``; undetermined, the launch's default, for none). Nil when the coder does
  /// not intern and has no id for that status.
  mutating func rememberedStatusWord(_ word: UInt32) -> UInt32? {
    let status = word == 0 ? PermissionStatus.notDetermined : statusList[Int(word) - 1].remembered
    return Self.interned(status, in: &statuses, list: &statusList, interns: interns)
  }

  /// Whether `a` and `b` are one dictionary: the same storage, so the same contents. Two dictionaries with the
  /// same contents in different storage are not (telling them apart would cost what encoding them does).
  static func sharesStorage(_ a: [String: Value], _ b: [String: Value]) -> Bool {
    // A dictionary value is its storage reference: equal bits are the same storage.
    withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
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

  /// The stored values (by ``storeKeys``) or the facts (by ``factNames``).
  private enum Group { case store, facts }

  /// Writes the id of the value `dictionary` holds for each name of `group` (0 for none) to ``storeIDs`` or
  /// ``factIDs``; the value of name `i` has table `firstTable + i`. The dictionary is read in its own order, not
  /// looked up name by name: hashing each name cost more than the rest of the encoding. ``storeOrder`` and
  /// ``factOrder`` remember which name came at each position last time (the same keys come in the same order), so
  /// a name is mostly found at the first try. Names the flow does not declare are left out, as a look-up by the
  /// declared names would. False when the coder does not intern and meets a value new to it.
  private mutating func fillIDs(of dictionary: [String: Value], group: Group, firstTable: Int) -> Bool {
    // Taken out while they are written, so that writing them copies nothing.
    var ids: [UInt32] = []
    var order: [Int] = []
    let names: [String]
    switch group {
    case .store:
      swap(&ids, &storeIDs)
      swap(&order, &storeOrder)
      names = storeKeys
    case .facts:
      swap(&ids, &factIDs)
      swap(&order, &factOrder)
      names = factNames
    }
    defer {
      switch group {
      case .store:
        swap(&ids, &storeIDs)
        swap(&order, &storeOrder)
      case .facts:
        swap(&ids, &factIDs)
        swap(&order, &factOrder)
      }
    }
    for index in ids.indices { ids[index] = 0 }
    var position = 0
    for (name, value) in dictionary {
      var found = -1
      if position < order.count, names[order[position]] == name {
        found = order[position]
      } else if let index = names.firstIndex(of: name) {
        found = index
        if position < order.count { order[position] = index } else { order.append(index) }
      }
      position += 1
      guard found >= 0 else { continue }
      guard let id = interned(value, table: firstTable + found) else { return false }
      ids[found] = id
    }
    return true
  }

  /// The id of `value` in value table `table` (a variable's, stored value's or fact's).
  private mutating func interned(_ value: Value, table: Int) -> UInt32? {
    // The states a move reaches from one state and the next often set a slot to the same value (the option
    // chosen): comparing it with the last one costs less than hashing it.
    if let last = lastInterned[table], last.value == value { return last.id }
    // Read first, without an inout access: a copy that only reads must not copy the tables.
    var id = values[table][value]
    if id == nil, interns { id = Self.intern(value, in: &values[table], list: &valueList[table]) }
    if let id { lastInterned[table] = (value, id) }
    return id
  }

  /// The id of `value` in `table`, given one when `interns`.
  private static func interned<T: Hashable>(
    _ value: T, in table: inout [T: UInt32], list: inout [T], interns: Bool
  ) -> UInt32? {
    if let id = table[value] { return id }
    guard interns else { return nil }
    return intern(value, in: &table, list: &list)
  }

  private static func intern<T: Hashable>(_ value: T, in table: inout [T: UInt32], list: inout [T]) -> UInt32 {
    if let id = table[value] { return id }
    list.append(value)
    let id = UInt32(list.count)
    table[value] = id
    return id
  }
}

/// What a relaunch depends on (``StateCoder/launchInputs()``), the key of the relaunch cache: its words, hashed
/// once with ``StateSet``'s hash instead of by `Hasher` word by word at every look-up.
struct LaunchInputs: Hashable {
  let words: [UInt32]
  private let hash: Int

  init(words: [UInt32]) {
    self.words = words
    hash = StateSet.hash(words[...])
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.hash == rhs.hash && lhs.words == rhs.words }
}

extension [UInt32] {
  /// `count` zero words in storage of their own, even when `count` is 0 (a flow with no payload words): the
  /// storage every empty array shares is never unique, so each write through a mutable buffer of such an array
  /// (loading a state, writing a successor) "copied" it first, once per state.
  static func zeroWords(_ count: Int) -> [UInt32] {
    var words = [UInt32](repeating: 0, count: count)
    words.reserveCapacity(1)
    return words
  }
}
