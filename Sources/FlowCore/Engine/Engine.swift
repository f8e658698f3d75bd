/// The interpreter: a pure function from (state, event) to (new state, ordered records).
///
/// No I/O happens here. Effects are returned as data (``RuntimeEffect``) for handlers to perform; actions and
/// permission requests are returned as ``RuntimeEffect/perform(action:permission:)`` and their answers come back
/// as ``FlowEvent/outcome(_:result:)``. The same state and event always give the same result.
public struct Engine: Sendable {
  public let flow: Flow
  /// Most automatic moves (skips, zero-delay auto-advances) one event may cause.
  public var maxAutomaticMoves = 1_000
  /// Show texts in this locale whatever the flow's `language` says (`flowrun --lang`).
  public var languageOverride: String?

  public init(flow: Flow) {
    self.flow = flow
  }

  /// Applies `event` to `state`.
  ///
  /// - Parameters:
  ///   - event: what happened.
  ///   - step: the step the event was meant for (a tap on a button of that step). When it is no longer the
  ///     current step, the event is ignored and recorded as stale.
  ///   - state: the run's state; unchanged when the call throws.
  /// - Returns: what happened, in order.
  /// - Throws: ``Rejection`` when the event does not fit the current step; ``RunError`` when the flow itself
  ///   fails (an endless automatic loop, a route that matches nothing, an expression that cannot be evaluated).
  public func handle(_ event: FlowEvent, at step: String? = nil, in state: inout RunState) throws -> [Record] {
    if let step, let current = state.current, flow.steps[current].id != step {
      return [.stale(event: event.name, step: step)]
    }
    var run = Run(engine: self, state: state)
    try run.handle(event)
    state = run.state
    return run.records
  }

  /// The start of a run: `handle(.launch(launch))` on an empty state.
  public func launch(_ launch: Launch) throws -> (RunState, [Record]) {
    var state = RunState()
    let records = try handle(.launch(launch), in: &state)
    return (state, records)
  }
}

// MARK: - One event

struct Run {
  let engine: Engine
  var state: RunState
  var records: [Record] = []
  var automaticMoves = 0
  var automaticPath: [StepIndex] = []

  var flow: Flow { engine.flow }

  init(engine: Engine, state: RunState) {
    self.engine = engine
    self.state = state
  }

