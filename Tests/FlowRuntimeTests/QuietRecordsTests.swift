import FlowCore
import Testing

@testable import FlowRuntime

/// `flowrun explore` runs the engine recording only moves (``Engine/recordsOnlyMoves``): every move from every
/// state of a seed flow must leave the same state, throw the same error and record the same moves as the engine
/// that records everything, which records the rest too.
@Suite struct QuietRecordsTests {
  static func isMove(_ record: Record) -> Bool {
    if case .moved = record { true } else { false }
  }

  /// What an event gave: its records, or the error it threw.
  enum Outcome: Equatable {
    case records([Record])
    case threw(String)

    var moves: Self {
      if case .records(let all) = self { .records(all.filter(QuietRecordsTests.isMove)) } else { self }
    }
  }

  static func outcome(_ handle: () throws -> [Record]) -> Outcome {
    do { return .records(try handle()) } catch { return .threw("\(error)") }
  }

  @Test(arguments: ["anicca-v01.yaml"])
  func everyMoveLeavesTheSameStateAndRecordsTheSameMoves(_ name: String) throws {
    let flow = try StateCoderTests.seed(name)
    var options = ExploreOptions()
    options.maxStates = 3_000
    let explorer = Explorer(flow: flow, options: options)
    let exploration = explorer.explore()
    let recording = Engine(flow: flow)
    var quiet = recording
    quiet.recordsOnlyMoves = true
    var leftOut = 0
    var mismatches: [String] = []
    for id in Int32(0)..<Int32(exploration.stateCount) {
      let (setup, moves) = exploration.path(to: id)
      let launch = exploration.setups[setup].launch(clock: options.clock)
      var (state, _) = try recording.launch(launch)
      for move in moves { state = try #require(try explorer.apply(move, to: state)).0 }
      for move in explorer.moves(from: state) {
        var loud = state
        var silent = state
        let loudRecords: Outcome
        let silentRecords: Outcome
        switch move {
        case .event(let event):
          loudRecords = Self.outcome { try recording.handle(event, in: &loud) }
          silentRecords = Self.outcome { try quiet.handle(event, in: &silent) }
        case .answer(_, _, let outcome, let result):
          loudRecords = Self.outcome { try recording.handle(.outcome(outcome, result: result), in: &loud) }
          silentRecords = Self.outcome { try quiet.handle(.outcome(outcome, result: result), in: &silent) }
        case .restart:
          let relaunch = Launch(
            environment: state.environment, permissions: state.permissions.mapValues(\.remembered),
            store: state.store, clock: options.clock, variants: flow.variants(in: state))
          loudRecords = Self.outcome {
            let (next, records) = try recording.launch(relaunch)
            loud = next
            return records
          }
          silentRecords = Self.outcome {
            let (next, records) = try quiet.launch(relaunch)
            silent = next
            return records
          }
        case .returnFromBackground: continue
        }
        if loud != silent || loudRecords.moves != silentRecords {
          mismatches.append("state \(id), \(move.command)")
        }
        if case .records(let all) = loudRecords { leftOut += all.count { !Self.isMove($0) } }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    // The recording engine did record steps entered, routes and effects that the quiet one left out.
    #expect(leftOut > 1_000)
  }
}
