internal import FlowCore

/// Steps that can pass control around forever without the user doing anything.
struct AutomaticLoopRule: LintRule {
  static let description = RuleDescription(
    id: "automatic-loop",
    summary:
      "a cycle of steps joined only by automatic moves ('skipIf' with 'next', 'autoAdvance' after 0 seconds, action "
      + "outcomes) can loop forever, unless their conditions exclude each other ('x' and '!x', 'a == 1' and 'a == 2')",
    severity: .error,
    triggering: [
      .skipping(marked: true, back: "b: {kind: screen, skipIf: done, next: a, skip: end}")
    ],
    nonTriggering: [
      .skipping(back: "b: {kind: screen, next: a, skip: end}"),
      // `done` and `!done` never hold together, and nothing on the way changes `done`.
      .skipping(back: "b: {kind: screen, skipIf: \"!done\", next: a, skip: end}"),
    ])

  static var needsCleanLoad: Bool { true }

  /// How many moves the search for a loop that can happen may try in one group of steps; past it, the group is
  /// reported as if a loop could.
  static let searchBudget = 20_000

  func check(_ context: LintContext) {
    let flow = context.flow
    let automatic = context.walk.routes.filter(\.isAutomatic)
    guard !automatic.isEmpty else { return }
    for cycle in Digraph(stepCount: flow.steps.count, routes: automatic).cycles()
    where Self.canLoop(cycle, routes: automatic, in: flow) {
      let names =
        cycle.prefix(8).map { "'\(flow.steps[$0].id)'" }.joined(separator: ", ")
        + (cycle.count > 8 ? ", ..." : "")
      context.report(
        Self.description,
        "steps \(names) can loop forever without a user action; every move between them is automatic",
        at: flow.steps[cycle[0]].location,
        notes: ["automatic moves: 'skipIf' with 'next', 'autoAdvance' after 0 seconds, and an action step's outcomes"])
    }
  }
}

extension AutomaticLoopRule {
  /// Whether the automatic moves among `steps` (a group of steps that reach each other) can go round a cycle:
  /// some cycle's conditions (each skipped step's `skipIf`, an auto-advance's `when`, a guarded route's
  /// `when`) do not exclude each other (``ConditionConstraints``). Conditions on variables that an effect on
  /// the way sets (the steps' `enter`, the moves' effects, the `advance` and `enter` hooks), and on an action's
  /// `result`, are taken to hold.
  static func canLoop(_ steps: [StepIndex], routes: [FlowRoute], in flow: Flow) -> Bool {
    let members = Set(steps)
    let inside = routes.filter { route in route.from.map(members.contains) == true && members.contains(route.to) }
    var changing: Set<String> = ["result"]
    var effects = flow.hooks.advance + flow.hooks.enter
    for step in steps { effects += flow.steps[step].enter }
    for route in inside { effects += route.effects }
    for effect in effects { if case .set(let target, _) = effect.kind { changing.insert(target.variable) } }

    var moves: [StepIndex: [(to: StepIndex, conditions: [FlowExpression])]] = [:]
    for route in inside {
      guard let from = route.from else { continue }
      let step = flow.steps[from]
      var conditions: [FlowExpression] = []
      if route.kind == .skipIf, let skipIf = step.skipIf { conditions.append(skipIf.expression) }
      if route.kind == .next, let when = step.autoAdvance?.when { conditions.append(when.expression) }
      if case .when(let when) = route.condition { conditions.append(when.expression) }
      moves[from, default: []].append((route.to, conditions))
    }

    var budget = searchBudget
    /// Whether a path from `step` back to `start`, through steps after `start` not yet `visited`, keeps the
    /// constraints satisfiable. Every cycle is found from its lowest step.
    func search(
      from step: StepIndex, start: StepIndex, constraints: ConditionConstraints, visited: inout Set<StepIndex>
    ) -> Bool {
      for move in moves[step] ?? [] {
        budget -= 1
        if budget < 0 { return true }
        var next: ConditionConstraints? = constraints
        for condition in move.conditions { next = next?.adding(condition, ignoring: changing) }
        guard let next else { continue }
        if move.to == start { return true }
        guard move.to > start, visited.insert(move.to).inserted else { continue }
        if search(from: move.to, start: start, constraints: next, visited: &visited) { return true }
        visited.remove(move.to)
      }
      return false
    }
    for start in steps.sorted() {
      var visited: Set<StepIndex> = [start]
      if search(from: start, start: start, constraints: ConditionConstraints(), visited: &visited) { return true }
    }
    return false
  }
}

extension Example {
  /// A flow starting at `a`, which skips to `b` while `done`; `back` is the step `b`, which moves back to `a`.
  /// With `marked`, the marker stands before `a`.
  fileprivate static func skipping(
    marked: Bool = false, back: String, file: String = #filePath, line: Int = #line
  ) -> Example {
    .flow(
      header: """
        variables:
          done: {type: bool, default: true}
        """,
      start: "a",
      steps: """
        \(marked ? String(marker) : "")a: {kind: screen, skipIf: done, next: b}
        \(back)
        """, file: file, line: line)
  }
}
