import FlowCore

extension Explorer {
  /// One exploration under way (``Explorer/explore()``): the states found (``StateSet``), the graph and findings
  /// being built (``Exploration``), the coder and the relaunch cache. A struct with mutating methods rather than
  /// local functions of `explore()`: the local variables those captured were checked for exclusive access at
  /// every use, about a tenth of what the exploring thread did besides the engine's work.
  struct Exploring {
    let explorer: Explorer
    let options: ExploreOptions
    let flow: Flow
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
    /// Moves made from the states expanded so far, reused (one thread only; nil with several, or when
    /// ``ExploreOptions/reusesTransitions`` is off).
    var transitions: TransitionCache?
    /// The key and payload of the state being expanded, one after the other (``TransitionCache``'s words).
    var words: [UInt32] = []
    /// The states expanded: the next to expand is state `processed`.
    var processed = 0

    init(_ explorer: Explorer) {
      self.explorer = explorer
      options = explorer.options
      flow = explorer.flow
      result = Exploration(flow: flow, options: options)
      coder = StateCoder(flow: flow, historyDepth: options.historyDepth)
      set = StateSet(width: coder.width, payloadWidth: coder.payloadWidth, compact: options.compact)
      key = [UInt32](repeating: 0, count: coder.width)
      payload = [UInt32](repeating: 0, count: coder.payloadWidth)
      queue = PackedRows(columns: options.compact ? coder.width + coder.payloadWidth : 0)
      if options.reusesTransitions && options.jobs == 1 { transitions = TransitionCache(coder: coder, flow: flow) }
    }

    /// The number of `move` in ``Exploration/moves``, given one the first time.
    mutating func moveID(_ move: ExploreMove) -> Int32 {
      if let id = moveIDs[move] { return id }
      let id = Int32(result.moves.count)
      result.moves.append(move)
      moveIDs[move] = id
      return id
    }

    /// Encodes `state` and adds it.
    mutating func add(_ state: RunState, parent: Int32, move: Int32, setup: Int32) -> Int32? {
      coder.encode(state, into: &key, payload: &payload)
      return insert(parent: parent, move: move, setup: setup)
    }

    /// Adds the state whose key and payload are in `key` and `payload`.
    mutating func insert(parent: Int32, move: Int32, setup: Int32) -> Int32? {
      let (inserted, id) = set.insert(key, payload: payload)
      guard inserted else { return id }
      if set.count > options.maxStates {
        result.stoppedAt = .maxStates
        return nil
      }
      if options.compact {
        queue.pack(key, payload, into: &packed)
        queue.append(packed)
      }
      result.noteDepth(of: id, parent < 0 ? 0 : result.depth(of: parent) + 1)
      result.step.append(Int32(key[0]) - 1)
      result.flags.append((key[1] != 0 ? Exploration.endedFlag : 0) | (key[2] != 0 ? Exploration.pendingFlag : 0))
      result.parent.append(parent)
      result.parentMove.append(move)
      if parent < 0 { result.setupOf.append(setup) }
      return id
    }

