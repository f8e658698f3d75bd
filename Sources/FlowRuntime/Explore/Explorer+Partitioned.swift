internal import CMemoryHints
import FlowCore
import Synchronization

/// `flowrun explore --jobs N` on a flow whose launch setups differ in their environment or their experiments'
/// variants: those dealt out to N parts, each part explored on a thread of its own, and the explorations put
/// together as one thread numbers the states.
///
/// No move changes a fact of the environment (a relaunch keeps the device's) or an experiment's variant (assigned at
/// launch, pinned in every setup, kept by a relaunch and by a reset), and every state's key holds both
/// (``StateCoder``): a state launched in one environment with one set of variants is never reached from another.
/// Below, an "environment" is such a pair. So each part is
/// explored as one thread explores a whole flow, with a set, a coder and a transition cache of its own, and the
/// threads share nothing while they run, not even the flow when each part can have a copy of its own
/// (``ExploreOptions/flowForEachPart``): they go about as fast as separate processes. Each cache
/// learns the moves for itself, so there are as few parts as jobs. As a part ends, its thread also counts its paths
/// and finds its loops for the report (``PathSummary``: no path crosses two parts), which the merge adds up.
///
/// One thread's ids are breadth-first: the roots in the order of their setups, then each level in the order of
/// the states that first reached them, each state's new successors in the order of its moves. A part's
/// exploration numbers its own states in that order too (its states are reached only from its own), so the ids of
/// the whole are the parts' merged level by level: the roots by setup, the other states by their parent's
/// id (``Exploration/init(merging:groups:setups:flow:options:)``). Everything found is renumbered the same way,
/// and what one thread keeps in the order it met it (moves, failures, dead ends, witnesses) is put in that order.
extension Explorer {
  /// The indices of ``setups`` grouped by environment and variants, each group in order and the groups in the
  /// order of their first setup.
  static func environments(of setups: [ExploreSetup]) -> [[Int]] {
    struct Environment: Hashable {
      let facts: [String: Value]
      let variants: [String: String]
    }
    var groups: [[Int]] = []
    var groupOf: [Environment: Int] = [:]
    for (index, setup) in setups.enumerated() {
      let environment = Environment(facts: setup.environment, variants: setup.variants)
      if let group = groupOf[environment] {
        groups[group].append(index)
      } else {
        groupOf[environment] = groups.count
        groups.append([index])
      }
    }
    return groups
  }

  /// The indices of ``setups`` in `jobs` parts (fewer when there are fewer environments), each in order, with the
  /// environments dealt out in turn. The last fact's values vary fastest in ``setups``: with two jobs and a last
  /// fact of two values (a locale), each part gets one value and every combination of the other facts, so the
  /// parts tend to be alike in size.
  static func parts(of setups: [ExploreSetup], jobs: Int) -> [[Int]] {
    let environments = environments(of: setups)
    var parts = [[Int]](repeating: [], count: min(jobs, environments.count))
    for (index, environment) in environments.enumerated() { parts[index % parts.count] += environment }
    return parts.map { $0.sorted() }
  }

  /// The exploration with the environments in parts on up to ``ExploreOptions/jobs`` threads; nil when the setups
  /// have one environment, or when a limit stopped a part or would have stopped one thread: where one thread stops
  /// (a state at --max-depth, the state past --max-states) depends on every part, and the caller then explores in
  /// batches, which stop there.
  func explorePartitioned() -> Exploration? {
    let setups = self.setups
    let groups = Self.parts(of: setups, jobs: options.jobs)
    guard groups.count > 1 else { return nil }
    var alone = self
    alone.options.jobs = 1
    // The jobs beyond the parts, and the thread of each part done, help the parts still exploring.
    let spare = options.partsTakeSpareThreads ? SpareThreads(options.jobs - groups.count) : nil
    alone.options.spareThreads = spare
    // A part that alone passes its share of the limit on states gives up early (the batches then start again).
    alone.options.maxStates = max(1, (options.maxStates + groups.count - 1) / groups.count)
    let progress = options.progress.map { ProgressTotals(parts: groups.count, report: $0) }
    let results = Locked([Exploration?](repeating: nil, count: groups.count))
    // There are no more parts than jobs: a thread for each, this one exploring the first.
    let explore: @Sendable (Int) -> Void = { [alone] index in
      var explorer = alone
      if index > 0, let flow = alone.options.flowForEachPart?() {
        explorer = Explorer(flow: flow, options: alone.options)
      }
      if let progress { explorer.options.progress = { progress.note($0, part: index) } }
      let part = explorer.exploreAlone(setups: groups[index].map { setups[$0] })
      spare?.give(1)
      results.withLock { $0[index] = part }
    }
    concurrently(groups.count, explore)
    let parts = results.withLock { $0 }.compactMap { $0 }
    return Exploration(merging: parts, groups: groups, setups: setups, flow: flow, options: options)
  }

