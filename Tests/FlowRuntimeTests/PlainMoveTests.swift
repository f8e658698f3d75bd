import FlowCore
import FlowLoading
import FlowTestSupport
import Foundation
import Testing

/// The engine makes a plain `next` (a screen's always shown and enabled `next`, without effects, to a step that is
/// not skipped and runs nothing on entry) in place, without the general path: it must leave the same state and
/// record the same, from every step of every flow.
struct PlainMoveTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let flowFiles: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("flows").path)) ?? [])
    .filter { $0.hasSuffix(".yaml") }.sorted()

  /// Plain moves (a to b, b to c, c to d, h to i, i to itself, j to the terminal) beside moves that are not (d's
  /// next has an effect, e runs an effect on entry, f's next is hidden, g has a skipIf).
  static let mixed = """
    flow: mixed
    version: "1"
    locales: [en]
    start: a
    variables:
      n: { type: int, default: 0 }
    steps:
      a: { kind: screen, next: b }
      b: { kind: screen, next: c }
      c: { kind: screen, next: d }
      d: { kind: screen, next: { to: e, effects: [{ set: n, value: 'n + 1' }] } }
      e: { kind: screen, enter: [{ set: n, value: 'n + 10' }], next: f }
      f: { kind: screen, next: { to: g, visible: 'n > 100' } }
      g: { kind: screen, skipIf: 'n > 5', next: h }
      h: { kind: screen, next: i }
      i: { kind: screen, next: j }
      j: { kind: screen, next: done }
      done: { kind: terminal, outcome: completed }
    """

  /// Compares the state after `.next` from each step of `flow` (launched, then put there with one step of
  /// history) and what was recorded, or the refusal, by both paths.
  static func compareBothPaths(_ flow: Flow) throws {
    let plain = Engine(flow: flow)
    var general = plain
    general.takesPlainMoves = false
    let (launched, _) = try plain.launch(Launch())
    for index in flow.steps.indices {
      var fast = launched
      fast.history.append(flow.start)
      fast.current = index
      var slow = fast
      // The records are compared as values: their descriptions print dictionaries (an effect's arguments) in
      // an order that changes from one process to the next.
      var fastRecords: [Record]?
      var slowRecords: [Record]?
      var fastError = ""
      var slowError = ""
      do { fastRecords = try plain.handle(.next, in: &fast) } catch { fastError = "\(error)" }
      do { slowRecords = try general.handle(.next, in: &slow) } catch { slowError = "\(error)" }
      #expect(fastRecords == slowRecords, "next from \(flow.steps[index].id)")
      #expect(fastError == slowError, "next from \(flow.steps[index].id)")
      #expect(fast == slow, "next from \(flow.steps[index].id)")
      #expect(fast.history.steps == slow.history.steps, "next from \(flow.steps[index].id)")
    }
  }

  @Test(arguments: flowFiles) func aNextFromEveryStepOfTheFlowsRecordsAndMovesAsTheGeneralPath(_ name: String) throws {
    let flow = try #require(try FlowLoader.load(path: Self.root.appendingPathComponent("flows/\(name)").path).flow)
    try Self.compareBothPaths(flow)
  }

  @Test func plainAndOtherMovesSideBySide() throws {
    try Self.compareBothPaths(try compileFlow(Self.mixed))
  }
}
