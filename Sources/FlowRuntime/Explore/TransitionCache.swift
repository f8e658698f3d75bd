import FlowCore

/// What each move did from the states expanded so far, reused for the later states that agree with one of them on
/// everything the move read: most moves read a few variables, so most states repeat a move already made, and the
/// explorer then builds the successor's words from the state's own without running the engine or encoding a
/// state.
///
/// A state is seen as words: its key followed by its payload (``StateCoder``). The control words (step, end,
/// pending answer, timer, history) decide which moves are tried and are read and written by nearly every move; a
/// state's control words name its context (with its permission statuses, when they decide the moves tried: an
/// answer to a permission request, or a flow with `foreground:`), and every cached move is keyed by its context.
/// The engine notes which variables, stored values, facts, permission statuses and experiment variants a move
/// read and wrote (``AccessLog``); the move is then cached under the words of what it read, and its result is
/// the words it wrote: the control words and those of each part written. The engine is a pure function of
/// what it reads, so from any state that agrees on those words the move gives the same result (see
/// ``AccessLog``). A move can read different variables from states of one context (a condition decides what is
/// read next), so each context and move keeps every set of words its moves read, and a look-up tries each.
///
/// A relaunch starts from a fresh state and loads each persisted variable from its stored value: a variable so
/// loaded is written as its stored value's copy (``AccessLog/VariableAccess/loadedFromStore``), the words of which are
/// worked out once per stored value; each permission gets the status the device keeps of the state's
/// (``StateCoder/rememberedStatusWord(_:)``), and the relaunch is keyed by whether each value is stored and by
/// what it went on to read. Since it starts afresh, a relaunch from one context gives what a relaunch from any
/// other that agrees on those words gives: relaunches share their outcomes across contexts, and across
/// permission statuses unless the flow reads them at launch.
struct TransitionCache {
  /// What a move gave.
  enum Outcome {
    /// The engine refused the move.
    case refused
    /// The flow failed on the move.
    case failed(String)
    /// The successor: the state's words with `writes` written over them (pairs of offset and word, or of a mark
    /// and a variable loaded from its stored value), and what happened on the way.
    case reached(writes: [UInt32], records: [Record])

    /// The words of its writes (none unless reached).
    var writeCount: Int { if case .reached(let writes, _) = self { writes.count } else { 0 } }
  }

  /// A read set of a move (``readSetsOfMove``), and where its block starts in ``direct`` (-1 when it reads more
  /// or fewer than one word).
  struct MoveReadSet {
    let readSet: Int32
    let direct: Int32
  }

  /// A move of a context, and the outcome kept for it from the state expanded, if one is.
  struct Place {
    var context: Int32
    var move: Int
    var outcome: Int32?
  }

  /// Most moves kept. Beyond it, a move not cached is made by the engine each time.
  static let capacity = 1 << 20

  /// Where each part of a state is among its words.
  let layout: StateCoder.Layout
  /// Whether the moves tried depend on the permission statuses whatever is pending (`foreground:` is tried with
  /// each permission changed in Settings).
  let movesReadPermissions: Bool
  /// The notes of the move being made.
  private(set) var log: AccessLog
  /// The contexts met so far, by their control words.
  private var contexts: StateSet
  /// Per context, the moves tried from its states (``Explorer/moves(from:)`` reads only control words).
  private(set) var moves: [[ExploreMove]] = []
  /// Per move of each context (from ``firstMove``, as the arrays below): its number in ``Exploration/moves``
  /// once the exploration has given it one (else -1). Flat arrays: a look-up retains no array of its own.
  private var moveIDs: [Int32] = []
  /// Per move of each context, what taking its edges needs to know of it.
  private var moveKinds: [Explorer.Exploring.MoveKind] = []
  /// Per move of each context, the read sets (ids into ``readSetBounds``) its moves read, each with its block in
  /// ``direct``.
  private var readSetsOfMove: [[MoveReadSet]] = []
  /// Outcomes by the one word a read set of a single word reads (below ``directWords``): each such read set of a
  /// move has a block of ``directWords`` slots here (-1: no outcome kept for that word), so its look-up is an
  /// index rather than hashing and comparing a key (a move that reads one variable, such as a counter's step).
  private var direct: [Int32] = []
  static let directWords = 128
  /// Per context, the index of its relaunch among its moves (-1 when it has none).
  private var relaunchMove: [Int] = []
  /// Per context, where its moves start in ``constantOutcome``, ``moveIDs``, ``moveKinds`` and
  /// ``readSetsOfMove``.
  private var firstMove: [Int] = []
  /// Per move of each context (from ``firstMove``), the outcome of one that reads nothing but the context's own
  /// words (else -1): it is the same from every state of the context, so it is found without a look-up.
  private var constantOutcome: [Int32] = []
  /// The read sets of relaunches, shared by every context: a relaunch starts afresh, so what it gives depends on
  /// what it read, never on the context it left. Its outcomes are kept under context -1, move 0.
  private var relaunchReadSets: [Int32] = []
  /// Per context, the read set its last relaunch found an outcome with (-1 before).
  private var lastRelaunchReadSet: [Int32] = []
  /// The offsets of the words each read set covers, sorted, back to back: read set `i`'s are
  /// `readSetOffsets[readSetBounds[i]..<readSetBounds[i + 1]]` (one flat array: a look-up reads them without
  /// retaining an array of its own).
  private var readSetOffsets: [Int] = []
  private var readSetBounds: [Int] = [0]
  private var readSetIDs: [[Int]: Int32] = [:]
  /// The outcomes kept, each under its key (context, move, read set and the words read), in flat arrays: an
  /// outcome costs a few dozen bytes, with no allocation of its own (anicca-v01 keeps about 2,900).
  private var table: OutcomeTable
  /// Moves that changed a word their log does not account for: a read or write the engine does not note. None is
  /// kept; tests expect none.
  private(set) var unaccounted = 0
  /// At `stored * variableCount + index`, the words variable `index` gets when a launch loads it from the stored
  /// value with id `stored` (`nil` until worked out): one flat array, not a dictionary, since the ids are small
  /// and dense and a relaunch reads one per loaded variable; it grows by a row of variables as the ids grow.
  private var loadedWords: [LoadedWords?] = []
  /// By a permission status's word, the word of the status a relaunch gives it (``StateCoder/rememberedStatusWord(_:)``;
  /// `nil` until worked out).
  private var rememberedStatusWords: [UInt32?] = []
  private let variableCount: Int
  /// Words being looked up: the first ``probeCount`` (the array only grows, so a probe allocates only while the
  /// longest read set grows).
  private var probe: [UInt32] = []
  private var probeCount = 0
  /// Per word, whether the outcome being kept has it in its key (all false between calls of ``remember``).
  private var isDecided: [Bool] = []
  private var control: [UInt32]
  /// The context ``context(of:)`` gave last (-1 before), and its control words.
  private var lastContext: Int32 = -1
  private var lastControl: [UInt32]

