import FlowCore
import FlowLoading
import Foundation
import Testing

@testable import FlowRuntime

/// `flowrun explore --jobs N` (``ExploreOptions/jobs``) explores a flow whose setups span several environments in
/// parts, one per thread (Explorer+Partitioned.swift), and otherwise tries the states' moves on N threads and takes
/// their results in order: every number of jobs must give the exploration one thread gives, state for state. .ci/run
/// also runs `flowrun explore --jobs 1, 2 and 4` on every flow under ThreadSanitizer and compares the reports.
@Suite struct ParallelExploreTests {
  static let flows = try! FileManager.default.contentsOfDirectory(
    atPath: StateCoderTests.packageRoot.appendingPathComponent("flows").path
  ).filter { $0.hasSuffix(".yaml") }.sorted()

  /// Explores `flow` with `options` on one thread and on 2, 3 and 4, and expects the same exploration each time:
  /// with 2 and 4 jobs the threads join after 100 states (``ExploreOptions/oneThreadFirst``), with 3 from the
  /// start.
  static func expectSameForEveryJobCount(_ flow: Flow, _ options: ExploreOptions, _ name: String) {
    let one = Explorer(flow: flow, options: options).explore()
    for jobs in 2...4 {
      var parallel = options
      parallel.jobs = jobs
      parallel.oneThreadFirst = jobs == 3 ? 0 : 100
      expectSame(one, Explorer(flow: flow, options: parallel).explore(), "\(name) --jobs \(jobs)")
    }
  }

  /// Compares everything an exploration holds: the state graph (ids, parents, edges, moves), what it found, and the
  /// report, text and JSON. An exploration in parts kept its states in a set per part, so its memory figure is its
  /// own: the reports are compared with one thread's figure in both.
  static func expectSame(_ one: Exploration, _ other: Exploration, _ label: String) {
    #expect(other.stateCount == one.stateCount, "\(label)")
    #expect(other.processed == one.processed, "\(label)")
    #expect(other.roots == one.roots && other.setupOf == one.setupOf, "\(label)")
    #expect(other.step == one.step && other.flags == one.flags && other.levels == one.levels, "\(label)")
    #expect(other.parent == one.parent && other.parentMove == one.parentMove, "\(label)")
    #expect(other.firstEdge == one.firstEdge && other.edgeTo == one.edgeTo, "\(label)")
    #expect(other.edgeCount == one.edgeCount && other.moves == one.moves, "\(label)")
    #expect(other.deadEnds == one.deadEnds && other.unexpanded == one.unexpanded, "\(label)")
    #expect(other.deadEndCanGoBack == one.deadEndCanGoBack, "\(label)")
    #expect(other.stoppedAt == one.stoppedAt, "\(label)")
    #expect(other.parts > 1 || other.keyBytes == one.keyBytes, "\(label)")
    #expect("\(other.failures)" == "\(one.failures)", "\(label)")
    #expect("\(other.inputLimits)" == "\(one.inputLimits)", "\(label)")
    func witnesses<Key: Comparable>(_ all: [Key: (state: Int32, move: Int32)]) -> [String] {
      all.keys.sorted().map { "\($0) \(all[$0]!.state) \(all[$0]!.move)" }
    }
    #expect(witnesses(other.transitionWitness) == witnesses(one.transitionWitness), "\(label)")
    #expect(witnesses(other.permissionOutcomeWitness) == witnesses(one.permissionOutcomeWitness), "\(label)")
    if other.parts > 1 {
      // The parts' paths and loops, added up by the merge, are what the whole gives (the report takes them).
      #expect(other.pathSummary != nil && other.pathSummary == PathSummary(other), "\(label)")
    }
    var report = ExploreReport(other)
    let oneReport = ExploreReport(one)
    if other.parts > 1 { report.bytesPerState = oneReport.bytesPerState }
    #expect(report.text == oneReport.text, "\(label)")
    #expect(report.json.prettyJSON == oneReport.json.prettyJSON, "\(label)")
  }

