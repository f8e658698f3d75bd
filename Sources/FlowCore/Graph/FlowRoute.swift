/// One way out of a step as the flow declares it, before its target is resolved: `next`, `skip`, a button, or
/// an outcome of a permission request or action.
///
/// ``Flow/exits(of:)`` is the one place that knows where a step's ways out are written; the linter, the
/// explorer, `flowrun graph`, `flowrun diff` and coverage read them from there.
package struct FlowExit: Sendable, Hashable {
  package var from: StepIndex
  package var kind: FlowRoute.Kind
  /// The button or outcome name.
  package var name: String?
  /// What the exit does. A button that goes to a step has no transition of its own: this one carries the
  /// button's target and effects (its label and conditions stay on the button).
  package var transition: Transition
  /// Taken without a user action: `next` after an `autoAdvance` of 0 seconds, an action step's outcomes.
  package var isAutomatic: Bool
  /// The action outcomes whose `result` the exit's expressions may read (an outcome of an action), nil
  /// otherwise.
  package var resultOf: ResultSource?
  /// The steps with a `rawValue`, where a `rawValue` route may go; empty when the exit has no `rawValue` route.
  package var rawValueSteps: [StepIndex] = []

  /// The routes the exit can take: one per guarded route that goes to a step (`stay` is not a route).
  package var routes: [FlowRoute] {
    let own = transition.effects
    switch transition.target {
    case .stay:
      return []
    case .step(let index):
      return [
        FlowRoute(
          from: from, to: index, kind: kind, name: name, condition: .none, effects: own,
          location: transition.location, isAutomatic: isAutomatic)
      ]
    case .routes(let routes):
      return routes.flatMap { route in
        route.destinations(rawValueSteps: rawValueSteps).map {
          FlowRoute(
            from: from, to: $0, kind: kind, name: name, condition: route.condition, effects: own + route.effects,
            location: route.location, isAutomatic: isAutomatic)
        }
      }
    }
  }
}

extension Route {
  /// The steps the route may go to: its target, or for a `rawValue` route every step with a raw value.
  package func destinations(rawValueSteps: [StepIndex]) -> [StepIndex] {
    if let target { return [target] }
    return rawValue == nil ? [] : rawValueSteps
  }

  /// Its guard as a route of the graph.
  var condition: FlowRoute.Condition {
    if let rawValue { return .rawValue(rawValue) }
    return when.map(FlowRoute.Condition.when) ?? .otherwise
  }
}

/// One edge of a flow's step graph: from a step (or from launch) to a step, with its kind, its guard and the
/// effects taken with it.
package struct FlowRoute: Sendable, Hashable {
  package typealias Kind = RouteKind

  /// When the route is taken, beyond the exit itself being taken.
  package enum Condition: Sendable, Hashable {
    /// Always: a plain target.
    case none
    case when(Expr)
    /// An unconditional route after guarded ones.
    case otherwise
    /// The flow's `start` (launch with no resume route that applies).
    case start
    /// A `resume` route to the step whose raw value the expression gives.
    case rawValue(Expr)

    /// `env.x == 1`, `otherwise`, `start`; nil for ``none``.
    package var text: String? {
      switch self {
      case .none: nil
      case .when(let expr): expr.description
      case .otherwise: "otherwise"
      case .start: "start"
      case .rawValue(let expr): "rawValue \(expr.description)"
      }
    }
  }

  /// nil for launch.
  package var from: StepIndex?
  package var to: StepIndex
  package var kind: Kind
  /// The button or outcome name.
  package var name: String?
  package var condition: Condition
  /// The exit's effects, then the route's.
  package var effects: [Effect]
  package var location: SourceLocation
  package var isAutomatic: Bool
}

extension StepButton {
  /// What tapping a button that goes to `target` does: the button's effects, then the target.
  package func transition(to target: Target) -> Transition {
    Transition(target: target, effects: effects, location: location)
  }
}

extension Transition {
  /// The transition's guarded routes, `stay` included; none for a plain target.
  package var guardedRoutes: [Route] {
    if case .routes(let routes) = target { routes } else { [] }
  }
}

// MARK: - Walking the flow

