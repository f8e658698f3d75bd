internal import FlowCore

/// A step the user can reach and then not leave, although it has ways out on paper: an action step an outcome
/// keeps the user on (its action ran on entry and does not run again), or a loop of steps none of which leads
/// on to a terminal and none of which allows back.
///
/// A step with no way out at all is `dead-end`'s, and an outcome with no entry in `on` is `unhandled-outcome`'s.
struct TrapRule: LintRule {
  static let description = RuleDescription(
    id: "trap",
    summary:
      "a step the user can reach must let them leave: no action-step outcome may stay on its step, and a loop of steps must lead on to a terminal or allow back",
    severity: .error,
    triggering: [
      .flow(
        start: "signIn",
        steps: """
          signIn:
            kind: action
            action: sign-in-with-apple
            on: {success: end, failure: end, cancelled: ↓stay}
          """),
      .flow(
        steps: """
          welcome: {kind: screen, next: ↓a}
          a: {kind: screen, next: b}
          b: {kind: screen, next: a}
          """),
    ],
    nonTriggering: [
      .flow(
        start: "signIn",
        steps: """
          signIn:
            kind: action
            action: sign-in-with-apple
            on: {success: end, failure: retry, cancelled: retry}
          retry: {kind: screen, next: signIn}
          """),
      .flow(
        header: "back: true",
        steps: """
          welcome: {kind: screen, next: end, skip: a}
          a: {kind: screen, next: b}
          b: {kind: screen, next: a}
          """),
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    for (index, step) in flow.steps.enumerated() {
      guard let action = step.action, !UnhandledOutcomeRule.hasOtherWayOut(from: index, in: flow) else { continue }
      for outcome in action.outcomes {
        let stays: [SourceLocation]
        switch outcome.transition.target {
        case .stay: stays = [outcome.transition.location]
        case .step: stays = []
        case .routes(let routes): stays = routes.filter(\.isStay).map(\.location)
        }
        for location in stays {
          context.report(
            Self.description,
            "outcome '\(outcome.name)' of action '\(action.name.value)' keeps the user on '\(step.id)', an action step: its action ran when the step was entered and does not run again, so nothing leads on from there",
            at: location,
            notes: [
              "send '\(outcome.name)' to a step the user can act on (a screen that offers to try again, say), or give '\(step.id)' a 'next' or a button"
            ])
        }
      }
    }
    reportClosedLoops(context)
  }

  /// A set of steps the routes never leave (a strongly connected component with no edge out), reachable from
  /// launch, with no terminal in it and no step allowing back: a user who enters it can never finish.
  private func reportClosedLoops(_ context: LintContext) {
    let flow = context.flow
    let graph = context.graph
    let reached = graph.reachable(from: context.walk.routes.filter { $0.from == nil }.map(\.to))
    let components = graph.stronglyConnectedComponents()
    var leaves = [Bool](repeating: false, count: components.count)
    for node in 0..<graph.nodeCount {
      for next in graph.successors(of: node) where components.component[Int(next)] != components.component[node] {
        leaves[Int(components.component[node])] = true
      }
    }
    // Where the routes first enter each closed loop, in the order the routes are written: the route's position
    // in `routes`, -1 for none.
    let routes = context.walk.routes
    var entries = [Int](repeating: -1, count: components.count)
    for (position, route) in routes.enumerated() {
      let component = Int(components.component[route.to])
      if entries[component] < 0, route.from.map({ Int(components.component[$0]) != component }) ?? true {
        entries[component] = position
      }
    }
    // The steps of each component of several steps that no route leaves, without listing every component's
    // members (a 10,000-step flow has 10,000 components of one step).
    var sizes = [Int](repeating: 0, count: components.count)
    for component in components.component { sizes[Int(component)] += 1 }
    var closed: [Int: [Int]] = [:]
    for (step, component) in components.component.enumerated() where sizes[Int(component)] > 1 {
      if !leaves[Int(component)] { closed[Int(component), default: []].append(step) }
    }
    for (component, steps) in closed.sorted(by: { $0.key < $1.key }) {
      guard reached[steps[0]],
        !steps.contains(where: { flow.steps[$0].isTerminal || (flow.steps[$0].back ?? flow.back) })
      else { continue }
      let names = steps.map { "'\(flow.steps[$0].id)'" }.joined(separator: ", ")
      var location = flow.steps[steps[0]].location
      if entries[component] >= 0, case let entry = routes[entries[component]].location, entry != .unknown {
        location = entry
      }
      context.report(
        Self.description,
        "steps \(names) lead only to each other: a user who reaches them can never get to a terminal or go back",
        at: location,
        notes: ["give one of them a way on to a terminal (a 'next', a button or a route), or allow 'back'"])
    }
  }
}
