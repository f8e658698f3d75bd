import FlowCore
import Foundation
import Testing

@testable import FlowRuntime

/// The one-thread explorer reuses what a move did from one state for every later state that agrees with it on what
/// the move read (``TransitionCache``, ``AccessLog``). Reused or made by the engine, every move must give the same
/// exploration, state for state; with ``ExploreOptions/checksReusedTransitions`` the engine also makes every reused
/// move and the results are compared one by one.
@Suite struct TransitionCacheTests {
  static let flowFiles: [String] = ["flows", "Tests/Flows"].flatMap { folder in
    let path = StateCoderTests.packageRoot.appendingPathComponent(folder).path
    return (try? FileManager.default.contentsOfDirectory(atPath: path))!.filter { $0.hasSuffix(".yaml") }.sorted()
      .map { "\(folder)/\($0)" }
  }

  static func flow(at path: String) throws -> Flow {
    let file = StateCoderTests.packageRoot.appendingPathComponent(path).path
    let text = try String(contentsOfFile: file, encoding: .utf8)
    return try compileFlow(text)
  }

  /// Explores `flow` reusing moves (each one checked against the engine) and without, and expects the same
  /// exploration; returns the reuse counts.
  @discardableResult
  static func expectSameWithAndWithoutReuse(
    _ flow: Flow, _ options: ExploreOptions, _ label: String
  ) -> Exploration.TransitionReuse {
    var checked = options
    checked.checksReusedTransitions = true
    let reusing = Explorer(flow: flow, options: checked).explore()
    var plain = options
    plain.reusesTransitions = false
    let made = Explorer(flow: flow, options: plain).explore()
    ParallelExploreTests.expectSame(made, reusing, label)
    let reuse = reusing.transitionReuse
    #expect(reuse.mismatches == 0, "\(label): reused moves the engine makes differently")
    #expect(reuse.unaccounted == 0, "\(label): moves that changed words their log does not account for")
    #expect(made.transitionReuse == .init(), "\(label): the engine made every move")
    return reuse
  }

  /// Every flow in flows/ and Tests/Flows/, up to 4,000 states: moves are reused, and none differs.
  @Test(arguments: flowFiles)
  func everyFlowExploresAlikeReusingMovesOrNot(_ path: String) throws {
    var options = ExploreOptions()
    options.maxStates = 4_000
    let reuse = Self.expectSameWithAndWithoutReuse(try Self.flow(at: path), options, path)
    #expect(reuse.hits > 0, "\(path): \(reuse.hits) moves reused, \(reuse.misses) made")
  }

  /// A flow that reads and writes every part of a state a move can: a stored value read back through `store`, a
  /// fact, a permission status answered and changed in Settings, an experiment's variant, a map entry, a text
  /// typed; an `advance` hook undone by a route that stays; a required choice refused while empty; a failure.
  static let everyPart = """
    flow: every-part
    version: "1"
    locales: [en]
    start: count
    environment:
      region: { type: string, default: eu, values: [eu, us] }
      deviceId: { type: string, default: d1 }
    permissions: [notifications]
    experiments:
      pace:
        id: env.deviceId
        variants: { slow: 50, fast: 50 }
    variables:
      n: { type: int, default: 0, persist: count }
      visits: { type: int, default: 0 }
      tags: { type: map, default: {} }
      note: { type: string, default: "" }
      pick: { type: string, default: "" }
      reminded: { type: bool, default: false }
    hooks:
      advance:
        - set: visits
          value: "visits < 3 ? visits + 1 : visits"
    foreground:
      effects:
        - set: reminded
          value: permission.notifications == "granted"
      to:
        - when: permission.notifications == "granted" && n > 1
          to: done
        - to: stay
    steps:
      count:
        kind: screen
        next:
          to:
            - when: store.count >= 2 || (env.region == "us" && experiment.pace == "fast")
              to: ask
            - to: count
        buttons:
          add:
            to: count
            effects:
              - set: n
                value: "n < 3 ? n + 1 : n"
              - set: tags.last
                value: '"add"'
          maybe:
            effects:
              - set: note
                value: '"maybe"'
            to:
              - when: n == 3
                to: ask
              - to: stay
          blow:
            to: count
            effects:
              - set: n
                value: "n == 3 ? n * 4611686018427387904 : n"
      ask:
        kind: permission
        permission: notifications
        next: choose
      choose:
        kind: single-choice
        variable: pick
        required: true
        options: [{ id: a }, { id: b }]
        next: name
      name:
        kind: text-input
        variable: note
        values: [Ann, Bo]
        next: done
      done: { kind: terminal, outcome: completed }
    """

  @Test func aFlowThatReadsAndWritesEveryPartExploresAlikeReusingMovesOrNot() throws {
    let flow = try compileFlow(Self.everyPart)
    let exploration = Explorer(flow: flow).explore()
    #expect(!exploration.failures.isEmpty && exploration.stateCount > 100)
    let reuse = Self.expectSameWithAndWithoutReuse(flow, ExploreOptions(), "every-part")
    #expect(reuse.hits > 0)
  }

