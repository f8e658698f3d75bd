/// The interpreter: a pure function from (state, event) to (new state, ordered records).
///
/// No I/O happens here. Effects are returned as data (``RuntimeEffect``) for handlers to perform; actions and
/// permission requests are returned as ``RuntimeEffect/perform(action:permission:)`` and their answers come back
/// as ``FlowEvent/outcome(_:result:)``. The same state and event always give the same result.
package struct Engine: Sendable {
  /// The flow, behind one reference: every event copies the engine into a ``Run``, and copying a ``Flow`` by
  /// value retains each of its fields (a quarter of an event's instructions on the chain benchmark).
  let storage: FlowStorage
  package var flow: Flow { storage.flow }
  /// Each step as expressions see it (``Step/expressionValue``), built once.
  var stepValues: [Value] { storage.stepValues }
  /// Most automatic moves (skips, zero-delay auto-advances) one event may cause.
  package var maxAutomaticMoves = 1_000
  /// Show texts in this locale whatever the flow's `language` says (`flowrun --lang`).
  package var languageOverride: String?
  /// Whether a `next` that is a plain move (``FlowStorage/plainNext``) is made without the general path (tests
  /// turn it off to compare the two).
  package var takesPlainMoves = true
  /// Whether the records hold only the moves (``Record/moved(from:to:route:name:)``), not the steps entered,
  /// routes and skips explained, effects and warnings. `flowrun explore` reads only the moves (for transition
  /// witnesses) and turns it on: building the other records (a route's `why` evaluates its condition again and
  /// writes its text) is most of an event's work there. The state an event leaves and the errors it throws are
  /// the same either way: an expression whose value only a record would show is still evaluated.
  package var recordsOnlyMoves = false

  /// An engine for `flow`, which must have compiled without errors (``FlowCompiler/compile(_:file:)``).
  ///
  /// - Parameter workingOutHooks: work out once what of the hooks' effects reads only `step` (``StepTable``): it
  ///   pays for an engine that handles a great many events (`flowrun explore`), not for one that runs a scenario
  ///   row, since it evaluates those expressions once per step when the engine is made.
  package init(flow: Flow, workingOutHooks: Bool = false) {
    storage = FlowStorage(flow, workingOutHooks: workingOutHooks)
  }

  /// Applies `event` to `state`.
  ///
  /// - Parameters:
  ///   - event: what happened.
  ///   - step: the step the event was meant for (a tap on a button of that step). When it is no longer the
  ///     current step, the event is ignored and recorded as stale.
  ///   - state: the run's state; unchanged when the call throws.
  ///   - log: where what the event reads and writes of the variables, stored values, facts, permission statuses
  ///     and experiment variants is noted (``AccessLog``), when given.
  /// - Returns: what happened, in order.
  /// - Throws: ``FlowError/rejected(_:)`` when the event does not fit the current step;
  ///   ``FlowError/failed(_:)`` when the flow itself fails (an endless automatic loop, a route that matches
  ///   nothing, an expression that cannot be evaluated).
  package func handle(
    _ event: FlowEvent, at step: String? = nil, in state: inout RunState, log: AccessLog? = nil
  ) throws(FlowError) -> [Record] {
    var records: [Record] = []
    records.reserveCapacity(4)
    try handle(event, at: step, in: &state, records: &records, log: log)
    return records
  }

  /// Applies `event` to `state`, as ``handle(_:at:in:log:)`` does, with what happened in `records` (its contents
  /// replaced, its storage kept): a caller that handles event after event reuses one array, and an event then
  /// allocates nothing. `log`, when given, notes what the event reads and writes (``AccessLog``), added to what it
  /// noted since the caller last cleared it.
  package func handle(
    _ event: FlowEvent, at step: String? = nil, in state: inout RunState, records: inout [Record],
    log: AccessLog? = nil
  ) throws(FlowError) {
    // Emptied one by one: removeAll(keepingCapacity:) costs more than the two or three records of an event.
    while !records.isEmpty { records.removeLast() }
    if let step, let current = state.current, flow.steps[current].id != step {
      records.append(.stale(event: event.name, step: step))
      return
    }
    if takesPlainMoves, case .next = event, !state.inBackground, let current = state.current, !state.hasEnded,
      !state.isWaiting, let move = storage.plainNext[current]
    {
      takePlainMove(move, from: current, in: &state, records: &records)
      return
    }
    // The run works on a copy; the caller's state is replaced only when the event is handled.
    var run = Run(engine: self, state: state)
    run.log = log
    swap(&records, &run.records)
    do {
      try run.handle(event)
    } catch {
      run.records.removeAll(keepingCapacity: true)
      swap(&records, &run.records)
      throw FlowError(error)
    }
    swap(&state, &run.state)
    swap(&records, &run.records)
  }

  /// The start of a run: `handle(.launch(launch))` on an empty state.
  ///
  /// - Parameters:
  ///   - launch: what the app read from the device, the permissions and the store.
  ///   - log: where what the launch reads and writes is noted (``AccessLog``), when given.
  /// - Returns: the run's state and what happened, in order.
  /// - Throws: ``FlowError/failed(_:)`` when the flow fails while starting (an expression that cannot be
  ///   evaluated, say).
  package func launch(_ launch: Launch, log: AccessLog? = nil) throws(FlowError) -> (RunState, [Record]) {
    var state = RunState()
    let records = try handle(.launch(launch), in: &state, log: log)
    return (state, records)
  }
}