  /// The threads of an exploration in parts that explore no part (``ExploreOptions/spareThreads``): the jobs beyond
  /// the parts, and the thread of each part done. A part takes one to share its waiting states out in batches.
  package final class SpareThreads: Sendable {
    private let count: Atomic<Int>

    init(_ count: Int) { self.count = Atomic(max(0, count)) }

    /// Takes a spare thread, if there is one.
    func take() -> Bool {
      var current = count.load(ordering: .relaxed)
      while current > 0 {
        let (taken, now) = count.compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
        if taken { return true }
        current = now
      }
      return false
    }

    /// Makes `threads` threads spare.
    func give(_ threads: Int) {
      if threads > 0 { count.add(threads, ordering: .relaxed) }
    }
  }

  /// The parts' progress added up, reported whenever one of them reports.
  private final class ProgressTotals: Sendable {
    let report: @Sendable (ExploreProgress) -> Void
    let parts: Locked<[ExploreProgress]>

    init(parts: Int, report: @escaping @Sendable (ExploreProgress) -> Void) {
      self.report = report
      self.parts = Locked(Array(repeating: ExploreProgress(states: 0, expanded: 0, moves: 0), count: parts))
    }

    /// Reports under the lock, so that the totals come out in order.
    func note(_ progress: ExploreProgress, part: Int) {
      parts.withLock { parts in
        parts[part] = progress
        report(
          parts.reduce(into: ExploreProgress(states: 0, expanded: 0, moves: 0)) {
            $0.states += $1.states
            $0.expanded += $1.expanded
            $0.moves += $1.moves
          })
      }
    }
  }
}

