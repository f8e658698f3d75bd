package import FlowCore

/// Exhaustive, deduplicated breadth-first exploration of a flow's states with the pure ``Engine``.
///
/// What is tried from every state:
/// - launch setups: every combination of the declared facts' `values` (bools: both; no `values`: the default)
///   and of the initial permission statuses notDetermined/granted/denied/unavailable (`partial` is reached by a
///   request). When the permissions give more than ``ExploreOptions/maxPermissionCombinations`` combinations,
///   one permission varies at a time (the others notDetermined). The store starts empty. For a flow with
///   experiments, each of those once per combination of variants, pinned (a restart keeps the variant).
/// - user events: next, skip, back, every option of a single choice, for a multi-choice each single option and
///   all options together (at most `max`; choosing nothing is `next`), the texts ``ExploreInputs`` chooses for a
///   text input or form (from `values:`, the field's type and the conditions that read it), a tap on every
///   button and on a permission step's request button, waiting for a pending auto-advance, restart (a relaunch
///   from the state's store; permission statuses as the device keeps them) and reset; for a flow with
///   `foreground:`, leaving the app and returning (unchanged, and with each permission allowed or refused in
///   Settings meanwhile), and each `open:` entry with sample parameters.
/// - answers: every outcome of the pending action with one representative result; a permission request whose
///   status is still undetermined (or partial, for a kind whose dialog asks again) gets granted, denied,
///   partial, error and timeout, a decided one answers its status (as iOS does, no dialog).
///
/// A state from which no forward move leads on is a dead end, unless its text input or form refused every text
/// tried and `next` is not disabled whatever is typed: then explore did not get past it with the inputs it tried
/// (``Exploration/inputLimits``), which says nothing about the flow.
///
/// States are normalized before they are compared: the clock stays at the launch time (a wait fires the pending
/// timer and time goes back; a pending timer is kept as its delay), and only the last
/// ``ExploreOptions/historyDepth`` steps of the back history are kept (back goes at most that far). Each state is
/// stored as a key of a few 32-bit words (step, variables, store, permissions, facts, pending answer, timer,
/// history), not as a ``RunState``; variables that no condition, route, check or assignment reads (answers
/// kept for analytics and texts) are compared only by whether they are empty (see ``Flow/controlReads``).
package struct Explorer: Sendable {
  package let flow: Flow
  package var options: ExploreOptions
  let engine: Engine
  /// What is typed into each step's text input or form.
  let inputs: ExploreInputs

  package init(flow: Flow, options: ExploreOptions = .init()) {
    self.flow = flow
    self.options = options
    var engine = Engine(flow: flow, workingOutHooks: true)
    // Explore reads only the moves of the records (for transition witnesses).
    engine.recordsOnlyMoves = true
    self.engine = engine
    self.inputs = ExploreInputs(flow: flow, clock: options.clock)
  }

  // MARK: - Setups

  /// The launch setups explored: environment facts x initial permission statuses.
  package var setups: [ExploreSetup] {
    var environments: [[String: Value]] = [[:]]
    for fact in flow.facts {
      var values = fact.values
      if values.isEmpty { values = fact.type == .bool ? [.bool(false), .bool(true)] : [fact.defaultValue] }
      environments = environments.flatMap { base in values.map { base.merging([fact.name: $0]) { $1 } } }
    }
    let kinds = flow.permissions.map(\.value)
    // `partial` is reached by a request that answers it (and a restart keeps it), so launches need not try it.
    let statuses = PermissionStatus.onDevice.filter { $0 != .partial }
    var permissionSets: [[PermissionKind: PermissionStatus]] = [[:]]
    var total = 1
    for _ in kinds { total = total > options.maxPermissionCombinations ? total : total * statuses.count }
    if total <= options.maxPermissionCombinations {
      for kind in kinds {
        permissionSets = permissionSets.flatMap { base in statuses.map { base.merging([kind: $0]) { $1 } } }
      }
    } else {
      let undetermined = Dictionary(uniqueKeysWithValues: kinds.map { ($0, PermissionStatus.notDetermined) })
      permissionSets = [undetermined]
      for kind in kinds {
        for status in statuses.dropFirst() { permissionSets.append(undetermined.merging([kind: status]) { $1 }) }
      }
    }
    // Every variant of every experiment, pinned: explore covers each arm whatever the facts' ids would assign.
    var variantSets: [[String: String]] = [[:]]
    for experiment in flow.experiments {
      variantSets = variantSets.flatMap { base in
        experiment.variants.map { base.merging([experiment.name: $0.name]) { $1 } }
      }
    }
    return variantSets.flatMap { variants in
      environments.flatMap { environment in
        permissionSets.map { ExploreSetup(environment: environment, permissions: $0, variants: variants) }
      }
    }
  }

  // MARK: - Exploring

  /// Every state reached from the setups, breadth first, within the limits, and (unless
  /// ``ExploreOptions/summarizesPaths`` is off) the paths and loops the report counts in their graph
  /// (``Exploration/pathSummary``).
  package func explore() -> Exploration {
    // Environments that share no state go to threads of their own (Explorer+Partitioned.swift); one
    // environment's states are shared out in batches (Explorer+Parallel.swift).
    if options.jobs > 1, let exploration = explorePartitioned() { return exploration }
    return exploreAlone(setups: nil)
  }

  /// The states reached from `setups` (nil: all of the flow's) explored on this thread, then their paths and
  /// loops. Those are worked out once the state set and the transition cache are freed, in their memory: worked
  /// out while those were still held, they raised anicca-v01's peak resident memory by about a quarter.
  func exploreAlone(setups: [ExploreSetup]?) -> Exploration {
    var exploration = Self.run(Exploring(self, setups: setups))
    if options.summarizesPaths { exploration.pathSummary = PathSummary(exploration) }
    return exploration
  }

  /// `exploring` launched and run to its end; it is freed when this returns.
  @inline(never)
  private static func run(_ exploring: consuming Exploring) -> Exploration {
    exploring.launch()
    exploring.expandWaiting()
    return exploring.finish()
  }

  /// Most relaunch results kept (by facts, permissions and store) while exploring.
  static let restartCacheSize = 16_384
  /// Relaunch results by what a relaunch depends on (``StateCoder/launchInputs()``): the key and payload of the
  /// state it gives, and its records until their transitions have a witness.
  typealias RestartCache = [LaunchInputs: (words: [UInt32], records: [Record])]

  /// What one move from a state gives.
  enum Successor: Sendable {
    /// The state after the move (normalized), encoded: its key and payload are the next words of
    /// ``Expansion/words``; and what happened on the way.
    case encoded(ExploreMove, [Record])
    /// The state after the move (normalized), when the coder that tried the move could not encode it (a parallel
    /// thread's copy, which met a value new to it: ``ExpandedPiece``), and what happened on the way.
    case reached(ExploreMove, RunState, [Record])
    /// The flow failed on the move.
    case failed(ExploreMove, String)
    /// A relaunch whose result the relaunch cache holds: not computed again.
    case cachedRestart
  }

  /// A state taken from the queue and what its moves gave; `successors` is nil for a state at --max-depth,
  /// whose moves are not tried.
  struct Expansion: Sendable {
    /// The state, decoded when its moves are tried (``StateCoder/expanding(clock:)``).
    var state: RunState?
    var successors: [Successor]?
    /// The keys and payloads of the ``Successor/encoded(_:_:)`` successors, in their order.
    var words: [UInt32] = []

    init(state: RunState?) {
      self.state = state
    }

    /// Tries every move from `state`, in the order of ``Explorer/moves(from:)``, leaving out the moves the engine
    /// refuses; a relaunch is ``Successor/cachedRestart`` when `restartCached`. Each state reached is encoded by
    /// `coder`, whose state being expanded must be this one (``StateCoder/expand(_:key:payload:)``), as soon as
    /// it is reached: only its words are kept.
    mutating func tryMoves(_ explorer: Explorer, restartCached: Bool, coder: inout StateCoder) {
      guard let state else { return }
      var result: [Successor] = []
      var key = [UInt32].zeroWords(coder.width)
      var payload = [UInt32].zeroWords(coder.payloadWidth)
      let moves = explorer.moves(from: state)
      words.reserveCapacity(moves.count * (key.count + payload.count))
      for move in moves {
        if restartCached && move == .restart {
          result.append(.cachedRestart)
          continue
        }
        do {
          guard let (next, records) = try explorer.apply(move, to: state) else { continue }
          if coder.encode(next, into: &key, payload: &payload) {
            words += key
            words += payload
            result.append(.encoded(move, records))
          } else {
            result.append(.reached(move, next, records))
          }
        } catch {
          result.append(.failed(move, "\(error)"))
        }
      }
      successors = result
    }
  }

  // MARK: - Moves

  /// Everything tried from `state`, in a fixed order.
  package func moves(from state: RunState) -> [ExploreMove] {
    var result: [ExploreMove] = []
    if state.ended != nil { return [.restart, .event(.reset)] }
    if let pending = state.pending {
      if let kind = pending.permission {
        let status = (state.permissions[kind] ?? .notDetermined).remembered
        let outcomes =
          status.requestShowsDialog(for: kind)
          ? PermissionStatus.requestOutcomes.filter { $0 != .unavailable } : [status]
        return outcomes.map {
          .answer(action: pending.action, permission: kind, outcome: $0.rawValue, result: [:])
        }
      }
      guard let declaration = flow.action(pending.action) else { return [] }
      return declaration.outcomeNames.map {
        .answer(
          action: pending.action, permission: nil, outcome: $0,
          result: ActionScript.answer($0, of: declaration).result)
      }
    }
    guard let current = state.current else { return [.restart] }
    let step = flow.steps[current]
    if step.next != nil { result.append(.event(.next)) }
    if step.skip != nil { result.append(.event(.skip)) }
    if let choice = step.choice, step.next != nil {
      let ids = choice.options.map(\.id)
      if step.kind == .singleChoice {
        result += ids.map { .event(.choose([$0])) }
      } else {
        if choice.min <= 1 && (choice.max ?? 1) >= 1 { result += ids.map { .event(.choose([$0])) } }
        let all = Array(ids.prefix(choice.max ?? ids.count))
        if all.count > 1 && all.count >= choice.min { result.append(.event(.choose(all))) }
      }
    }
    if step.next != nil { result += inputs.events[current].map(ExploreMove.event) }
    if step.permission != nil, !step.buttons.contains(where: { $0.name == "request" }) {
      result.append(.event(.tap("request")))
    }
    result += step.buttons.map { .event(.tap($0.name)) }
    if let timer = state.timer { result.append(.event(.elapse(seconds: max(0, timer - state.clock)))) }
    if (step.back ?? flow.back) && !state.history.isEmpty { result.append(.event(.back)) }
    // The app leaves and comes back: unchanged, and with each permission allowed or refused in Settings meanwhile
    // (only for a flow that says what a return does), and every deep link with sample parameters.
    if flow.foreground != nil {
      result.append(.returnFromBackground([:]))
      for permission in flow.permissions {
        let kind = permission.value
        for status in [PermissionStatus.granted, .denied]
        where (state.permissions[kind] ?? .notDetermined).remembered != status {
          result.append(.returnFromBackground([kind: status]))
        }
      }
    }
    result += inputs.links.map { .event(.open($0)) }
    result.append(.restart)
    result.append(.event(.reset))
    return result
  }

  /// Why nothing leads on from `state` (a state with no forward move), when it is the texts explore typed: its text
  /// input or form refused them, and `next` is not disabled whatever is typed (an `enabled` that reads none of the
  /// step's inputs and is false). Nil when no input move was refused, or when `next` stays disabled: a dead end.
  func inputLimit(of state: RunState, id: Int32) -> ExploreInputLimit? {
    guard let current = state.current, let next = flow.steps[current].next else { return nil }
    let step = flow.steps[current]
    // On a text input, `next` confirms the text the field holds: an input move too (not counted as a text tried).
    let events = inputs.events[current] + (step.textInput != nil ? [FlowEvent.next] : [])
    var refusals: [String] = []
    for event in events {
      var probe = state
      do {
        _ = try engine.handle(event, in: &probe)
      } catch .rejected(let rejection) {
        refusals.append(rejection.message)
      } catch {}
    }
    guard let refusal = refusals.first else { return nil }
    if let enabled = next.enabled {
      let written = Set(step.fields.map(\.target.variable) + [step.textInput?.variable.value].compactMap { $0 })
      let readsInput = enabled.expression.references.contains { written.contains($0.path.first ?? "") }
      if !readsInput && engine.nextEnabledHolds(in: state) == false { return nil }
    }
    var refusing: [ExploreInputLimit.Input] = []
    for candidates in inputs.candidates[current] where !candidates.texts.isEmpty {
      let problems = candidates.texts.map { engine.inputProblem($0, field: candidates.field, in: state) }
      guard problems.allSatisfy({ $0 != nil }) else { continue }
      let shown = candidates.texts.firstIndex { !$0.isEmpty } ?? 0
      refusing.append(.init(field: candidates.field, tried: candidates.texts, refusal: problems[shown] ?? ""))
    }
    let tried = min(refusals.count, inputs.events[current].count)
    return ExploreInputLimit(state: id, tried: tried, inputs: refusing, refusal: refusal)
  }

  /// Applies a move; nil when the engine refuses it. Throws the flow's own failures. `log`, when given, notes what
  /// the move read and wrote of the state (``AccessLog``).
  func apply(_ move: ExploreMove, to state: RunState, log: AccessLog? = nil) throws -> (RunState, [Record])? {
    var next = state
    let records: [Record]
    do {
      switch move {
      case .event(let event): records = try engine.handle(event, in: &next, log: log)
      case .answer(_, _, let outcome, let result):
        records = try engine.handle(.outcome(outcome, result: result), in: &next, log: log)
      case .restart:
        // The statuses the device keeps of the state's: the transition cache writes them so, by a mark, without
        // the relaunch reading them (TransitionCache.rememberedPermissions).
        let launch = Launch(
          environment: state.environment, permissions: state.permissions.mapValues(\.remembered),
          store: state.store, clock: options.clock, variants: flow.variants(in: state))
        (next, records) = try engine.launch(launch, log: log)
      case .returnFromBackground(let changes):
        var produced = try engine.handle(.background, in: &next, log: log)
        let device = state.permissions.mapValues(\.remembered).merging(changes) { $1 }
        produced += try engine.handle(.foreground(permissions: device), in: &next, log: log)
        records = produced
      }
    } catch .rejected {
      return nil
    } catch .failed(let error) {
      throw error
    }
    normalize(&next)
    return (next, records)
  }

  func normalize(_ state: inout RunState) {
    if let timer = state.timer { state.timer = timer - state.clock + options.clock }
    state.clock = options.clock
    if state.history.count > options.historyDepth {
      var kept = History()
      for step in state.history.steps.suffix(options.historyDepth) { kept.append(step) }
      state.history = kept
    }
  }
}

