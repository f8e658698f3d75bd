internal import FlowCore

/// Reachability over a flow's moves.
enum FlowGraph {
  /// The steps reachable from `starts` through `edges` (all moves, or only automatic ones).
  static func reachable(from starts: [StepIndex], edges: [Edge], stepCount: Int) -> [Bool] {
    var successors = [[StepIndex]](repeating: [], count: stepCount)
    for edge in edges {
      guard let from = edge.from, from < stepCount, edge.to < stepCount else { continue }
      successors[from].append(edge.to)
    }
    var seen = [Bool](repeating: false, count: stepCount)
    var stack: [StepIndex] = []
    for start in starts where start < stepCount && !seen[start] {
      seen[start] = true
      stack.append(start)
    }
    while let current = stack.popLast() {
      for next in successors[current] where !seen[next] {
        seen[next] = true
        stack.append(next)
      }
    }
    return seen
  }

  /// Strongly connected components that contain a cycle (more than one step, or a step moving to itself),
  /// each sorted by step index; iterative Tarjan, so a 10,000-step chain does not overflow the stack.
  static func cycles(edges: [Edge], stepCount: Int) -> [[StepIndex]] {
    var successors = [[StepIndex]](repeating: [], count: stepCount)
    var selfLoop = [Bool](repeating: false, count: stepCount)
    for edge in edges {
      guard let from = edge.from, from < stepCount, edge.to < stepCount else { continue }
      successors[from].append(edge.to)
      if from == edge.to { selfLoop[from] = true }
    }
    var index = [Int](repeating: -1, count: stepCount)
    var low = [Int](repeating: 0, count: stepCount)
    var onStack = [Bool](repeating: false, count: stepCount)
    var stack: [StepIndex] = []
    var counter = 0
    var result: [[StepIndex]] = []
    for root in 0..<stepCount where index[root] < 0 {
      var work: [(node: StepIndex, next: Int)] = [(root, 0)]
      index[root] = counter
      low[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      while !work.isEmpty {
        let (node, position) = work[work.count - 1]
        if position < successors[node].count {
          work[work.count - 1].next += 1
          let next = successors[node][position]
          if index[next] < 0 {
            index[next] = counter
            low[next] = counter
            counter += 1
            stack.append(next)
            onStack[next] = true
            work.append((next, 0))
          } else if onStack[next] {
            low[node] = min(low[node], index[next])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
        if low[node] == index[node] {
          var component: [StepIndex] = []
          while let top = stack.popLast() {
            onStack[top] = false
            component.append(top)
            if top == node { break }
          }
          if component.count > 1 || selfLoop[node] { result.append(component.sorted()) }
        }
      }
    }
    return result.sorted { $0[0] < $1[0] }
  }
}
