import FlowCore
import FlowRuntime
import FlowTestSupport
import FlowYAML
import Foundation
import Testing

/// Experiments: the variant a run is assigned from its stable id, pins, and what reads the variant.
@Suite struct ExperimentTests {
  static let paywall = """
    flow: t
    version: "1"
    locales: [en]
    start: welcome
    environment:
      deviceId: { type: string, default: device-0001 }
    experiments:
      paywall:
        id: env.deviceId
        variants: { early: 50, late: 50 }
    steps:
      welcome:
        kind: screen
        next:
          to:
            - when: 'experiment.paywall == "early"'
              to: offer
            - to: goal
          effects:
            - track: welcome_done
              properties: { step: step.id }
      goal: { kind: screen, next: offer }
      offer: { kind: terminal, outcome: paywall }
    """

  static func launch(_ flow: Flow, id: String, pins: [String: String] = [:]) throws -> (RunState, [Record]) {
    try Engine(flow: flow).launch(Launch(environment: ["deviceId": .string(id)], variants: pins))
  }

  static func assigned(_ records: [Record]) -> [String] {
    records.compactMap {
      if case .assigned(let experiment, let variant, let why) = $0 { "\(experiment)=\(variant) (\(why))" } else { nil }
    }
  }

  @Test func theVariantComesFromTheBucketOfTheIdWithTheExperimentsNameAsSalt() throws {
    let flow = try compileFlow(Self.paywall)
    // bucket("device-0001", "paywall") = 53 and bucket("device-0002", "paywall") = 20, as the expression computes it.
    #expect(StableHash.bucket("device-0001", salt: "paywall") == 53)
    #expect(StableHash.bucket("device-0002", salt: "paywall") == 20)
    let (late, lateRecords) = try Self.launch(flow, id: "device-0001")
    #expect(Self.assigned(lateRecords) == [#"paywall=late (bucket("device-0001", "paywall") = 53, in 50...99)"#])
    #expect(flow.variants(in: late) == ["paywall": "late"])
    let (early, earlyRecords) = try Self.launch(flow, id: "device-0002")
    #expect(Self.assigned(earlyRecords) == [#"paywall=early (bucket("device-0002", "paywall") = 20, in 0...49)"#])
    #expect(flow.variants(in: early) == ["paywall": "early"])
  }

  @Test func theSameIdGetsTheSameVariantInEveryRunAndAfterARestartOrReset() throws {
    let flow = try compileFlow(Self.paywall)
    let engine = Engine(flow: flow)
    for index in 0..<50 {
      let id = "device-\(index)"
      let (first, _) = try Self.launch(flow, id: id)
      let (second, _) = try Self.launch(try compileFlow(Self.paywall), id: id)
      #expect(first.variants == second.variants, "\(id)")
      var state = first
      _ = try engine.handle(.launch(Launch(environment: ["deviceId": .string(id)])), in: &state)
      _ = try engine.handle(.reset, in: &state)
      #expect(state.variants == first.variants, "\(id)")
    }
  }

  @Test func weightsDivideTheHundredBucketsInOrderAndManyIdsFollowThem() throws {
    func experiment(_ weights: [Int]) -> Experiment {
      Experiment(
        name: "e", id: nil, salt: "e",
        variants: weights.enumerated().map { .init(name: "v\($0.offset)", weight: $0.element, location: .unknown) },
        location: .unknown)
    }
    #expect(experiment([50, 50]).bucketRanges == [0..<50, 50..<100])
    #expect(experiment([1, 2]).bucketRanges == [0..<33, 33..<100])
    #expect(experiment([90, 5, 5]).bucketRanges == [0..<90, 90..<95, 95..<100])
    #expect(experiment([1, 1, 1]).bucketRanges == [0..<33, 33..<66, 66..<100])
    #expect(experiment([Int.max, 1]).bucketRanges == [])  // the total overflows: not usable
    #expect(experiment([0, 1]).bucketRanges == [])

    // 20,000 ids split 90/10: each variant's share is within one point of its weight.
    let split = experiment([90, 10])
    var counts = [0, 0]
    for index in 0..<20_000 { counts[split.assignment(of: "device-\(index)")!.variant] += 1 }
    #expect((17_800...18_200).contains(counts[0]), "\(counts)")
    #expect((1_800...2_200).contains(counts[1]), "\(counts)")
  }