  /// Every flow in flows/, up to 1,500 states (the whole of tempoai.yaml, 1,276; the others stop at the limit in
  /// the middle of a batch, which must stop the parallel run at the same state).
  @Test(arguments: flows)
  func everyFlowIsExploredTheSameOnEveryNumberOfJobs(_ name: String) throws {
    var options = ExploreOptions()
    options.maxStates = 1_500
    let flow = try StateCoderTests.seed(name)
    let exploration = Explorer(flow: flow, options: options).explore()
    // More than one batch of each thread's pieces, and more than one piece per thread.
    #expect(exploration.stateCount > 2 * Explorer.parallelPiece * 4)
    Self.expectSameForEveryJobCount(flow, options, name)
  }

  /// --max-depth keeps the states at the limit unexpanded; --compact keeps fingerprints; both must stop and number
  /// the states as one thread does.
  @Test func theLimitsAndCompactStatesGiveTheSameExplorationOnEveryNumberOfJobs() throws {
    let flow = try StateCoderTests.seed("anicca-v02.yaml")
    var deep = ExploreOptions()
    deep.maxDepth = 6
    let limited = Explorer(flow: flow, options: deep).explore()
    #expect(limited.stoppedAt == .maxDepth && !limited.unexpanded.isEmpty)
    Self.expectSameForEveryJobCount(flow, deep, "anicca-v02 --max-depth 6")
    var compact = ExploreOptions()
    compact.compact = true
    compact.maxStates = 2_000
    Self.expectSameForEveryJobCount(flow, compact, "anicca-v02 --compact --max-states 2000")
  }

  /// A flow that fails on some moves and stops on an input it refuses: the failures and the states explore did
  /// not get past come in the same order.
  @Test func failuresAndInputLimitsComeInTheSameOrderOnEveryNumberOfJobs() throws {
    let flow = try compileFlow(
      """
      flow: counter
      version: "1"
      locales: [en]
      start: count
      variables:
        n: { type: int, default: 1 }
        handle: { type: string, default: "" }
        invitation: { type: string, default: "X7Q-42" }
      steps:
        count:
          kind: screen
          next: handle
          buttons:
            add: { to: count, effects: [{ set: n, value: "n < 8 ? n + 1 : n" }] }
            blow: { to: count, effects: [{ set: n, value: "n * 4611686018427387904" }] }
        handle:
          kind: text-input
          variable: handle
          valid: input == invitation
          next: done
        done: { kind: terminal, outcome: completed }
      """)
    let exploration = Explorer(flow: flow).explore()
    #expect(!exploration.failures.isEmpty && !exploration.inputLimits.isEmpty)
    Self.expectSameForEveryJobCount(flow, ExploreOptions(), "counter")
  }

  /// A counter to 700: its value's column in the states' rows widens to 2 bytes once it passes 255, while the
  /// threads expand (with 3 jobs they start at once). The threads pack the states they reach as the set did when
  /// their batch began; those the exploring thread takes after the column widened are packed again, and the
  /// exploration is one thread's.
  @Test func aColumnThatWidensWhileTheThreadsExpandGivesTheSameExploration() throws {
    let flow = try compileFlow(
      """
      flow: widening
      version: "1"
      locales: [en]
      start: count
      variables:
        n: { type: int, default: 0 }
      steps:
        count:
          kind: screen
          next: done
          buttons:
            one: { to: count, effects: [{ set: n, value: "n < 700 ? n + 1 : n" }] }
            three: { to: count, effects: [{ set: n, value: "n < 698 ? n + 3 : n" }] }
        done: { kind: terminal, outcome: completed }
      """)
    let exploration = Explorer(flow: flow).explore()
    #expect(exploration.stateCount > 1_400)
    Self.expectSameForEveryJobCount(flow, ExploreOptions(), "widening")
  }

  /// Each thread reuses moves through its own transition cache: with every reused move also made by the engine
  /// and compared, none differs.
  @Test(arguments: ["anicca-v01.yaml", "tempoai.yaml"])
  func theThreadsReuseMovesAndEveryReusedMoveIsTheEnginesOwn(_ name: String) throws {
    var options = ExploreOptions()
    options.maxStates = 3_000
    options.jobs = 2
    options.oneThreadFirst = 0
    options.checksReusedTransitions = true
    let reuse = Explorer(flow: try StateCoderTests.seed(name), options: options).explore().transitionReuse
    #expect(reuse.mismatches == 0 && reuse.unaccounted == 0, "\(name): \(reuse)")
    #expect(reuse.hits > 1_000, "\(name): \(reuse)")
  }

