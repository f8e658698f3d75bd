import FlowCore
import FlowRuntime
import FlowYAML
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

  /// A date-of-birth form: explore used to type `year=1` only, which `enabled` refuses, and reported the form as a
  /// state with no way forward and both terminals as unreachable. It now types the values on both sides of every
  /// comparison of `year` (1900, 2010 and 2011 besides 1; 1899, 2008 and 2009 answer every test as one of them).
  @Test func aValidatedFormIsFilledWithValuesOnBothSidesOfEveryComparison() throws {
    let flow = """
      flow: birthday
      version: "1"
      locales: [en]
      start: birthday
      variables:
        year: { type: int, default: 0 }
      steps:
        birthday:
          kind: form
          fields:
            year: { label: year, type: int, target: year, required: true }
          next:
            enabled: year >= 1900 && year <= 2010
            to:
              - when: year > 2008
                to: young
              - to: adult
        young: { kind: terminal, outcome: completed }
        adult: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        birthday 1: 5 states, 14 moves from 1 launch setups (explored completely)
        reachable steps (3): birthday, young, adult
        steps reachable under no environment: none
        terminals:
          young (completed): 1 distinct paths, 1 states
          adult (completed): 1 distinct paths, 1 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 3 of 3
        shortest path to every step:
          birthday: [(defaults)] (launch)
          young: [(defaults)] input year=2010
          adult: [(defaults)] input year=1900
        """)
  }

  /// A handle that must start with `@` and have four characters: no value derived from one comparison passes both,
  /// so the flow declares what to type (`values:`), and explore types exactly that.
  @Test func aTextInputIsGivenTheValuesTheFlowDeclares() throws {
    let flow = """
      flow: handle
      version: "1"
      locales: [en]
      start: handle
      variables:
        handle: { type: string, default: "" }
      steps:
        handle:
          kind: text-input
          variable: handle
          valid: startsWith(input, "@") && size(input) >= 4
          values: ["@aki", "aki"]
          next: done
        done: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        handle 1: 3 states, 6 moves from 1 launch setups (explored completely)
        reachable steps (2): handle, done
        steps reachable under no environment: none
        terminals:
          done (completed): 1 distinct paths, 1 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 2 of 2
        shortest path to every step:
          handle: [(defaults)] (launch)
          done: [(defaults)] input "@aki"
        """)
  }

  /// A form field's samples must be valid for its type: the compiler says which one is not, where.
  @Test func aFieldSampleOfTheWrongTypeIsAnError() throws {
    let yaml = """
      flow: f
      version: "1"
      locales: [en]
      start: age
      variables:
        age: { type: int, default: 0 }
      steps:
        age:
          kind: form
          fields:
            age: { label: age, type: int, target: age, values: [17, eighteen] }
          next: done
        done: { kind: terminal, outcome: completed }
      """
    let node = try YAMLLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")
    let (_, diagnostics) = FlowCompiler.compile(node, file: "f.yaml")
    #expect(
      diagnostics.map(\.description) == [
        "f.yaml:11:63: error: sample 'eighteen' of field 'age' is not a valid int [flow-shape]"
      ])
  }
}