  mutating func handle(_ event: FlowEvent) throws {
    switch event {
    case .launch(let launch): try self.launch(launch)
    case .reset: try reset()
    case .elapse(let seconds): try elapse(seconds)
    default:
      guard let current = state.current else {
        throw Rejection(message: "the flow has not started", allowed: ["restart"])
      }
      if let ended = state.ended {
        throw Rejection(
          message: "the flow has ended at '\(flow.steps[ended.step].id)' (\(ended.outcome))",
          allowed: ["restart", "reset"])
      }
      if let pending = state.pending {
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

  // MARK: Launch, reset, time

  mutating func launch(_ launch: Launch) throws {
    var fresh = RunState()
    fresh.clock = launch.clock
    for fact in flow.facts {
      fresh.environment[fact.name] = launch.environment[fact.name] ?? fact.defaultValue
    }
    for (name, value) in launch.environment where fresh.environment[name] == nil {
      fresh.environment[name] = value
    }
    for permission in flow.permissions {
      fresh.permissions[permission.name] = launch.permissions[permission.name] ?? "notDetermined"
    }
    for (kind, status) in launch.permissions where fresh.permissions[kind] == nil {
      fresh.permissions[kind] = status
    }
    fresh.store = launch.store ?? [:]
    fresh.variables = flow.variables.map(\.defaultValue)
    state = fresh
    if let problem = launch.storeProblem {
      records.append(.warning("the store could not be read (\(problem)); using the declared defaults"))
    }
    for (index, variable) in flow.variables.enumerated() {
      if let key = variable.persistKey {
        if launch.store == nil {
          emit(.persist(key: key, value: variable.defaultValue))
          continue
        }
        if let stored = state.store[key] {
          if variable.admits(stored) {
            state.variables[index] = stored
          } else {
            records.append(.warning(
              "stored value \(stored.literal) for '\(variable.name)' (key '\(key)') is not a valid "
                + "\(variable.type.rawValue)\(variable.allowedValues.map { " (one of \($0.joined(separator: ", ")))" } ?? ""); "
                + "using the default \(variable.defaultValue.literal)"))
            emit(.persist(key: key, value: variable.defaultValue))
          }
          continue
        }
      }
      if let initial = variable.initial {
        let value = try evaluate(initial)
        if variable.admits(value) { state.variables[index] = value }
      }
    }
    try resume(runLaunchHook: true)
  }

  mutating func resume(runLaunchHook: Bool) throws {
    var destination = flow.start
    var why = "start"
    routes: for route in flow.resume {
      if let when = route.when, !(try holds(when)) { continue }
      switch route.destination {
      case .step(let index):
        destination = index
        why = route.when.map { explain($0) } ?? "default"
        break routes
      case .rawValue(let expr):
        let value = try evaluate(expr)
        if case .int(let raw) = value, let index = flow.steps.firstIndex(where: { $0.rawValue == raw }) {
          destination = index
          why = "rawValue \(expr.expression.source) = \(raw)"
          break routes
        }
      }
    }
    records.append(.routed(from: "launch", to: flow.steps[destination].id, why: why))
    let target = try resolveSkips(from: destination)
    if runLaunchHook { try apply(flow.hooks.launch, step: target) }
    try enter(target, from: nil)
  }

  mutating func reset() throws {
    for cleared in flow.reset.clear {
      guard let index = flow.variableIndexByName[cleared.value] else { continue }
      let variable = flow.variables[index]
      state.variables[index] = variable.defaultValue
      emit(.set(variable: variable.name, value: variable.defaultValue))
      if let key = variable.persistKey {
        state.store[key] = nil
        emit(.remove(key: key))
      }
    }
    try apply(flow.reset.effects, step: state.current)
    state.history = History()
    state.pending = nil
    state.ended = nil
    state.timer = nil
    try resume(runLaunchHook: false)
  }

  mutating func elapse(_ seconds: Double) throws {
    guard seconds >= 0 else { throw Rejection(message: "time cannot go backwards", allowed: []) }
    state.clock += seconds
    if let due = state.timer, state.clock >= due, let current = state.current {
      state.timer = nil
      guard let next = flow.steps[current].next else { return }
      try moveForward(from: current, via: next, bindings: [:])
    }
  }

  /// Starts the current step's auto-advance timer once its condition holds.
  mutating func armTimer() throws {
    guard let current = state.current, state.ended == nil, state.pending == nil, state.timer == nil,
      let auto = flow.steps[current].autoAdvance
    else { return }
    if let when = auto.when, !(try holds(when)) { return }
    if auto.seconds <= 0 {
      guard let next = flow.steps[current].next else { return }
      try countAutomaticMove(to: current)
      try moveForward(from: current, via: next, bindings: [:])
      try armTimer()
    } else {
      state.timer = state.clock + auto.seconds
    }
  }

  // MARK: User events

  mutating func userEvent(_ event: FlowEvent, on current: StepIndex) throws {
    let step = flow.steps[current]
    switch event {
    case .next:
      guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
      try requireEnabled(next, named: "next", on: current)
      try moveForward(from: current, via: next, bindings: [:])
    case .skip:
      guard let skip = step.skip else { throw reject("'\(step.id)' cannot be skipped", on: current) }
      try requireEnabled(skip, named: "skip", on: current)
      try moveForward(from: current, via: skip, bindings: [:])
    case .back:
      guard backAllowed(on: current) else {
        throw reject("there is no way back from '\(step.id)'", on: current)
      }
      let previous = state.history.removeLast()
      state.timer = nil
      state.current = previous
      records.append(.wentBack(from: step.id, to: flow.steps[previous].id))
    case .choose(let ids):
      try choose(ids, on: current)
    case .input(let text):
      try input(text, on: current)
    case .inputFields(let fields):
      try fill(fields, on: current)
    case .tap(let name):
      try tap(name, on: current)
    case .outcome(let name, _):
      throw reject("nothing is waiting for an answer ('\(name)')", on: current)
    case .launch, .reset, .elapse:
      break
    }
  }

  mutating func choose(_ ids: [String], on current: StepIndex) throws {
    let step = flow.steps[current]
    guard let choice = step.choice else { throw reject("'\(step.id)' has no options to choose", on: current) }
    let known = choice.options.map(\.id)
    for id in ids where !known.contains(id) {
      var message = "'\(id)' is not an option of '\(step.id)'"
      if let guess = Suggestion.closest(to: id, in: known) { message += " (did you mean '\(guess)'?)" }
      throw reject(message, on: current)
    }
    if step.kind == .singleChoice && ids.count != 1 {
      throw reject("'\(step.id)' takes exactly one option", on: current)
    }
    if ids.count < choice.min { throw reject("choose at least \(choice.min) option(s) on '\(step.id)'", on: current) }
    if let max = choice.max, ids.count > max {
      throw reject("choose at most \(max) option(s) on '\(step.id)'", on: current)
    }
    guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
    let value: Value = step.kind == .singleChoice ? .string(ids[0]) : .list(ids.map(Value.string))
    let before = state
    let beforeRecords = records.count
    try assign(AssignmentTarget(variable: choice.variable.value, key: nil, location: choice.variable.location), value)
    do {
      try requireEnabled(next, named: "next", on: current)
    } catch {
      state = before
      records.removeSubrange(beforeRecords...)
      throw error
    }
    try moveForward(from: current, via: next, bindings: [:])
  }

  mutating func input(_ text: String, on current: StepIndex) throws {
    let step = flow.steps[current]
    guard let textInput = step.textInput else {
      if !step.fields.isEmpty, let first = step.fields.first {
        return try fill([first.name: text], on: current)
      }
      throw reject("'\(step.id)' takes no text", on: current)
    }
    if let valid = textInput.valid {
      guard try holds(valid, bindings: ["input": .string(text)]) else {
        throw reject(
          "'\(text)' is not accepted on '\(step.id)' (\(valid.expression.source) is false)", on: current)
      }
    } else if textInput.isRequired && text.allSatisfy(\.isWhitespace) {
      throw reject("'\(step.id)' needs a non-empty text", on: current)
    }
    guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
    try assign(AssignmentTarget(variable: textInput.variable.value, key: nil, location: .unknown), .string(text))
    try moveForward(from: current, via: next, bindings: [:])
  }

  mutating func fill(_ values: [String: String], on current: StepIndex) throws {
    let step = flow.steps[current]
    guard !step.fields.isEmpty else { throw reject("'\(step.id)' has no form fields", on: current) }
    let names = step.fields.map(\.name)
    for name in values.keys.sorted() where !names.contains(name) {
      var message = "'\(name)' is not a field of '\(step.id)'"
      if let guess = Suggestion.closest(to: name, in: names) { message += " (did you mean '\(guess)'?)" }
      throw reject(message, on: current)
    }
    var assignments: [(AssignmentTarget, Value)] = []
    for field in step.fields {
      guard let raw = values[field.name] else {
        if field.isRequired { throw reject("field '\(field.name)' of '\(step.id)' is required", on: current) }
        continue
      }
      guard let value = field.parse(raw) else {
        throw reject("'\(raw)' is not a valid \(field.type.rawValue) for field '\(field.name)'", on: current)
      }
      assignments.append((field.target, value))
    }
    guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
    let before = state
    let beforeRecords = records.count
    for (target, value) in assignments { try assign(target, value) }
    do {
      try requireEnabled(next, named: "next", on: current)
    } catch {
      state = before
      records.removeSubrange(beforeRecords...)
      throw error
    }
    try moveForward(from: current, via: next, bindings: [:])
  }

  mutating func tap(_ name: String, on current: StepIndex) throws {
    let step = flow.steps[current]
    if name == "next" && step.buttons.allSatisfy({ $0.name != "next" }) { return try userEvent(.next, on: current) }
    if name == "skip" && step.buttons.allSatisfy({ $0.name != "skip" }) { return try userEvent(.skip, on: current) }
    if name == "back" && step.buttons.allSatisfy({ $0.name != "back" }) { return try userEvent(.back, on: current) }
    if name == "request", let request = step.permission, step.buttons.allSatisfy({ $0.name != "request" }) {
      if let visible = request.visible, !(try holds(visible)) {
        throw reject("the request button of '\(step.id)' is not shown", on: current)
      }
      if let enabled = request.enabled, !(try holds(enabled)) {
        throw reject("the request button of '\(step.id)' is disabled (\(explain(enabled)))", on: current)
      }
      state.pending = .init(action: "request-permission", permission: request.kind.value, button: nil)
      emit(.perform(action: "request-permission", permission: request.kind.value))
      return
    }
    guard let button = step.buttons.first(where: { $0.name == name }) else {
      var message = "'\(step.id)' has no button '\(name)'"
      if let guess = Suggestion.closest(to: name, in: try buttonNames(on: current)) {
        message += " (did you mean '\(guess)'?)"
      }
      throw reject(message, on: current)
    }
    if let visible = button.visible, !(try holds(visible)) {
      throw reject("button '\(name)' is not shown on '\(step.id)'", on: current)
    }
    if let enabled = button.enabled, !(try holds(enabled)) {
      throw reject("button '\(name)' is disabled (\(explain(enabled)))", on: current)
    }
    switch button.move {
    case .go(let target):
      let transition = Transition(
        target: target, label: nil, enabled: nil, effects: button.effects, location: button.location)
      try moveForward(from: current, via: transition, bindings: [:])
    case .perform(let action, _):
      try apply(button.effects, step: current)
      state.pending = .init(action: action.value, permission: nil, button: name)
      emit(.perform(action: action.value, permission: nil))
    }
  }

  mutating func answer(_ name: String, result: [String: Value], pending: RunState.Pending, on current: StepIndex) throws {
    let allowed = outcomeNames(of: pending)
    guard allowed.contains(name) else {
      var message = "'\(name)' is not an outcome of '\(pending.action)'"
      if let guess = Suggestion.closest(to: name, in: allowed) { message += " (did you mean '\(guess)'?)" }
      throw Rejection(message: message, allowed: allowed.map { "answer \($0)" })
    }
    state.pending = nil
    if let kind = pending.permission { state.permissions[kind] = name }
    let step = flow.steps[current]
    let outcomes: [Outcome]
    if let buttonName = pending.button, let button = step.buttons.first(where: { $0.name == buttonName }),
      case .perform(_, let buttonOutcomes) = button.move
    {
      outcomes = buttonOutcomes
    } else {
      outcomes = step.permission?.outcomes ?? step.action?.outcomes ?? []
    }
    guard let outcome = outcomes.first(where: { $0.name == name }) else { return }
    try moveForward(from: current, via: outcome.transition, bindings: ["result": .map(result)])
  }

  // MARK: Moves

  /// A forward move: advance hook, the transition's effects, the route, skips, then entering the step.
  mutating func moveForward(from current: StepIndex, via transition: Transition, bindings: [String: Value]) throws {
    let isStay: Bool
    if case .stay = transition.target { isStay = true } else { isStay = false }
    if !isStay { try apply(flow.hooks.advance, step: current, bindings: bindings) }
    try apply(transition.effects, step: current, bindings: bindings)
    guard let destination = try choose(transition.target, from: current, bindings: bindings) else { return }
    let target = try resolveSkips(from: destination)
    try enter(target, from: current)
  }

  /// The step a target leads to, or nil to stay.
  mutating func choose(_ target: Target, from current: StepIndex, bindings: [String: Value]) throws -> StepIndex? {
    switch target {
    case .stay: return nil
    case .step(let index): return index
    case .routes(let routes):
      for route in routes {
        if let when = route.when, !(try holds(when, bindings: bindings)) { continue }
        try apply(route.effects, step: current, bindings: bindings)
        let destination = route.target.map { flow.steps[$0].id } ?? "stay"
        records.append(.routed(
          from: flow.steps[current].id, to: destination,
          why: route.when.map { explain($0, bindings: bindings) } ?? "otherwise"))
        return route.target
      }
      throw RunError(message: "no route from '\(flow.steps[current].id)' matched and none is unconditional")
    }
  }

  /// Follows `next` past every step whose `skipIf` holds.
  mutating func resolveSkips(from start: StepIndex) throws -> StepIndex {
    var index = start
    while let skipIf = flow.steps[index].skipIf, try holds(skipIf) {
      let step = flow.steps[index]
      records.append(.skipped(step: step.id, why: explain(skipIf)))
      try countAutomaticMove(to: index)
      guard let next = step.next else {
        throw RunError(message: "step '\(step.id)' is skipped but has no 'next' to continue to")
      }
      try apply(next.effects, step: index)
      guard let destination = try choose(next.target, from: index, bindings: [:]) else {
        throw RunError(message: "step '\(step.id)' is skipped but its 'next' stays on it")
      }
      index = destination
    }
    return index
  }

  mutating func countAutomaticMove(to index: StepIndex) throws {
    automaticMoves += 1
    if let loopStart = automaticPath.firstIndex(of: index) {
      let loop = (automaticPath[loopStart...] + [index]).map { flow.steps[$0].id }
      throw RunError(message: "automatic moves loop without a user action: \(loop.joined(separator: " → "))")
    }
    automaticPath.append(index)
    if automaticMoves > engine.maxAutomaticMoves {
      throw RunError(message: "more than \(engine.maxAutomaticMoves) automatic moves in one event")
    }
  }

  mutating func enter(_ index: StepIndex, from previous: StepIndex?) throws {
    let step = flow.steps[index]
    if let previous, previous != index { state.history.append(previous) }
    state.current = index
    state.timer = nil
    state.pending = nil
    records.append(.entered(step: step.id))
    try apply(flow.hooks.enter, step: index)
    try apply(step.enter, step: index)
    if step.isTerminal {
      state.ended = .init(step: index, outcome: step.terminalOutcome ?? "completed")
      records.append(.ended(step: step.id, outcome: step.terminalOutcome ?? "completed"))
    } else if let action = step.action {
      state.pending = .init(action: action.name.value, permission: nil, button: nil)
      emit(.perform(action: action.name.value, permission: nil))
    }
  }

  func backAllowed(on current: StepIndex) -> Bool {
    let step = flow.steps[current]
    return (step.back ?? flow.back) && !state.history.isEmpty && !step.isTerminal
  }

  // MARK: Effects

  mutating func apply(_ effects: [Effect], step: StepIndex?, bindings: [String: Value] = [:]) throws {
    guard !effects.isEmpty else { return }
    var bindings = bindings
    if let step { bindings["step"] = stepValue(step) }
    for effect in effects {
      if let when = effect.when, !(try holds(when, bindings: bindings)) { continue }
      switch effect.kind {
      case .set(let target, let expr):
        try assign(target, try evaluate(expr, bindings: bindings))
      case .track(let event, let properties):
        var values: [String: Value] = [:]
        for property in properties { values[property.name] = try evaluate(property.value, bindings: bindings) }
        emit(.track(event: event, properties: values))
      case .userProperty(let name, let expr):
        emit(.userProperty(name: name, value: try evaluate(expr, bindings: bindings)))
      case .requestReview: emit(.requestReview)
      case .syncProfile(let userID):
        emit(.syncProfile(userID: try userID.map { try evaluate($0, bindings: bindings) } ?? .null))
      case .placement(let name): emit(.placement(name))
      case .completeOnboarding: emit(.completeOnboarding)
      case .log(let expr):
        let value = try evaluate(expr, bindings: bindings)
        if case .string(let text) = value { emit(.log(text)) } else { emit(.log(value.literal)) }
      }
    }
  }

  mutating func assign(_ target: AssignmentTarget, _ value: Value) throws {
    guard let index = flow.variableIndexByName[target.variable] else {
      throw RunError(message: "unknown variable '\(target.variable)'")
    }
    let variable = flow.variables[index]
    var newValue = value
    if let key = target.key {
      guard case .map(var entries) = state.variables[index] else {
        throw RunError(message: "'\(variable.name)' is not a map; cannot set '\(target)'")
      }
      entries[key] = value == .null ? nil : value
      newValue = .map(entries)
    }
    if newValue == .null { newValue = variable.defaultValue }
    guard variable.type.admits(newValue) else {
      throw RunError(message: "cannot set '\(variable.name)' (a \(variable.type.rawValue)) to \(newValue.literal)")
    }
    state.variables[index] = newValue
    emit(.set(variable: target.description, value: target.key == nil ? newValue : value))
    if let key = variable.persistKey {
      state.store[key] = newValue
      emit(.persist(key: key, value: newValue))
    }
  }

  mutating func emit(_ effect: RuntimeEffect) {
    records.append(.effect(effect))
  }

  // MARK: Expressions

  func scope(_ bindings: [String: Value]) -> Scope {
    Scope(flow: flow, state: state, bindings: bindings)
  }

  func evaluate(_ expr: Expr, bindings: [String: Value] = [:]) throws -> Value {
    do {
      return try expr.expression.evaluate(in: scope(bindings))
    } catch {
      throw RunError(message: "\(expr.location): cannot evaluate '\(expr.expression.source)': \(error.message)")
    }
  }

  func holds(_ expr: Expr, bindings: [String: Value] = [:]) throws -> Bool {
    let value = try evaluate(expr, bindings: bindings)
    guard case .bool(let result) = value else {
      throw RunError(
        message: "\(expr.location): '\(expr.expression.source)' gave \(value.literal); expected true or false")
    }
    return result
  }

  func explain(_ expr: Expr, bindings: [String: Value] = [:]) -> String {
    let scope = scope(bindings)
    let substituted = expr.expression.explain(in: scope)
    let result = (try? expr.expression.evaluate(in: scope))?.literal ?? "error"
    if substituted == expr.expression.source { return "\(expr.expression.source) → \(result)" }
    return "\(expr.expression.source) → \(substituted) → \(result)"
  }

  func stepValue(_ index: StepIndex) -> Value {
    let step = flow.steps[index]
    return .map([
      "id": .string(step.id), "kind": .string(step.kind.rawValue),
      "rawValue": step.rawValue.map(Value.int) ?? .null,
    ])
  }

  // MARK: Rejections

  func requireEnabled(_ transition: Transition, named name: String, on current: StepIndex) throws {
    if let reason = try disabledReason(transition, named: name, on: current) { throw reject(reason, on: current) }
  }

  /// Why a transition's button cannot be pressed now, or nil when it can.
  func disabledReason(_ transition: Transition, named name: String, on current: StepIndex) throws -> String? {
    let step = flow.steps[current]
    if let enabled = transition.enabled {
      return try holds(enabled) ? nil : "\(name) is disabled on '\(step.id)' (\(explain(enabled)))"
    }
    if name == "next", let choice = step.choice, choice.isRequired,
      let index = flow.variableIndexByName[choice.variable.value], state.variables[index].isEmptyValue
    {
      return "next is disabled until an option is chosen on '\(step.id)'"
    }
    return nil
  }

  func reject(_ message: String, on current: StepIndex) -> Rejection {
    Rejection(message: message, allowed: (try? Presenter(run: self).commands(on: current)) ?? [])
  }

  func buttonNames(on current: StepIndex) throws -> [String] {
    flow.steps[current].buttons.map(\.name)
  }

  func outcomeNames(of pending: RunState.Pending) -> [String] {
    if pending.permission != nil { return Vocabulary.permissionOutcomes }
    return Vocabulary.actions[pending.action] ?? []
  }
}

// MARK: - Scope

/// Resolves names for expressions: variables, `env`, `permission`, `store`, `step` and extra bindings.
struct Scope: ExpressionContext {
  let flow: Flow
  let state: RunState
  let bindings: [String: Value]

  func value(of root: String) -> Value? {
    if let bound = bindings[root] { return bound }
    if let index = flow.variableIndexByName[root] { return state.variables[index] }
    switch root {
    case "env": return .map(state.environment)
    case "permission": return .map(state.permissions.mapValues(Value.string))
    case "store": return .map(state.store)
    case "step":
      guard let current = state.current else { return nil }
      let step = flow.steps[current]
      return .map([
        "id": .string(step.id), "kind": .string(step.kind.rawValue),
        "rawValue": step.rawValue.map(Value.int) ?? .null,
      ])
    default: return nil
    }
  }

  var minutesSinceMidnight: Int { (Int(state.clock) / 60) % (24 * 60) }
}

// MARK: - Helpers

extension Step.Field {
  /// The typed value of a field's text, or nil when it is not valid for the field's type.
  func parse(_ raw: String) -> Value? {
    switch type {
    case .string: return .string(raw)
    case .int: return Int(raw).map(Value.int)
    case .bool:
      switch raw {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return nil
      }
    case .time:
      let parts = raw.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
        let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
      else { return nil }
      return .string(raw)
    }
  }
}