/// An immutable box for an ``Engine``'s flow.
final class FlowStorage: Sendable {
  let flow: Flow
  /// `step` in expressions, per step: built once, not at every expression that reads it.
  let stepValues: [Value]
  /// Per step, its `next` when it is a plain move, else nil.
  let plainNext: [PlainMove?]
  /// Each variable's default, in declaration order: what a launch starts from (one array shared, not one built
  /// from the declarations at every launch).
  let variableDefaults: [Value]
  /// The `launch`, `advance` and `enter` hooks' effects, each with what of it reads only `step` worked out per
  /// step (hooks run at every move, and their conditions are mostly `step.id == "value"`); nil unless the engine
  /// was made `workingOutHooks`.
  let launchHook: [StepTable]?
  let advanceHook: [StepTable]?
  let enterHook: [StepTable]?

  init(_ flow: Flow, workingOutHooks: Bool = false) {
    self.flow = flow
    let stepValues = flow.steps.map(\.expressionValue)
    self.stepValues = stepValues
    plainNext = flow.steps.map { PlainMove(next: $0, in: flow) }
    variableDefaults = flow.variables.map(\.defaultValue)
    func tables(_ effects: [Effect]) -> [StepTable]? {
      workingOutHooks ? effects.map { StepTable($0, stepValues: stepValues) } : nil
    }
    launchHook = tables(flow.hooks.launch)
    advanceHook = tables(flow.hooks.advance)
    enterHook = tables(flow.hooks.enter)
  }
}

/// What of an effect reads only `step` (``FlowExpression/readsOnlyStep``), worked out for each step: whether its
/// `when` holds, and the value a `set` assigns. Nil where the expression reads more, or fails or gives a non-bool
/// condition on some step: the engine then evaluates it at the move, with the same result or error as ever. (The
/// names bound while effects run, `result`, `params` and `input`, never hide `step`.)
struct StepTable: Sendable {
  var holds: [Bool]?
  var value: [Value]?
  /// Whether the effect is a `track` whose properties all read only `step` and evaluate on every step: an engine
  /// that records only moves (``Engine/recordsOnlyMoves``) has nothing to do for it.
  var trackCannotFail = false

  init(_ effect: Effect, stepValues: [Value]) {
    func perStep(_ expr: Expr) -> [Value]? {
      guard expr.expression.readsOnlyStep else { return nil }
      var values: [Value] = []
      for step in stepValues {
        guard let value = try? expr.expression.evaluate(in: StepContext(step: step)) else { return nil }
        values.append(value)
      }
      return values
    }
    if let when = effect.when, let values = perStep(when) {
      var holds: [Bool] = []
      for value in values {
        guard case .bool(let flag) = value else { break }
        holds.append(flag)
      }
      if holds.count == values.count { self.holds = holds }
    }
    switch effect.kind {
    case .set(_, let expr): value = perStep(expr)
    case .track(_, let properties): trackCannotFail = properties.allSatisfy { perStep($0.value) != nil }
    default: break
    }
  }

