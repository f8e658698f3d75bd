import FlowCore
import FlowYAML
import Foundation
import Testing

@testable import FlowRuntime

@Suite struct StateCoderTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The explorer keeps only a state's key and payload and rebuilds the state from them when it expands it:
  /// every state reached in a seed flow must come back equal, or the exploration would go on from another state.
  static func seed(_ name: String) throws -> Flow { try flow(at: "flows/\(name)") }

  /// The flow of the repository's file at `path` (relative to the package root), compiled.
  static func flow(at path: String) throws -> Flow {
    let file = packageRoot.appendingPathComponent(path).path
    let node = try YAMLLoader.load(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
    return try #require(FlowCompiler.compile(node, file: file).0)
  }

  @Test(arguments: ["tempoai.yaml", "anicca-v02.yaml"])
  func everyExploredStateDecodesToItself(_ name: String) throws {
    let flow = try Self.seed(name)
    let explorer = Explorer(flow: flow)
    let exploration = explorer.explore()
    #expect(exploration.stateCount > 1_000)
    var coder = StateCoder(flow: flow, historyDepth: explorer.options.historyDepth)
    var key = [UInt32](repeating: 0, count: coder.width)
    var payload = [UInt32](repeating: 0, count: coder.payloadWidth)
    var keys: Set<[UInt32]> = []
    var mismatches: [Int32] = []
    for id in Int32(0)..<Int32(exploration.stateCount) {
      let (setup, moves) = exploration.path(to: id)
      var (state, _) = try Engine(flow: flow).launch(exploration.setups[setup].launch(clock: explorer.options.clock))
      explorer.normalize(&state)
      for move in moves { state = try #require(try explorer.apply(move, to: state)).0 }
      coder.encode(state, into: &key, payload: &payload)
      if coder.decode(key, payload: payload, clock: explorer.options.clock) != state { mismatches.append(id) }
      keys.insert(key)
    }
    #expect(mismatches.isEmpty, "states that do not decode to themselves: \(mismatches.prefix(10))")
    // Each id is a distinct state: the paths rebuild states with distinct keys.
    #expect(keys.count == exploration.stateCount)
  }

  /// A successor whose stored values or facts are its parent's own dictionary takes the parent's words for them
  /// (``StateCoder/sharesStorage(_:_:)``): it must encode exactly as the same state with those dictionaries
  /// copied into storage of their own, which the coder reads value by value.
  @Test func aSuccessorSharingItsParentsDictionariesEncodesAsOneWithCopiesOfThem() throws {
    let flow = try Self.seed("anicca-v04.yaml")
    let explorer = Explorer(flow: flow)
    var coder = StateCoder(flow: flow, historyDepth: explorer.options.historyDepth)
    var key = [UInt32](repeating: 0, count: coder.width)
    var payload = [UInt32](repeating: 0, count: coder.payloadWidth)
    var copyKey = key
    var copyPayload = payload
    var (start, _) = try Engine(flow: flow).launch(explorer.setups[0].launch(clock: explorer.options.clock))
    explorer.normalize(&start)
    var waiting = [start]
    var expanded = 0
    var sharedStores = 0
    var sharedFacts = 0
    var mismatches: [String] = []
    while expanded < waiting.count, expanded < 400 {
      let parent = waiting[expanded]
      expanded += 1
      coder.encode(parent, into: &key, payload: &payload)
      coder.expand(parent, key: key, payload: payload)
      for move in explorer.moves(from: parent) {
        guard let (next, _) = try? explorer.apply(move, to: parent) else { continue }
        if StateCoder.sharesStorage(next.store, parent.store) { sharedStores += 1 }
        if StateCoder.sharesStorage(next.environment, parent.environment) { sharedFacts += 1 }
        var copy = next
        copy.store = Dictionary(uniqueKeysWithValues: next.store.map { ($0.key, $0.value) })
        copy.environment = Dictionary(uniqueKeysWithValues: next.environment.map { ($0.key, $0.value) })
        coder.encode(next, into: &key, payload: &payload)
        coder.encode(copy, into: &copyKey, payload: &copyPayload)
        if key != copyKey || payload != copyPayload { mismatches.append("\(move.command) from state \(expanded - 1)") }
        waiting.append(next)
      }
    }
    #expect(mismatches.isEmpty, "successors encoded differently from their copies: \(mismatches.prefix(5))")
    // The shortcut was taken often (each copy takes the full reading), on a flow that stores values: empty stores
    // would share storage without saying anything about the words copied.
    #expect(sharedStores > 100 && sharedFacts > 100)
    #expect(!flow.variables.allSatisfy { $0.persistKey == nil })
  }

  /// `--compact` keeps a 64-bit fingerprint per state instead of its key: on a seed flow it finds the same graph,
  /// stores fewer bytes per state, and its report says so on the memory line (the only line that differs).
  @Test func aCompactExplorationFindsTheSameGraphAndSaysSo() throws {
    let flow = try Self.seed("anicca-v02.yaml")
    var options = ExploreOptions()
    options.compact = true
    let full = Explorer(flow: flow).explore()
    let compact = Explorer(flow: flow, options: options).explore()
    #expect(compact.stateCount == 5_376)
    #expect(compact.parent == full.parent && compact.parentMove == full.parentMove)
    #expect(compact.edgeTo == full.edgeTo && compact.firstEdge == full.firstEdge)
    let fullBytes = Int((Double(full.bytesStored) / 5_376).rounded())
    let compactBytes = Int((Double(compact.bytesStored) / 5_376).rounded())
    #expect(compactBytes < fullBytes)
    var fullLines = ExploreReport(full).text.split(separator: "\n", omittingEmptySubsequences: false)
    var compactLines = ExploreReport(compact).text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(fullLines.removeLast() == "memory: \(fullBytes) bytes per state stored")
    #expect(
      compactLines.removeLast()
        == "memory: \(compactBytes) bytes per state stored (--compact: each state kept as a 64-bit fingerprint; "
        + "two states with the same fingerprint would count as one)")
    #expect(compactLines == fullLines)
  }
}