extension Flow {
  /// The ways out of one step, in the order they are written: `next`, `skip`, the buttons (a button that
  /// performs an action: its outcomes), the permission request's outcomes and the action's outcomes.
  package func exits(of index: StepIndex) -> [FlowExit] {
    let step = steps[index]
    var result: [FlowExit] = []
    // Found only for an exit with a `rawValue` route: finding them for every exit made walking a flow quadratic
    // in its steps (1.2 s to lint 10,000 steps; perf-guard's "lint generated 10,000 steps" holds it).
    var rawValueStepsFound: [StepIndex]?
    func add(
      _ kind: FlowRoute.Kind, _ name: String?, _ transition: Transition, automatic: Bool, result of: ResultSource?
    ) {
      var steps: [StepIndex] = []
      if transition.guardedRoutes.contains(where: { $0.rawValue != nil }) {
        if rawValueStepsFound == nil { rawValueStepsFound = rawValueSteps }
        steps = rawValueStepsFound ?? []
      }
      result.append(
        FlowExit(
          from: index, kind: kind, name: name, transition: transition, isAutomatic: automatic, resultOf: of,
          rawValueSteps: steps))
    }
    let automaticNext = step.autoAdvance.map { $0.seconds <= 0 } ?? false
    if let next = step.next { add(.next, nil, next, automatic: automaticNext, result: nil) }
    if let skip = step.skip { add(.skip, nil, skip, automatic: false, result: nil) }
    for button in step.buttons {
      switch button.move {
      case .go(let target):
        add(.button, button.name, button.transition(to: target), automatic: false, result: nil)
      case .perform(let call):
        for outcome in call.outcomes {
          add(.outcome, outcome.name, outcome.transition, automatic: false, result: resultSource(call, outcome))
        }
      case .request(_, let outcomes):
        for outcome in outcomes { add(.outcome, outcome.name, outcome.transition, automatic: false, result: nil) }
      }
    }
    for outcome in step.permission?.outcomes ?? [] {
      add(.outcome, outcome.name, outcome.transition, automatic: false, result: nil)
    }
    if let action = step.action {
      for outcome in action.outcomes {
        add(.outcome, outcome.name, outcome.transition, automatic: true, result: resultSource(action, outcome))
      }
    }
    return result
  }

  /// The outcomes of `call` that `outcome` handles: its own, or for `else` every declared one not named.
  package func resultSource(_ call: Step.ActionCall, _ outcome: Outcome) -> ResultSource {
    let declared = action(call.name.value)?.outcomeNames ?? []
    let handled = outcome.isCatchAll ? call.outcomes.coveredByElse(of: declared) : [outcome.name]
    return ResultSource(action: call.name.value, outcomes: handled)
  }

  /// The steps with a `rawValue` (where a `rawValue` route may go), in step order.
  package var rawValueSteps: [StepIndex] { steps.indices.filter { steps[$0].rawValue != nil } }

  /// Every step's ``exits(of:)``, by step: for a walk that goes over them more than once (the linter's goes over
  /// them for the routes, the effects and each step's expressions).
  package var exitsByStep: [[FlowExit]] { steps.indices.map { exits(of: $0) } }

  /// Every route of the flow: from launch (the `resume` routes, then the start step), then every step's in
  /// step order, a step's `skipIf` last (an automatic route along its `next`).
  package var routes: [FlowRoute] { routes(exits: exitsByStep) }

  /// ``routes``, from the steps' exits found already (``exitsByStep``).
  package func routes(exits: [[FlowExit]]) -> [FlowRoute] {
    var result: [FlowRoute] = []
    for route in resume {
      switch route.destination {
      case .step(let index):
        result.append(
          FlowRoute(
            from: nil, to: index, kind: .resume, name: nil,
            condition: route.when.map(FlowRoute.Condition.when) ?? .none,
            effects: [], location: route.location, isAutomatic: false))
      case .rawValue(let expr):
        for (index, step) in steps.enumerated() where step.rawValue != nil {
          result.append(
            FlowRoute(
              from: nil, to: index, kind: .resume, name: nil, condition: .rawValue(expr), effects: [],
              location: route.location, isAutomatic: false))
        }
      }
    }
    if steps.indices.contains(start) {
      result.append(
        FlowRoute(
          from: nil, to: start, kind: .resume, name: nil, condition: .start, effects: [], location: .unknown,
          isAutomatic: false))
    }
    // `foreground:` and `open:` routes lead from wherever the user is: from no step, like the resume routes.
    let lifecycle =
      [foreground.map { (RouteKind.foreground, String?.none, $0) }].compactMap { $0 }
      + openEntries.map { (RouteKind.open, Optional($0.name), $0.transition) }
    let rawValueSteps = rawValueSteps
    for (kind, name, transition) in lifecycle {
      switch transition.target {
      case .stay: break
      case .step(let index):
        result.append(
          FlowRoute(
            from: nil, to: index, kind: kind, name: name, condition: .none, effects: transition.effects,
            location: transition.location, isAutomatic: false))
      case .routes(let routes):
        for route in routes {
          for target in route.destinations(rawValueSteps: rawValueSteps) {
            result.append(
              FlowRoute(
                from: nil, to: target, kind: kind, name: name, condition: route.condition,
                effects: transition.effects + route.effects, location: route.location, isAutomatic: false))
          }
        }
      }
    }
    for index in steps.indices {
      var passOver: [FlowRoute] = []
      for exit in exits[index] {
        result += exit.routes
        if exit.kind == .next, steps[index].skipIf != nil {
          var skipIf = exit
          skipIf.kind = .skipIf
          skipIf.isAutomatic = true
          passOver = skipIf.routes
        }
      }
      result += passOver
    }
    return result
  }

}

