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
        birthday 1: 5 states, 12 moves from 1 launch setups (explored completely)
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

  /// A handle that must start with `@` and have four characters: no value derived from one comparison passes both.
  static func handle(_ values: String) -> String {
    """
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
        valid: startsWith(input, "@") && size(input) >= 4\(values)
        next: done
      done: { kind: terminal, outcome: completed }
    """
  }

  /// A text input that must equal what the server sent (`invitation`): no text explore derives from the flow can
  /// be known to pass.
  static func invitation(_ values: String) -> String {
    """
    flow: handle
    version: "1"
    locales: [en]
    start: handle
    variables:
      handle: { type: string, default: "" }
      invitation: { type: string, default: "X7Q-42" }
    steps:
      handle:
        kind: text-input
        variable: handle
        valid: input == invitation\(values)
        next: done
      done: { kind: terminal, outcome: completed }
    """
  }

  /// The tests of one branch of `valid` are passed together: `startsWith(input, "@") && size(input) >= 4` gets
  /// `@aaa`, where one test at a time gives `@` and `aaaa`, neither of which passes both (issue 15 item 4, "a
  /// value per `valid` branch").
  @Test func aTextThatPassesEveryTestOfAValidBranchIsTyped() throws {
    #expect(
      try Self.report(Self.handle("")) == """
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
          done: [(defaults)] input "@aaa"
        """)
  }

  /// A `matches` test in `valid` gets a text of its pattern, with the branch's other tests passed too.
  @Test func aMatchesTestGetsATextOfItsPattern() throws {
    let flow = """
      flow: member
      version: "1"
      locales: [en]
      start: member
      variables:
        number: { type: string, default: "" }
      steps:
        member:
          kind: text-input
          variable: number
          valid: startsWith(input, "N") && matches(input, "^N[0-9]{6}$")
          next: done
        done: { kind: terminal, outcome: completed }
      """
    #expect(try Self.report(flow).hasSuffix(#"done: [(defaults)] input N000000"#))
  }

  /// A deep link whose parameter must match a pattern: explore opens it with a sample and with a text of the
  /// pattern, and reaches the step the link leads to (it used to open `code=A1` only and call `invited`
  /// reachable under no environment).
  @Test func aDeepLinkIsOpenedWithParametersTheFlowAccepts() throws {
    let flow = """
      flow: referral
      version: "1"
      locales: [en]
      start: welcome
      variables:
        code: { type: string, default: "" }
      open:
        referral:
          params: { code: string }
          effects:
            - set: code
              value: params.code
              when: 'matches(params.code, "^[A-Z0-9]{4,12}$")'
          to:
            - when: code != ""
              to: invited
            - to: stay
      steps:
        welcome: { kind: screen, next: done }
        invited: { kind: screen, next: done }
        done: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        referral 1: 6 states, 15 moves from 1 launch setups (explored completely)
        reachable steps (3): welcome, invited, done
        steps reachable under no environment: none
        terminals:
          done (completed): 2 distinct paths, 3 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 4 of 4
        shortest path to every step:
          welcome: [(defaults)] (launch)
          invited: [(defaults)] open flowkit://referral?code=AAAA
          done: [(defaults)] next
        """)
  }

  /// With `values:` the flow declares what to type, and explore types exactly that.
  @Test func aTextInputIsGivenTheValuesTheFlowDeclares() throws {
    #expect(
      try Self.report(Self.handle("\n    values: [\"@aki\", \"aki\"]")) == """
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

  /// Without `values:` none of the texts explore derives passes: the step is not a state with no way forward and
  /// `done` is not reachable under no environment (both used to be said); the report names the input, the texts
  /// tried and what to declare, and the run's exit status is 1 (``ExploreReport/hasProblems``), as for a capped run.
  @Test func aTextInputThatRefusesEveryTextTriedIsNotADeadEnd() throws {
    #expect(
      try Self.report(Self.invitation("")) == """
        handle 1: 1 states, 0 moves from 1 launch setups (explored completely)
        reachable steps (1): handle
        steps reachable under no environment: none
        steps not reached with the inputs tried: done
        terminals:
          none: no run ends
        states with no way forward: none
        states explore did not get past with the inputs tried (not stuck: a text that passes may go on):
          handle: 1 state(s); e.g. [(defaults)] (launch)
            the text input accepted no text tried (2: "", Akira); e.g. 'Akira' is not accepted on 'handle' \
        (input == invitation → "Akira" == "X7Q-42" → false)
            fix: declare `values:` on step 'handle' with a text it accepts
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 1 of 2
          never taken: handle -> done (next)
        shortest path to every step:
          handle: [(defaults)] (launch)
        """)
    #expect(ExploreReport(Explorer(flow: try compileFlow(Self.invitation(""))).explore()).hasProblems)
  }

  /// A form field whose `pattern` and `maxLength` no text passes together: its pattern's example is too long.
  static func code(_ values: String, maxLength: String = ", maxLength: 5") -> String {
    """
    flow: code
    version: "1"
    locales: [en]
    start: code
    variables:
      code: { type: string, default: "" }
    steps:
      code:
        kind: form
        fields:
          code:
            { label: code, type: string, target: code, required: true, pattern: "[A-Z]{3}-[0-9]{4}"\(maxLength)\(values) }
        next:
          enabled: code != ""
          to: done
      done: { kind: terminal, outcome: completed }
    """
  }

  /// The form names the field that accepted none of its texts, in the text report and in `--format json`
  /// (`inputLimited`, `notReachedWithInputsTried`, and `done` is not in `unreachable`); with `values:` it is passed.
  @Test func aFormFieldWhosePatternNoTextTriedMatchesIsNamed() throws {
    #expect(
      try Self.report(Self.code("")) == """
        code 1: 1 states, 0 moves from 1 launch setups (explored completely)
        reachable steps (1): code
        steps reachable under no environment: none
        steps not reached with the inputs tried: done
        terminals:
          none: no run ends
        states with no way forward: none
        states explore did not get past with the inputs tried (not stuck: a text that passes may go on):
          code: 1 state(s); e.g. [(defaults)] (launch)
            field 'code' accepted no text tried (5: "", Akira, aaaaa, aaaaaa, AAA-0000); e.g. 'Akira' does not match \
        the pattern \
        [A-Z]{3}-[0-9]{4} of field 'code'
            fix: declare `values:` on field 'code' of step 'code' with a text it accepts
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 1 of 2
          never taken: code -> done (next)
        shortest path to every step:
          code: [(defaults)] (launch)
        """)
    guard case .map(let json) = ExploreReport(Explorer(flow: try compileFlow(Self.code(""))).explore()).json else {
      Issue.record("not a map")
      return
    }
    let refusal = Value.string("'Akira' does not match the pattern [A-Z]{3}-[0-9]{4} of field 'code'")
    #expect(
      json["inputLimited"]
        == .list([
          .map([
            "step": "code", "states": 1, "form": true, "tried": 5, "refusal": refusal,
            "example": .map(["step": "code", "setup": "(defaults)", "commands": .list([])]),
            "inputs": .list([
              .map([
                "field": "code", "tried": .list(["", "Akira", "aaaaa", "aaaaaa", "AAA-0000"]), "refusal": refusal,
              ])
            ]),
          ])
        ]))
    #expect(json["notReachedWithInputsTried"] == .list(["done"]))
    #expect(json["unreachable"] == .list([]))
    #expect(json["deadEnds"] == .list([]))
    #expect(
      try Self.report(Self.code(", values: [ABC-1234, abc]", maxLength: "")) == """
        code 1: 3 states, 5 moves from 1 launch setups (explored completely)
        reachable steps (2): code, done
        steps reachable under no environment: none
        terminals:
          done (completed): 1 distinct paths, 1 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 2 of 2
        shortest path to every step:
          code: [(defaults)] (launch)
          done: [(defaults)] input code=ABC-1234
        """)
  }

  /// Each field accepts its text, but `next`'s `enabled` refuses every filling tried: the form is not a dead end
  /// either, and the report says the fields must be given values accepted together.
  @Test func aFormWhoseFillingsNextRefusesIsNotADeadEnd() throws {
    let flow = """
      flow: sum
      version: "1"
      locales: [en]
      start: split
      variables:
        a: { type: int, default: 0 }
        b: { type: int, default: 0 }
      steps:
        split:
          kind: form
          fields:
            a: { label: a, type: int, target: a, required: true }
            b: { label: b, type: int, target: b, required: true }
          next:
            enabled: a + b == 10 && a > b
            to: done
        done: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        sum 1: 1 states, 0 moves from 1 launch setups (explored completely)
        reachable steps (1): split
        steps reachable under no environment: none
        steps not reached with the inputs tried: done
        terminals:
          none: no run ends
        states with no way forward: none
        states explore did not get past with the inputs tried (not stuck: a text that passes may go on):
          split: 1 state(s); e.g. [(defaults)] (launch)
            no filling tried was accepted (1 tried); e.g. next is disabled on 'split' \
        (a + b == 10 && a > b → 1 + 1 == 10 && 1 > 1 → false)
            fix: declare `values:` on the fields of step 'split' with texts that are accepted together
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 1 of 2
          never taken: split -> done (next)
        shortest path to every step:
          split: [(defaults)] (launch)
        """)
  }

  /// A step whose `next` is disabled whatever is typed (its `enabled` reads no input and never holds) is still a
  /// state with no way forward, and the step behind it only is still reachable under no environment; `done`, also
  /// behind the handle that refused every text, is not reached with the inputs tried.
  @Test func aRealDeadEndKeepsItsWordingBesideAnInputThatRefusedEverything() throws {
    let flow = """
      flow: both
      version: "1"
      locales: [en]
      start: welcome
      variables:
        handle: { type: string, default: "" }
        code: { type: string, default: "" }
        invitation: { type: string, default: "X7Q-42" }
        invited: { type: bool, default: false }
      steps:
        welcome:
          kind: screen
          buttons:
            handle: { to: handle }
            invite: { to: invite }
        handle:
          kind: text-input
          variable: handle
          valid: input == invitation
          next: done
        invite:
          kind: text-input
          variable: code
          next:
            enabled: invited
            to: member
        member: { kind: screen, next: done }
        done: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        both 1: 3 states, 6 moves from 1 launch setups (explored completely)
        reachable steps (3): welcome, handle, invite
        steps reachable under no environment: member
        steps not reached with the inputs tried: done
        terminals:
          none: no run ends
        states with no way forward: 
          invite: 1 state(s); e.g. [(defaults)] tap invite
        states explore did not get past with the inputs tried (not stuck: a text that passes may go on):
          handle: 1 state(s); e.g. [(defaults)] tap handle
            the text input accepted no text tried (2: "", Akira); e.g. 'Akira' is not accepted on 'handle' \
        (input == invitation → "Akira" == "X7Q-42" → false)
            fix: declare `values:` on step 'handle' with a text it accepts
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 3 of 6
          never taken: handle -> done (next)
          never taken: invite -> member (next)
          never taken: member -> done (next)
        shortest path to every step:
          welcome: [(defaults)] (launch)
          handle: [(defaults)] tap handle
          invite: [(defaults)] tap invite
        """)
  }

  /// A required text input with no `valid` and nothing that compares its variable: `""` and a name answer every
  /// comparison alike (there is none), but the input refuses the empty text, so both are typed. Explore used to type
  /// only `""` and stop there (Tests/Flows/open-vocabulary.yaml's username step).
  @Test func aRequiredTextInputIsGivenAnEmptyAndANonEmptyText() throws {
    let flow = """
      flow: name
      version: "1"
      locales: [en]
      start: name
      variables:
        username: { type: string, default: "" }
      steps:
        name: { kind: text-input, variable: username, next: done }
        done: { kind: terminal, outcome: completed }
      """
    #expect(
      try Self.report(flow) == """
        name 1: 3 states, 6 moves from 1 launch setups (explored completely)
        reachable steps (2): name, done
        steps reachable under no environment: none
        terminals:
          done (completed): 1 distinct paths, 1 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 2 of 2
        shortest path to every step:
          name: [(defaults)] (launch)
          done: [(defaults)] input Akira
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
