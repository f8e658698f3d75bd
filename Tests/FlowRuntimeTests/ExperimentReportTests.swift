import FlowCore
import FlowLoading
import FlowRuntime
import Foundation
import Testing

/// Explore and coverage per variant, on the reference flow of experiments (Tests/Flows/experiments.yaml) and its
/// table (Tests/Scenarios/experiments.yaml). Each test compares a whole text report.
@Suite struct ExperimentReportTests {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  static let flowPath = tests.appendingPathComponent("Flows/experiments.yaml").path
  static let tablePath = tests.appendingPathComponent("Scenarios/experiments.yaml").path

  static func flow() throws -> Flow {
    try #require(try FlowLoader.load(path: flowPath).flow)
  }

  /// Explore launches once per combination of variants (pinned) and says what each variant reaches. A restart keeps
  /// the run's variants: were they assigned again from the device id (late and full for device-0001), the short
  /// path's runs would reach `goal` after a restart.
  @Test func exploreExploresEveryVariantAndReportsWhatEachReaches() throws {
    let explorer = Explorer(flow: try Self.flow())
    #expect(
      explorer.setups.map(\.description) == [
        #"path=full paywall=early deviceId="device-0001""#, #"path=short paywall=early deviceId="device-0001""#,
        #"path=full paywall=late deviceId="device-0001""#, #"path=short paywall=late deviceId="device-0001""#,
      ])
    let text = ExploreReport(explorer.explore()).text
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last?.hasPrefix("memory: ") == true)
    #expect(
      lines.dropLast().joined(separator: "\n") == """
        experiments 1.0: 24 states, 64 moves from 4 launch setups (explored completely)
        reachable steps (5): welcome, goal, paywall, subscribed, done
        steps reachable under no environment: none
        variants (the steps the runs of each reach):
          paywall=early: 5 of 5 steps; terminals: subscribed, done
          paywall=late: 5 of 5 steps; terminals: subscribed, done
          path=full: 5 of 5 steps; terminals: subscribed, done
          path=short: 4 of 5 steps (not reached: goal); terminals: subscribed, done
        terminals:
          subscribed (home): 5 distinct paths, 5 states
          done (completed): 6 distinct paths, 4 states
        states with no way forward: none
        loops (forward moves that come back): none
        flow failures: none
        declared transitions taken: 10 of 10
        shortest path to every step:
          welcome: [path=full paywall=early deviceId="device-0001"] (launch)
          goal: [path=full paywall=late deviceId="device-0001"] next
          paywall: [path=full paywall=early deviceId="device-0001"] next
          subscribed: [path=full paywall=early deviceId="device-0001"] next, tap subscribe
          done: [path=short paywall=early deviceId="device-0001"] next ×2
        """)
  }

  /// `--format json` lists the same per variant.
  @Test func exploreJSONListsWhatEachVariantReaches() throws {
    let report = ExploreReport(Explorer(flow: try Self.flow()).explore())
    guard case .map(let fields) = report.json else {
      Issue.record("the report is not an object")
      return
    }
    func reach(_ experiment: String, _ variant: String, _ reached: [String], _ unreached: [String]) -> Value {
      .map([
        "experiment": .string(experiment), "variant": .string(variant), "reached": .list(reached.map(Value.string)),
        "unreached": .list(unreached.map(Value.string)), "terminals": .list([.string("subscribed"), .string("done")]),
      ])
    }
    let all = ["welcome", "goal", "paywall", "subscribed", "done"]
    #expect(
      fields["variants"]
        == .list([
          reach("paywall", "early", all, []), reach("paywall", "late", all, []), reach("path", "full", all, []),
          reach("path", "short", ["welcome", "paywall", "subscribed", "done"], ["goal"]),
        ]))
  }

  /// Coverage counts each variant some row ran and lists, per variant, the steps its rows entered.
  @Test func coverageSaysWhichStepsEachVariantReached() async throws {
    let flow = try Self.flow()
    let table = try ScenarioLoader.load(path: Self.tablePath)
    var observations: [Observation] = []
    for scenarioCase in table.cases {
      let result = await ScenarioRunner.run(scenarioCase, flow: flow)
      #expect(result.passed, "\(result.failures)")
      observations.append(result.observation)
    }
    #expect(
      FlowCoverage(flow: flow, observations: observations).text == """
        coverage of experiments 1.0: 100.0% (steps 5/5, transitions 10/10, permission outcomes 0/0, variants 4/4)
          variant paywall=early: steps 5/5
          variant paywall=late: steps 5/5
          variant path=full: steps 5/5
          variant path=short: steps 4/5 (never entered: goal)
        """)
    // The rows that pin the late paywall alone: the early variants are never run, and count as missed.
    let late = zip(table.cases, observations).filter { $0.0.variants["paywall"] == "late" }.map(\.1)
    #expect(
      FlowCoverage(flow: flow, observations: late).text == """
        coverage of experiments 1.0: 73.7% (steps 5/5, transitions 6/10, permission outcomes 0/0, variants 3/4)
          transition never taken: welcome -> paywall (next)
          transition never taken: goal -> done (next)
          transition never taken: goal -> done (skipIf)
          transition never taken: paywall -> goal (next)
          variant paywall=early: never run
          variant paywall=late: steps 5/5
          variant path=full: steps 4/5 (never entered: subscribed)
          variant path=short: steps 3/5 (never entered: goal, done)
        """)
  }
}