/// The outcomes of an action call whose `result` an exit reads: the outcome an `on:` entry names, or every
/// declared outcome its `else` entry covers.
package struct ResultSource: Sendable, Hashable {
  package var action: ActionName
  package var outcomes: [String]
}

/// One list of effects a flow runs together, and the action outcomes whose `result` its expressions may read.
package struct FlowEffects: Sendable {
  package var effects: [Effect]
  /// The action outcomes the effects are written under, nil elsewhere.
  package var resultOf: ResultSource?
  /// The `open:` entry whose `params` the effects may read, nil elsewhere.
  package var openEntry: OpenEntry? = nil
}

extension Flow {
  /// Every list of effects the flow can run, in the order they are written: the `launch:` list's (its effects,
  /// and each launch action's outcomes), the reset's, the `launch`, `advance` and `enter` hooks', then each
  /// step's `enter`, its exits' (a transition's own and each guarded
  /// route's, `stay` included) and those of its buttons that perform an action.
  ///
  /// The one walk over a flow's effects: the linter checks their expressions from it, and `flowrun` learns
  /// from it which system actions (`requestReview`) the flow can ask for.
  package var effectLists: [FlowEffects] { effectLists(exits: exitsByStep) }

  /// ``effectLists``, from the steps' exits found already (``exitsByStep``).
  package func effectLists(exits: [[FlowExit]]) -> [FlowEffects] {
    var result: [FlowEffects] = []
    for item in launch {
      switch item {
      case .effect(let effect): result.append(FlowEffects(effects: [effect], resultOf: nil))
      case .action(let call):
        for outcome in call.outcomes {
          result.append(FlowEffects(effects: outcome.transition.effects, resultOf: resultSource(call.call, outcome)))
        }
      }
    }
    result += [reset.effects, hooks.launch, hooks.advance, hooks.enter].map {
      FlowEffects(effects: $0, resultOf: nil)
    }
    if let foreground {
      result.append(FlowEffects(effects: foreground.effects, resultOf: nil))
      for route in foreground.guardedRoutes { result.append(FlowEffects(effects: route.effects, resultOf: nil)) }
    }
    for entry in openEntries {
      result.append(FlowEffects(effects: entry.transition.effects, resultOf: nil, openEntry: entry))
      for route in entry.transition.guardedRoutes {
        result.append(FlowEffects(effects: route.effects, resultOf: nil, openEntry: entry))
      }
    }
    for (index, step) in steps.enumerated() {
      result.append(FlowEffects(effects: step.enter, resultOf: nil))
      for exit in exits[index] {
        result.append(FlowEffects(effects: exit.transition.effects, resultOf: exit.resultOf))
        for route in exit.transition.guardedRoutes {
          result.append(FlowEffects(effects: route.effects, resultOf: exit.resultOf))
        }
      }
      for button in step.buttons {
        // A button that goes to a step has its effects in its exit.
        if case .perform = button.move { result.append(FlowEffects(effects: button.effects, resultOf: nil)) }
      }
    }
    return result
  }
}

extension Digraph {
  /// The step graph of a flow's routes (routes from launch are not edges).
  ///
  /// Takes an array, not any sequence, and collects the edges itself: called from another module, a generic
  /// lazy sequence here ran unspecialized, at several thousand instructions a route.
  package init(stepCount: Int, routes: [FlowRoute]) {
    var edges: [(from: Int, to: Int)] = []
    edges.reserveCapacity(routes.count)
    for route in routes {
      if let from = route.from { edges.append((from: from, to: route.to)) }
    }
    self.init(nodeCount: stepCount, edges: edges)
  }
}
