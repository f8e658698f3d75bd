import FlowCore

// The one-thread exploration's moves, reused from the transition cache (TransitionCache.swift) or made by the
// engine and kept there: part of ``Explorer/Exploring``.

extension Explorer.Exploring {
  /// Expands the state the coder holds (key `stateKey`, payload `statePayload`) and takes its edges as
  /// ``take(_:)`` does: the result of a move comes from ``transitions`` when a state that agrees on what the move
  /// reads made it before, else from the engine (and is kept there). The state is decoded only for a move the
  /// engine makes. The edges wait in `pending` until every move is tried (a failure, which numbers its move,
  /// takes those before it first), so the set's table slots of the states they reach are fetched meanwhile.
  /// `pending` is the caller's, not a part of `self`: taking its edges changes `self` while they are read in place.
  mutating func expandReusing(key stateKey: [UInt32], payload statePayload: [UInt32], pending: inout PendingEdges) {
    var taking = beginTaking()
    guard takingDepth < options.maxDepth else { return takeUnexpanded(taking) }
    // Copied over the last state's words (two appends cost about 90 instructions each).
    let width = stateKey.count
    if words.count != width + statePayload.count { words = Array(repeating: 0, count: width + statePayload.count) }
    words.withUnsafeMutableBufferPointer { words in
      _ = words[..<width].update(fromContentsOf: stateKey)
      _ = words[width...].update(fromContentsOf: statePayload)
    }
    // The state's words, held here for the moves' look-ups: the property, passed to the cache's mutating methods,
    // was retained and released around each call.
    let words = self.words
    let (context, isNew) = transitions.context(of: words)
    if isNew { transitions.addMoves(explorer.moves(from: coder.expanding(clock: options.clock))) }
    // A move is copied out (retaining what it holds) only for the engine: a reused one is named by its place.
    let moves = transitions.moves[Int(context)]
    if !pending.packs(as: set) { pending.packLike(set) }
    trying: for index in moves.indices {
      let kind = transitions.moveKind(context: context, move: index)
      var place = TransitionCache.Place(context: context, move: index, outcome: nil)
      var records: [Record] = []
      var isAnotherState = false
      if let outcome = transitions.outcome(context: context, move: index, words: words) {
        result.transitionReuse.hits += 1
        let reused = transitions.kind(of: outcome)
        if reused == .reached, let packer = pending.packer, !options.checksReusedTransitions,
          transitions.writesOverRow(outcome)
        {
          // The successor's row is the state's with the outcome's writes written over it.
          pending.copyNext(taking.id, of: set)
          let written = pending.writeNext { row in
            transitions.write(words, outcome: outcome, overRow: row, packer: packer, coder: &coder)
          }
          // A move that changes nothing is no edge.
          if written == .sameState { continue }
          if written == .successor {
            place.outcome = outcome
            // Most outcomes have no records left (each transition has its witness): no array is passed then.
            if transitions.hasRecords(outcome) { pending.noteRecordsOfNext(transitions.records(of: outcome)) }
            let hash = pending.addNext(kind: kind, place: place)
            set.prefetch(hash: hash)
            continue
          }
          // Else the successor's words are written out, as with no packer.
        }
        if reused == .reached {
          let written = transitions.write(
            stateKey, statePayload, outcome: outcome, into: &key, &payload, coder: &coder)
          // A move that changes nothing is no edge.
          if written == .sameState && !options.checksReusedTransitions { continue }
          isAnotherState = written == .successor
        }
        if options.checksReusedTransitions && !engineAgrees(moves[index], with: transitions.outcome(outcome)) {
          result.transitionReuse.mismatches += 1
        }
        switch reused {
        case .refused: continue
        case .failed:
          guard takePending(&taking, edges: &pending) else { break trying }
          takeFailure(taking, move: moves[index], message: transitions.failure(of: outcome))
          continue
        case .reached:
          records = transitions.records(of: outcome)
          place.outcome = outcome
        }
      } else {
        result.transitionReuse.misses += 1
        transitions.log.clear()
        let made = make(moves[index], log: transitions.log)
        if case .reached = made {
          successorWords.removeAll(keepingCapacity: true)
          successorWords += key
          successorWords += payload
        }
        // The cache keeps only the records a later edge may be the first witness of.
        var kept = made
        if case .reached(let writes, let produced) = made {
          kept = .reached(writes: writes, records: produced.filter { hasNoWitness($0) })
        }
        let remembered = transitions.remember(
          kept, context: context, move: index, words: words, successor: successorWords, coder: &coder)
        place.outcome = remembered?.id
        if workers != nil, lessons.count < Explorer.lessonsKept, let remembered {
          lessons.append(transitions.lesson(words: words, context: context, move: index, kept: remembered))
        }
        switch made {
        case .refused: continue
        case .failed(let message):
          guard takePending(&taking, edges: &pending) else { break trying }
          takeFailure(taking, move: moves[index], message: message)
          continue
        case .reached(_, let produced): records = produced
        }
      }
      // A move that changes nothing is no edge.
      if !isAnotherState && coder.isExpanding(key: key, payload: payload) { continue }
      if let hash = pending.add(key, payload, kind: kind, records: records, place: place) {
        set.prefetch(hash: hash)
        continue
      }
      // A value too wide for the packer (a column of the set widens) or `--compact`: taken at once.
      guard takePending(&taking, edges: &pending) else { break trying }
      let taken = takeEdge(
        &taking, move: nil, kind: kind, records: records, place: place, isAnotherState: true, launchInputs: nil)
      guard taken else { break trying }
      if !pending.packs(as: set) { pending.packLike(set) }
    }
    _ = takePending(&taking, edges: &pending)
    finishTaking(taking)
  }

