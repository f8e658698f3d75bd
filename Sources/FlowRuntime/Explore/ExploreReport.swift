import FlowCore

/// What `flowrun explore` reports: reachable steps, terminals with their path counts, shortest paths, states
/// with no way forward, loops and the flow's own failures.
///
/// Paths are counted over forward moves only (back, restart and reset are left out: they would make every count
/// infinite), from every launch setup. When forward moves still form cycles (a loop in the flow), each strongly
/// connected set of states is counted as one node: a path through a loop counts once, however often the loop is
/// gone round.
package struct ExploreReport: Sendable {
  /// A way to reach `step`: from a launch with `setup`, or, for a long path, from where the shortest path to the
  /// step `after` ends (listed under that step), then `commands`.
  package struct StepPath: Sendable {
    package var step: String
    package var setup: String
    package var after: String?
    package var commands: [String]
  }

  /// Paths of more moves than this are written from an earlier step's shortest path (``StepPath/after``), so a
  /// report stays linear in the number of states: a chain of 10,000 steps does not list 50 million moves.
  package static let fullPathLimit = 64
  package struct Terminal: Sendable {
    package var step: String
    package var outcome: String
    package var states: Int
    /// Saturates at Int.max.
    package var paths: Int
  }
  package struct DeadEnd: Sendable {
    package var step: String
    package var states: Int
    package var canGoBack: Bool
    package var example: StepPath
  }
  /// States of one step explore could not get past because its text input or form refused every text tried (see
  /// ``ExploreInputLimit``): not stuck, and not a dead end.
  package struct InputLimited: Sendable {
    package var step: String
    package var states: Int
    package var example: StepPath
    /// Whether the step is a form (else a text input).
    package var isForm: Bool
    /// The texts (a text input) or fillings (a form) tried on the example state, all refused.
    package var tried: Int
    /// The inputs that accepted none of their texts (empty: each accepted one, but `next` stayed disabled).
    package var inputs: [ExploreInputLimit.Input]
    /// Why the example's first input move was refused.
    package var refusal: String
  }
  /// States of one step that a limit left unexplored (see ``Exploration/frontier``).
  package struct Unexplored: Sendable {
    package var step: String
    package var states: Int
    package var example: StepPath
  }
  package struct Loop: Sendable {
    package var steps: [String]
    package var states: Int
  }
  package struct Failure: Sendable {
    package var message: String
    package var count: Int
    package var example: StepPath
  }

  package var flow: String
  package var version: String
  package var states: Int
  package var edges: Int
  package var setups: Int
  package var hitLimit: Bool { stoppedAt != nil }
  /// The option and value of the limit that stopped the exploration (`--max-states 3`), if one did.
  package var stoppedAt: String?
  package var maxStates: Int
  package var reachable: [String]
  /// Steps not reached, and not behind a step whose inputs refused every text tried (``notReachedWithInputsTried``).
  package var unreachable: [String]
  /// Steps not reached that a step in ``inputLimited`` leads to (through declared transitions): explore did not
  /// get there with the texts it typed, which does not make them unreachable.
  package var notReachedWithInputsTried: [String]
  package var retiredUnreached: [String]
  package var terminals: [Terminal]
  package var shortest: [StepPath]
  package var deadEnds: [DeadEnd]
  package var inputLimited: [InputLimited]
  /// Where a limit stopped the run: states whose moves were not tried, by step (never reported as dead ends).
  package var unexplored: [Unexplored]
  package var loops: [Loop]
  package var failures: [Failure]
  package var declaredTransitions: Int
  package var untakenTransitions: [FlowTransition]
  package var permissionOutcomes: [PermissionOutcome]
  package var bytesPerState: Double
  /// Whether states were kept as fingerprints (``ExploreOptions/compact``).
  package var compact = false
  /// What each variant of each experiment reaches (empty for a flow without experiments).
  package var variants: [VariantReach] = []

  /// Whether the exploration found something to fix: a state with no way forward, a failure, the limit, or an
  /// input that refused every text tried (like the limit, the results are then partial).
  package var hasProblems: Bool { !deadEnds.isEmpty || !failures.isEmpty || hitLimit || !inputLimited.isEmpty }
}

// MARK: - Building

