// Launch, reset and time: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  mutating func launch(_ launch: Launch) throws(RunError) {
    var fresh = RunState()
    fresh.clock = launch.clock
    // What the launch gives, and the default of each declared fact or permission it leaves out. A relaunch gives
    // them all: the dictionaries are then the launch's own, not built again.
    fresh.environment = launch.environment
    for fact in flow.facts where fresh.environment[fact.name] == nil {
      fresh.environment[fact.name] = fact.defaultValue
    }
    fresh.permissions = launch.permissions
    for permission in flow.permissions where fresh.permissions[permission.value] == nil {
      fresh.permissions[permission.value] = .notDetermined
    }
    fresh.store = launch.store ?? [:]
    fresh.variables = engine.storage.variableDefaults
    state = fresh
    // What the launch brings (facts, permissions, store) is the state's now; the permissions with the defaults
    // it leaves out, none read from the state before.
    log?.startedAfresh()
    log?.tookPermissionsFromLaunch()
    if let problem = launch.storeProblem {
      note(.warning("the store could not be read (\(problem)); using the declared defaults"))
    }
    // Each declaration is read in place (`variables[index].…`): a copy of it would retain all it holds. The
    // array is taken once: each `flow.variables` would copy the flow out of its storage.
    let variables = engine.storage.flow.variables
    for index in variables.indices {
      if let key = variables[index].persistKey {
        if launch.store == nil {
          emit(.persist(key: key, value: variables[index].defaultValue.stored))
          continue
        }
        log?.readStorePresence(of: index)
        if let stored = state.store[key] {
          // The variable is its stored value's copy (or its default, when that does not fit).
          log?.loadedFromStore(index)
          let (value, fits) = variables[index].load(stored)
          state.variables[index] = value
          if !fits {
            let variable = variables[index]
            note(
              .warning(
                "stored value \(stored.description) for '\(variable.name)' (key '\(key)') is not a valid "
                  + "\(variable.type.rawValue)\(variable.allowedValues.map { " (one of \($0.joined(separator: ", ")))" } ?? ""); "
                  + "using the default \(variable.defaultValue.description)"))
            emit(.persist(key: key, value: variable.defaultValue.stored))
          }
          continue
        }
      }
      if let initial = variables[index].initial {
        if let value = variables[index].coerce(try evaluate(initial)) { state.variables[index] = value }
      }
    }
    log?.wroteVariants()
    try assignVariants(pinned: launch.variants)
    try runLaunchItems(from: 0)
  }

  /// Runs the flow's `launch:` entries from `start` on: effects at once; an action waits for its outcome
  /// (``answerLaunch(_:result:pending:)`` goes on from the next entry). Once every entry has run, the
  /// `resume` routes choose the first step.
  mutating func runLaunchItems(from start: Int) throws(RunError) {
    for index in flow.launch.indices.dropFirst(start) {
      switch flow.launch[index] {
      case .effect(let effect):
        try apply([effect], step: nil)
      case .action(let call):
        if let when = call.when, !(try holds(when)) { continue }
        var arguments: [String: Value] = [:]
        for argument in call.arguments { arguments[argument.name] = try evaluate(argument.value) }
        state.pending = .init(action: call.name.value, permission: nil, button: nil, launchItem: index)
        emit(.perform(action: call.name.value, permission: nil, arguments: arguments))
        return
      }
    }
    try resume(runLaunchHook: true)
  }

  /// The answer to an action run at launch: its outcome's effects run with `result` bound, then the next
  /// `launch:` entries.
  mutating func answerLaunch(_ name: String, result: [String: Value], pending: RunState.Pending) throws {
    let allowed = outcomeNames(of: pending)
    guard allowed.contains(name) else {
      var message = "'\(name)' is not an outcome of '\(pending.action)'"
      if let guess = Suggestion.closest(to: name, in: allowed) { message += " (did you mean '\(guess)'?)" }
      throw Rejection(message: message, allowed: allowed.map { "answer \($0)" })
    }
    state.pending = nil
    guard let item = pending.launchItem else { return }
    if case .action(let launch) = flow.launch[item], let outcome = launch.call.outcome(name) {
      try apply(outcome.transition.effects, step: nil, bindings: ["result": .map(result)])
    }
    try runLaunchItems(from: item + 1)
  }

  /// Why a launch goes where it goes: "start", the resume route's condition explained (or "default"), or the raw
  /// value it found.
  func resumeWhy(_ taken: (route: ResumeRoute, raw: Int?)?) -> String {
    guard let (route, raw) = taken else { return "start" }
    switch route.destination {
    case .step: return route.when.map { explain($0) } ?? "default"
    case .rawValue(let expr): return "rawValue \(expr.expression.source) = \(raw ?? 0)"
    }
  }

  mutating func resume(runLaunchHook: Bool) throws(RunError) {
    var destination = flow.start
    // Why: nil for the start step, else the route taken and the raw value it found.
    var taken: (route: ResumeRoute, raw: Int?)?
    routes: for route in flow.resume {
      if let when = route.when, !(try holds(when)) { continue }
      switch route.destination {
      case .step(let index):
        destination = index
        taken = (route, nil)
        break routes
      case .rawValue(let expr):
        let value = try evaluate(expr)
        if case .int(let raw) = value, let index = flow.steps.firstIndex(where: { $0.rawValue == raw }) {
          destination = index
          taken = (route, raw)
          break routes
        }
      }
    }
    if !engine.recordsOnlyMoves {
      records.append(.routed(from: "launch", to: flow.steps[destination].id, why: resumeWhy(taken)))
    }
    records.append(.moved(from: "launch", to: flow.steps[destination].id, route: .resume, name: nil))
    let target = try resolveSkips(from: destination)
    if runLaunchHook { try apply(flow.hooks.launch, step: target, tables: engine.storage.launchHook) }
    try enter(target, from: nil)
  }

  mutating func reset() throws(RunError) {
    for cleared in flow.reset.clear {
      guard let index = flow.variableIndexByName[cleared.value] else { continue }
      // The declaration is read in place, as in `launch`.
      if let key = flow.variables[index].persistKey {
        state.store[key] = nil
        log?.wroteStore(of: index)
        emit(.remove(key: key))
      }
      // As at a first launch: the `initial` expression when there is one (a language from the locale, a
      // status read from a provider), else the default.
      var value = flow.variables[index].defaultValue
      if let initial = flow.variables[index].initial {
        if let computed = flow.variables[index].coerce(try evaluate(initial)) { value = computed }
      }
      state.variables[index] = value
      log?.wrote(variable: index)
      emit(.set(variable: flow.variables[index].name, value: value))
    }
    try apply(flow.reset.effects, step: state.current)
    state.history = History()
    state.pending = nil
    state.ended = nil
    state.timer = nil
    try resume(runLaunchHook: false)
  }

  mutating func elapse(_ seconds: Double) throws {
    guard (state.clock + seconds).isFinite else {
      throw Rejection(message: "cannot wait \(seconds) seconds: the clock would not be a finite number", allowed: [])
    }
    guard seconds >= 0 else { throw Rejection(message: "time cannot go backwards", allowed: []) }
    state.clock += seconds
    if let due = state.timer, state.clock >= due, let current = state.current {
      state.timer = nil
      // A timer follows `next` only while it is enabled; otherwise it starts again once it is (`armTimer`).
      guard let next = flow.steps[current].next, try disabledReason(next, named: "next", on: current) == nil
      else { return }
      try moveForward(from: current, via: next)
    }
  }

  /// Starts the current step's auto-advance timer once its condition holds and `next` is enabled.
  mutating func armTimer() throws(RunError) {
    guard let current = state.current, !state.hasEnded, !state.isWaiting, state.timer == nil,
      let auto = flow.steps[current].autoAdvance, let next = flow.steps[current].next
    else { return }
    if let when = auto.when, !(try holds(when)) { return }
    if try disabledReason(next, named: "next", on: current) != nil { return }
    if auto.seconds <= 0 {
      try countAutomaticMove(to: current)
      try moveForward(from: current, via: next)
      try armTimer()
    } else {
      state.timer = state.clock + auto.seconds
    }
  }
}