  /// A move one thread's cache made with the engine is learnt by the other threads' caches
  /// (``TransitionCache/Lesson``), so the engine makes fewer moves beyond one thread's. On anicca-v01's first
  /// 60,000 states the threads made 39% to 47% more than one thread (3,988 to 4,221 against 2,868 in four runs);
  /// with each cache learning only for itself, 80% to 94% more (5,173 and 5,572 in two runs).
  @Test func theThreadsCachesLearnTheMovesTheOthersMade() throws {
    var options = ExploreOptions()
    options.maxStates = 60_000
    options.oneThreadFirst = 0
    let flow = try StateCoderTests.seed("anicca-v01.yaml")
    let one = Explorer(flow: flow, options: options).explore().transitionReuse
    options.jobs = 2
    let two = Explorer(flow: flow, options: options).explore().transitionReuse
    #expect(two.misses * 100 <= one.misses * 160, "made by the engine: \(two.misses) with 2 jobs, \(one.misses) with 1")
    #expect(two.unaccounted == 0)
  }

  /// Flows whose setups span several environments (anicca-v02 and anicca-v04: twelve each, osVersion ×
  /// alarmKitAvailable × locale), explored whole with 2 to 4 jobs in as many parts, and merged into one thread's
  /// numbering.
  @Test(arguments: ["anicca-v02.yaml", "anicca-v04.yaml"])
  func environmentsExploredInPartsGiveOneThreadsExploration(_ name: String) throws {
    let flow = try StateCoderTests.seed(name)
    let environments = Explorer.environments(of: Explorer(flow: flow).setups).count
    #expect(environments > 2, "\(name): \(environments) environments")
    let one = Explorer(flow: flow).explore()
    #expect(one.parts == 1 && !one.hitLimit)
    for jobs in 2...4 {
      var options = ExploreOptions()
      options.jobs = jobs
      // The parts' progress is reported added up, in order.
      let reported = Locked<[ExploreProgress]>([])
      options.progress = { progress in reported.withLock { $0.append(progress) } }
      let parted = Explorer(flow: flow, options: options).explore()
      #expect(parted.parts == min(jobs, environments), "\(name) --jobs \(jobs)")
      Self.expectSame(one, parted, "\(name) --jobs \(jobs)")
      let expanded = reported.withLock { $0 }.map(\.expanded)
      #expect(expanded == expanded.sorted() && Set(expanded).count == expanded.count, "\(expanded)")
      // anicca-v04's two parts (a locale each) take 27,456 states each: one report each, every 16,384.
      if name == "anicca-v04.yaml" && jobs == 2 { #expect(expanded.count == 2, "\(expanded)") }
    }
  }

  /// With a copier (as `flowrun explore` gives), each part but the first explores a copy of the flow of its own,
  /// and the exploration is one thread's all the same; without a copy (the copier gives none), the part explores
  /// the flow.
  @Test func eachPartButTheFirstExploresACopyOfTheFlow() throws {
    let loaded = try FlowLoader.load(
      path: StateCoderTests.packageRoot.appendingPathComponent("flows/anicca-v04.yaml").path)
    let flow = try #require(loaded.flow)
    let one = Explorer(flow: flow).explore()
    let copier = loaded.flowCopier
    for (jobs, copies) in [(2, true), (3, true), (2, false)] {
      let made = Locked(0)
      var options = ExploreOptions()
      options.jobs = jobs
      options.flowForEachPart = {
        made.withLock { $0 += 1 }
        return copies ? copier() : nil
      }
      let parted = Explorer(flow: flow, options: options).explore()
      #expect(parted.parts == jobs && made.withLock { $0 } == jobs - 1, "--jobs \(jobs)")
      Self.expectSame(one, parted, "--jobs \(jobs), copies: \(copies)")
    }
  }

  /// More jobs than environments: the threads no part explores are spare, and a part with a batch of states waiting
  /// takes one and shares its states out in batches with it (as it takes the thread of a part done). anicca-v03's
  /// twelve environments with 14 jobs: two spare threads from the start, and one thread's exploration all the same.
  @Test func aPartTakesASpareThread() throws {
    let flow = try StateCoderTests.seed("anicca-v03.yaml")
    let one = Explorer(flow: flow).explore()
    var options = ExploreOptions()
    options.jobs = 14
    let parted = Explorer(flow: flow, options: options).explore()
    #expect(parted.parts == 12)
    #expect(parted.spareThreadsTaken > 0 && parted.batches > 0, "\(parted.spareThreadsTaken) \(parted.batches)")
    Self.expectSame(one, parted, "anicca-v03.yaml --jobs 14")
  }

  /// Spare threads are taken while there are some, and given back.
  @Test func spareThreadsAreTakenWhileThereAreSome() {
    let spare = Explorer.SpareThreads(2)
    #expect(spare.take() && spare.take() && !spare.take())
    spare.give(1)
    #expect(spare.take() && !spare.take())
    #expect(!Explorer.SpareThreads(-3).take())
  }

  /// Environments dealt out to parts: each part is in the setups' order, every setup is in one part, and with two
  /// jobs the two values of the last fact (varying fastest in the setups) go to different parts.
  @Test func environmentsAreDealtOutToTheParts() throws {
    let flow = try StateCoderTests.seed("anicca-v03.yaml")
    let setups = Explorer(flow: flow).setups
    let parts = Explorer.parts(of: setups, jobs: 2)
    #expect(parts.count == 2 && parts.allSatisfy { $0 == $0.sorted() })
    #expect((parts[0] + parts[1]).sorted() == Array(setups.indices))
    let locales = parts.map { Set($0.map { setups[$0].environment["locale"] }) }
    #expect(locales == [[.string("en-US")], [.string("ja-JP")]], "\(locales)")
    #expect(Explorer.parts(of: setups, jobs: 100).count == Explorer.environments(of: setups).count)
  }

  /// An experiment's variant is assigned at launch and kept (a relaunch pins it again, a reset leaves it), so
  /// setups with different variants share no state either: lingo-subscription (one environment, two variants of
  /// `paywallPosition`) is explored in two parts, and Tests/Flows/experiments.yaml (two experiments of two
  /// variants) in up to four, as one thread explores them.
  @Test func variantsAreExploredInParts() throws {
    let lingo = Explorer(flow: try StateCoderTests.seed("lingo-subscription.yaml")).setups
    let parts = Explorer.parts(of: lingo, jobs: 2)
    #expect(parts.count == 2)
    #expect(
      parts.map { Set($0.map { lingo[$0].variants }) } == [
        [["paywallPosition": "late"]], [["paywallPosition": "early"]],
      ])
    let flow = try StateCoderTests.flow(at: "Tests/Flows/experiments.yaml")
    let one = Explorer(flow: flow).explore()
    for jobs in 2...4 {
      var options = ExploreOptions()
      options.jobs = jobs
      let parted = Explorer(flow: flow, options: options).explore()
      #expect(parted.parts == jobs, "--jobs \(jobs)")
      Self.expectSame(one, parted, "experiments.yaml --jobs \(jobs)")
    }
  }