  init(coder: StateCoder, flow: Flow) {
    layout = coder.layout
    movesReadPermissions = flow.foreground != nil
    log = AccessLog(variableCount: coder.variableCount)
    variableCount = coder.variableCount
    table = OutcomeTable(keyWidth: coder.width)
    contexts = StateSet(width: layout.control.count + layout.permissions.count)
    control = Array(repeating: 0, count: contexts.width)
    lastControl = control
  }

  /// A copy for a thread of a parallel exploration (``Explorer/ReusingWorker``): what this cache learnt, with a
  /// log of its own, no move numbered (the thread numbers them itself) and none counted as unaccounted.
  func forAnotherThread() -> TransitionCache {
    var copy = self
    copy.log = AccessLog(variableCount: layout.variables.count)
    copy.moveIDs = Array(repeating: -1, count: moveIDs.count)
    copy.unaccounted = 0
    return copy
  }

  /// The context of the state with `words`; a new one gets its moves from ``addMoves(_:)`` before any other
  /// call.
  mutating func context(of words: [UInt32]) -> (id: Int32, isNew: Bool) {
    // The answers to a pending permission request depend on its status (``Explorer/moves(from:)``).
    let withPermissions = movesReadPermissions || words[2] != 0
    // Copied in place, and compared with the last context's words on the way: consecutive states often share a
    // context.
    var sameAsLast = lastContext >= 0
    control.withUnsafeMutableBufferPointer { control in
      lastControl.withUnsafeBufferPointer { last in
        words.withUnsafeBufferPointer { words in
          layout.control.withUnsafeBufferPointer { offsets in
            for index in offsets.indices {
              control[index] = words[offsets[index]]
              sameAsLast = sameAsLast && control[index] == last[index]
            }
          }
          layout.permissions.withUnsafeBufferPointer { offsets in
            let first = layout.control.count
            for index in offsets.indices {
              control[first + index] = withPermissions ? words[offsets[index]] : 0
              sameAsLast = sameAsLast && control[first + index] == last[first + index]
            }
          }
        }
      }
    }
    if sameAsLast { return (lastContext, false) }
    let (inserted, id) = contexts.insert(control)
    _ = lastControl.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: control) }
    lastContext = id
    return (id, inserted)
  }

  /// The moves of the context ``context(of:)`` just met (``Explorer/moves(from:)`` of its state).
  mutating func addMoves(_ moves: [ExploreMove]) {
    self.moves.append(moves)
    readSetsOfMove += repeatElement([], count: moves.count)
    relaunchMove.append(moves.firstIndex(of: .restart) ?? -1)
    firstMove.append(constantOutcome.count)
    constantOutcome += repeatElement(-1, count: moves.count)
    lastRelaunchReadSet.append(-1)
    moveIDs += repeatElement(-1, count: moves.count)
    moveKinds += moves.map(Explorer.Exploring.MoveKind.init)
  }

  /// The outcome of move `move` (its index among the context's moves) of context `context` from the state with
  /// `words`, when a state that agrees on what the move read made it before.
  mutating func outcome(context: Int32, move: Int, words: [UInt32]) -> Int32? {
    if relaunchMove[Int(context)] == move {
      // A state that agrees with another on one read set gives what it gave on any other, so the order they are
      // tried in only decides how soon a look-up succeeds. Relaunches, sharing their read sets across contexts,
      // have many: first the one this context last found an outcome with, then the one any context last did.
      let last = lastRelaunchReadSet[Int(context)]
      if last >= 0 {
        if let outcome = find(context: -1, move: 0, readSet: last, words: words) { return outcome }
      }
      for (index, readSet) in relaunchReadSets.enumerated() where readSet != last {
        guard let outcome = find(context: -1, move: 0, readSet: readSet, words: words) else { continue }
        if index > 0 { relaunchReadSets.swapAt(index, 0) }
        lastRelaunchReadSet[Int(context)] = readSet
        return outcome
      }
      return nil
    }
    let constant = constantOutcome[firstMove[Int(context)] + move]
    if constant >= 0 { return constant }
    // By index: a loop over the array itself retained it.
    let readSets = firstMove[Int(context)] + move
    for position in readSetsOfMove[readSets].indices {
      let entry = readSetsOfMove[readSets][position]
      if entry.direct >= 0 {
        let word = Self.keyWord(readSetOffsets[readSetBounds[Int(entry.readSet)]], of: words)
        if word < Self.directWords {
          let outcome = direct[Int(entry.direct) + Int(word)]
          if outcome >= 0 { return outcome }
          // No outcome is kept for this word: no look-up would find one.
          continue
        }
      }
      if let outcome = find(context: context, move: move, readSet: entry.readSet, words: words) { return outcome }
    }
    return nil
  }

  /// What ``remember(_:context:move:words:successor:coder:)`` kept of a move: the outcome's id, the offsets of the
  /// words the move read (sorted, each once), and the outcome with its writes worked out.
  struct Kept {
    let id: Int32
    let read: [Int]
    let outcome: Outcome
  }

  /// Keeps what move `move` of context `context` gave from the state with `words`: `made` (with no writes:
  /// they are worked out here from the ``log``'s notes; for a successor, its words are `successor`). `coder` gives
  /// the words of a variable loaded from its stored value. Returns what was kept; nil when nothing is: the cache
  /// is full, or a word changed that the log does not account for (counted in ``unaccounted``).
  mutating func remember(
    _ made: Outcome, context: Int32, move: Int, words: [UInt32], successor: [UInt32], coder: inout StateCoder
  ) -> Kept? {
    guard table.count < Self.capacity else { return nil }
    let noted = log.current
    let isRelaunch = relaunchMove[Int(context)] == move
    // A relaunch is given the statuses the device keeps of the state's (``Explorer/apply(_:to:log:)``): they are
    // written by a mark, the state's own mapped, and left out of the key unless the launch went on to read them.
    // Any other launch's statuses are the words written, and read (none such is made from a state).
    let remembersPermissions = isRelaunch && noted.permissionsFromLaunch && !noted.wrotePermissions
    let writesPermissions = noted.wrotePermissions || (noted.permissionsFromLaunch && !remembersPermissions)
    // Each list sized once: at most every word, and one presence per variable.
    var read: [Int] = []
    read.reserveCapacity(words.count + noted.variables.count)
    // The accesses are read once and tested with `has`: FlowCore's members and `contains`, called from this module
    // for every variable, cost 1% of exploring ledger-finance.
    let (readValue, readStored, readPresence) = (
      AccessLog.VariableAccess.read, AccessLog.VariableAccess.readStoredValue,
      AccessLog.VariableAccess.readStorePresence
    )
    for index in noted.variables.indices {
      let access = noted.variables[index]
      if access.has(readValue) { read += layout.variables[index] }
      if access.has(readStored) { read += layout.storedValues[index] }
      // Whether a value is stored: its key word is 0 or not.
      if access.has(readPresence) { read.append(Self.presence(of: layout.storedValues[index][0])) }
    }
    if noted.readStore { read += layout.storedValues.flatMap { $0 } }
    if noted.readFacts { read += layout.facts }
    if noted.readPermissions || writesPermissions { read += layout.permissions }
    if noted.readVariants { read += layout.variants }
    // Sorted, each offset once (a variable's words and its stored value's may overlap what a whole read adds).
    read.sort()
    var kept = 0
    for index in read.indices where kept == 0 || read[kept - 1] != read[index] {
      read[kept] = read[index]
      kept += 1
    }
    read.removeLast(read.count - kept)
    var outcome = made
    if case .reached(_, let records) = made {
      var written = layout.control
      written.reserveCapacity(words.count)
      var loaded: [Int] = []
      loaded.reserveCapacity(noted.variables.count)
      let (wroteValue, loadedValue, wroteStored) = (
        AccessLog.VariableAccess.wrote, AccessLog.VariableAccess.loadedFromStore, AccessLog.VariableAccess.wroteStore
      )
      for index in noted.variables.indices {
        let access = noted.variables[index]
        if access.has(wroteValue) { written += layout.variables[index] }
        if access.has(loadedValue) { loaded.append(index) }
        if access.has(wroteStored) { written += layout.storedValues[index] }
      }
      if writesPermissions { written += layout.permissions }
      if noted.wroteVariants { written += layout.variants }
      var isWritten = Array(repeating: false, count: words.count)
      for offset in written { isWritten[offset] = true }
      var writes: [UInt32] = []
      writes.reserveCapacity(written.count * 2 + loaded.count * 2)
      for index in loaded {
        // Its words follow from its stored value's: checked here against what the engine gave.
        let stored = words[layout.storedValues[index][layout.storedValues[index].count - 1]]
        // A copy of the coder that does not intern may not know the value loaded: nothing is kept then.
        guard let loaded = loadedWords(of: index, stored: stored, coder: &coder) else { return nil }
        let offsets = layout.variables[index]
        guard successor[offsets[0]] == loaded.key, loaded.payload.map({ successor[offsets[1]] == $0 }) ?? true else {
          unaccounted += 1
          return nil
        }
        for offset in offsets { isWritten[offset] = true }
      }
      if remembersPermissions {
        for offset in layout.permissions {
          // Checked here against what the engine gave, as a loaded variable's words are.
          guard let remembered = rememberedStatusWord(words[offset], coder: &coder) else { return nil }
          guard successor[offset] == remembered else {
            unaccounted += 1
            return nil
          }
          isWritten[offset] = true
        }
      }
      for offset in words.indices where !isWritten[offset] && successor[offset] != words[offset] {
        unaccounted += 1
        return nil
      }
      // A write the outcome's key decides is left out when it writes what is there: every state the outcome is
      // found for has that word (a relaunch's key leaves out the control words: they vary across contexts).
      if isDecided.count != words.count { isDecided = Array(repeating: false, count: words.count) }
      if !isRelaunch {
        for offset in layout.control { isDecided[offset] = true }
        for offset in read where offset >= 0 { isDecided[offset] = true }
      }
      // The key's writes first, then the payload's: ``write(_:_:outcome:into:_:coder:)`` applies each part in a
      // loop of its own.
      for inKey in [true, false] {
        for offset in written where (offset < table.keyWidth) == inKey {
          guard !isDecided[offset] || successor[offset] != words[offset] else { continue }
          writes.append(UInt32(offset))
          writes.append(successor[offset])
        }
      }
      if !isRelaunch {
        for offset in layout.control { isDecided[offset] = false }
        for offset in read where offset >= 0 { isDecided[offset] = false }
      }
      // The loaded variables' marks go last (``write(_:_:outcome:into:_:coder:)`` stops at the first).
      for index in loaded {
        writes.append(UInt32(Self.loadedMark | index))
        writes.append(0)
      }
      if remembersPermissions {
        writes.append(UInt32(Self.loadedMark | Self.rememberedPermissions))
        writes.append(0)
      }
      outcome = .reached(writes: writes, records: records)
    }
    return Kept(id: keep(outcome, read: read, context: context, move: move, words: words), read: read, outcome: outcome)
  }

  /// Keeps `outcome` for move `move` of context `context` from the state with `words`, under the words at the
  /// offsets in `read` (sorted, each once); returns its id.
  private mutating func keep(_ outcome: Outcome, read: [Int], context: Int32, move: Int, words: [UInt32]) -> Int32 {
    let readSet: Int32
    if let known = readSetIDs[read] {
      readSet = known
    } else {
      readSet = Int32(readSetBounds.count - 1)
      readSetOffsets += read
      readSetBounds.append(readSetOffsets.count)
      readSetIDs[read] = readSet
    }
    var block: Int32 = -1
    if relaunchMove[Int(context)] == move {
      if !relaunchReadSets.contains(readSet) { relaunchReadSets.append(readSet) }
      fillProbe(context: -1, move: 0, readSet: readSet, words: words)
    } else {
      let index = firstMove[Int(context)] + move
      if let known = readSetsOfMove[index].first(where: { $0.readSet == readSet }) {
        block = known.direct
      } else {
        block = read.count == 1 ? Int32(direct.count) : -1
        if block >= 0 { direct += repeatElement(-1, count: Self.directWords) }
        readSetsOfMove[index].append(MoveReadSet(readSet: readSet, direct: block))
      }
      fillProbe(context: context, move: move, readSet: readSet, words: words)
    }
    let id = table.append(outcome, key: probe[..<probeCount])
    if block >= 0 {
      let word = Self.keyWord(read[0], of: words)
      if word < Self.directWords { direct[Int(block) + Int(word)] = id }
    }
    // A move that read nothing but its context's words does the same from every state of the context (the engine
    // is a pure function of what it reads), so it has this one outcome.
    if read.isEmpty && relaunchMove[Int(context)] != move { constantOutcome[firstMove[Int(context)] + move] = id }
    return id
  }

  /// A move one cache made with the engine and kept (``remember(_:context:move:words:successor:coder:)``), for
  /// another thread's cache to keep too (``learn(_:)``): what `remember` worked out (the words read, the writes),
  /// which the other cache keeps as it is rather than working it out again, but no records (the thread that made
  /// the move gives them to the exploring thread, with an edge taken before any the other cache's copy gives).
  struct Lesson {
    let words: [UInt32]
    /// The moves of the state's context, in case the other cache has not met it.
    let moves: [ExploreMove]
    let move: Int
    let read: [Int]
    let outcome: Outcome
  }

  /// What another thread's cache needs to keep the move `move` of context `context`, made with the engine from
  /// the state with `words` and kept here (`kept`).
  func lesson(words: [UInt32], context: Int32, move: Int, kept: Kept) -> Lesson {
    var outcome = kept.outcome
    if case .reached(let writes, _) = outcome { outcome = .reached(writes: writes, records: []) }
    return Lesson(words: words, moves: moves[Int(context)], move: move, read: kept.read, outcome: outcome)
  }

  /// Keeps what another cache learnt (`lesson`), unless an outcome is kept for its key already or the cache is
  /// full. Keeping a lesson as it was worked out skips what ``remember(_:context:move:words:successor:coder:)``
  /// works out from the log, and its allocations (exploring anicca-v01 with two jobs called `malloc` 785,000 times
  /// before, 607,000 since).
  mutating func learn(_ lesson: Lesson) {
    let (context, isNew) = context(of: lesson.words)
    if isNew { addMoves(lesson.moves) }
    guard table.count < Self.capacity, outcome(context: context, move: lesson.move, words: lesson.words) == nil
    else { return }
    _ = keep(lesson.outcome, read: lesson.read, context: context, move: lesson.move, words: lesson.words)
  }

  /// What outcome `outcome` is.
  func kind(of outcome: Int32) -> OutcomeTable.Kind { table.kinds[Int(outcome)] }

  /// The failure of a ``OutcomeTable/Kind/failed`` outcome.
  func failure(of outcome: Int32) -> String { table.failures[outcome] ?? "" }
  /// Whether ``records(of:)`` has any for outcome `outcome`.
  func hasRecords(_ outcome: Int32) -> Bool { !table.records[Int(outcome)].isEmpty }
  /// What happened on the way of a ``OutcomeTable/Kind/reached`` outcome, until ``dropRecords(of:)``.
  func records(of outcome: Int32) -> [Record] { table.records[Int(outcome)] }
  /// Outcome `outcome` as ``remember(_:context:move:words:successor:coder:)`` got it (its writes worked out).
  func outcome(_ outcome: Int32) -> Outcome {
    switch kind(of: outcome) {
    case .refused: .refused
    case .failed: .failed(failure(of: outcome))
    case .reached: .reached(writes: Array(table.writes(of: outcome)), records: records(of: outcome))
    }
  }

  /// Marks a write (pair of ``Outcome/reached(writes:records:)``) as "variable (the low bits) loaded from its
  /// stored value".
  static let loadedMark = 1 << 31
  /// With ``loadedMark``, a write that gives each permission the status the device keeps of the state's (a
  /// relaunch's, ``StateCoder/rememberedStatusWord(_:)``), rather than a variable's index.
  static let rememberedPermissions = loadedMark - 1

  /// A read-set entry for whether the word at `offset` is 0 (kept as `-1 - offset`).
  private static func presence(of offset: Int) -> Int { -1 - offset }

  /// The word of the status a relaunch gives a permission whose status has word `word`, worked out once per word;
  /// nil when `coder` does not intern and has no id for it. Not inlined into ``putLoadedWords``: inlined there, the
  /// moves that load nothing (the counters' of Benchmarks/compare.sh) took about 1% more instructions.
  @inline(never)
  private mutating func rememberedStatusWord(_ word: UInt32, coder: inout StateCoder) -> UInt32? {
    let slot = Int(word)
    if slot < rememberedStatusWords.count, let known = rememberedStatusWords[slot] { return known }
    guard let made = coder.rememberedStatusWord(word) else { return nil }
    if slot >= rememberedStatusWords.count {
      rememberedStatusWords += repeatElement(nil, count: slot + 1 - rememberedStatusWords.count)
    }
    rememberedStatusWords[slot] = made
    return made
  }

  /// The words variable `index` gets when a launch loads it from the stored value with id `stored`, worked out
  /// once per stored value; nil when `coder` does not intern and has no id for the value loaded.
  private mutating func loadedWords(of index: Int, stored: UInt32, coder: inout StateCoder) -> LoadedWords? {
    let slot = Int(stored) * variableCount + index
    if slot < loadedWords.count, let known = loadedWords[slot] { return known }
    guard let made = coder.loadedWords(variable: index, stored: stored) else { return nil }
    let words = LoadedWords(key: made.key, payload: made.payload)
    if slot >= loadedWords.count {
      loadedWords += repeatElement(nil, count: (Int(stored) + 1) * variableCount - loadedWords.count)
    }
    loadedWords[slot] = words
    return words
  }

  /// The words a loaded variable gets: its key word, and its payload word when it has one.
  private struct LoadedWords {
    var key: UInt32
    var payload: UInt32?
  }

  /// What ``write(_:_:outcome:into:_:coder:)`` wrote.
  enum Written {
    /// The successor, which differs from the state.
    case successor
    /// The state itself: the move changes nothing (it is no edge).
    case sameState
    /// Nothing whole: `coder` does not intern and has no id for a value the move loads from the store.
    case unknownValue
    /// Nothing whole: a word written is too wide for its column of the packed row
    /// (``write(_:outcome:overRow:packer:coder:)`` only).
    case tooWide
  }

  /// Whether the successor by reached outcome `outcome` is best had by
  /// ``write(_:outcome:overRow:packer:coder:)``: writing a word over a packed row costs about as much as packing
  /// a few words, so an outcome that writes many (a relaunch writes nearly every word) has its successor's words
  /// written out and packed whole.
  func writesOverRow(_ outcome: Int32) -> Bool { table.writes(of: outcome).count <= 2 * Self.rowWriteLimit }

  /// The most writes ``writesOverRow(_:)`` takes over a packed row (with 16, exploring anicca-v01 took 1.2% fewer
  /// instructions than with no limit, by callgrind).
  static let rowWriteLimit = 16

  /// ``write(_:_:outcome:into:_:coder:)`` on a packed row: `row` holds the state with `words` (its key, then its
  /// payload) as `packer` packs it, and the outcome's writes are written over it, so that the successor's row is
  /// had without its words being written out and packed whole.
  mutating func write(
    _ words: [UInt32], outcome: Int32, overRow row: UnsafeMutableRawBufferPointer, packer: PackedRows.Packer,
    coder: inout StateCoder
  ) -> Written {
    // The bits that differ between a word written and the state's, over all writes (every write of one word
    // writes the successor's word), and whether every word fits its column. Most writes write the word there
    // (a relaunch writes every default): only a word that changes is written into the row.
    var difference: UInt32 = 0
    var fits = true
    func put(_ word: UInt32, at offset: Int, over words: UnsafeBufferPointer<UInt32>) {
      let change = words[offset] ^ word
      guard change != 0 else { return }
      difference |= change
      fits = packer.write(word, column: offset, of: row) && fits
    }
    let loads = words.withUnsafeBufferPointer { words in
      table.withWrites(of: outcome) { keyWrites, payloadWrites, loads in
        // Pairs of a word's offset (its column) and the word.
        var pair = 0
        while pair < keyWrites.count {
          put(keyWrites[pair + 1], at: Int(keyWrites[pair]), over: words)
          pair += 2
        }
        pair = 0
        while pair < payloadWrites.count {
          put(payloadWrites[pair + 1], at: Int(payloadWrites[pair]), over: words)
          pair += 2
        }
        return loads.count
      }
    }
    let known = words.withUnsafeBufferPointer { words in
      putLoadedWords(loads, of: outcome, stored: { words[$0] }, coder: &coder) { put($0, at: $1, over: words) }
    }
    guard known else { return .unknownValue }
    guard fits else { return .tooWide }
    return difference != 0 ? .successor : .sameState
  }

  /// Writes the successor of the state with `key` and `payload` by outcome `outcome` (a
  /// ``OutcomeTable/Kind/reached`` one) into `successorKey` and `successorPayload`, and tells whether it is
  /// another state.
  mutating func write(
    _ key: [UInt32], _ payload: [UInt32], outcome: Int32, into successorKey: inout [UInt32],
    _ successorPayload: inout [UInt32], coder: inout StateCoder
  ) -> Written {
    let width = key.count
    successorKey.withUnsafeMutableBufferPointer { successorKey in
      key.withUnsafeBufferPointer { successorKey.baseAddress!.update(from: $0.baseAddress!, count: width) }
    }
    successorPayload.withUnsafeMutableBufferPointer { successorPayload in
      payload.withUnsafeBufferPointer { words in
        if let words = words.baseAddress { successorPayload.baseAddress!.update(from: words, count: payload.count) }
      }
    }
    // Whether the successor differs is found by comparing it whole at the end: a flag kept by each write was a
    // variable the closures below share, checked for exclusive access at every write (a relaunch writes a dozen).
    let known = successorKey.withUnsafeMutableBufferPointer { successorKey in
      successorPayload.withUnsafeMutableBufferPointer { successorPayload in
        let loads = table.withWrites(of: outcome) { keyWrites, payloadWrites, loads in
          var pair = 0
          while pair < keyWrites.count {
            successorKey[Int(keyWrites[pair])] = keyWrites[pair + 1]
            pair += 2
          }
          pair = 0
          while pair < payloadWrites.count {
            successorPayload[Int(payloadWrites[pair]) - width] = payloadWrites[pair + 1]
            pair += 2
          }
          return loads.count
        }
        let stored = { (offset: Int) in offset < width ? key[offset] : payload[offset - width] }
        return putLoadedWords(loads, of: outcome, stored: stored, coder: &coder) { word, offset in
          if offset < width {
            successorKey[offset] = word
          } else {
            successorPayload[offset - width] = word
          }
        }
      }
    }
    guard known else { return .unknownValue }
    return successorKey == key && successorPayload == payload ? .sameState : .successor
  }

  /// Puts the words of the `loads` variables outcome `outcome` loads from their stored values (its last writes, a
  /// relaunch's: a loaded variable's words follow from its stored value's), and of the permissions when it gives
  /// the statuses the device keeps (``rememberedPermissions``), with `put` (word, offset); `stored` gives the
  /// state's word at an offset (the id of a stored value, a status). False when `coder` has no id for a value
  /// loaded or a status. Inlined into its callers, whose closures it calls: not inlined, with the permissions'
  /// statuses added, exploring anicca-v01 took 9.75 billion instructions instead of 8.21 (callgrind).
  @inline(__always)
  private mutating func putLoadedWords(
    _ loads: Int, of outcome: Int32, stored: (Int) -> UInt32, coder: inout StateCoder,
    _ put: (_ word: UInt32, _ offset: Int) -> Void
  ) -> Bool {
    guard loads > 0 else { return true }
    let writes = table.writes(of: outcome)
    for pair in stride(from: writes.endIndex - loads, to: writes.endIndex, by: 2) {
      let index = Int(writes[pair] & ~UInt32(Self.loadedMark))
      if index == Self.rememberedPermissions {
        for offset in layout.permissions {
          guard let word = rememberedStatusWord(stored(offset), coder: &coder) else { return false }
          put(word, offset)
        }
        continue
      }
      let id = stored(layout.storedValues[index][layout.storedValues[index].count - 1])
      guard let words = loadedWords(of: index, stored: id, coder: &coder) else { return false }
      let offsets = layout.variables[index]
      put(words.key, offsets[0])
      if let word = words.payload { put(word, offsets[1]) }
    }
    return true
  }

  /// Notes the number the exploration gave the move at `place`.
  mutating func setMoveID(_ id: Int32, at place: Place) { moveIDs[firstMove[Int(place.context)] + place.move] = id }

  /// The number the exploration gave move `move` of context `context` (-1 before it gave one).
  func moveID(context: Int32, move: Int) -> Int32 { moveIDs[firstMove[Int(context)] + move] }

  /// What taking the edges of move `move` of context `context` needs to know of it.
  func moveKind(context: Int32, move: Int) -> Explorer.Exploring.MoveKind { moveKinds[firstMove[Int(context)] + move] }

  /// The records of outcome `outcome` are no longer needed (their transitions have witnesses).
  mutating func dropRecords(of outcome: Int32) { table.records[Int(outcome)] = [] }

  /// The outcome kept under the key of read set `readSet` of move `move` of context `context` from the state with
  /// `words`: the key ``fillProbe(context:move:readSet:words:)`` writes, hashed and compared word by word as it is
  /// worked out, not written. Mutating only so that the cache is passed in place: called from a mutating method, a
  /// non-mutating one had it copied whole (callgrind: a copy of hundreds of bytes at every look-up).
  private mutating func find(context: Int32, move: Int, readSet: Int32, words: [UInt32]) -> Int32? {
    let start = readSetBounds[Int(readSet)]
    let end = readSetBounds[Int(readSet) + 1]
    let header = (UInt32(bitPattern: context), UInt32(move), UInt32(bitPattern: readSet))
    return words.withUnsafeBufferPointer { words in
      readSetOffsets.withUnsafeBufferPointer { offsets in
        var hash = StateSet.WordHash()
        hash.add(header.0)
        hash.add(header.1)
        hash.add(header.2)
        for index in start..<end { hash.add(Self.keyWord(offsets[index], of: words)) }
        return table.find(hash: hash.value) { key in
          guard key.count == end - start + 3, key[0] == header.0, key[1] == header.1, key[2] == header.2 else {
            return false
          }
          for index in start..<end where key[3 + index - start] != Self.keyWord(offsets[index], of: words) {
            return false
          }
          return true
        }
      }
    }
  }

  /// The word a key has for read-set entry `offset` of the state with `words`: the word at `offset`, or for a
  /// presence entry (``presence(of:)``) whether the word it names is not 0.
  @inline(__always)
  private static func keyWord<Words: RandomAccessCollection<UInt32>>(_ offset: Int, of words: Words) -> UInt32
  where Words.Index == Int {
    offset >= 0 ? words[offset] : words[-1 - offset] == 0 ? 0 : 1
  }

  /// Writes the key of read set `readSet` of move `move` of context `context` from the state with `words` into
  /// ``probe`` (its first ``probeCount`` words), for ``remember(_:context:move:words:successor:coder:)`` to keep
  /// an outcome under it (``OutcomeTable/append(_:key:)`` hashes it).
  private mutating func fillProbe(context: Int32, move: Int, readSet: Int32, words: [UInt32]) {
    let start = readSetBounds[Int(readSet)]
    let end = readSetBounds[Int(readSet) + 1]
    probeCount = end - start + 3
    if probe.count < probeCount { probe += repeatElement(0, count: probeCount - probe.count) }
    probe.withUnsafeMutableBufferPointer { probe in
      probe[0] = UInt32(bitPattern: context)
      probe[1] = UInt32(move)
      probe[2] = UInt32(bitPattern: readSet)
      words.withUnsafeBufferPointer { words in
        readSetOffsets.withUnsafeBufferPointer { offsets in
          for index in start..<end { probe[3 + index - start] = Self.keyWord(offsets[index], of: words) }
        }
      }
    }
  }

}

