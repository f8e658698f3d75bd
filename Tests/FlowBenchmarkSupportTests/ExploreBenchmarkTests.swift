import FlowBenchmarkSupport
import FlowCore
import FlowRuntime
import Foundation
import Synchronization
import Testing

/// Not a timed test: prints the measurement when FLOWKIT_BENCH is set (run with `swift test -c release`).
@Suite struct ExploreBenchmarkTests {
  /// `flowrun explore`'s progress line: the explorer reports every ``ExploreProgress/interval`` states expanded,
  /// with the states found and the frontier. The generated flow's three counters modulo 26: 26³ = 17,576 states.
  @Test func progressIsReportedEveryIntervalOfStatesExpanded() throws {
    let reports = Mutex<[ExploreProgress]>([])
    var options = ExploreOptions()
    options.progress = { progress in reports.withLock { $0.append(progress) } }
    let exploration = Explorer(flow: try ExploreBenchmark.generatedFlow(states: 17_576), options: options).explore()
    #expect(exploration.stateCount == 17_576)
    let seen = reports.withLock { $0 }
    #expect(seen.map(\.expanded) == [ExploreProgress.interval])
    let report = try #require(seen.first)
    #expect(report.states > ExploreProgress.interval && report.states <= 17_576)
    #expect(report.frontier == report.states - ExploreProgress.interval)
  }

  @Test func generatedFlowHasTheRequestedStates() throws {
    let flow = try ExploreBenchmark.generatedFlow(states: 1_000)
    let exploration = Explorer(flow: flow).explore()
    #expect(exploration.stateCount == 1_000)
    #expect(!exploration.hitLimit)
  }

  /// Exploring a chain of N steps is linear: the stored bytes and the report's moves grow like N (a state does
  /// not copy its path, and long paths are written from an earlier step's), not like N². Checked by structure,
  /// not by time (the release-build time is in the README).
  @Test func aChainOfTenThousandStepsIsExploredLinearly() throws {
    func explore(_ steps: Int) throws -> (Exploration, ExploreReport) {
      let flow = try FlowGenerator.compile(FlowGenerator.chainYAML(steps: steps), file: "chain.yaml")
      let exploration = Explorer(flow: flow).explore()
      return (exploration, ExploreReport(exploration))
    }
    let (small, smallReport) = try explore(1_000)
    let (large, largeReport) = try explore(10_000)
    #expect(large.stateCount == 10_001)
    #expect(!large.hitLimit)
    #expect(largeReport.reachable.count == 10_001)
    #expect(largeReport.terminals.map(\.paths) == [1])
    #expect(largeReport.deadEnds.isEmpty && largeReport.failures.isEmpty)
    // Ten times the steps, about ten times the bytes (the hash table's size is a power of two: at most 2x more).
    #expect(large.bytesStored <= small.bytesStored * 10 * 2)
    let moves = largeReport.shortest.reduce(0) { $0 + $1.commands.count }
    #expect(moves <= 10_001 * (ExploreReport.fullPathLimit + 1))
    let last = try #require(largeReport.shortest.last)
    #expect(last.step == "done")
    #expect(last.line == "[(defaults)] (the path to s9999), next")
    #expect(smallReport.shortest[64].line == "[(defaults)] next ×64")
    #expect(smallReport.shortest[65].line == "[(defaults)] (the path to s64), next")
  }

  /// The memory per state is computed from counts, so two runs of the same flow report the same figure.
  @Test func bytesPerStateIsTheSameOnEveryRun() throws {
    let flow = try ExploreBenchmark.generatedFlow(states: 1_000)
    let first = ExploreReport(Explorer(flow: flow).explore())
    let second = ExploreReport(Explorer(flow: flow).explore())
    #expect(first.bytesPerState == second.bytesPerState)
    #expect(first.bytesPerState > 0)
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["FLOWKIT_BENCH"] != nil))
  func measureOneMillionStates() throws {
    let measurement = try ExploreBenchmark.measure(states: 1_000_000)
    print(measurement)
    #expect(measurement.states == 1_000_000)
  }
}