    /// Launches every setup: the roots.
    mutating func launch() {
      result.setups = explorer.setups
      for (index, setup) in result.setups.enumerated() {
        do {
          var (state, records) = try explorer.engine.launch(setup.launch(clock: options.clock))
          explorer.normalize(&state)
          if let id = add(state, parent: -1, move: -1, setup: Int32(index)) {
            result.roots.append(id)
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

    /// Writes the key and payload of waiting state `id` (from `processed` on).
    func waiting(_ id: Int, key: inout [UInt32], payload: inout [UInt32]) {
      if options.compact {
        queue.load(id, into: &key, then: &payload)
      } else {
        set.load(id, key: &key, payload: &payload)
      }
    }

    /// Whether the moves of state `id` are tried (it is not at --max-depth).
    func expands(_ id: Int) -> Bool { result.depth(of: Int32(id)) < options.maxDepth }

    /// Stores what the moves from the next waiting state gave (the state the coder is expanding): its edges in
    /// move order, and the states they reach, numbered in that order.
    mutating func take(_ expansion: Expansion) {
      let id = Int32(processed)
      processed += 1
      if processed & (ExploreProgress.interval - 1) == 0, let progress = options.progress {
        progress(ExploreProgress(states: set.count, expanded: processed, moves: result.edgeCount))
      }
      if options.compact { queue.dropRows(before: processed) }
      result.firstEdge.append(Int32(result.edgeTo.count))
      guard let successors = expansion.successors else {
        // Not expanded: nothing is known about its moves, so it is neither a dead end nor explored.
        if !coder.expandingHasEnded {
          result.stoppedAt = result.stoppedAt ?? .maxDepth
          result.unexpanded.append(id)
        }
        return
      }
      let fromStep = coder.expandingStep.map { flow.steps[$0] }
      var forward = false
      var back = false
      var interrupted = false
      var word = 0
      for successor in successors {
        let move: ExploreMove
        var records: [Record]
        var launchInputs: HashedWords?
        var cached: TransitionCache.Place?
        var computed = false
        switch successor {
        case .failed(let failed, let message):
          result.failures.append(.init(state: id, move: moveID(failed), setup: -1, message: message))
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
        case .encoded(let reached, let produced, let place):
          move = reached
          cached = place
          records = produced
          key.replaceSubrange(0..<key.count, with: expansion.words[word..<(word + key.count)])
          word += key.count
          payload.replaceSubrange(0..<payload.count, with: expansion.words[word..<(word + payload.count)])
          word += payload.count
          computed = true
        case .reached(let reached, let next, let produced):
          move = reached
          records = produced
          coder.encode(next, into: &key, payload: &payload)
          computed = true
        }
        if computed, move == .restart {
          let inputs = coder.launchInputs()
          launchInputs = inputs
          if restarts[inputs] == nil, restarts.count < Explorer.restartCacheSize {
            restarts[inputs] = (key + payload, records)
          }
        }
        // A move that changes nothing is no edge (the key and payload hold the whole normalized state).
        if coder.isExpanding(key: key, payload: payload) { continue }
        let mid: Int32
        if let cached, let known = transitions?.moveIDs[Int(cached.context)][cached.move], known >= 0 {
          mid = known
        } else {
          mid = moveID(move)
          if let cached { transitions?.setMoveID(mid, at: cached) }
        }
        guard let target = insert(parent: id, move: mid, setup: -1) else {
          interrupted = true
          break
        }
        result.edgeCount += 1
        if move.isForward {
          forward = true
          result.edgeTo.append(target)
        } else if move == .event(.back) {
          back = true
        }
        if options.trackTransitions {
          if case .answer(_, let permission?, let outcome, _) = move, let step = fromStep {
            let key = PermissionOutcome(step: step.id, permission: permission.rawValue, outcome: outcome)
            if result.permissionOutcomeWitness[key] == nil { result.permissionOutcomeWitness[key] = (id, mid) }
          }
          for record in records {
            if let transition = FlowTransition(taken: record), result.transitionWitness[transition] == nil {
              result.transitionWitness[transition] = (id, mid)
            }
          }
        }
        // Every transition of a cached relaunch has its witness now: keep the state, not the records.
        if let launchInputs, !records.isEmpty { restarts[launchInputs]?.records = [] }
        if let outcome = cached?.outcome, !records.isEmpty { transitions?.dropRecords(of: outcome) }
      }
      if interrupted {
        // The limit stopped the run before all its moves were tried: unexplored, not stuck.
        result.unexpanded.append(id)
      } else if !forward && !coder.expandingHasEnded && !coder.expandingIsPending {
        if let limit = explorer.inputLimit(of: coder.expanding(clock: options.clock), id: id) {
          result.inputLimits.append(limit)
        } else {
          result.deadEnds.append(id)
          result.deadEndCanGoBack.append(back)
        }
      }
    }

    /// Starts expanding the waiting states from `first` on (as many as a batch takes) on other threads.
    func batch(from first: Int, retiring: ExpansionBatch?) -> ExpansionBatch {
      let states = ExpansionBatch.range(from: first, count: set.count, jobs: options.jobs).map { id in
        var state = WaitingState(key: key, payload: payload, expands: expands(id))
        waiting(id, key: &state.key, payload: &state.payload)
        return state
      }
      let batch = ExpansionBatch(explorer: explorer, states: states, coder: coder, restarts: restarts)
      batch.start(threads: options.jobs, retiring: retiring)
      return batch
    }

    /// Expands the waiting states in order until none is left or a limit is hit.
    mutating func expandWaiting() {
      var ahead: ExpansionBatch?
      var waitingKey = key
      var waitingPayload = payload
      var taken: ExpansionBatch?
      while processed < set.count, !result.hitLimit {
        if options.jobs > 1 {
          // Batches of waiting states are expanded on `jobs` threads and taken here in order, as one thread takes
          // them (Explorer+Parallel.swift); the states waiting behind a batch are expanded while it is taken.
          let current = ahead ?? batch(from: processed, retiring: taken.take())
          let after = processed + current.states.count
          ahead = after < set.count ? batch(from: after, retiring: taken.take()) : nil
          for (state, expansion) in zip(current.states, current.finish()) where !result.hitLimit {
            guard let decoded = expansion.state else { preconditionFailure("a thread left a state undecoded") }
            coder.expand(decoded, key: state.key, payload: state.payload)
            take(expansion)
          }
          taken = current
        } else {
          waiting(processed, key: &waitingKey, payload: &waitingPayload)
          // Decoded only when a move is made by the engine (or for a dead end's inputs).
          coder.expandWords(key: waitingKey[...], payload: waitingPayload[...])
          let restartCached = !coder.expandingIsPending && restarts[coder.launchInputs()] != nil
          var expansion = Expansion(state: nil)
          if expands(processed) {
            if transitions != nil {
              tryMovesReusing(&expansion, key: waitingKey, payload: waitingPayload, restartCached: restartCached)
            } else {
              expansion.state = coder.expanding(clock: options.clock)
              expansion.tryMoves(explorer, restartCached: restartCached, coder: &coder)
            }
          }
          take(expansion)
        }
      }
      ahead?.abandon()
    }

    /// Tries every move from the state being expanded (the coder's, with key `stateKey` and payload
    /// `statePayload`), as ``Expansion/tryMoves(_:restartCached:coder:)`` does, taking the result of a move from
    /// ``transitions`` when a state that agrees on what the move reads made it before, and keeping there what the
    /// engine does.
    mutating func tryMovesReusing(
      _ expansion: inout Expansion, key stateKey: [UInt32], payload statePayload: [UInt32], restartCached: Bool
    ) {
      guard var cache = transitions.take() else { return }
      defer { transitions = cache }
      words.removeAll(keepingCapacity: true)
      words += stateKey
      words += statePayload
      let context = cache.context(of: words) { explorer.moves(from: coder.expanding(clock: options.clock)) }
      let moves = cache.moves[Int(context)]
      var successors: [Successor] = []
      successors.reserveCapacity(moves.count)
      for (index, move) in moves.enumerated() {
        if move == .restart && restartCached {
          successors.append(.cachedRestart)
          continue
        }
        if move != .restart, let outcome = cache.outcome(context: context, move: index, words: words) {
          result.transitionReuse.hits += 1
          let start = expansion.words.count
          switch cache.outcomes[Int(outcome)] {
          case .refused: break
          case .failed(let message): successors.append(.failed(move, message))
          case .reached(let writes, let records):
            TransitionCache.append(words, writes: writes, to: &expansion.words)
            successors.append(.encoded(move, records, cached: .init(context: context, move: index, outcome: outcome)))
          }
          if options.checksReusedTransitions,
            !madeAlike(
              move, from: coder.expanding(clock: options.clock), as: successors.last,
              words: expansion.words[start...])
          {
            result.transitionReuse.mismatches += 1
          }
          continue
        }
        result.transitionReuse.misses += 1
        let log = move == .restart ? nil : cache.log
        log?.clear()
        let start = expansion.words.count
        do {
          let state = coder.expanding(clock: options.clock)
          if let (next, records) = try explorer.apply(move, to: state, log: log) {
            coder.encode(next, into: &key, payload: &payload)
            expansion.words += key
            expansion.words += payload
            let kept =
              log == nil
              ? nil
              : cache.remember(
                context: context, move: index, words: words, successor: expansion.words[start...], records: records,
                failure: nil)
            successors.append(.encoded(move, records, cached: .init(context: context, move: index, outcome: kept)))
          } else if log != nil {
            cache.remember(
              context: context, move: index, words: words, successor: nil, records: [], failure: nil)
          }
        } catch {
          successors.append(.failed(move, "\(error)"))
          if log != nil {
            cache.remember(
              context: context, move: index, words: words, successor: nil, records: [], failure: "\(error)")
          }
        }
      }
      expansion.successors = successors
      result.transitionReuse.unaccounted = cache.unaccounted
    }

    /// Whether the engine, making `move` from `state`, gives what was reused: `reused` (the successor appended,
    /// if any, whose words are `words`). For ``ExploreOptions/checksReusedTransitions``.
    private mutating func madeAlike(
      _ move: ExploreMove, from state: RunState, as reused: Successor?, words reusedWords: ArraySlice<UInt32>
    ) -> Bool {
      do {
        guard let (next, records) = try explorer.apply(move, to: state) else {
          return reusedWords.isEmpty && !isFailure(reused, of: move)
        }
        coder.encode(next, into: &key, payload: &payload)
        guard case .encoded(let reusedMove, let reusedRecords, _) = reused, reusedMove == move else { return false }
        return Array(reusedWords) == key + payload && (reusedRecords.isEmpty || reusedRecords == records)
      } catch {
        guard case .failed(let failedMove, let message) = reused, failedMove == move else { return false }
        return message == "\(error)"
      }
    }

    private func isFailure(_ successor: Successor?, of move: ExploreMove) -> Bool {
      if case .failed(let failed, _) = successor, failed == move { return true }
      return false
    }

    /// The exploration, complete.
    consuming func finish() -> Exploration {
      result.processed = processed
      result.firstEdge.append(Int32(result.edgeTo.count))
      result.keyBytes = set.bytes
      result.keyWidth = coder.width
      return result
    }
  }
}
