import FlowCore

extension Explorer {
  /// One exploration under way (``Explorer/explore()``): the states found (``StateSet``), the graph and findings
  /// being built (``Exploration``), the coder and the relaunch cache. A struct with mutating methods rather than
  /// local functions of `explore()`: the local variables those captured were checked for exclusive access at
  /// every use, about a tenth of what the exploring thread did besides the engine's work.
  struct Exploring {
    let explorer: Explorer
    let options: ExploreOptions
    /// The threads that explore: ``ExploreOptions/jobs``, and one more once a part takes a spare thread
    /// (``takeSpareThread()``).
    var jobs: Int
    let flow: Flow
    /// The launch setups explored: all of the flow's, or those of a part's environments (Explorer+Partitioned.swift).
    let setups: [ExploreSetup]
    var result: Exploration
    var coder: StateCoder
    var set: StateSet
    /// The key and payload of the state being added.
    var key: [UInt32]
    var payload: [UInt32]
    // The states waiting to be expanded are ids processed..<set.count. The set keeps their keys and payloads;
    // with --compact it keeps only fingerprints, so each waiting state's key and payload wait here.
    var queue: PackedRows
    var packed: [UInt8] = []
    var moveIDs: [ExploreMove: Int32] = [:]
    var restarts: RestartCache = [:]
    /// The permission answers, as `step << 32 | move`, whose outcome (``Exploration/permissionOutcomeWitness``)
    /// was looked up already: the same move on the same step answers the same way, so the outcome and its three
    /// strings are made and hashed once per answer, not at every edge that gives it.
    var answersSeen: Set<Int> = []
    /// Moves made from the states expanded so far, reused when `reusesMoves` (``ExploreOptions/reusesTransitions``)
    /// on one thread.
    var transitions: TransitionCache
    let reusesMoves: Bool
    /// With more threads, once ``ExploreOptions/oneThreadFirst`` states are expanded: each thread's transition
    /// cache, and per cache the moves it numbered (``ExpandedPiece``).
    var workers: ReusingWorkers?
    var workerMoves: [[WorkerMove]]
    /// The batches made so far (``ExpansionBatch/number``).
    var batchesMade = 0
    /// With more threads, the moves ``transitions`` made with the engine and kept while this thread expanded the
    /// end of a batch itself, for the threads' caches to learn (``ReusingWorkers/teach(exploring:batch:)``).
    var lessons: [TransitionCache.Lesson] = []
    /// The key and payload of the state being expanded, one after the other (``TransitionCache``'s words), and
    /// those of the state a move made by the engine reached.
    var words: [UInt32] = []
    var successorWords: [UInt32] = []
    /// The states expanded: the next to expand is state `processed`.
    var processed = 0
    /// The depth of the state being taken (``beginTaking()``), followed as the states are taken in order rather
    /// than searched for in ``Exploration/levels`` for each state and edge.
    var takingDepth = 0

    init(_ explorer: Explorer, setups: [ExploreSetup]? = nil) {
      self.explorer = explorer
      options = explorer.options
      jobs = options.jobs
      flow = explorer.flow
      self.setups = setups ?? explorer.setups
      result = Exploration(flow: flow, options: options)
      coder = StateCoder(flow: flow, historyDepth: options.historyDepth)
      set = StateSet(width: coder.width, payloadWidth: coder.payloadWidth, compact: options.compact)
      key = .zeroWords(coder.width)
      payload = .zeroWords(coder.payloadWidth)
      queue = PackedRows(
        columns: options.compact ? coder.width + coder.payloadWidth : 0, split: options.compact ? coder.width : 0)
      transitions = TransitionCache(coder: coder, flow: flow)
      reusesMoves = options.reusesTransitions
      workerMoves = Array(repeating: [], count: max(jobs - 1, 0))
    }

    /// A move a ``ReusingWorker`` numbered: what taking its edges needs, and its number in ``Exploration/moves``
    /// once it has one (else -1).
    struct WorkerMove {
      let move: ExploreMove
      let kind: MoveKind
      var id: Int32 = -1

      init(_ move: ExploreMove) {
        self.move = move
        kind = MoveKind(move)
      }
    }

    /// The number of `move` in ``Exploration/moves``, given one the first time.
    mutating func moveID(_ move: ExploreMove) -> Int32 {
      if let id = moveIDs[move] { return id }
      let id = Int32(result.moves.count)
      result.moves.append(move)
      result.moveFirstTaken.append(Int32(processed - 1))
      moveIDs[move] = id
      return id
    }

