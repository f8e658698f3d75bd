import FlowCore
import Testing

@testable import FlowRuntime

/// `flowrun explore` runs the engine without explaining records (``Engine/explainsRecords`` off): every move from
/// every state of a seed flow must leave the same state and record the same as the engine that explains them,
/// but for the `why` of a route or skip taken on a condition, which is "".
@Suite struct QuietRecordsTests {
  /// The record with its `why` left out.
  static func withoutWhy(_ record: Record) -> Record {
    switch record {
    case .routed(let from, let to, _): .routed(from: from, to: to, why: "")
    case .skipped(let step, _): .skipped(step: step, why: "")
    default: record
    }
  }

  /// The record's `why`, for a route or a skip.
  static func why(_ record: Record) -> String? {
    switch record {
    case .routed(_, _, let why), .skipped(_, let why): why
    default: nil
    }
  }

  @Test(arguments: ["anicca-v01.yaml"])
  func everyMoveRecordsTheSameButTheWhyOfAConditionIsEmpty(_ name: String) throws {
    let flow = try StateCoderTests.seed(name)
    var options = ExploreOptions()
    options.maxStates = 3_000
    let explorer = Explorer(flow: flow, options: options)
    let exploration = explorer.explore()
    let explaining = Engine(flow: flow)
    var quiet = explaining
    quiet.explainsRecords = false
    var explained = 0
    var mismatches: [String] = []
    for id in Int32(0)..<Int32(exploration.stateCount) {
      let (setup, moves) = exploration.path(to: id)
      let launch = exploration.setups[setup].launch(clock: options.clock)
      var (state, _) = try explaining.launch(launch)
      for move in moves { state = try #require(try explorer.apply(move, to: state)).0 }
      for move in explorer.moves(from: state) {
        var loud = state
        var silent = state
        var loudRecords: [Record]?
        var silentRecords: [Record]?
        switch move {
        case .event(let event):
          loudRecords = try? explaining.handle(event, in: &loud)
          silentRecords = try? quiet.handle(event, in: &silent)
        case .answer(_, _, let outcome, let result):
          loudRecords = try? explaining.handle(.outcome(outcome, result: result), in: &loud)
          silentRecords = try? quiet.handle(.outcome(outcome, result: result), in: &silent)
        case .restart:
          let relaunch = Launch(
            environment: state.environment, permissions: state.permissions.mapValues(\.remembered),
            store: state.store, clock: options.clock, variants: flow.variants(in: state))
          (loud, loudRecords) = try explaining.launch(relaunch)
          (silent, silentRecords) = try quiet.launch(relaunch)
        case .returnFromBackground: continue
        }
        let loudAll = loudRecords ?? []
        let silentAll = silentRecords ?? []
        if loud != silent || loudAll.map(Self.withoutWhy) != silentAll.map(Self.withoutWhy) {
          mismatches.append("state \(id), \(move.command)")
        }
        for (a, b) in zip(loudAll, silentAll) where Self.why(a) != Self.why(b) {
          if Self.why(b) == "" { explained += 1 } else { mismatches.append("state \(id), \(move.command): \(b)") }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    // The explaining engine did explain routes or skips that the quiet one left out.
    #expect(explained > 100)
  }
}