extension ExploreReport {
  package init(_ exploration: Exploration) {
    let flow = exploration.flow
    self.flow = flow.id
    version = flow.version
    states = exploration.stateCount
    edges = exploration.edgeCount
    setups = exploration.setups.count
    stoppedAt = exploration.stoppedAt.map { "\($0.option) \($0.value(in: exploration.options))" }
    maxStates = exploration.options.maxStates
    bytesPerState = exploration.stateCount == 0 ? 0 : Double(exploration.bytesStored) / Double(exploration.stateCount)
    compact = exploration.options.compact

    var firstState = [Int32](repeating: -1, count: flow.steps.count)
    var terminalStates = [Int](repeating: 0, count: flow.steps.count)
    for state in 0..<exploration.stateCount {
      let step = Int(exploration.step[state])
      guard step >= 0 else { continue }
      if firstState[step] < 0 { firstState[step] = Int32(state) }
      if exploration.isEnded(Int32(state)) { terminalStates[step] += 1 }
    }

    /// A step's id; `launch` for a state before the first step (an action run at launch).
    func stepID(_ step: Int) -> String { step >= 0 ? flow.steps[step].id : "launch" }
    func setupText(_ setup: Int) -> String {
      setup >= 0 && setup < exploration.setups.count ? exploration.setups[setup].description : "?"
    }
    /// The moves to `state` (then `move`), from its launch or, past ``fullPathLimit`` moves, from the nearest
    /// earlier state that is the first state of its step.
    func pathTo(_ state: Int32, step: String, then move: Int32 = -1) -> StepPath {
      var moves: [ExploreMove] = move < 0 ? [] : [exploration.moves[Int(move)]]
      var current = Int(state)
      var after: String?
      let long = exploration.depth(of: state) > Self.fullPathLimit
      while exploration.parent[current] >= 0 {
        let currentStep = Int(exploration.step[current])
        if long, current != Int(state), currentStep >= 0, firstState[currentStep] == Int32(current) {
          after = flow.steps[currentStep].id
          break
        }
        moves.append(exploration.moves[Int(exploration.parentMove[current])])
        current = Int(exploration.parent[current])
      }
      return StepPath(
        step: step, setup: setupText(exploration.setup(of: Int32(current))), after: after,
        commands: moves.reversed().map(\.command))
    }

    reachable = flow.steps.indices.filter { firstState[$0] >= 0 }.map { flow.steps[$0].id }
    // The steps a state whose inputs refused every text tried leads to, through declared transitions.
    var behindInputs = Set(exploration.inputLimits.map { flow.steps[Int(exploration.step[Int($0.state)])].id })
    var pending = Array(behindInputs)
    let declared = flow.declaredTransitions.map(\.transition)
    while let from = pending.popLast() {
      for transition in declared where transition.from == from && behindInputs.insert(transition.to).inserted {
        pending.append(transition.to)
      }
    }
    let notReached = flow.steps.indices.filter { firstState[$0] < 0 && !flow.steps[$0].isRetired }.map {
      flow.steps[$0].id
    }
    unreachable = notReached.filter { !behindInputs.contains($0) }
    notReachedWithInputsTried = notReached.filter { behindInputs.contains($0) }
    retiredUnreached = flow.steps.indices.filter { firstState[$0] < 0 && flow.steps[$0].isRetired }.map {
      flow.steps[$0].id
    }
    shortest = flow.steps.indices.filter { firstState[$0] >= 0 }.map { pathTo(firstState[$0], step: flow.steps[$0].id) }

    // Worked out by the exploration (on the parts' threads when the states were explored in parts).
    let paths = exploration.pathSummary ?? PathSummary(exploration)
    terminals = flow.steps.indices.filter { terminalStates[$0] > 0 }.map { index in
      Terminal(
        step: flow.steps[index].id, outcome: (flow.steps[index].terminalOutcome ?? .completed).rawValue,
        states: terminalStates[index], paths: paths.pathsToStep[index])
    }
    loops = paths.loops(of: flow)

    var deadEnds: [DeadEnd] = []
    for (state, back) in zip(exploration.deadEnds, exploration.deadEndCanGoBack) {
      let step = flow.steps[Int(exploration.step[Int(state)])].id
      if let index = deadEnds.firstIndex(where: { $0.step == step }) {
        deadEnds[index].states += 1
        deadEnds[index].canGoBack = deadEnds[index].canGoBack || back
      } else {
        deadEnds.append(DeadEnd(step: step, states: 1, canGoBack: back, example: pathTo(state, step: step)))
      }
    }
    self.deadEnds = deadEnds

    var inputLimited: [InputLimited] = []
    for limit in exploration.inputLimits {
      let index = Int(exploration.step[Int(limit.state)])
      let step = flow.steps[index].id
      if let existing = inputLimited.firstIndex(where: { $0.step == step }) {
        inputLimited[existing].states += 1
      } else {
        inputLimited.append(
          InputLimited(
            step: step, states: 1, example: pathTo(limit.state, step: step), isForm: flow.steps[index].textInput == nil,
            tried: limit.tried, inputs: limit.inputs, refusal: limit.refusal))
      }
    }
    self.inputLimited = inputLimited

    var unexplored: [Unexplored] = []
    for state in exploration.frontier {
      let index = Int(exploration.step[Int(state)])
      guard index >= 0 else { continue }
      let step = flow.steps[index].id
      if let existing = unexplored.firstIndex(where: { $0.step == step }) {
        unexplored[existing].states += 1
      } else {
        unexplored.append(Unexplored(step: step, states: 1, example: pathTo(state, step: step)))
      }
    }
    self.unexplored = unexplored

    var failures: [Failure] = []
    for failure in exploration.failures {
      if let index = failures.firstIndex(where: { $0.message == failure.message }) {
        failures[index].count += 1
        continue
      }
      let example =
        failure.state < 0
        ? StepPath(step: "launch", setup: setupText(Int(failure.setup)), after: nil, commands: [])
        : pathTo(failure.state, step: stepID(Int(exploration.step[Int(failure.state)])), then: failure.move)
      failures.append(Failure(message: failure.message, count: 1, example: example))
    }
    self.failures = failures

    declaredTransitions = declared.count
    untakenTransitions =
      exploration.options.trackTransitions
      ? declared.filter { exploration.transitionWitness[$0] == nil } : []
    permissionOutcomes = exploration.permissionOutcomeWitness.keys.sorted()
    variants = Self.variantReach(exploration)
  }
}