// MARK: - Options and setup

package struct ExploreOptions: Sendable {
  /// Stop after this many distinct states (`--max-states`; state ids are 32-bit).
  package var maxStates = 2_000_000
  /// Do not try the moves of states this many moves from a launch (`--max-depth`).
  package var maxDepth = 1_000_000
  /// Steps of back history that states keep (and compare) (`--history-depth`; each costs 4 bytes per state).
  package var historyDepth = 2

  /// The values `flowrun explore` accepts for each limit.
  package static let maxStatesRange = 1...1_000_000_000
  package static let maxDepthRange = 1...1_000_000_000
  package static let historyDepthRange = 0...100
  package static let jobsRange = 1...256
  package static let oneThreadFirstRange = 0...1_000_000_000
  /// Above this many combinations of initial permission statuses, one permission varies at a time.
  package var maxPermissionCombinations = 64
  /// Record which declared transitions and permission outcomes are taken (for reports and `--emit-scenarios`).
  package var trackTransitions = true
  /// Work out the paths and loops the report counts (``Exploration/pathSummary``) as exploring's last step, on the
  /// parts' threads when there are parts. Off, the report works them out itself: the comparison with SPIN
  /// (`flowbench explore`) times the exploration alone, which is what SPIN's rate is.
  package var summarizesPaths = true
  /// The virtual clock at launch (seconds since 1970-01-01 00:00 UTC).
  package var clock: Double = 9 * 3600
  /// Keep each state as a 64-bit fingerprint of its key instead of the key (`--compact`, hash compaction): less
  /// memory per state, at the risk (about n² / 2⁶⁵ for n states) that two states are taken as one.
  package var compact = false
  /// Threads that explore (`--jobs`): the result is the same for every value. Setups in several environments or
  /// with several sets of experiment variants are explored in parts, one's states never being reached from
  /// another's (Explorer+Partitioned.swift);
  /// one environment's waiting states are shared out in batches (Explorer+Parallel.swift).
  package var jobs = 1
  /// A flow equal to the one explored that shares no storage with it (read and compiled again from its bytes,
  /// `LoadedFlow.flowCopier`), or nil. With it, each part but the first (Explorer+Partitioned.swift) explores
  /// a copy of its own: threads that share the flow's strings and arrays change their reference counts, and the
  /// cache lines that hold them then go back and forth between the cores.
  package var flowForEachPart: (@Sendable () -> Flow?)?
  /// For a part of an exploration in parts (Explorer+Partitioned.swift): the threads no part explores, which the
  /// part may take to share its waiting states out in batches (Explorer+Parallel.swift). Those are the jobs beyond
  /// the parts, and the threads of the parts done.
  package var spareThreads: Explorer.SpareThreads?
  /// Whether the parts of an exploration in parts take spare threads (``spareThreads``). Off, each part is explored
  /// on its own thread alone, so what the parts do does not depend on which ends first: `scripts/perf-guard.py`
  /// counts their instructions so.
  package var partsTakeSpareThreads = true
  /// With more than one job and no parts, the states expanded on one thread first: its transition cache
  /// learns most moves early, and each thread then starts from a copy of it instead of learning them again (a
  /// flow with fewer states is explored on one thread).
  package var oneThreadFirst = 32_768
  /// Reuse what a move did from one state for the states that agree with it on what the move read
  /// (``TransitionCache``). Off, one thread makes every move with the engine (tests compare the two); more
  /// threads always reuse moves, each through its own cache (Explorer+Parallel.swift).
  package var reusesTransitions = true
  /// Make every reused move with the engine too, and count the ones whose results differ
  /// (``Exploration/transitionReuse``): for tests.
  package var checksReusedTransitions = false
  /// Called every ``ExploreProgress/interval`` states expanded (`flowrun explore`'s progress line).
  package var progress: (@Sendable (ExploreProgress) -> Void)?
  package init() {}
}

