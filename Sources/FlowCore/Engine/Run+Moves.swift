// Moves: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  /// A forward move: advance hook, the transition's effects, the route, skips, then entering the step. `route`
  /// and `name` say which of the step's ways out `transition` is, for the move's record.
  ///
  /// The `advance` hook fires only for a move that leaves the step: not for `stay`, and a move whose routes
  /// choose `stay` is done again without it.
  mutating func moveForward(
    from current: StepIndex, via transition: Transition, route: RouteKind = .next, name: String? = nil,
    bindings: [String: Value]? = nil
  ) throws(RunError) {
    let mayStay: Bool
    switch transition.target {
    case .stay:
      try apply(transition.effects, step: current, bindings: bindings)
      return
    case .step: mayStay = false
    case .routes(let routes): mayStay = routes.contains(where: \.isStay)
    }
    // Only a move that may stay needs the state before the hook, to undo it when the route stays.
    let before = mayStay && !flow.hooks.advance.isEmpty ? (state, records.count) : nil
    try apply(flow.hooks.advance, step: current, bindings: bindings, tables: engine.storage.advanceHook)
    try apply(transition.effects, step: current, bindings: bindings)
    var chosen = try choose(transition.target, from: current, bindings: bindings)
    if chosen == nil, let before {
      state = before.0
      log?.restored()
      records.removeSubrange(before.1...)
      try apply(transition.effects, step: current, bindings: bindings)
      chosen = try choose(transition.target, from: current, bindings: bindings)
    }
    guard let destination = chosen else { return }
    records.append(.moved(from: flow.steps[current].id, to: flow.steps[destination].id, route: route, name: name))
    let target = try resolveSkips(from: destination)
    try enter(target, from: current)
  }

  /// The step a target leads to, or nil to stay.
  mutating func choose(_ target: Target, from current: StepIndex, bindings: [String: Value]?) throws(RunError)
    -> StepIndex?
  {
    switch target {
    case .stay: return nil
    case .step(let index): return index
    case .routes(let routes):
      for route in routes {
        if let when = route.when, !(try holds(when, bindings: bindings)) { continue }
        var target = route.target
        var raw: Int?
        if let rawValue = route.rawValue {
          // Passed over when no step has the value's raw value, as a route whose `when` does not hold.
          guard case .int(let value) = try evaluate(rawValue, bindings: bindings),
            let index = flow.steps.firstIndex(where: { $0.rawValue == value })
          else { continue }
          target = index
          raw = value
        }
        // Recorded, and explained with the values the route was chosen with, before its own effects run.
        if !engine.recordsOnlyMoves {
          let why = routeWhy(route, raw: raw, bindings: bindings)
          records.append(
            .routed(from: flow.steps[current].id, to: target.map { flow.steps[$0].id } ?? "stay", why: why))
        }
        try apply(route.effects, step: current, bindings: bindings)
        return target
      }
      throw RunError(message: "no route from '\(flow.steps[current].id)' matched and none is unconditional")
    }
  }

  /// Why `route` was taken: its condition explained, or "otherwise", and the raw value it found.
  func routeWhy(_ route: Route, raw: Int?, bindings: [String: Value]?) -> String {
    let why = route.when.map { explain($0, bindings: bindings) } ?? "otherwise"
    guard let raw, let rawValue = route.rawValue else { return why }
    let found = "rawValue \(rawValue.expression.source) = \(raw)"
    return route.when == nil ? found : "\(why), \(found)"
  }

  /// Follows `next` past every step whose `skipIf` holds.
  mutating func resolveSkips(from start: StepIndex) throws(RunError) -> StepIndex {
    var index = start
    while let skipIf = flow.steps[index].skipIf, try holds(skipIf) {
      let step = flow.steps[index]
      if !engine.recordsOnlyMoves { records.append(.skipped(step: step.id, why: explain(skipIf))) }
      try countAutomaticMove(to: index)
      guard let next = step.next else {
        throw RunError(message: "step '\(step.id)' is skipped but has no 'next' to continue to")
      }
      try apply(next.effects, step: index)
      guard let destination = try choose(next.target, from: index, bindings: nil) else {
        throw RunError(message: "step '\(step.id)' is skipped but its 'next' stays on it")
      }
      records.append(.moved(from: step.id, to: flow.steps[destination].id, route: .skipIf, name: nil))
      index = destination
    }
    return index
  }

  mutating func countAutomaticMove(to index: StepIndex) throws(RunError) {
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

  mutating func enter(_ index: StepIndex, from previous: StepIndex?) throws(RunError) {
    let step = flow.steps[index]
    if let previous, previous != index {
      if flow.steps[previous].kind != .action {
        state.history.append(previous)
      } else if state.history.last == index {
        // Back passes over an action step as over a skipped one (its action ran on entry and does not run
        // again): the step before it is the one the user came from, and an outcome that returns there is a
        // move from that step to itself.
        state.history.removeLast()
      }
    }
    state.current = index
    state.timer = nil
    if state.isWaiting { state.pending = nil }
    note(.entered(step: step.id))
    try apply(flow.hooks.enter, step: index, tables: engine.storage.enterHook)
    try apply(step.enter, step: index)
    if step.isTerminal {
      state.ended = .init(step: index, outcome: step.terminalOutcome ?? .completed)
      note(.ended(step: step.id, outcome: step.terminalOutcome ?? .completed))
    } else if step.kind == .action, let action = step.action {
      try start(action, button: nil, on: index)
    }
  }

  func backAllowed(on current: StepIndex) -> Bool {
    let step = flow.steps[current]
    return (step.back ?? flow.back) && !state.history.isEmpty && !step.isTerminal
  }
}
