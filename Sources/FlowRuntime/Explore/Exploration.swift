package import FlowCore

/// The state graph an ``Explorer`` found, in compact arrays indexed by state id (ids in breadth-first order).
package struct Exploration: Sendable {
  static let endedFlag: UInt8 = 1
  static let pendingFlag: UInt8 = 2

  package let flow: Flow
  package let options: ExploreOptions
  package var setups: [ExploreSetup] = []
  /// Initial states (one per distinct launch setup).
  package var roots: [Int32] = []
  /// The current step of each state (-1 none).
  package var step: [Int32] = []
  package var flags: [UInt8] = []
  /// The state each state was first reached from (-1 for roots) and the move that reached it.
  package var parent: [Int32] = []
  package var parentMove: [Int32] = []
  /// For the roots, the index of their setup in ``setups``: the roots are the first states (ids
  /// `0..<setupOf.count`), found before any state is expanded.
  package var setupOf: [Int32] = []
  /// The forward edges of state `s` (moves that go on through the flow, ``ExploreMove/isForward``) lead to
  /// `edgeTo[firstEdge[s]..<firstEdge[s+1]]` (only for processed states). Back, restart, reset and returns from
  /// the background are counted in ``edgeCount`` but not kept: no analysis follows them.
  package var firstEdge: [Int32] = []
  package var edgeTo: [Int32] = []
  /// Edges of the state graph, forward or not.
  package var edgeCount = 0
  package var moves: [ExploreMove] = []
  package var failures: [ExploreFailure] = []
  /// Non-terminal states not waiting for an answer from which nothing but back, restart or reset leads on, and not
  /// because of the texts explore typed (those are in ``inputLimits``).
  package var deadEnds: [Int32] = []
  /// For each of ``deadEnds``, whether `back` leads somewhere from it.
  package var deadEndCanGoBack: [Bool] = []
  /// States from which nothing leads on because their text input or form refused every text explore typed: a
  /// different text may go on, so they are not dead ends (see ``ExploreInputLimit``).
  package var inputLimits: [ExploreInputLimit] = []
  /// States whose moves were not all tried because a limit stopped the run: those at `--max-depth`, and the one
  /// being expanded when `--max-states` was reached. (States never taken from the queue, ids from ``processed``
  /// on, were not expanded either; ``frontier`` lists both.)
  package var unexpanded: [Int32] = []
  /// The first (shallowest) edge that took each declared transition.
  package var transitionWitness: [FlowTransition: (state: Int32, move: Int32)] = [:]
  package var permissionOutcomeWitness: [PermissionOutcome: (state: Int32, move: Int32)] = [:]
  /// The first state at each depth (moves from its launch along ``parent``): ids are in breadth-first order, so
  /// the states at depth `d` are `levels[d]..<levels[d + 1]`.
  package var levels: [Int32] = []
  /// The limit that stopped the exploration, if one did.
  package var stoppedAt: ExploreLimit?
  /// Whether a limit stopped the exploration (the results are partial).
  package var hitLimit: Bool { stoppedAt != nil }
  /// States whose moves were tried.
  package var processed = 0
  package var keyBytes = 0
  package var keyWidth = 0
  /// How the one-thread exploration reused moves (``TransitionCache``).
  package var transitionReuse = TransitionReuse()
  /// The parts explored on threads of their own, each holding some of the environments (Explorer+Partitioned.swift);
  /// 1 when one exploration found every state.
  package var parts = 1
  /// The batches of waiting states shared out to threads (Explorer+Parallel.swift); 0 on one thread. For an
  /// exploration in parts, those of the parts that took a spare thread.
  package var batches = 0
  /// The spare threads a part explored alone took (``Explorer/Exploring/takeSpareThread()``); for an exploration
  /// in parts, all the parts took.
  package var spareThreadsTaken = 0
  /// For each of ``setups``, the state its launch gave (-1 when the launch failed or a limit stopped it).
  var rootOfSetup: [Int32] = []
  /// For each of ``moves``, the state being taken when it was first made (-1 for a launch): explorations of
  /// separate environments are put together in one thread's order by it (Explorer+Partitioned.swift).
  var moveFirstTaken: [Int32] = []
  /// The report's paths and loops, worked out by ``Explorer/explore()`` as its last step (by each part on its own
  /// thread when explored in parts, then added up: Explorer+Partitioned.swift), so that the time it reports
  /// includes them however many threads explored; nil until then or when ``ExploreOptions/summarizesPaths`` is
  /// off, and the report then works them out.
  var pathSummary: PathSummary?

  /// Moves reused from the ``TransitionCache`` and moves made by the engine.
  package struct TransitionReuse: Sendable, Equatable {
    /// Moves whose result came from the cache.
    package var hits = 0
    /// Moves the engine made (then kept in the cache when it could).
    package var misses = 0
    /// With ``ExploreOptions/checksReusedTransitions``: reused moves whose result the engine gives differently.
    package var mismatches = 0
    /// Moves the engine made that changed a word their log does not account for (not kept).
    package var unaccounted = 0
  }

  init(flow: Flow, options: ExploreOptions) {
    self.flow = flow
    self.options = options
  }

  package var stateCount: Int { step.count }

  /// The states a limit left unexplored: not ended, and with moves that were never (or not all) tried. Nothing
  /// is known about where they lead, so none of them is a dead end.
  package var frontier: [Int32] {
    (unexpanded + (Int32(processed)..<Int32(stateCount))).filter { !isEnded($0) }
  }
  /// Moves from its launch to `state` along ``parent``.
  package func depth(of state: Int32) -> Int {
    var low = 0
    var high = levels.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if levels[middle] <= state { low = middle } else { high = middle }
    }
    return low
  }

  /// Records the depth of the new state `state` (states come in breadth-first order).
  mutating func noteDepth(of state: Int32, _ depth: Int) {
    if depth == levels.count { levels.append(state) }
  }

  package func isEnded(_ state: Int32) -> Bool { flags[Int(state)] & Self.endedFlag != 0 }
  package func isPending(_ state: Int32) -> Bool { flags[Int(state)] & Self.pendingFlag != 0 }

  /// Bytes the exploration needs: the keys and payloads with their table slots, the per-state arrays and the
  /// forward edges. Computed from counts, not from capacities or the process's memory, so every run of the same
  /// flow reports the same.
  package var bytesStored: Int {
    keyBytes + stateCount * (4 + 1 + 4 + 4) + setupOf.count * 4 + levels.count * 4 + firstEdge.count * 4
      + edgeTo.count * 4
  }

  /// The setup `state` was launched with: its launch's, reached through the parents.
  package func setup(of state: Int32) -> Int {
    var current = Int(state)
    while parent[current] >= 0 { current = Int(parent[current]) }
    return Int(setupOf[current])
  }

  /// The setup and the moves of the shortest path from a launch to `state`.
  package func path(to state: Int32) -> (setup: Int, moves: [ExploreMove]) {
    var moves: [ExploreMove] = []
    var current = state
    while parent[Int(current)] >= 0 {
      moves.append(self.moves[Int(parentMove[Int(current)])])
      current = parent[Int(current)]
    }
    return (setup(of: current), moves.reversed())
  }

  /// The path to `state` followed by `move`.
  package func path(to state: Int32, then move: Int32) -> (setup: Int, moves: [ExploreMove]) {
    let (setup, moves) = path(to: state)
    return (setup, move < 0 ? moves : moves + [self.moves[Int(move)]])
  }
}