  @Test func aPinWinsOverTheBucketAndAPinTheFlowDoesNotKnowIsAWarning() throws {
    let flow = try compileFlow(Self.paywall)
    let (pinned, records) = try Self.launch(flow, id: "device-0001", pins: ["paywall": "early"])
    #expect(Self.assigned(records) == ["paywall=early (pinned)"])
    #expect(flow.variants(in: pinned) == ["paywall": "early"])

    let (_, unknown) = try Self.launch(flow, id: "device-0001", pins: ["paywall": "erly", "color": "red"])
    #expect(
      unknown.filter { if case .warning = $0 { true } else { false } } == [
        .warning(
          "variant 'red' is pinned for the experiment 'color', which the flow does not declare (its experiments: "
            + "'paywall')"),
        .warning(
          "'erly' is not a variant of the experiment 'paywall' (its variants: 'early', 'late'); assigned by its id instead"
        ),
      ])
    #expect(Self.assigned(unknown) == [#"paywall=late (bucket("device-0001", "paywall") = 53, in 50...99)"#])
  }

  @Test func routesReadTheVariantAndTrackEffectsCarryIt() throws {
    let flow = try compileFlow(Self.paywall)
    let engine = Engine(flow: flow)
    for (id, path, track) in [
      ("device-0002", "offer", #"track welcome_done {step: "welcome", paywall: "early"}"#),
      ("device-0001", "goal", #"track welcome_done {step: "welcome", paywall: "late"}"#),
    ] {
      var (state, _) = try Self.launch(flow, id: id)
      let records = try engine.handle(.next, in: &state)
      #expect(records.compactMap { if case .entered(let step) = $0 { step } else { nil } } == [path])
      #expect(records.compactMap { if case .effect(.track) = $0 { $0 } else { nil } }.count == 1)
      for case .effect(let effect) in records where effect.typeName == "track" { #expect(effect.summary == track) }
    }
  }

  @Test func theSessionPinsTheAppsVariantAndReportsTheAssignedOnes() async throws {
    let flow = try compileFlow(Self.paywall)
    var session = FlowSession(flow: flow, providers: .fakes())
    #expect(session.variants == [:])
    session.variantPins = ["paywall": "early"]
    _ = try await session.launch()
    #expect(session.variants == ["paywall": "early"])
    #expect(session.state.current == flow.index(of: "welcome"))
  }

  @Test func anIdThatIsNotAStringFailsTheLaunchNamingTheExperiment() throws {
    let flow = try compileFlow(Self.paywall.replacingOccurrences(of: "id: env.deviceId", with: "id: store.missing"))
    #expect(
      throws: FlowError.failed(
        RunError(
          message: "9:9: the id of the experiment 'paywall' ('store.missing') is null; expected a string"))
    ) {
      try Engine(flow: flow).launch(Launch())
    }
  }

  @Test func weightsThatAreNotPositiveOrGetNoBucketAreCompilerErrors() throws {
    func diagnostics(_ variants: String) throws -> [String] {
      let yaml = Self.paywall.replacingOccurrences(of: "{ early: 50, late: 50 }", with: variants)
      let node = try YAMLLoader.load(bytes: Array(yaml.utf8), file: "test.yaml")
      return FlowCompiler.compile(node, file: "test.yaml").diagnostics.map(\.description)
    }
    #expect(
      try diagnostics("{ early: 50, late: 0 }") == [
        "test.yaml:10:34: error: the weight of variant 'late' of experiment 'paywall' must be positive; found 0 "
          + "(leave out a variant no run should get) [variant-weight]"
      ])
    #expect(
      try diagnostics("{ early: 1, late: 1000 }") == [
        "test.yaml:10:17: error: variant 'early' of experiment 'paywall' gets none of the 100 buckets runs are "
          + "assigned by (weight 1 of 1001); raise its weight [variant-weight]"
      ])
    #expect(
      try diagnostics("{ early: 50, late: 0.5 }") == [
        "test.yaml:10:34: error: the weight of variant 'late' of experiment 'paywall' must be a whole number "
          + "(early: 50); found a number [variant-weight]"
      ])
  }

  @Test func diffSaysWhichExperimentsChangedAndHowManyBucketsGetAnotherVariant() throws {
    let old = try compileFlow(Self.paywall)
    func changes(_ replace: String, with text: String) throws -> [String] {
      let new = try compileFlow(Self.paywall.replacingOccurrences(of: replace, with: text))
      return FlowDiff.compare(old: old, new: new).experimentChanges.map { "\($0.subject): \($0.before) -> \($0.after)" }
    }
    let before = #"id env.deviceId, salt "paywall": early 50, late 50"#
    #expect(
      try changes("{ early: 50, late: 50 }", with: "{ early: 40, late: 60 }") == [
        #"paywall: \#(before) -> id env.deviceId, salt "paywall": early 40, late 60 (10 of 100 buckets now get "#
          + "another variant)"
      ])
    #expect(
      try changes("variants:", with: "salt: paywall-2\n    variants:") == [
        #"paywall: \#(before) -> id env.deviceId, salt "paywall-2": early 50, late 50 (another id or salt: every "#
          + "device is assigned again)"
      ])
    #expect(
      try changes("paywall:\n", with: "paywal:\n") == [
        "paywall: \(before) -> (none)", #"paywal: (none) -> id env.deviceId, salt "paywal": early 50, late 50"#,
      ])
    let unchanged = FlowDiff.compare(old: old, new: try compileFlow(Self.paywall))
    #expect(unchanged.experimentChanges.isEmpty)
    #expect(unchanged.text.contains("experiments changed: none"))
  }
}