extension Exploration {
  /// One thread's exploration of `setups`, from the explorations of parts of its environments (`parts`; `groups`
  /// lists the setups of each, as ``Explorer/parts(of:jobs:)`` does); nil when a limit stopped one (each state was
  /// then taken: nothing is left unexplored) or the states are more than one thread keeps.
  ///
  /// The states are first given their ids, level by level, on this thread (a merge of sorted runs); each part's
  /// states and edges are then copied to their places on a thread of its own.
  init?(merging parts: [Exploration], groups: [[Int]], setups: [ExploreSetup], flow: Flow, options: ExploreOptions) {
    let total = parts.reduce(0) { $0 + $1.stateCount }
    guard parts.count == groups.count, total <= options.maxStates,
      parts.allSatisfy({ $0.stoppedAt == nil && $0.processed == $0.stateCount && $0.unexpanded.isEmpty })
    else { return nil }
    self.init(flow: flow, options: options)
    self.setups = setups
    self.parts = parts.count
    // A state's index among all the parts' states: state `s` of part `p` is `base[p] + s`.
    let base = parts.dropLast().reduce(into: [0]) { $0.append($0.last! + $1.stateCount) }
    let (ids, levels) = Self.numbering(parts, groups: groups, base: base)
    self.levels = levels
    let (moves, moveFirstTaken, moveIDs, moveBase) = Self.numberingMoves(parts, ids: ids, base: base)
    (self.moves, self.moveFirstTaken) = (moves, moveFirstTaken)

    // Each part's states and edges copied to their new places, each part's on a thread of its own (as many as
    // jobs). A part's ids rise with its states (the merge keeps each part's order), so each thread reads and
    // writes in order, at places no other thread writes.
    step = .scattered(count: total, parts: parts.count) { part, output in
      output.place(parts[part].step, ids: ids, base: base[part]) { $0 }
    }
    flags = .scattered(count: total, parts: parts.count) { part, output in
      output.place(parts[part].flags, ids: ids, base: base[part]) { $0 }
    }
    parent = .scattered(count: total, parts: parts.count) { part, output in
      output.place(parts[part].parent, ids: ids, base: base[part]) { $0 < 0 ? -1 : ids[base[part] + Int($0)] }
    }
    parentMove = .scattered(count: total, parts: parts.count) { part, output in
      output.place(parts[part].parentMove, ids: ids, base: base[part]) {
        $0 < 0 ? -1 : moveIDs[moveBase[part] + Int($0)]
      }
    }
    // The roots' setups: each part's roots are its first level, and the roots are the first level of the whole.
    setupOf = [Int32](repeating: -1, count: levels.count > 1 ? Int(levels[1]) : total)
    for (part, exploration) in parts.enumerated() {
      for state in 0..<(exploration.levels.count > 1 ? Int(exploration.levels[1]) : exploration.stateCount) {
        setupOf[Int(ids[base[part] + state])] = Int32(groups[part][Int(exploration.setupOf[state])])
      }
    }
    // The forward edges, each state's starting at `firstEdge` in the new order: each state's count of edges after
    // a 0, added up.
    var firstEdge: [Int32] = .scattered(count: total + 1, parts: parts.count) { part, output in
      if part == 0 { output[0] = 0 }
      parts[part].firstEdge.withUnsafeBufferPointer { firstEdge in
        ids.withUnsafeBufferPointer { ids in
          for state in 0..<parts[part].stateCount {
            output[Int(ids[base[part] + state]) + 1] = firstEdge[state + 1] - firstEdge[state]
          }
        }
      }
    }
    firstEdge.withUnsafeMutableBufferPointer { firstEdge in
      for index in 0..<total { firstEdge[index + 1] += firstEdge[index] }
    }
    self.firstEdge = firstEdge
    edgeTo = .scattered(count: Int(firstEdge[total]), parts: parts.count) { [firstEdge] part, output in
      parts[part].firstEdge.withUnsafeBufferPointer { partFirstEdge in
        parts[part].edgeTo.withUnsafeBufferPointer { partEdgeTo in
          ids.withUnsafeBufferPointer { ids in
            let ids = UnsafeBufferPointer(rebasing: ids[base[part]...])
            for state in 0..<parts[part].stateCount {
              var slot = Int(firstEdge[Int(ids[state])])
              for edge in Int(partFirstEdge[state])..<Int(partFirstEdge[state + 1]) {
                output[slot] = ids[Int(partEdgeTo[edge])]
                slot += 1
              }
            }
          }
        }
      }
    }
    func id(_ part: Int, _ state: Int32) -> Int32 { state < 0 ? -1 : ids[base[part] + Int(state)] }
    func moveID(_ part: Int, _ move: Int32) -> Int32 { move < 0 ? -1 : moveIDs[moveBase[part] + Int(move)] }
    let summaries = parts.compactMap(\.pathSummary)
    if summaries.count == parts.count { pathSummary = PathSummary(merging: summaries, id: id) }

    // The roots in the order of their setups (a setup whose launch failed has none).
    var placeOfSetup = [(part: Int, index: Int)](repeating: (0, 0), count: setups.count)
    for (part, group) in groups.enumerated() {
      for (index, setup) in group.enumerated() { placeOfSetup[setup] = (part, index) }
    }
    for (part, index) in placeOfSetup {
      let root = parts[part].rootOfSetup[index]
      rootOfSetup.append(id(part, root))
      if root >= 0 { roots.append(id(part, root)) }
    }

    // What was found, in the order one thread finds it: launch failures by setup, the rest by the state being
    // taken (each part's in its own order).
    var launchFailures: [(setup: Int32, failure: ExploreFailure)] = []
    var moveFailures: [(state: Int32, part: Int, index: Int, failure: ExploreFailure)] = []
    for (part, exploration) in parts.enumerated() {
      for (index, var failure) in exploration.failures.enumerated() {
        if failure.state < 0 {
          failure.setup = Int32(groups[part][Int(failure.setup)])
          launchFailures.append((failure.setup, failure))
        } else {
          failure.state = id(part, failure.state)
          failure.move = moveID(part, failure.move)
          moveFailures.append((failure.state, part, index, failure))
        }
      }
    }
    launchFailures.sort { $0.setup < $1.setup }
    moveFailures.sort { ($0.state, $0.part, $0.index) < ($1.state, $1.part, $1.index) }
    failures = launchFailures.map(\.failure) + moveFailures.map(\.failure)

    var ends: [(state: Int32, canGoBack: Bool)] = []
    for (part, exploration) in parts.enumerated() {
      for (state, canGoBack) in zip(exploration.deadEnds, exploration.deadEndCanGoBack) {
        ends.append((id(part, state), canGoBack))
      }
      for var limit in exploration.inputLimits {
        limit.state = id(part, limit.state)
        inputLimits.append(limit)
      }
      edgeCount += exploration.edgeCount
      batches += exploration.batches
      spareThreadsTaken += exploration.spareThreadsTaken
      keyBytes += exploration.keyBytes
      keyWidth = max(keyWidth, exploration.keyWidth)
      transitionReuse.hits += exploration.transitionReuse.hits
      transitionReuse.misses += exploration.transitionReuse.misses
      transitionReuse.mismatches += exploration.transitionReuse.mismatches
      transitionReuse.unaccounted += exploration.transitionReuse.unaccounted
      // The first edge to take each, in one thread's order: a launch (move -1) before any move, as one thread
      // launches every setup before it takes a state (the roots' ids follow their setups), then the move from the
      // state with the lowest id.
      func first(_ kept: (state: Int32, move: Int32)?, _ witness: (state: Int32, move: Int32)) -> Bool {
        guard let kept else { return false }
        return (kept.move >= 0 ? 1 : 0, kept.state) <= (witness.move >= 0 ? 1 : 0, witness.state)
      }
      for (transition, witness) in exploration.transitionWitness {
        let renumbered = (state: id(part, witness.state), move: moveID(part, witness.move))
        if first(transitionWitness[transition], renumbered) { continue }
        transitionWitness[transition] = renumbered
      }
      for (outcome, witness) in exploration.permissionOutcomeWitness {
        let renumbered = (state: id(part, witness.state), move: moveID(part, witness.move))
        if first(permissionOutcomeWitness[outcome], renumbered) { continue }
        permissionOutcomeWitness[outcome] = renumbered
      }
    }
    ends.sort { $0.state < $1.state }
    deadEnds = ends.map(\.state)
    deadEndCanGoBack = ends.map(\.canGoBack)
    inputLimits.sort { $0.state < $1.state }
    processed = total
  }

