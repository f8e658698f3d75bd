import FlowCore
import Testing

@testable import FlowRuntime

@Suite struct PathSummaryTests {
  /// A graph no seed flow gives (there an ended state has no forward move): ended states inside a loop, two at
  /// one step and one at another. Each loop counts once per step it ends at, with the paths into it.
  @Test func aLoopOfEndedStatesCountsItsPathsOncePerStep() throws {
    // The states below are made up: only the flow's steps (q, end) are read.
    let flow = try compileFlow(ExploreTests.threeAnswers)
    let (q, end): (Int32, Int32) = (0, 1)
    var exploration = Exploration(flow: flow, options: ExploreOptions())
    // 0 → 1 → 3, 0 → 2 → 3, and the loop 3 → 4 → 5 → 3, whose states end at `end`, `end` and `q`.
    let successors: [[Int32]] = [[1, 2], [3], [3], [4], [5], [3]]
    exploration.roots = [0]
    exploration.step = [q, q, q, end, end, q]
    exploration.flags = [0, 0, 0, Exploration.endedFlag, Exploration.endedFlag, Exploration.endedFlag]
    exploration.firstEdge = [0]
    for targets in successors {
      exploration.edgeTo += targets
      exploration.firstEdge.append(Int32(exploration.edgeTo.count))
    }

    let summary = PathSummary(exploration)

    #expect(summary.pathsToStep == [2, 2])
    #expect(
      summary.loopComponents == [PathSummary.LoopComponent(searchRoot: 0, steps: [q, end], states: 3)])
    let loops = summary.loops(of: flow)
    #expect(loops.map(\.steps) == [["q", "end"]])
    #expect(loops.map(\.states) == [3])
  }

  /// Without the summary, the report works the paths and loops out itself, to the same text.
  @Test(arguments: [1, 2])
  func theReportIsTheSameWithoutTheSummary(jobs: Int) throws {
    let flow = try StateCoderTests.seed("anicca-v04.yaml")
    var options = ExploreOptions()
    options.jobs = jobs
    let summarized = Explorer(flow: flow, options: options).explore()
    options.summarizesPaths = false
    let left = Explorer(flow: flow, options: options).explore()
    #expect(summarized.pathSummary != nil)
    #expect(left.pathSummary == nil)
    #expect(ExploreReport(left).text == ExploreReport(summarized).text)
  }
}