/// A limit of ``ExploreOptions`` that stopped an exploration.
package enum ExploreLimit: Sendable, Equatable {
  case maxStates
  case maxDepth

  /// The `flowrun explore` option that sets it.
  package var option: String {
    switch self {
    case .maxStates: "--max-states"
    case .maxDepth: "--max-depth"
    }
  }

  /// The limit's value in `options`.
  package func value(in options: ExploreOptions) -> Int {
    switch self {
    case .maxStates: options.maxStates
    case .maxDepth: options.maxDepth
    }
  }
}

/// A move on which the flow itself failed (a route that matched nothing, an expression that cannot be evaluated).
package struct ExploreFailure: Sendable {
  /// -1 when the launch itself failed (then `setup` says which).
  package var state: Int32
  package var move: Int32
  package var setup: Int32
  package var message: String
}

/// A state from which nothing but back, restart or reset leads on, where the text input or form refused every text
/// explore typed and `next` is not disabled whatever is typed: not reached further with the inputs tried, which is
/// not a dead end (declaring `values:` that pass lets explore go on).
package struct ExploreInputLimit: Sendable {
  /// An input that accepted none of the texts tried, by its own checks.
  package struct Input: Sendable, Equatable {
    /// The form field's name; nil for a text input.
    package var field: String?
    /// The texts tried, in order.
    package var tried: [String]
    /// Why the first non-empty text tried (or the only one) was refused.
    package var refusal: String
  }

  package var state: Int32
  /// The texts (a text input) or fillings (a form) tried on the state, all refused.
  package var tried: Int
  /// The inputs that accepted none of their texts; empty when each accepted one but no combination tried enabled
  /// `next`.
  package var inputs: [Input]
  /// Why the first input move was refused.
  package var refusal: String
}