  /// The parts' states in one thread's order: each state's id (state `s` of part `p` at `base[p] + s`) and the
  /// first id at each depth. Within a level, the roots come in the order of their setups and the other states in
  /// the order of their parents' ids; within one part both hold already, so the parts' runs of each level are
  /// merged: the run that comes first gives its states until another run's next state comes before its own.
  private static func numbering(
    _ parts: [Exploration], groups: [[Int]], base: [Int]
  ) -> (ids: [Int32], levels: [Int32]) {
    /// A part's states at one depth not numbered yet, `next..<end`.
    struct Run {
      let setupOf: [Int32]
      let parent: [Int32]
      /// The part's setups' indices among all the setups, and its first state's index among all the states.
      let group: [Int]
      let base: Int
      var next: Int
      let end: Int
      /// Where `next` comes in the level: its setup's index for a root, else its parent's id (`Int.max` once the
      /// run is done).
      var rank = Int.max

      @inline(__always) mutating func rankNext(depth: Int, ids: UnsafeMutableBufferPointer<Int32>) {
        rank =
          next == end ? .max : depth == 0 ? group[Int(setupOf[next])] : Int(ids[base + Int(parent[next])])
      }
    }
    let total = parts.reduce(0) { $0 + $1.stateCount }
    var ids = [Int32](repeating: -1, count: total)
    var levels: [Int32] = []
    var numbered: Int32 = 0
    ids.withUnsafeMutableBufferPointer { ids in
      for depth in 0... {
        var runs: [Run] = []
        for (part, exploration) in parts.enumerated() where depth < exploration.levels.count {
          let partLevels = exploration.levels
          var run = Run(
            setupOf: exploration.setupOf, parent: exploration.parent, group: groups[part], base: base[part],
            next: Int(partLevels[depth]),
            end: depth + 1 < partLevels.count ? Int(partLevels[depth + 1]) : exploration.stateCount)
          run.rankNext(depth: depth, ids: ids)
          runs.append(run)
        }
        guard !runs.isEmpty else { break }
        levels.append(numbered)
        runs.withUnsafeMutableBufferPointer { runs in
          while true {
            var first = 0
            var bound = Int.max  // the lowest rank of the other runs
            for index in runs.indices.dropFirst() {
              if runs[index].rank < runs[first].rank {
                bound = runs[first].rank
                first = index
              } else {
                bound = min(bound, runs[index].rank)
              }
            }
            guard runs[first].rank < .max else { break }
            repeat {
              ids[runs[first].base + runs[first].next] = numbered
              numbered += 1
              runs[first].next += 1
              runs[first].rankNext(depth: depth, ids: ids)
            } while runs[first].rank < bound
          }
        }
      }
    }
    return (ids, levels)
  }