    /// Encodes `state` and adds it.
    mutating func add(_ state: RunState, parent: Int32, move: Int32, setup: Int32) -> Int32? {
      coder.encode(state, into: &key, payload: &payload)
      return insert(parent: parent, move: move, setup: setup)
    }

    /// A state reached, packed by the thread that expanded (``ExpandedPiece/rows``): its row and its key's hash.
    struct PackedState {
      let row: UnsafeRawBufferPointer
      let hash: Int
    }

    /// Adds the state whose key and payload are in `key` and `payload`, or the state `packed` (whose key and
    /// payload are written there only when it is new).
    mutating func insert(parent: Int32, move: Int32, setup: Int32, packed state: PackedState? = nil) -> Int32? {
      let (inserted, id) =
        if let state { set.insert(packed: state.row, hash: state.hash) } else { set.insert(key, payload: payload) }
      guard inserted else { return id }
      // The step and the end and pending flags (key words 0, 1 and 2) of a state inserted packed are read from
      // its row, which was just stored, rather than the whole row unpacked for three words.
      let control =
        state == nil ? (key[0], key[1], key[2]) : (set.word(0, of: id), set.word(1, of: id), set.word(2, of: id))
      if set.count > options.maxStates {
        result.stoppedAt = .maxStates
        return nil
      }
      if options.compact {
        queue.pack(key, payload, into: &packed)
        packed.withUnsafeBytes { queue.append($0) }
      }
      // A state's parent is the state being taken (a root has none).
      assert(parent < 0 || parent == processed - 1)
      result.noteDepth(of: id, parent < 0 ? 0 : takingDepth + 1)
      result.step.append(Int32(control.0) - 1)
      result.flags.append(
        (control.1 != 0 ? Exploration.endedFlag : 0) | (control.2 != 0 ? Exploration.pendingFlag : 0))
      result.parent.append(parent)
      result.parentMove.append(move)
      if parent < 0 { result.setupOf.append(setup) }
      return id
    }

    /// Launches every setup: the roots.
    mutating func launch() {
      result.setups = setups
      for (index, setup) in result.setups.enumerated() {
        result.rootOfSetup.append(-1)
        do {
          var (state, records) = try explorer.engine.launch(setup.launch(clock: options.clock))
          explorer.normalize(&state)
          if let id = add(state, parent: -1, move: -1, setup: Int32(index)) {
            result.roots.append(id)
            result.rootOfSetup[index] = id
            for record in records {
              if let transition = FlowTransition(taken: record), result.transitionWitness[transition] == nil {
                result.transitionWitness[transition] = (id, -1)
              }
            }
          }
        } catch {
          result.failures.append(.init(state: -1, move: -1, setup: Int32(index), message: "\(error)"))
        }
        if result.hitLimit { break }
      }
    }

    /// Writes the key and payload of waiting state `id` (from `processed` on). Inlined, as
    /// ``PackedRows/load(_:into:then:)``.
    @inline(__always)
    func waiting(_ id: Int, key: inout [UInt32], payload: inout [UInt32]) {
      if options.compact {
        queue.load(id, into: &key, then: &payload)
      } else {
        set.load(id, key: &key, payload: &payload)
      }
    }

    /// Whether the moves of state `id` are tried (it is not at --max-depth).
    func expands(_ id: Int) -> Bool { result.depth(of: Int32(id)) < options.maxDepth }

    /// What the edges of the state being taken gave so far (``beginTaking()``).
    struct Taking {
      let id: Int32
      var forward = false
      var back = false
      var interrupted = false
    }

    /// What the taking of a move's edge needs to know of the move.
    struct MoveKind {
      /// It goes on through the flow (``ExploreMove/isForward``).
      var isForward: Bool
      var isBack: Bool
      /// An answer to a permission request (its outcome gets a witness).
      var isPermissionAnswer: Bool

      init(_ move: ExploreMove) {
        isForward = move.isForward
        isBack = move == .event(.back)
        if case .answer(_, _?, _, _) = move { isPermissionAnswer = true } else { isPermissionAnswer = false }
      }
    }

