import FlowBenchmarkSupport
import FlowCore
import FlowRuntime
import Foundation
import Testing

/// Not a timed test: prints the measurement when FLOWKIT_BENCH is set (run with `swift test -c release`).
@Suite struct ExploreBenchmarkTests {
  @Test func generatedFlowHasTheRequestedStates() throws {
    let flow = try ExploreBenchmark.generatedFlow(states: 1_000)
    let exploration = Explorer(flow: flow).explore()
    #expect(exploration.stateCount == 1_000)
    #expect(!exploration.hitLimit)
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["FLOWKIT_BENCH"] != nil))
  func measureOneMillionStates() throws {
    let measurement = try ExploreBenchmark.measure(states: 1_000_000)
    print(measurement)
    #expect(measurement.states == 1_000_000)
  }
}