  /// One thread keeps a state's edges until all its moves are tried (``PendingEdges``); a move that fails is
  /// numbered when it is taken, so the edges before it must be taken first. Here the first state's `go` reaches
  /// a state and `boom`, after it, overflows: `go` is move 0 and `boom` move 1, as without the cache.
  @Test func aMoveThatFailsAfterAnEdgeIsNumberedAfterIt() throws {
    let flow = try compileFlow(
      """
      flow: fail-after-edge
      version: "1"
      locales: [en]
      start: first
      variables:
        n: { type: int, default: 2 }
      steps:
        first:
          kind: screen
          buttons:
            go: { to: done }
            boom:
              to: done
              effects:
                - set: n
                  value: "n * 4611686018427387904"
        done: { kind: terminal, outcome: completed }
      """)
    let exploration = Explorer(flow: flow).explore()
    #expect(Array(exploration.moves.prefix(2)) == [.event(.tap("go")), .event(.tap("boom"))])
    #expect(exploration.failures.map(\.move) == [1])
    Self.expectSameWithAndWithoutReuse(flow, ExploreOptions(), "fail-after-edge")
  }

  /// A relaunch starts afresh, so one made from one step is reused from every other step that agrees on what it
  /// read: on a chain of screens with nothing stored, the engine relaunches once however long the chain. It
  /// gives each permission the status the device keeps of the state's without reading it, so it is made once for
  /// every launch setup of the permissions too when no step reads them.
  @Test(arguments: [(3, [String]()), (6, []), (3, ["notifications", "camera"])])
  func aRelaunchIsMadeOnceForEveryStepThatAgreesOnWhatItRead(_ screens: Int, _ permissions: [String]) throws {
    let steps = (1...screens).map { index in
      index < screens
        ? "  s\(index): { kind: screen, next: { to: s\(index + 1) } }"
        : "  s\(index): { kind: terminal, outcome: done }"
    }
    let flow = try compileFlow(
      """
      flow: relaunches
      version: "1"
      locales: [en]
      start: s1
      permissions: [\(permissions.joined(separator: ", "))]
      steps:
      \(steps.joined(separator: "\n"))
      """)
    let explorer = Explorer(flow: flow)
    let setups = explorer.setups.count
    #expect((setups > 1) == !permissions.isEmpty)
    let exploration = explorer.explore()
    #expect(exploration.stateCount == screens * setups)
    // Each screen but the last makes its `next` and its `reset` once; the terminal its `reset`; relaunch once.
    #expect(exploration.transitionReuse.misses == (screens - 1) * 2 + 1 + 1)
    Self.expectSameWithAndWithoutReuse(flow, ExploreOptions(), "relaunches")
  }

  /// A move that reads one word finds its outcome by that word (``TransitionCache/directWords``) below the table's
  /// width, and by its key's hash above it: either way the engine makes the step once per counter value, and the
  /// reset and the relaunch once each.
  @Test(arguments: [100, 200])
  func aMoveThatReadsOneWordIsMadeOncePerValueOfIt(_ side: Int) throws {
    #expect((side < TransitionCache.directWords) == (side == 100))
    let flow = try compileFlow(
      """
      flow: one-counter
      version: "1"
      locales: [en]
      start: count
      variables:
        n: { type: int, default: 0 }
      steps:
        count:
          kind: screen
          buttons:
            step: { to: stay, effects: [{ set: n, value: '(n + 1) % \(side)' }] }
      """)
    let exploration = Explorer(flow: flow).explore()
    #expect(exploration.stateCount == side)
    #expect(exploration.transitionReuse.misses == side + 2)
    Self.expectSameWithAndWithoutReuse(flow, ExploreOptions(), "one-counter \(side)")
  }