    /// Starts taking the next waiting state (the one the coder is expanding).
    mutating func beginTaking() -> Taking {
      let id = Int32(processed)
      processed += 1
      while takingDepth + 1 < result.levels.count && result.levels[takingDepth + 1] <= id { takingDepth += 1 }
      if processed & (ExploreProgress.interval - 1) == 0, let progress = options.progress {
        progress(ExploreProgress(states: set.count, expanded: processed, moves: result.edgeCount))
      }
      if options.compact { queue.dropRows(before: processed) }
      result.firstEdge.append(Int32(result.edgeTo.count))
      return Taking(id: id)
    }

    /// The state being taken is at --max-depth: its moves are not tried.
    mutating func takeUnexpanded(_ taking: Taking) {
      // Nothing is known about its moves, so it is neither a dead end nor explored.
      if !coder.expandingHasEnded {
        result.stoppedAt = result.stoppedAt ?? .maxDepth
        result.unexpanded.append(taking.id)
      }
    }

    /// A move of the state being taken failed.
    mutating func takeFailure(_ taking: Taking, move: ExploreMove, message: String) {
      result.failures.append(.init(state: taking.id, move: moveID(move), setup: -1, message: message))
    }

    /// Takes the edge by `move` (of kind `kind`) to the state whose key and payload are in ``key`` and
    /// ``payload``, with what happened on the way (`records`). `place` is where the transition cache keeps the
    /// move, if it does; `numbered` the thread's cache and number of a move of an ``ExpandedPiece``. With either,
    /// `move` may be nil: it is looked up there only when needed. `isAnotherState` when the caller knows the
    /// state reached is not the one being taken; `packed` is that state packed by another thread (``key`` and
    /// ``payload`` are then not read). `launchInputs` are those of a relaunch. False when a limit stopped the
    /// exploration.
    mutating func takeEdge(
      _ taking: inout Taking, move: ExploreMove?, kind: MoveKind, records: [Record], place: TransitionCache.Place?,
      numbered: (worker: Int, number: Int)? = nil, isAnotherState: Bool = false, packed: PackedState? = nil,
      launchInputs: LaunchInputs?
    ) -> Bool {
      func theMove() -> ExploreMove {
        if let move { return move }
        if let (worker, number) = numbered { return workerMoves[worker][number].move }
        guard let place else { preconditionFailure("an edge with no move") }
        return transitions.moves[Int(place.context)][place.move]
      }
      // A move that changes nothing is no edge (the key and payload hold the whole normalized state).
      if !isAnotherState && coder.isExpanding(key: key, payload: payload) { return true }
      let mid: Int32
      if let place, transitions.moveID(context: place.context, move: place.move) >= 0 {
        mid = transitions.moveID(context: place.context, move: place.move)
      } else if let (worker, number) = numbered {
        if workerMoves[worker][number].id < 0 { workerMoves[worker][number].id = moveID(theMove()) }
        mid = workerMoves[worker][number].id
      } else {
        mid = moveID(theMove())
        if let place { transitions.setMoveID(mid, at: place) }
      }
      guard let target = insert(parent: taking.id, move: mid, setup: -1, packed: packed) else {
        taking.interrupted = true
        return false
      }
      result.edgeCount += 1
      if kind.isForward {
        taking.forward = true
        result.edgeTo.append(target)
      } else if kind.isBack {
        taking.back = true
      }
      if options.trackTransitions {
        if kind.isPermissionAnswer, let step = coder.expandingStep, answersSeen.insert(step << 32 | Int(mid)).inserted,
          case .answer(_, let permission?, let outcome, _) = theMove()
        {
          let key = PermissionOutcome(step: flow.steps[step].id, permission: permission.rawValue, outcome: outcome)
          if result.permissionOutcomeWitness[key] == nil { result.permissionOutcomeWitness[key] = (taking.id, mid) }
        }
        for record in records {
          if let transition = FlowTransition(taken: record), result.transitionWitness[transition] == nil {
            result.transitionWitness[transition] = (taking.id, mid)
          }
        }
      }
      // Every transition of a cached relaunch or move has its witness now: keep the state, not the records.
      if !records.isEmpty {
        if let launchInputs { restarts[launchInputs]?.records = [] }
        if let outcome = place?.outcome { transitions.dropRecords(of: outcome) }
      }
      return true
    }

