/// A directed graph over the nodes `0..<nodeCount`, its successor lists stored one after another in one array.
///
/// The graph analyses FlowKit needs are written once, here: the linter runs them on a flow's steps
/// (``Flow/routes``), the explorer on the states it found.
package struct Digraph: Sendable {
  package let nodeCount: Int
  /// The successors of node `n` are `targets[firstEdge[n]..<firstEdge[n + 1]]`.
  private let firstEdge: [Int32]
  private let targets: [Int32]

  /// A graph with the given edges; edges naming a node outside `0..<nodeCount` are left out. (An array, not any
  /// sequence: called from another module, a generic parameter would be resolved at run time, costing more
  /// than building a small graph.)
  package init(nodeCount: Int, edges: [(from: Int, to: Int)]) {
    var counts = [Int32](repeating: 0, count: nodeCount + 1)
    var kept: [(from: Int, to: Int)] = []
    for edge in edges where (0..<nodeCount).contains(edge.from) && (0..<nodeCount).contains(edge.to) {
      counts[edge.from + 1] += 1
      kept.append(edge)
    }
    for node in 0..<nodeCount { counts[node + 1] += counts[node] }
    var next = counts
    var targets = [Int32](repeating: 0, count: kept.count)
    for edge in kept {
      targets[Int(next[edge.from])] = Int32(edge.to)
      next[edge.from] += 1
    }
    self.init(nodeCount: nodeCount, firstEdge: counts, targets: targets)
  }

  /// A graph from successor lists already laid out one after another (`firstEdge` has `nodeCount + 1` entries).
  package init(nodeCount: Int, firstEdge: [Int32], targets: [Int32]) {
    precondition(firstEdge.count == nodeCount + 1, "firstEdge needs nodeCount + 1 entries")
    self.nodeCount = nodeCount
    self.firstEdge = firstEdge
    self.targets = targets
  }

  package func successors(of node: Int) -> ArraySlice<Int32> {
    targets[Int(firstEdge[node])..<Int(firstEdge[node + 1])]
  }
}

// MARK: - Reachability

extension Digraph {
  /// Whether each node can be reached from one of `starts` (a start reaches itself); starts outside the graph
  /// are ignored. (An array, not any sequence: the lint rules call this from another module, where a generic
  /// one runs unspecialized and looks its iterator type up at run time, about 86,000 instructions a call.)
  package func reachable(from starts: [Int]) -> [Bool] {
    var seen = [Bool](repeating: false, count: nodeCount)
    var stack: [Int] = []
    for start in starts where (0..<nodeCount).contains(start) && !seen[start] {
      seen[start] = true
      stack.append(start)
    }
    while let current = stack.popLast() {
      for next in successors(of: current) where !seen[Int(next)] {
        seen[Int(next)] = true
        stack.append(Int(next))
      }
    }
    return seen
  }

  /// A shortest path (fewest edges) from one of `starts` to `target`, both ends included; nil when `target` is
  /// not reachable.
  package func shortestPath(from starts: [Int], to target: Int) -> [Int]? {
    var parent = [Int32](repeating: -2, count: nodeCount)
    var queue: [Int] = []
    for start in starts where (0..<nodeCount).contains(start) && parent[start] == -2 {
      parent[start] = -1
      queue.append(start)
    }
    var head = 0
    while head < queue.count, parent.indices.contains(target), parent[target] == -2 {
      let current = queue[head]
      head += 1
      for next in successors(of: current) where parent[Int(next)] == -2 {
        parent[Int(next)] = Int32(current)
        queue.append(Int(next))
      }
    }
    guard parent.indices.contains(target), parent[target] != -2 else { return nil }
    var path = [target]
    while parent[path[path.count - 1]] >= 0 { path.append(Int(parent[path[path.count - 1]])) }
    return path.reversed()
  }
}

// MARK: - Strongly connected components

extension Digraph {
  /// The strongly connected components of a graph.
  package struct Components: Sendable {
    /// The component of each node. Components are numbered in the order Tarjan's algorithm completes them: a
    /// component's number is higher than that of every component it reaches (reverse topological order).
    package var component: [Int32]
    package var count: Int
    /// Per component, the node whose depth-first search completed it: the searches start at each node not yet
    /// visited, in the order of the nodes, so every component completed by one search comes before every component
    /// completed by a later one.
    package var searchRoot: [Int32]
    /// The nodes of each component.
    package var members: [[Int32]] {
      var result = [[Int32]](repeating: [], count: count)
      for (node, component) in component.enumerated() { result[Int(component)].append(Int32(node)) }
      return result
    }
  }

  /// Tarjan's algorithm, iterative, so a 10,000-step chain does not overflow the stack.
  package func stronglyConnectedComponents() -> Components {
    let n = nodeCount
    var index = [Int32](repeating: -1, count: n)
    var low = [Int32](repeating: 0, count: n)
    var stack: [Int32] = []
    var component = [Int32](repeating: -1, count: n)
    var count: Int32 = 0
    var searchRoot: [Int32] = []
    var counter: Int32 = 0
    var work: [(node: Int32, edge: Int32)] = []
    func visit(_ node: Int) {
      index[node] = counter
      low[node] = counter
      counter += 1
      stack.append(Int32(node))
      work.append((Int32(node), firstEdge[node]))
    }
    for root in 0..<n where index[root] < 0 {
      visit(root)
      while let (node, edge) = work.last {
        let current = Int(node)
        if edge < firstEdge[current + 1] {
          work[work.count - 1].edge = edge + 1
          let next = Int(targets[Int(edge)])
          if index[next] < 0 {
            visit(next)
          } else if component[next] < 0 {
            // Reached and not yet in a component: on the stack.
            low[current] = min(low[current], index[next])
          }
          continue
        }
        work.removeLast()
        if let (parent, _) = work.last { low[Int(parent)] = min(low[Int(parent)], low[current]) }
        if low[current] == index[current] {
          while let top = stack.popLast() {
            component[Int(top)] = count
            if top == node { break }
          }
          searchRoot.append(Int32(root))
          count += 1
        }
      }
    }
    return Components(component: component, count: Int(count), searchRoot: searchRoot)
  }

  /// The components that contain a cycle (more than one node, or a node with an edge to itself), each sorted,
  /// ordered by their first node.
  package func cycles() -> [[Int]] {
    let components = stronglyConnectedComponents()
    var result: [[Int]] = []
    for members in components.members {
      let looping =
        members.count > 1 || members.first.map { node in successors(of: Int(node)).contains(node) } ?? false
      if looping { result.append(members.map { Int($0) }.sorted()) }
    }
    return result.sorted { $0[0] < $1[0] }
  }
}
