package import FlowCore
import FlowRuntime
import FlowYAML
import Foundation

/// A generated flow with a known number of states, and a measurement of exploring it (for `flowbench`).
package enum ExploreBenchmark {
  /// A screen with three counters, each stepped by a button modulo `side`: `side`³ states, each with three
  /// button moves, restart and reset (five engine calls per state).
  package static func flowYAML(side: Int) -> String {
    var yaml = """
      flow: bench
      version: "1"
      locales: [en]
      start: count
      variables:
        a: { type: int, default: 0 }
        b: { type: int, default: 0 }
        c: { type: int, default: 0 }
      steps:
        count:
          kind: screen
          buttons:

      """
    for name in ["a", "b", "c"] {
      yaml += "        \(name): { to: stay, effects: [{ set: \(name), value: '(\(name) + 1) % \(side)' }] }\n"
    }
    return yaml
  }

  /// The compiled flow with about `states` states (the cube of the nearest side).
  package static func generatedFlow(states: Int) throws -> Flow {
    var side = 1
    while (side + 1) * (side + 1) * (side + 1) <= states { side += 1 }
    return try FlowGenerator.compile(flowYAML(side: side), file: "bench.yaml")
  }

  package struct Measurement: Sendable, CustomStringConvertible {
    package var states: Int
    package var moves: Int
    package var seconds: Double
    package var bytesPerState: Double
    package var description: String {
      let rate = seconds > 0 ? Int(Double(states) / seconds) : 0
      return "explore: \(states) states, \(moves) moves in \(String(format: "%.2f", seconds)) s "
        + "(\(rate) states/s), \(Int(bytesPerState.rounded())) bytes per state stored"
    }
  }

  /// The `--jobs` values explore accepts.
  package static var jobsRange: ClosedRange<Int> { ExploreOptions.jobsRange }

  /// What `flowrun explore` does with a compiled flow, with the default options: the text report of exploring
  /// `flow` on `jobs` threads, and how many moves the exploration took from its transition caches and how many the
  /// engine made (``Exploration/TransitionReuse``). In parts, each part is explored alone on its thread (no spare
  /// thread taken, ``ExploreOptions/partsTakeSpareThreads``), so that the work does not depend on which part ends
  /// first.
  package static func report(of flow: Flow, jobs: Int = 1) -> (text: String, reused: Int, made: Int) {
    var options = ExploreOptions()
    options.jobs = jobs
    options.partsTakeSpareThreads = false
    let exploration = Explorer(flow: flow, options: options).explore()
    let reuse = exploration.transitionReuse
    return (ExploreReport(exploration).text, reuse.hits, reuse.misses)
  }

  /// Explores the generated flow (transition tracking on, as `flowrun explore` does) and times it: the
  /// exploration alone, as SPIN's rate is, without the paths and loops `flowrun explore`'s report counts.
  package static func measure(states: Int) throws -> Measurement {
    let flow = try generatedFlow(states: states)
    var options = ExploreOptions()
    options.maxStates = states * 2
    options.summarizesPaths = false
    let clock = ContinuousClock()
    var exploration: Exploration?
    let duration = clock.measure { exploration = Explorer(flow: flow, options: options).explore() }
    let result = exploration!
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return Measurement(
      states: result.stateCount, moves: result.edgeCount, seconds: seconds,
      bytesPerState: Double(result.bytesStored) / Double(max(1, result.stateCount)))
  }
}