/// The outcomes a ``TransitionCache`` keeps, in flat arrays: a hash table (open addressing) from each outcome's
/// key to its id, the keys back to back, and the reached outcomes' writes back to back.
struct OutcomeTable {
  enum Kind: UInt8 {
    case refused, failed, reached
  }

  private(set) var kinds: [Kind] = []
  /// The keys, back to back: outcome `i`'s is `keyWords[keyStart[i]..<keyStart[i + 1]]`.
  private var keyWords: [UInt32] = []
  private var keyStart: [Int32] = [0]
  /// The writes (pairs of words) of reached outcomes: outcome `i`'s are
  /// `writeWords[writeStart[i]..<writeEnd[i]]`. Outcomes with the same writes share them (most relaunches write
  /// the same words: the defaults, and each loaded variable from its stored value).
  private var writeWords: [UInt32] = []
  private var writeStart: [Int32] = []
  private var writeEnd: [Int32] = []
  /// Per outcome, where among its writes those of payload words start (the key's come first), and where the
  /// loaded variables' marks start (they come last).
  private var payloadWritesStart: [Int32] = []
  private var loadsStart: [Int32] = []
  /// The words of a state's key: a write to an offset below it writes the key.
  let keyWidth: Int
  /// The start of the writes kept, by their hash.
  private var writesByHash: [Int: Int32] = [:]
  private(set) var failures: [Int32: String] = [:]
  /// Per outcome, the records of a reached one whose transitions have no witness yet (else none): an array, not
  /// a dictionary, since nearly every reused move asks for them.
  var records: [[Record]] = []
  /// The outcomes' ids by their keys' hashes.
  private var table = HashSlots(capacity: 1 << 9)