    /// Ends taking the state: a state from which no forward move leads is a dead end, unless it is the texts
    /// explore typed (``Exploration/inputLimits``).
    mutating func finishTaking(_ taking: Taking) {
      if taking.interrupted {
        // The limit stopped the run before all its moves were tried: unexplored, not stuck.
        result.unexpanded.append(taking.id)
      } else if !taking.forward && !coder.expandingHasEnded && !coder.expandingIsPending {
        if let limit = explorer.inputLimit(of: coder.expanding(clock: options.clock), id: taking.id) {
          result.inputLimits.append(limit)
        } else {
          result.deadEnds.append(taking.id)
          result.deadEndCanGoBack.append(taking.back)
        }
      }
    }

    /// Notes a relaunch just computed (its state in ``key`` and ``payload``) in the relaunch cache; returns what
    /// it depends on.
    mutating func keepRestart(records: [Record]) -> LaunchInputs {
      let inputs = coder.launchInputs()
      if restarts[inputs] == nil, restarts.count < Explorer.restartCacheSize {
        restarts[inputs] = (key + payload, records)
      }
      return inputs
    }

    /// Stores what the moves from the next waiting state gave (the state the coder is expanding; its moves were
    /// tried on another thread): its edges in move order, and the states they reach, numbered in that order.
    mutating func take(_ expansion: Expansion) {
      var taking = beginTaking()
      guard let successors = expansion.successors else { return takeUnexpanded(taking) }
      var word = 0
      for successor in successors {
        let move: ExploreMove
        var records: [Record]
        var launchInputs: LaunchInputs?
        switch successor {
        case .failed(let failed, let message):
          takeFailure(taking, move: failed, message: message)
          continue
        case .cachedRestart:
          // A relaunch depends only on the facts, permissions and store, which many states share.
          let inputs = coder.launchInputs()
          guard let cached = restarts[inputs] else { preconditionFailure("a cached relaunch left the cache") }
          move = .restart
          records = cached.records
          launchInputs = inputs
          key.replaceSubrange(0..<key.count, with: cached.words[..<key.count])
          payload.replaceSubrange(0..<payload.count, with: cached.words[key.count...])
        case .encoded(let reached, let produced):
          move = reached
          records = produced
          key.replaceSubrange(0..<key.count, with: expansion.words[word..<(word + key.count)])
          word += key.count
          payload.replaceSubrange(0..<payload.count, with: expansion.words[word..<(word + payload.count)])
          word += payload.count
          if move == .restart { launchInputs = keepRestart(records: records) }
        case .reached(let reached, let next, let produced):
          move = reached
          records = produced
          coder.encode(next, into: &key, payload: &payload)
          if move == .restart { launchInputs = keepRestart(records: records) }
        }
        let kind = MoveKind(move)
        guard takeEdge(&taking, move: move, kind: kind, records: records, place: nil, launchInputs: launchInputs)
        else { break }
      }
      finishTaking(taking)
    }

    /// How far the taking of a piece has gone: its next edge and record, and the next of the states it reached
    /// (their hashes), of their packed rows' bytes and of their words.
    struct PieceCursor {
      var edge = 0
      var record = 0
      var state = 0
      var byte = 0
      var word = 0
      /// The states before this one have their table slots fetched (``fetchedAhead``).
      var fetched = 0
    }

    /// How many states reached, ahead of those being taken, have their table slots fetched: the set is far
    /// larger than the cache, and a slot fetched while other states are taken is there when its turn comes.
    static let fetchedAhead = 12