  /// A flow that fails on some moves, stops on an input it refuses and has a dead end, in three environments that
  /// reach different states: the failures, dead ends and input limits of the parts come in one thread's order. Cut
  /// at --max-depth, where one thread stops depends on every part: the states are then explored in batches.
  @Test func whatThePartsFindComesInOneThreadsOrder() throws {
    let flow = try compileFlow(
      """
      flow: tiers
      version: "1"
      locales: [en]
      start: count
      environment:
        tier: { type: int, default: 1, values: [1, 2, 3] }
      variables:
        n: { type: int, default: 1 }
        handle: { type: string, default: "" }
        invitation: { type: string, default: "X7Q-42" }
      steps:
        count:
          kind: screen
          next: handle
          buttons:
            add: { label: add, to: count, effects: [{ set: n, value: "n < 3 * env.tier ? n + 1 : n" }] }
            blow:
              label: blow
              to: count
              enabled: "env.tier != 2"
              effects: [{ set: n, value: "n * 4611686018427387904" }]
            stuck: { label: stuck, to: stuck, enabled: "env.tier == 3 && n == 5" }
        stuck: { kind: screen }
        handle:
          kind: text-input
          variable: handle
          valid: input == invitation
          next: done
        done: { kind: terminal, outcome: completed }
      """)
    for maxDepth in [3, 1_000] {
      var options = ExploreOptions()
      options.maxDepth = maxDepth
      let one = Explorer(flow: flow, options: options).explore()
      #expect((one.stoppedAt == .maxDepth) == (maxDepth == 3))
      #expect(maxDepth == 3 || (!one.failures.isEmpty && !one.inputLimits.isEmpty && !one.deadEnds.isEmpty))
      for jobs in 2...3 {
        options.jobs = jobs
        let parted = Explorer(flow: flow, options: options).explore()
        #expect(parted.parts == (maxDepth == 3 ? 1 : jobs), "--max-depth \(maxDepth) --jobs \(jobs)")
        Self.expectSame(one, parted, "tiers --max-depth \(maxDepth) --jobs \(jobs)")
      }
    }
  }