  /// Names only `step`; an expression that reads only `step` calls no function, so the clock is never read.
  private struct StepContext: ExpressionContext {
    let step: Value
    func value(of root: String) -> Value? { root == "step" ? step : nil }
    var minutesSinceMidnight: Int { 0 }
    var secondsSinceEpoch: Int { 0 }
  }
}

/// A `next` that can neither be refused nor fail, and does nothing but move: from a screen whose `next` is always
/// shown and enabled, has no effects and names a step, to a step that is not skipped, runs nothing on entry
/// (nor does the flow's `enter` or `advance` hook), is no action step and has no auto-advance. The engine makes
/// such a move in place, without the copy of the state it keeps to undo an event that fails; what it records
/// and the state it leaves are those of the general path (``Run/moveForward(from:via:route:name:bindings:)``).
struct PlainMove: Sendable {
  let destination: StepIndex
  /// The outcome, when the destination is a terminal step.
  let outcome: TerminalOutcome?

  init?(next step: Step, in flow: Flow) {
    guard step.kind == .screen, flow.hooks.advance.isEmpty, flow.hooks.enter.isEmpty, let next = step.next,
      next.visible == nil, next.enabled == nil, next.effects.isEmpty, case .step(let index) = next.target
    else { return nil }
    let destination = flow.steps[index]
    guard destination.skipIf == nil, destination.enter.isEmpty, destination.kind != .action,
      destination.autoAdvance == nil
    else { return nil }
    self.destination = index
    outcome = destination.isTerminal ? destination.terminalOutcome ?? .completed : nil
  }
}

extension Engine {
  /// Makes a plain move, as ``Run/moveForward(from:via:route:name:bindings:)`` and ``Run/enter(_:from:)`` would.
  func takePlainMove(_ move: PlainMove, from current: StepIndex, in state: inout RunState, records: inout [Record]) {
    let steps = flow.steps
    let destination = move.destination
    records.append(.moved(from: steps[current].id, to: steps[destination].id, route: .next, name: nil))
    if destination != current { state.history.append(current) }
    state.current = destination
    state.timer = nil
    if !recordsOnlyMoves { records.append(.entered(step: steps[destination].id)) }
    if let outcome = move.outcome {
      state.ended = .init(step: destination, outcome: outcome)
      if !recordsOnlyMoves { records.append(.ended(step: steps[destination].id, outcome: outcome)) }
    }
  }
}

// MARK: - One event

struct Run {
  let engine: Engine
  var state: RunState
  var records: [Record] = []
  var automaticMoves = 0
  var automaticPath: [StepIndex] = []
  /// The step whose effects are running (``apply(_:step:bindings:)``): `step` in their expressions.
  var effectStep: StepIndex?
  /// Where what the event reads and writes of the state is noted (``AccessLog``), when a caller asked.
  var log: AccessLog?

  var flow: Flow { engine.flow }

  init(engine: Engine, state: RunState) {
    self.engine = engine
    self.state = state
  }

  mutating func handle(_ event: FlowEvent) throws {
    if state.inBackground {
      switch event {
      case .launch, .elapse, .foreground: break
      case .outcome where state.pending != nil: break  // a dialog shown before the app left answers meanwhile
      case .background:
        throw Rejection(message: "the app is already in the background", allowed: ["foreground"])
      default:
        throw Rejection(
          message: "the app is in the background; 'foreground' brings it back first", allowed: ["foreground"])
      }
    }
    switch event {
    case .launch(let launch): try self.launch(launch)
    case .reset: try reset()
    case .elapse(let seconds): try elapse(seconds)
    case .background: state.inBackground = true
    case .foreground(let permissions): try foreground(permissions)
    case .open(let url): try open(url)
    case .outcome(let name, let result) where state.current == nil && state.pending?.launchItem != nil:
      try answerLaunch(name, result: result, pending: state.pending!)
    default:
      if state.current == nil, let pending = state.pending {
        throw Rejection(
          message: "the app is starting: waiting for the answer to '\(pending.action)'",
          allowed: outcomeNames(of: pending).map { "answer \($0)" })
      }
      guard let current = state.current else {
        throw Rejection(message: "the flow has not started", allowed: ["restart"])
      }
      if state.hasEnded, let ended = state.ended {
        throw Rejection(
          message: "the flow has ended at '\(flow.steps[ended.step].id)' (\(ended.outcome))",
          allowed: ["restart", "reset"])
      }
      if state.isWaiting, let pending = state.pending {
        guard case .outcome(let name, let result) = event else {
          throw Rejection(
            message: "waiting for the answer to '\(pending.action)'",
            allowed: outcomeNames(of: pending).map { "answer \($0)" })
        }
        try answer(name, result: result, pending: pending, on: current)
      } else {
        try userEvent(event, on: current)
      }
    }
    try armTimer()
  }
}

