import FlowCore

/// The paths and loops the report counts (``ExploreReport/terminals``, ``ExploreReport/loops``), from the graph of
/// forward moves. Each strongly connected set of states counts as one node, so a path through a loop counts once,
/// however often the loop is gone round.
///
/// States explored in parts (Explorer+Partitioned.swift) have no move from one part to another, so no path or loop
/// crosses two parts. Each part's summary is worked out on the part's own thread as it ends, and the merge adds
/// them up (``init(merging:id:)``) to what one thread works out from the whole.
struct PathSummary: Equatable, Sendable {
  /// Per step: the distinct forward paths from a launch to an ended state at it (`Int.max` when there are more).
  private(set) var pathsToStep: [Int]
  /// The components of more than one state, in the order Tarjan's algorithm completes them.
  private(set) var loopComponents: [LoopComponent] = []

  /// A strongly connected set of more than one state.
  struct LoopComponent: Equatable, Sendable {
    /// The state its depth-first search started from (a root: every state is reached from one).
    var searchRoot: Int32
    /// The steps of its states: indices, sorted, each once.
    var steps: [Int32]
    var states: Int
  }

  init(_ exploration: Exploration) {
    let n = exploration.stateCount
    pathsToStep = Array(repeating: 0, count: exploration.flow.steps.count)
    guard n > 0 else { return }
    // The exploration keeps only forward edges; states never expanded have none.
    var firstEdge = exploration.firstEdge
    if firstEdge.count < n + 1 {
      firstEdge.append(contentsOf: repeatElement(firstEdge.last ?? 0, count: n + 1 - firstEdge.count))
    }
    let graph = Digraph(nodeCount: n, firstEdge: firstEdge, targets: exploration.edgeTo)
    let components = graph.stronglyConnectedComponents()
    let componentCount = components.count
    // The states of component c are members[memberStart[c]..<memberStart[c + 1]], in id order (one array for all:
    // most components are a single state, and an array each would cost more than the exploration). Each
    // component's end is worked out first; the states, placed from the last down, each just below its component's
    // end, which then moves down, leave the starts in the same array.
    var starts = [Int32](repeating: 0, count: componentCount + 1)
    for c in components.component { starts[Int(c)] += 1 }
    for c in 1...componentCount { starts[c] += starts[c - 1] }
    var members = [Int32](repeating: 0, count: n)
    for state in stride(from: n - 1, through: 0, by: -1) {
      let c = Int(components.component[state])
      starts[c] -= 1
      members[Int(starts[c])] = Int32(state)
    }
    let memberStart = starts
    func membersOf(_ c: Int) -> Range<Int> { Int(memberStart[c])..<Int(memberStart[c + 1]) }
    for c in 0..<componentCount where membersOf(c).count > 1 {
      var steps: [Int32] = []
      for member in membersOf(c) where !steps.contains(exploration.step[Int(members[member])]) {
        steps.append(exploration.step[Int(members[member])])
      }
      loopComponents.append(
        LoopComponent(searchRoot: components.searchRoot[c], steps: steps.sorted(), states: membersOf(c).count))
    }
    // Tarjan numbers a component after everything it reaches: counted from the last, each component's paths are
    // all known before they are passed on.
    var counts = [Int](repeating: 0, count: componentCount)
    for root in exploration.roots { counts[Int(components.component[Int(root)])] = 1 }
    for source in stride(from: componentCount - 1, through: 0, by: -1) where counts[source] > 0 {
      for member in membersOf(source) {
        let state = Int(members[member])
        for edge in Int(firstEdge[state])..<Int(firstEdge[state + 1]) {
          let target = Int(components.component[Int(exploration.edgeTo[edge])])
          guard target != source else { continue }
          counts[target] = Self.adding(counts[target], counts[source])
        }
      }
    }
    // Per terminal step, each component holding an ended state at it counted once: a component of one state is
    // met once, and one of more is remembered with the step.
    var countedLoops = Set<Int64>()
    for state in 0..<n where exploration.isEnded(Int32(state)) && exploration.step[state] >= 0 {
      let step = exploration.step[state]
      let c = Int(components.component[state])
      if membersOf(c).count > 1 {
        guard countedLoops.insert(Int64(c) << 32 | Int64(step)).inserted else { continue }
      }
      pathsToStep[Int(step)] = Self.adding(pathsToStep[Int(step)], counts[c])
    }
  }

  /// The summary of the whole from its parts' (`parts`), state `s` of part `p` being state `id(p, s)` of the whole
  /// (each part's states in the same order there): the paths added up, and the parts' loop components in the order
  /// Tarjan's algorithm completes them on the whole. Its searches start at the states in order, and a search from a
  /// part's state meets only that part's states, so the parts' components come in the order of their searches'
  /// roots, and those of one search in the order its part's completed them.
  init(merging parts: [PathSummary], id: (Int, Int32) -> Int32) {
    pathsToStep =
      parts.first?.pathsToStep.indices.map { step in
        parts.reduce(0) { Self.adding($0, $1.pathsToStep[step]) }
      } ?? []
    for (part, summary) in parts.enumerated() {
      loopComponents += summary.loopComponents.map {
        LoopComponent(searchRoot: id(part, $0.searchRoot), steps: $0.steps, states: $0.states)
      }
    }
    // A stable sort: a search's components keep their order.
    loopComponents = loopComponents.enumerated().sorted {
      ($0.element.searchRoot, $0.offset) < ($1.element.searchRoot, $1.offset)
    }
    .map(\.element)
  }

  /// The loops the report lists: the components of the same steps as one loop, in the order its first component
  /// was completed.
  func loops(of flow: Flow) -> [ExploreReport.Loop] {
    var loops: [ExploreReport.Loop] = []
    for component in loopComponents {
      let ids = component.steps.map { flow.steps[Int($0)].id }
      if let existing = loops.firstIndex(where: { $0.steps == ids }) {
        loops[existing].states += component.states
      } else {
        loops.append(.init(steps: ids, states: component.states))
      }
    }
    return loops
  }

  /// `a + b`, or `Int.max` past it: both count paths, which are never negative.
  private static func adding(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }
}