  init(keyWidth: Int) { self.keyWidth = keyWidth }

  var count: Int { kinds.count }

  func writes(of outcome: Int32) -> ArraySlice<UInt32> {
    writeWords[Int(writeStart[Int(outcome)])..<Int(writeEnd[Int(outcome)])]
  }

  /// `body` on the writes of outcome `outcome`, in place: the pairs that write key words, those that write
  /// payload words, and the loaded variables' marks.
  func withWrites<Result>(
    of outcome: Int32,
    _ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Result
  ) -> Result {
    let start = Int(writeStart[Int(outcome)])
    let payload = Int(payloadWritesStart[Int(outcome)])
    let loads = Int(loadsStart[Int(outcome)])
    let end = Int(writeEnd[Int(outcome)])
    return writeWords.withUnsafeBufferPointer {
      body(
        UnsafeBufferPointer(rebasing: $0[start..<payload]), UnsafeBufferPointer(rebasing: $0[payload..<loads]),
        UnsafeBufferPointer(rebasing: $0[loads..<end]))
    }
  }

  /// The id of the outcome kept under the key whose hash is `hash` and for which `isKey` holds (given the key
  /// kept, in place).
  func find(hash: Int, where isKey: (UnsafeBufferPointer<UInt32>) -> Bool) -> Int32? {
    keyWords.withUnsafeBufferPointer { keys in
      table.find(hash: hash) { id in
        isKey(UnsafeBufferPointer(rebasing: keys[Int(keyStart[Int(id)])..<Int(keyStart[Int(id) + 1])]))
      }.id
    }
  }

