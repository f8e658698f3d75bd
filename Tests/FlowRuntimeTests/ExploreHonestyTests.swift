import FlowCore
import FlowRuntime
import Testing

/// Explore never calls a state stuck or a step unreachable because of its own limits or its own choice of inputs
/// (issue 15, item 4). Each test compares a whole text report, from the smallest flow that shows the problem.
@Suite struct ExploreHonestyTests {
  /// The report without its last line, the bytes stored per state: that figure belongs to the state encoding
  /// (guarded by ExploreBenchmarkTests), not to what the exploration found.
  static func report(_ yaml: String, _ configure: (inout ExploreOptions) -> Void = { _ in }) throws -> String {
    var options = ExploreOptions()
    configure(&options)
    let text = ExploreReport(Explorer(flow: try compileFlow(yaml), options: options).explore()).text
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last?.hasPrefix("memory: ") == true)
    return lines.dropLast().joined(separator: "\n")
  }

  static let chain = """
    flow: capped
    version: "1"
    locales: [en]
    start: a
    steps:
      a: { kind: screen, next: b }
      b: { kind: screen, next: c }
      c: { kind: terminal, outcome: completed }
    """

  /// `--max-states 2` stops while `b`'s moves are being tried: `b` is unexplored, not a state with no way forward.
  @Test func aStateTheStateLimitInterruptsIsUnexploredNotStuck() throws {
    #expect(
      try Self.report(Self.chain) { $0.maxStates = 2 } == """
        capped 1: 2 states, 1 moves from 1 launch setups (explored 2 states, stopped at the limit (--max-states 2): \
        the results below are partial; raise the limit to see everything)
        reachable steps (2): a, b
        steps not reached before the limit stopped the run: c
        terminals:
          none: no run ends
        states with no way forward: none
        unexplored (the limit stopped the run before their moves were tried):
          b: 1 state(s); e.g. [(defaults)] next
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 2 of 3
          never taken: b -> c (next)
        shortest path to every step:
          a: [(defaults)] (launch)
          b: [(defaults)] next
        """)
  }

  /// `--max-depth 1` keeps `b` without trying its moves: the report lists it as the unexplored frontier.
  @Test func statesAtTheDepthLimitAreListedAsUnexplored() throws {
    #expect(
      try Self.report(Self.chain) { $0.maxDepth = 1 } == """
        capped 1: 2 states, 1 moves from 1 launch setups (explored 2 states, stopped at the limit (--max-depth 1): \
        the results below are partial; raise the limit to see everything)
        reachable steps (2): a, b
        steps not reached before the limit stopped the run: c
        terminals:
          none: no run ends
        states with no way forward: none
        unexplored (the limit stopped the run before their moves were tried):
          b: 1 state(s); e.g. [(defaults)] next
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 2 of 3
          never taken: b -> c (next)
        shortest path to every step:
          a: [(defaults)] (launch)
          b: [(defaults)] next
        """)
  }
}