  /// The parts' moves numbered in the order one thread first makes them (by the id of the state being taken, then
  /// in each part's own order), with the first state each was made from, and each part's move `m`'s number at
  /// `ids[base[part] + m]`.
  private static func numberingMoves(
    _ parts: [Exploration], ids stateIDs: [Int32], base stateBase: [Int]
  ) -> (moves: [ExploreMove], firstTaken: [Int32], ids: [Int32], base: [Int]) {
    var firstMade: [(state: Int32, part: Int, move: Int)] = []
    for (part, exploration) in parts.enumerated() {
      for (move, state) in exploration.moveFirstTaken.enumerated() {
        firstMade.append((state < 0 ? -1 : stateIDs[stateBase[part] + Int(state)], part, move))
      }
    }
    firstMade.sort { ($0.state, $0.part, $0.move) < ($1.state, $1.part, $1.move) }
    let base = parts.dropLast().reduce(into: [0]) { $0.append($0.last! + $1.moves.count) }
    var moves: [ExploreMove] = []
    var firstTaken: [Int32] = []
    var ids = [Int32](repeating: -1, count: firstMade.count)
    var numbered: [ExploreMove: Int32] = [:]
    for made in firstMade {
      let move = parts[made.part].moves[made.move]
      let number = numbered[move] ?? Int32(moves.count)
      if number == moves.count {
        moves.append(move)
        firstTaken.append(made.state)
        numbered[move] = number
      }
      ids[base[made.part] + made.move] = number
    }
    return (moves, firstTaken, ids, base)
  }
}

extension Array where Element: BitwiseCopyable & Sendable {
  /// `count` elements written by `parts` threads at once, `fill(part, output)` on each: each element is written
  /// by one of them. The storage is on huge pages where it spans some (as ``HashSlots``' table): the threads then
  /// fault one page in for 512.
  fileprivate static func scattered(
    count: Int, parts: Int, _ fill: @escaping @Sendable (Int, SharedOutput<Element>) -> Void
  ) -> [Element] {
    Array(unsafeUninitializedCapacity: count) { buffer, initialized in
      if let start = buffer.baseAddress { flowkit_advise_huge_pages(start, count * MemoryLayout<Element>.stride) }
      let output = SharedOutput(buffer)
      concurrently(parts) { fill($0, output) }
      initialized = count
    }
  }
}

/// The storage of an array being made, written by several threads at different indices (``Array/scattered``):
/// each element is written once, and read only once all the threads are joined.
private struct SharedOutput<Element: BitwiseCopyable>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Element>
  init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
  subscript(index: Int) -> Element {
    get { buffer[index] }
    nonmutating set { buffer[index] = newValue }
  }

  /// `transform(values[s])` at `ids[base + s]`, for each `s`.
  @inline(__always) func place<Value>(_ values: [Value], ids: [Int32], base: Int, _ transform: (Value) -> Element) {
    values.withUnsafeBufferPointer { values in
      ids.withUnsafeBufferPointer { ids in
        let ids = UnsafeBufferPointer(rebasing: ids[base..<base + values.count])
        for state in values.indices { buffer[Int(ids[state])] = transform(values[state]) }
      }
    }
  }
}