  /// What the engine notes: what a move's conditions and effects read, what it assigns and stores, and a value
  /// written and then put back (a route that stays after the `advance` hook ran) as read.
  @Test func theLogNotesWhatAMoveReadsAndWrites() throws {
    let flow = try compileFlow(Self.everyPart)
    let engine = Engine(flow: flow)
    let index = { (name: String) in flow.variableIndexByName[name]! }
    let log = AccessLog(variableCount: flow.variables.count)
    var (state, _) = try engine.launch(Launch(environment: [:], permissions: [:], store: [:], clock: 0))

    log.clear()
    _ = try engine.handle(.tap("add"), in: &state, log: log)
    var noted = log.current
    #expect(
      noted.variables(with: .read) == [index("n"), index("visits"), index("tags")].sorted())
    #expect(
      noted.variables(with: .wrote) == [index("n"), index("visits"), index("tags")].sorted())
    #expect(noted.variables(with: .wroteStore) == [index("n")])
    #expect(!noted.readStore && !noted.readFacts && !noted.readPermissions && !noted.readVariants)

    // `maybe` stays (n is 1): the hook's write to `visits` is undone, so what `visits` held before counts as read.
    log.clear()
    _ = try engine.handle(.tap("maybe"), in: &state, log: log)
    noted = log.current
    #expect(noted.variables[index("visits")].contains(.read) && noted.variables[index("note")].contains(.wrote))

    // `store.count >= 2` is false and the region is not "us": `experiment.pace` is not read.
    log.clear()
    _ = try engine.handle(.next, in: &state, log: log)
    noted = log.current
    #expect(noted.readStore && noted.readFacts && !noted.readVariants && !noted.readPermissions)

    log.clear()
    _ = try engine.handle(.background, in: &state, log: log)
    _ = try engine.handle(.foreground(permissions: [.notifications: .granted]), in: &state, log: log)
    noted = log.current
    #expect(noted.wrotePermissions && noted.readPermissions && noted.variables[index("reminded")].contains(.wrote))

    // A launch writes every variable but `n`, which it loads from its stored value; it looks for each persisted
    // variable's stored value, and sets the permissions and variants it was given, reading no status before.
    log.clear()
    _ = try engine.launch(Launch(environment: [:], permissions: [:], store: ["count": .int(2)], clock: 0), log: log)
    noted = log.current
    #expect(noted.variables(with: .loadedFromStore) == [index("n")])
    #expect(noted.variables(with: .readStorePresence) == [index("n")])
    #expect(noted.variables.indices.filter { !noted.variables[$0].contains(.wrote) } == [index("n")])
    #expect(noted.permissionsFromLaunch && !noted.wrotePermissions && !noted.readPermissions)
    #expect(noted.wroteVariants && noted.variables(with: .read).isEmpty)

    // Cleared (in place), the log holds what a new one holds, after an event that noted nearly everything.
    _ = try engine.handle(.next, in: &state, log: log)
    #expect(log.current != AccessLog.Entries(variableCount: flow.variables.count))
    log.clear()
    #expect(log.current == AccessLog.Entries(variableCount: flow.variables.count))
  }
}

/// The transition cache's table of outcomes: every key finds its own outcome after the table has grown many
/// times, a key never kept finds none, and outcomes with the same writes share them yet read back their own,
/// split into the key's writes, the payload's and the loaded variables' marks.
@Suite struct OutcomeTableTests {
  @Test func everyKeyFindsItsOwnOutcomeAndSharedWritesReadBackAlike() {
    let keyWidth = 20
    var table = OutcomeTable(keyWidth: keyWidth)
    var generator = SystemRandomNumberGenerator()
    var kept: [(key: [UInt32], outcome: TransitionCache.Outcome)] = []
    for index in 0..<5_000 {
      // Keys of several lengths; writes drawn from 10 patterns, so most are shared.
      let key = [UInt32(index)] + (0..<(index % 7)).map { _ in UInt32.random(in: 0..<50, using: &generator) }
      let outcome: TransitionCache.Outcome =
        switch index % 3 {
        case 0: .refused
        case 1: .failed("failure \(index)")
        default:
          // Pairs of offset and word, the offsets rising through the key's words and the payload's; every fifth
          // outcome ends with a loaded variable's mark.
          .reached(
            writes: (0..<(2 * (index % 10))).map { UInt32($0 * (index % 10)) }
              + (index % 5 == 0 ? [UInt32(TransitionCache.loadedMark | 3), 0] : []),
            records: [])
        }
      // Slices that do not start at index 0, as the cache's probe of a longer array is not.
      #expect(table.append(outcome, key: ([7] + key)[1...]) == Int32(index))
      kept.append((key, outcome))
    }
    #expect(table.count == 5_000)
    for (index, entry) in kept.enumerated() {
      let key = ([7, 7] + entry.key)[2...]
      let id = table.find(hash: StateSet.hash(key)) { $0.elementsEqual(key) }
      #expect(id == Int32(index))
      switch entry.outcome {
      case .refused: #expect(table.kinds[index] == .refused)
      case .failed(let message): #expect(table.kinds[index] == .failed && table.failures[Int32(index)] == message)
      case .reached(let writes, _):
        #expect(table.kinds[index] == .reached && Array(table.writes(of: Int32(index))) == writes)
        let (keyWrites, payloadWrites, loads) = table.withWrites(of: Int32(index)) { (Array($0), Array($1), Array($2)) }
        let pairs = stride(from: 0, to: writes.count, by: 2).map {
          (offset: Int(writes[$0]), pair: writes[$0...($0 + 1)])
        }
        #expect(keyWrites == pairs.filter { $0.offset < keyWidth }.flatMap(\.pair), "outcome \(index)")
        #expect(
          payloadWrites
            == pairs.filter { $0.offset >= keyWidth && $0.offset < TransitionCache.loadedMark }.flatMap(\.pair),
          "outcome \(index)")
        #expect(loads == pairs.filter { $0.offset >= TransitionCache.loadedMark }.flatMap(\.pair), "outcome \(index)")
      }
    }
    for missing: ArraySlice<UInt32> in [[5_000], [], [1, 2, 3, 4, 5, 6, 7, 8, 9]] {
      #expect(table.find(hash: StateSet.hash(missing)) { $0.elementsEqual(missing) } == nil)
    }
  }
}