  /// One thread launches every setup before it takes any state's moves: a transition taken by a later setup's
  /// launch (tier 2 skips `a`) has that launch as its witness, even when another part takes it from an earlier
  /// state by a move (tier 1's root taps `again`).
  @Test func aLaunchIsTheWitnessBeforeAnyMove() throws {
    let flow = try compileFlow(
      """
      flow: launches
      version: "1"
      locales: [en]
      start: a
      environment:
        tier: { type: int, default: 1, values: [1, 2] }
      variables:
        n: { type: int, default: 0 }
      steps:
        a:
          kind: screen
          skipIf: env.tier == 2 || n == 1
          next: b
          buttons:
            again: { label: again, to: a, effects: [{ set: n, value: "1" }] }
        b: { kind: terminal, outcome: completed }
      """)
    let one = Explorer(flow: flow).explore()
    let skip = FlowTransition(from: "a", to: "b", kind: .skipIf)
    #expect(one.transitionWitness[skip]?.move == -1, "\(one.transitionWitness)")
    var options = ExploreOptions()
    options.jobs = 2
    let parted = Explorer(flow: flow, options: options).explore()
    #expect(parted.parts == 2)
    Self.expectSame(one, parted, "launches --jobs 2")
  }

  /// A flow that counts on and on has one state waiting at a time: the exploring thread expands each itself
  /// instead of sharing out a batch of one state (a batch a state made `--jobs 2` about fifty times slower than one
  /// thread on such a flow, and slower with every state). A flow with many waiting states is shared out.
  @Test func aNarrowFrontierIsNotSharedOut() throws {
    let flow = try compileFlow(
      """
      flow: counting
      version: "1"
      locales: [en]
      start: count
      variables:
        n: { type: int, default: 0 }
      steps:
        count:
          kind: screen
          next: done
          buttons:
            add: { label: add, to: count, effects: [{ set: n, value: "n + 1" }] }
        done: { kind: terminal, outcome: completed }
      """)
    var options = ExploreOptions()
    options.maxStates = 3_000
    let one = Explorer(flow: flow, options: options).explore()
    options.jobs = 2
    options.oneThreadFirst = 0
    let counted = Explorer(flow: flow, options: options).explore()
    #expect(counted.batches == 0 && counted.parts == 1)
    Self.expectSame(one, counted, "counting --jobs 2")
    var wide = ExploreOptions()
    wide.maxStates = 3_000
    wide.jobs = 2
    wide.oneThreadFirst = 0
    #expect(Explorer(flow: try StateCoderTests.seed("lingo-subscription.yaml"), options: wide).explore().batches > 0)
  }

  /// A limit on states that one thread's run reaches, or that a part alone passes, leaves the parts' work: the
  /// states are then explored in batches, which stop where one thread stops.
  @Test func aLimitOnStatesIsWhereOneThreadStops() throws {
    let flow = try StateCoderTests.seed("anicca-v02.yaml")
    for maxStates in [1, 7, 2_700, 5_000, 5_376] {
      var options = ExploreOptions()
      options.maxStates = maxStates
      let one = Explorer(flow: flow, options: options).explore()
      #expect(one.hitLimit == (maxStates < 5_376), "\(maxStates)")
      options.jobs = 2
      options.oneThreadFirst = 0
      let other = Explorer(flow: flow, options: options).explore()
      #expect(other.parts == (maxStates < 5_376 ? 1 : 2), "\(maxStates)")
      Self.expectSame(one, other, "anicca-v02 --max-states \(maxStates) --jobs 2")
    }
  }

  @Test func oneThreadIsTheLibraryDefaultAndTheCommandLineAcceptsOneTo256() {
    #expect(ExploreOptions().jobs == 1)
    #expect(ExploreOptions.jobsRange == 1...256)
    #expect(ExploreOptions().oneThreadFirst == 32_768 && ExploreOptions.oneThreadFirstRange == 0...1_000_000_000)
  }
}
