import FlowCore

// The one-thread exploration's moves, reused from the transition cache (TransitionCache.swift) or made by the
// engine and kept there: part of ``Explorer/Exploring``.

extension Explorer.Exploring {
  /// Expands the state the coder holds (key `stateKey`, payload `statePayload`) and takes its edges as
  /// ``take(_:)`` does, move by move: the result of a move comes from ``transitions`` when a state that agrees on
  /// what the move reads made it before, else from the engine (and is kept there). The state is decoded only
  /// for a move the engine makes.
  mutating func expandReusing(key stateKey: [UInt32], payload statePayload: [UInt32]) {
    var taking = beginTaking()
    guard takingDepth < options.maxDepth else { return takeUnexpanded(taking) }
    words.removeAll(keepingCapacity: true)
    words += stateKey
    words += statePayload
    let (context, isNew) = transitions.context(of: words)
    if isNew { transitions.addMoves(explorer.moves(from: coder.expanding(clock: options.clock))) }
    // A move is copied out (retaining what it holds) only for the engine: a reused one is named by its place.
    let moves = transitions.moves[Int(context)]
    for index in moves.indices {
      let kind = transitions.moveKind(context: context, move: index)
      var place = TransitionCache.Place(context: context, move: index, outcome: nil)
      var records: [Record] = []
      var isAnotherState = false
      if let outcome = transitions.outcome(context: context, move: index, words: words) {
        result.transitionReuse.hits += 1
        let reused = transitions.kind(of: outcome)
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
        place.outcome = transitions.remember(
          kept, context: context, move: index, words: words, successor: successorWords, coder: &coder)
        switch made {
        case .refused: continue
        case .failed(let message):
          takeFailure(taking, move: moves[index], message: message)
          continue
        case .reached(_, let produced): records = produced
        }
      }
      let taken = takeEdge(
        &taking, move: nil, kind: kind, records: records, place: place, isAnotherState: isAnotherState,
        launchInputs: nil)
      guard taken else { break }
    }
    finishTaking(taking)
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