// MARK: - Scope

/// Resolves names for expressions: variables, `env`, `permission`, `store`, `step` and extra bindings.
///
/// A scope is made for every expression the engine evaluates, and lives only while it is evaluated
/// (``Run/withScope(_:_:)``): it reads the run's state in place, through a pointer, since a copy of the state
/// retained and then released every buffer the state holds, at every expression (4% of the instructions of
/// `flowrun explore flows/lingo-subscription.yaml`).
struct Scope: ExpressionContext {
  /// The flow, and ``Step/expressionValue`` of each step (one reference: a scope is made for every expression).
  let storage: FlowStorage
  /// The run's state, valid while the body of ``Run/withScope(_:_:)`` that made this scope runs.
  private let statePointer: UnsafePointer<RunState>
  var state: RunState { unsafeAddress { statePointer } }
  let bindings: [String: Value]?
  /// The step whose effects run: `step` names it, before a variable called `step` (which otherwise wins over the
  /// current step).
  let effectStep: StepIndex?
  /// Notes what is read (``Run/log``).
  var log: AccessLog? = nil

  var flow: Flow { storage.flow }

  init(
    storage: FlowStorage, state: UnsafePointer<RunState>, bindings: [String: Value]?, effectStep: StepIndex?,
    log: AccessLog?
  ) {
    self.storage = storage
    statePointer = state
    self.bindings = bindings
    self.effectStep = effectStep
    self.log = log
  }

  func value(of root: String) -> Value? {
    if let bindings, let bound = bindings[root] { return bound }
    if let effectStep, root == "step" { return storage.stepValues[effectStep] }
    if let index = flow.variableIndexByName[root] {
      log?.read(variable: index)
      return state.variables[index]
    }
    switch root {
    case "env":
      log?.readFacts()
      return .map(state.environment)
    case "step": return state.current.map { storage.stepValues[$0] }
    case "permission":
      log?.readPermissions()
      return .map(
        Dictionary(uniqueKeysWithValues: state.permissions.map { ($0.key.rawValue, .string($0.value.rawValue)) }))
    case "store":
      log?.readWholeStore()
      return .map(state.store)
    case "experiment":
      log?.readVariants()
      return .map(flow.variants(in: state).mapValues(Value.string))
    default: return nil
    }
  }

  /// `permission.kind` and `experiment.name` without building the map ``value(of:)`` gives for `permission` and
  /// `experiment` (a dictionary allocated and filled for one member: 4% of the instructions of `flowrun explore
  /// flows/lingo-subscription.yaml`). A binding or a variable of that name is read whole, as ``value(of:)`` does.
  func value(of root: String, member: String) -> Value? {
    guard root == "permission" || root == "experiment" else { return nil }
    if let bindings, bindings[root] != nil { return nil }
    if flow.variableIndexByName[root] != nil { return nil }
    if root == "permission" {
      log?.readPermissions()
      return state.permissions[PermissionKind(rawValue: member)].map { .string($0.rawValue) } ?? .null
    }
    log?.readVariants()
    // As `flow.variants(in:)` names them: the last experiment of that name wins.
    var variant = Value.null
    let experiments = flow.experiments
    for (experiment, index) in zip(experiments, state.variants)
    where experiment.name == member && experiment.variants.indices.contains(index) {
      variant = .string(experiment.variants[index].name)
    }
    return variant
  }

  var minutesSinceMidnight: Int { TimeOfDay.minutes(ofClock: state.clock) }
  var secondsSinceEpoch: Int { TimeOfDay.secondsSinceEpoch(ofClock: state.clock) }
}

extension Step {
  /// The step as expressions see it: `step.id`, `step.kind`, `step.rawValue`.
  var expressionValue: Value {
    .map(["id": .string(id), "kind": .string(kind.rawValue), "rawValue": rawValue.map(Value.int) ?? .null])
  }
}