  /// Keeps `outcome` under `key` (not kept yet); returns its id.
  mutating func append(_ outcome: TransitionCache.Outcome, key: ArraySlice<UInt32>) -> Int32 {
    let id = Int32(kinds.count)
    let hash = StateSet.hash(key)
    let slot = table.find(hash: hash) { _ in false }.slot
    keyWords += key
    keyStart.append(Int32(keyWords.count))
    var start = Int32(writeWords.count)
    switch outcome {
    case .refused:
      kinds.append(.refused)
      records.append([])
    case .failed(let message):
      kinds.append(.failed)
      failures[id] = message
      records.append([])
    case .reached(let writes, let produced):
      kinds.append(.reached)
      let writesHash = StateSet.hash(writes[...])
      // A hash met before may be another list's, shorter than this one and at the end of the words.
      if let kept = writesByHash[writesHash], Int(kept) + writes.count <= writeWords.count,
        writeWords[Int(kept)..<(Int(kept) + writes.count)].elementsEqual(writes)
      {
        start = kept
      } else {
        writesByHash[writesHash] = start
        writeWords += writes
      }
      records.append(produced)
    }
    writeStart.append(start)
    writeEnd.append(start + Int32(outcome.writeCount))
    // The pairs come in order: the key's writes, the payload's, the loaded variables' marks.
    var payloadStart = Int(start)
    var loads = Int(start)
    if case .reached(let writes, _) = outcome {
      let mark = UInt32(TransitionCache.loadedMark)
      let payloadPair = stride(from: 0, to: writes.count, by: 2).first { Int(writes[$0]) >= keyWidth } ?? writes.count
      let loadPair = stride(from: 0, to: writes.count, by: 2).first { writes[$0] >= mark } ?? writes.count
      payloadStart += payloadPair
      loads += loadPair
    }
    payloadWritesStart.append(Int32(payloadStart))
    loadsStart.append(Int32(loads))
    table.put(id, hash: hash, at: slot, count: kinds.count)
    return id
  }

}

extension AccessLog.VariableAccess {
  /// Whether this has `access` (one access): a bit test on the raw values, which this module inlines.
  @inline(__always)
  fileprivate func has(_ access: AccessLog.VariableAccess) -> Bool { rawValue & access.rawValue != 0 }
}