  /// Takes the edges waiting in `pending`, in order, and empties it; false when a limit stopped the exploration
  /// (the edges after it are dropped).
  mutating func takePending(_ taking: inout Taking, edges pending: inout PendingEdges) -> Bool {
    guard pending.count > 0 else { return !taking.interrupted }
    defer { pending.removeAll() }
    var record = 0
    let rowBytes = pending.rowBytes
    // One array for every edge, emptied only after an edge that had records: an empty one made and dropped at
    // every edge was a release at every edge.
    var records: [Record] = []
    return pending.rows.withUnsafeBytes { rows in
      for index in 0..<pending.count where !taking.interrupted {
        if record < pending.records.count && pending.records[record].edge == index {
          records = pending.records[record].records
          record += 1
        } else if !records.isEmpty {
          records = []
        }
        let edge = pending.edges[index]
        let row = UnsafeRawBufferPointer(rebasing: rows[(index * rowBytes)..<((index + 1) * rowBytes)])
        let taken = takeEdge(
          &taking, move: nil, kind: edge.kind, records: records, place: edge.place, isAnotherState: true,
          packed: PackedState(row: row, hash: edge.hash), launchInputs: nil)
        guard taken else { return false }
      }
      return !taking.interrupted
    }
  }

  /// Whether `record` takes a declared transition that has no witness yet (and the exploration tracks them).
  func hasNoWitness(_ record: Record) -> Bool {
    guard options.trackTransitions, let transition = FlowTransition(taken: record) else { return false }
    return result.transitionWitness[transition] == nil
  }

  /// Makes `move` from the state the coder holds with the engine (noting what it reads and writes in `log`,
  /// when given); the state it reaches is encoded into ``key`` and ``payload``. The outcome's writes are empty:
  /// ``TransitionCache/remember(_:context:move:words:successor:coder:)`` works them out.
  mutating func make(_ move: ExploreMove, log: AccessLog?) -> TransitionCache.Outcome {
    do {
      guard let (next, records) = try explorer.apply(move, to: coder.expanding(clock: options.clock), log: log)
      else { return .refused }
      coder.encode(next, into: &key, payload: &payload)
      return .reached(writes: [], records: records)
    } catch {
      return .failed("\(error)")
    }
  }

  /// Whether the engine, making `move` from the state the coder holds, gives what was reused (`reused`; for a
  /// successor, the state in ``key`` and ``payload``). For ``ExploreOptions/checksReusedTransitions``.
  private mutating func engineAgrees(_ move: ExploreMove, with reused: TransitionCache.Outcome) -> Bool {
    let (reusedKey, reusedPayload) = (key, payload)
    defer { (key, payload) = (reusedKey, reusedPayload) }
    return make(move, log: nil).agrees(with: reused, sameSuccessor: key == reusedKey && payload == reusedPayload)
  }
}

extension TransitionCache.Outcome {
  /// Whether the engine's outcome (this one) is the one reused, `reused`; `sameSuccessor` tells whether the two
  /// successors' words are equal, when both reached one. A reused outcome's records may have been dropped
  /// (their transitions have witnesses).
  func agrees(with reused: Self, sameSuccessor: Bool) -> Bool {
    switch (self, reused) {
    case (.refused, .refused): true
    case (.failed(let made), .failed(let kept)): made == kept
    case (.reached(_, let made), .reached(_, let kept)): sameSuccessor && (kept.isEmpty || kept == made)
    default: false
    }
  }
}

