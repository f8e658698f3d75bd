package import FlowCore

extension Flow {
  /// The variables and store keys that can change what the flow does: those read by a condition, a route, a
  /// resume rule, an `enabled`/`visible`/`valid` check, an `initial`, an assigned value or an assignment's condition. Variables read only
  /// by texts and analytics properties are not among them. Exploration merges states that differ only in the
  /// others (keeping whether each is empty, which `next` on a required choice checks).
  package var controlReads: (variables: Set<String>, storeKeys: Set<String>, wholeStore: Bool) {
    var names: Set<String> = []
    var keys: Set<String> = []
    var wholeStore = false
    for expr in controlExpressions {
      for reference in expr.expression.references {
        guard let root = reference.path.first else { continue }
        if root == "store" {
          if reference.path.count > 1 { keys.insert(reference.path[1]) } else { wholeStore = true }
        } else {
          names.insert(root)
        }
      }
    }
    return (names.filter { variableIndexByName[$0] != nil }, keys, wholeStore)
  }

  /// The expressions that can change what the flow does (see ``controlReads``): conditions, routes, resume
  /// rules, `enabled`/`visible`/`valid` checks, `initial`s, assigned values and assignments' conditions.
  package var controlExpressions: [Expr] {
    var exprs: [Expr] = []
    func effects(_ list: [Effect]) {
      // Only assignments change the state; the condition of an analytics effect decides only whether it is sent.
      for effect in list {
        guard case .set(_, let value) = effect.kind else { continue }
        if let when = effect.when { exprs.append(when) }
        exprs.append(value)
      }
    }
    func transition(_ transition: Transition) {
      exprs += [transition.enabled, transition.visible].compactMap { $0 }
      effects(transition.effects)
      for route in transition.guardedRoutes {
        exprs += [route.when, route.rawValue].compactMap { $0 }
        effects(route.effects)
      }
    }
    for route in resume {
      if let when = route.when { exprs.append(when) }
      if case .rawValue(let expr) = route.destination { exprs.append(expr) }
    }
    exprs += variables.compactMap(\.initial)
    if let foreground { transition(foreground) }
    for entry in openEntries { transition(entry.transition) }
    for item in launch {
      switch item {
      case .effect(let effect): effects([effect])
      case .action(let call):
        if let when = call.when { exprs.append(when) }
        exprs += call.arguments.map(\.value)
        for outcome in call.outcomes { effects(outcome.transition.effects) }
      }
    }
    effects(reset.effects)
    effects(hooks.launch)
    effects(hooks.advance)
    effects(hooks.enter)
    for (index, step) in steps.enumerated() {
      if let skipIf = step.skipIf { exprs.append(skipIf) }
      if let when = step.autoAdvance?.when { exprs.append(when) }
      if let valid = step.textInput?.valid { exprs.append(valid) }
      effects(step.enter)
      for exit in exits(of: index) { transition(exit.transition) }
      for button in step.buttons {
        exprs += [button.enabled, button.visible].compactMap { $0 }
        // A button that goes to a step has its effects read with its exit.
        if case .perform = button.move { effects(button.effects) }
      }
      if let request = step.permission { exprs += [request.enabled, request.visible].compactMap { $0 } }
    }
    return exprs
  }
}