/// How far an exploration has got.
package struct ExploreProgress: Sendable {
  /// States expanded between two calls of ``ExploreOptions/progress``.
  package static let interval = 16_384
  /// Distinct states found.
  package var states: Int
  /// States whose moves were tried; the others (`states - expanded`) wait in the frontier.
  package var expanded: Int
  /// Edges of the state graph so far.
  package var moves: Int
  package var frontier: Int { states - expanded }
}

/// One launch: the device's facts, the permission statuses it reports and the variant pinned per experiment.
package struct ExploreSetup: Hashable, Sendable {
  package var environment: [String: Value]
  package var permissions: [PermissionKind: PermissionStatus]
  package var variants: [String: String] = [:]

  func launch(clock: Double) -> Launch {
    Launch(environment: environment, permissions: permissions, store: [:], clock: clock, variants: variants)
  }

  /// `paywall=late osVersion=26 locale=ja-JP notifications=denied`: variants, facts, statuses.
  package var description: String {
    let variants = self.variants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let facts = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.description)" }
    let statuses = permissions.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key)=\($0.value)" }
    let all = variants + facts + statuses
    return all.isEmpty ? "(defaults)" : all.joined(separator: " ")
  }
}

/// One edge of the state graph: a user event, a provider's answer, or a relaunch.
package enum ExploreMove: Hashable, Sendable {
  case event(FlowEvent)
  case answer(action: ActionName, permission: PermissionKind?, outcome: String, result: [String: Value])
  case restart
  /// The app goes to the background and returns, with these permissions changed in Settings meanwhile.
  case returnFromBackground([PermissionKind: PermissionStatus])

  /// Moves that go on through the flow (not back, restart or reset).
  var isForward: Bool {
    switch self {
    case .event(.back), .event(.reset), .restart, .returnFromBackground: false
    default: true
    }
  }

  /// The `flowrun` command (`next`, `choose a,b`, `input "Akira"`, `wait 3`), or for an answer
  /// `[notifications: granted]`.
  package var command: String {
    switch self {
    case .restart: return "restart"
    case .returnFromBackground(let changes): return Self.backgroundCommands(changes).joined(separator: ", ")
    case .answer(let action, let permission, let outcome, _):
      return "[\(permission?.rawValue ?? action.rawValue): \(outcome)]"
    case .event(.outcome(let name, _)): return "[\(name)]"
    case .event(let event): return Command(sending: event)?.description ?? "restart"
    }
  }
}

extension ExploreMove {
  /// The commands of a return from the background: `background`, a `settings` per change, `foreground`.
  package static func backgroundCommands(_ changes: [PermissionKind: PermissionStatus]) -> [String] {
    let settings = changes.sorted { $0.key.rawValue < $1.key.rawValue }.map {
      Command(.settings([.init(kind: $0.key.rawValue, status: $0.value.rawValue)])).description
    }
    return ["background"] + settings + ["foreground"]
  }
}

/// A permission request's outcome on a step.
package struct PermissionOutcome: Hashable, Sendable, Comparable, CustomStringConvertible {
  package var step: String
  package var permission: String
  package var outcome: String
  package var description: String { "\(step): \(permission) \(outcome)" }
  package static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.step, lhs.permission, lhs.outcome) < (rhs.step, rhs.permission, rhs.outcome)
  }
}