/// The edges of the state ``Explorer/Exploring/expandReusing(key:payload:pending:)`` is expanding, waiting to be taken
/// until every move is tried: each state reached is packed as the set packs its rows and its key hashed
/// (``StateSet/insert(packed:hash:)``), and the table slot of that hash is fetched, so the slot is in the cache
/// when the edge is taken (the set is far larger than the cache, and a slot fetched only when needed held the
/// thread for most of an insertion). The arrays keep the most edges a state had so far, and are written in place.
struct PendingEdges {
  /// The packer of the set's rows (nil with `--compact`, whose set keeps fingerprints, not rows).
  private(set) var packer: PackedRows.Packer?
  private(set) var count = 0
  /// The states reached, ``rowBytes`` each.
  private(set) var rows: [UInt8] = []
  /// The edges, in order (the first ``count``): one array, written once per edge.
  private(set) var edges: [Edge] = []
  /// The records of the edges that have any, by edge, in order.
  private(set) var records: [(edge: Int, records: [Record])] = []

  var rowBytes: Int { packer?.rowBytes ?? 0 }

  /// Packs the states reached as `set` does now; the edges waiting (none) are dropped.
  mutating func packLike(_ set: StateSet) {
    packer = set.packer
    count = 0
    rows = []
  }

  /// Whether its rows are packed as `set` packs them now (no column widened since ``packLike(_:)``).
  func packs(as set: StateSet) -> Bool { packer.map(set.packs) ?? true }

  /// Adds the edge to the state with `key` and `payload`; returns the hash of its key, or nil when a value is
  /// too wide for the packer's columns, or there is no packer (the edge is then not added).
  mutating func add(
    _ key: [UInt32], _ payload: [UInt32], kind: Explorer.Exploring.MoveKind, records: [Record],
    place: TransitionCache.Place
  ) -> Int? {
    guard let packer else { return nil }
    let start = count * packer.rowBytes
    let hash = key.withUnsafeBufferPointer { key in
      payload.withUnsafeBufferPointer { packer.pack(key, $0, into: &rows, at: start) }
    }
    guard let hash else { return nil }
    noteRecordsOfNext(records)
    append(hash: hash, kind: kind, place: place)
    return hash
  }

  /// Copies the row of state `id` of `set` (which packs as this does) to where the next edge's row goes, for
  /// ``writeNext(_:)`` to make the row of the state the edge reaches.
  mutating func copyNext(_ id: Int32, of set: StateSet) {
    guard let packer else { preconditionFailure("no packer to copy a row with") }
    let start = count * packer.rowBytes
    packer.makeRoom(in: &rows, at: start)
    rows.withUnsafeMutableBytes {
      set.copy(id, into: UnsafeMutableRawBufferPointer(rebasing: $0[start..<(start + packer.rowBytes)]))
    }
  }

  /// `write` on the next edge's row (``copyNext(_:of:)``), in place; ``addNext(kind:place:)`` adds the edge.
  mutating func writeNext<Result>(_ write: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
    let row = (count * rowBytes)..<((count + 1) * rowBytes)
    return rows.withUnsafeMutableBytes { write(UnsafeMutableRawBufferPointer(rebasing: $0[row])) }
  }

  /// Notes what happened on the way of the edge ``addNext(kind:place:)`` adds next.
  mutating func noteRecordsOfNext(_ records: [Record]) {
    if !records.isEmpty { self.records.append((count, records)) }
  }

  /// Adds the edge whose row ``writeNext(_:)`` wrote; returns the hash of its key.
  mutating func addNext(kind: Explorer.Exploring.MoveKind, place: TransitionCache.Place) -> Int {
    guard let packer else { preconditionFailure("no packer to add a row with") }
    let row = (count * rowBytes)..<((count + 1) * rowBytes)
    let hash = rows.withUnsafeBytes { packer.hashOfKey(UnsafeRawBufferPointer(rebasing: $0[row])) }
    append(hash: hash, kind: kind, place: place)
    return hash
  }

  /// Notes the edge whose row was just packed (the ``count``th), with the hash of its key.
  private mutating func append(hash: Int, kind: Explorer.Exploring.MoveKind, place: TransitionCache.Place) {
    let edge = Edge(hash: hash, kind: kind, place: place)
    if count < edges.count { edges[count] = edge } else { edges.append(edge) }
    count += 1
  }

  /// An edge waiting: the hash of the key of the state it reaches, its move's kind, and where the transition cache
  /// keeps the move.
  struct Edge {
    var hash: Int
    var kind: Explorer.Exploring.MoveKind
    var place: TransitionCache.Place
  }

  /// Drops the edges (keeping the room they took).
  mutating func removeAll() {
    count = 0
    if !records.isEmpty { records.removeAll(keepingCapacity: true) }
  }
}
