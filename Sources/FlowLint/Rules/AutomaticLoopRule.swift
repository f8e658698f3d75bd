internal import FlowCore

/// Steps that can pass control around forever without the user doing anything.
struct AutomaticLoopRule: LintRule {
  static let description = RuleDescription(
    id: "automatic-loop",
    summary:
      "a cycle of steps joined only by automatic moves ('skipIf' with 'next', 'autoAdvance' after 0 seconds, action outcomes) can loop forever",
    severity: .error,
    triggering: [
      .skipping(marked: true, back: "b: {kind: screen, skipIf: done, next: a, skip: end}")
    ],
    nonTriggering: [
      .skipping(back: "b: {kind: screen, next: a, skip: end}")
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    let flow = context.flow
    let automatic = context.walk.routes.filter(\.isAutomatic)
    guard !automatic.isEmpty else { return }
    for cycle in Digraph(stepCount: flow.steps.count, routes: automatic).cycles() {
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