    /// Takes state `index` of `batch` (the next waiting state), whose edges `piece` holds from `cursor` on, as
    /// ``take(_:)`` takes an expansion.
    mutating func take(_ index: Int, of batch: ExpansionBatch, from piece: ExpandedPiece, at cursor: inout PieceCursor)
    {
      let (width, payloadWidth) = (key.count, payload.count)
      let state = batch.state(index)
      coder.expandWords(
        key: UnsafeBufferPointer(rebasing: state[..<width]), payload: UnsafeBufferPointer(rebasing: state[width...]))
      var taking = beginTaking()
      let end = Int(piece.edgeEnds[index % Explorer.parallelPiece])
      guard end >= 0 else { return takeUnexpanded(taking) }
      // The table slots of the next states reached, fetched while the ones before are taken.
      if piece.packer != nil {
        while cursor.fetched < min(cursor.state + Self.fetchedAhead, piece.hashes.count) {
          if piece.hashes[cursor.fetched] != Int.min { set.prefetch(hash: piece.hashes[cursor.fetched]) }
          cursor.fetched += 1
        }
      }
      // A limit that stops the exploration leaves the cursor where it is: nothing more is taken.
      edges: while cursor.edge < end {
        let number = piece.edges[cursor.edge]
        var records: [Record] = []
        if cursor.record < piece.records.count && piece.records[cursor.record].edge == cursor.edge {
          records = piece.records[cursor.record].records
          cursor.record += 1
        }
        cursor.edge += 1
        if number >= 0 {
          let kind = workerMoves[piece.worker][Int(number)].kind
          let numbered = (worker: piece.worker, number: Int(number))
          let hash = piece.packer == nil ? Int.min : piece.hashes[cursor.state]
          cursor.state += 1
          if let packer = piece.packer, hash != Int.min {
            let start = cursor.byte
            cursor.byte += packer.rowBytes
            // Taken from its packed row while the set packs rows as the thread did; else from its words.
            let taken: Bool? = piece.rows.withUnsafeBytes { rows in
              let row = UnsafeRawBufferPointer(rebasing: rows[start..<(start + packer.rowBytes)])
              guard set.packs(with: packer) else {
                packer.unpack(row, into: &key, &payload)
                return nil
              }
              // A move that changes nothing is no edge.
              if set.state(taking.id, is: row) { return true }
              return takeEdge(
                &taking, move: nil, kind: kind, records: records, place: nil, numbered: numbered,
                isAnotherState: true, packed: PackedState(row: row, hash: hash), launchInputs: nil)
            }
            if let taken {
              guard taken else { break edges }
              continue
            }
          } else {
            let word = cursor.word
            _ = key.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: piece.words[word..<(word + width)]) }
            _ = payload.withUnsafeMutableBufferPointer {
              $0.update(fromContentsOf: piece.words[(word + width)..<(word + width + payloadWidth)])
            }
            cursor.word += width + payloadWidth
          }
          let taken = takeEdge(
            &taking, move: nil, kind: kind, records: records, place: nil, numbered: numbered, launchInputs: nil)
          guard taken else { break edges }
          continue
        }
        switch piece.others[Int(-1 - number)] {
        case .failed(let move, let message): takeFailure(taking, move: move, message: message)
        case .reached(let move, let next, let produced):
          coder.encode(next, into: &key, payload: &payload)
          let taken = takeEdge(
            &taking, move: move, kind: MoveKind(move), records: produced, place: nil, launchInputs: nil)
          guard taken else { break edges }
        case .encoded, .cachedRestart: preconditionFailure("a piece holds only failures and states not encoded")
        }
      }
      finishTaking(taking)
    }

    /// Starts expanding the waiting states from `first` on (as many as a batch takes) on other threads.
    mutating func batch(from first: Int, retiring: ExpansionBatch?, workers: ReusingWorkers) -> ExpansionBatch {
      let ids = ExpansionBatch.range(from: first, count: set.count, jobs: jobs)
      // The waiting states' rows: the set's, or with --compact the queue's.
      let words = StateWords(
        count: ids.count, stride: key.count + payload.count, packer: set.packer ?? queue.packer
      ) { rows in
        if options.compact { queue.copyRows(ids, into: rows) } else { set.copyRows(ids, into: rows) }
      }
      defer { batchesMade += 1 }
      let batch = ExpansionBatch(
        explorer: explorer, first: first, number: batchesMade, words: words, expands: ids.map(expands), coder: coder,
        packer: set.packer, workers: workers, recycling: retiring)
      batch.start(jobs: jobs, retiring: retiring)
      return batch
    }

    /// Expands the waiting states in order until none is left or a limit is hit.
    mutating func expandWaiting() {
      var ahead: ExpansionBatch?
      var waitingKey = [UInt32].zeroWords(key.count)
      var waitingPayload = [UInt32].zeroWords(payload.count)
      var taken: ExpansionBatch?
      // The edges of the state ``expandReusing(key:payload:pending:)`` is expanding, until they are taken.
      var pending = PendingEdges()
      pending.packLike(set)
      while processed < set.count, !result.hitLimit {
        if workers == nil && processed & (Explorer.spareThreadInterval - 1) == 0 { takeSpareThread() }
        if jobs > 1 && processed >= options.oneThreadFirst && workers == nil {
          workers = ReusingWorkers(jobs: jobs, seed: transitions)
        }
        // Fewer waiting states than a piece for each thread (a frontier of a few states, as in a flow that counts
        // on and on) are expanded here one at a time: a batch of them cost more than their moves, every batch.
        let fewest = Explorer.parallelPiece * jobs
        if let workers, ahead != nil || set.count - processed >= fewest {
          // Batches of waiting states are expanded from their start on `jobs - 1` threads and taken here in order,
          // as one thread takes them (Explorer+Parallel.swift); the states waiting behind a batch are expanded while
          // it is taken. The moves the threads' caches made are learnt here first.
          let current = ahead ?? batch(from: processed, retiring: taken.take(), workers: workers)
          let (pieces, claimed) = current.claim()
          let after = processed + current.count
          ahead = set.count - after < fewest ? nil : batch(from: after, retiring: taken.take(), workers: workers)
          workers.teach(&transitions, batch: current.number)
          var index = 0
          for piece in pieces[..<claimed] where !result.hitLimit {
            workerMoves[piece.worker] += piece.newMoves.map(WorkerMove.init)
            var cursor = PieceCursor()
            for _ in piece.edgeEnds.indices where !result.hitLimit {
              take(index, of: current, from: piece, at: &cursor)
              index += 1
            }
          }
          // The states no thread took: expanded and taken here at once, through this thread's own cache.
          let end = current.first + current.count
          while processed < end, !result.hitLimit {
            expandNext(key: &waitingKey, payload: &waitingPayload, pending: &pending)
          }
          workers.teach(exploring: lessons, batch: current.number)
          lessons = []
          taken = current
        } else {
          expandNext(key: &waitingKey, payload: &waitingPayload, pending: &pending)
        }
      }
      // A limit stopped the exploration: the threads leave the pieces they have not started.
      _ = ahead?.claim()
    }

    /// A part explored alone (Explorer+Partitioned.swift) takes a spare thread when there is one and enough
    /// states wait for a batch: its waiting states are then shared out in batches with it, as two jobs share one
    /// environment's (the exploration is the same). So a part whose thread is slower, or which has more states,
    /// is helped by the thread of a part done before it.
    ///
    /// Not inlined: the loop over the waiting states calls it once every ``Explorer/spareThreadInterval`` states.
    @inline(never)
    mutating func takeSpareThread() {
      guard let spare = options.spareThreads, set.count - processed >= Explorer.parallelBatch, spare.take() else {
        return
      }
      jobs += 1
      workerMoves.append([])
      result.spareThreadsTaken += 1
      workers = ReusingWorkers(jobs: jobs, seed: transitions)
    }

    /// Expands the next waiting state on this thread and takes its edges (`key`, `payload` and `pending` are the
    /// caller's, reused from state to state). Inlined: called once per state, a call of its own cost one thread
    /// 1% to 2% more instructions (perf-guard's explore measures).
    @inline(__always)
    mutating func expandNext(
      key waitingKey: inout [UInt32], payload waitingPayload: inout [UInt32], pending: inout PendingEdges
    ) {
      waiting(processed, key: &waitingKey, payload: &waitingPayload)
      // Decoded only when a move is made by the engine (or for a dead end's inputs).
      waitingKey.withUnsafeBufferPointer { key in
        waitingPayload.withUnsafeBufferPointer { coder.expandWords(key: key, payload: $0) }
      }
      if reusesMoves || workers != nil {
        expandReusing(key: waitingKey, payload: waitingPayload, pending: &pending)
      } else {
        let restartCached = !coder.expandingIsPending && restarts[coder.launchInputs()] != nil
        var expansion = Expansion(state: nil)
        if expands(processed) {
          expansion.state = coder.expanding(clock: options.clock)
          expansion.tryMoves(explorer, restartCached: restartCached, coder: &coder)
        }
        take(expansion)
      }
    }

    /// The exploration, complete.
    consuming func finish() -> Exploration {
      result.processed = processed
      result.batches = batchesMade
      // The batches are done: the threads taken are free for the parts still exploring.
      options.spareThreads?.give(result.spareThreadsTaken)
      result.firstEdge.append(Int32(result.edgeTo.count))
      result.keyBytes = set.bytes
      result.keyWidth = coder.width
      result.transitionReuse.unaccounted = transitions.unaccounted
      if let threads = workers?.reuse {
        result.transitionReuse.hits += threads.hits
        result.transitionReuse.misses += threads.misses
        result.transitionReuse.mismatches += threads.mismatches
        result.transitionReuse.unaccounted += threads.unaccounted
      }
      return result
    }
  }
}
