import FlowCore
import Testing

@Suite struct DigraphTests {
  // 0 -> 1 -> 2 -> 1, 2 -> 3, 4 -> 4, 5 alone; an edge to a node outside the graph is left out.
  static let graph = Digraph(
    nodeCount: 6, edges: [(from: 0, to: 1), (1, 2), (2, 1), (2, 3), (4, 4), (3, 9)].map { (from: $0.0, to: $0.1) })

  @Test func reachability() {
    #expect(Self.graph.reachable(from: [0]) == [true, true, true, true, false, false])
    #expect(Self.graph.reachable(from: [4, 7]) == [false, false, false, false, true, false])
  }

  @Test func cyclesAreComponentsWithALoop() {
    #expect(Self.graph.cycles() == [[1, 2], [4]])
  }

  @Test func componentsAreNumberedAfterWhatTheyReach() {
    let components = Self.graph.stronglyConnectedComponents()
    #expect(components.count == 5)
    let c = components.component
    #expect(c[1] == c[2])
    #expect(c[0] > c[1] && c[1] > c[3])
    // The search from 0 completes 3, then {1, 2}, then 0; 4 and 5 start searches of their own.
    #expect(c == [2, 1, 1, 0, 3, 4])
    #expect(components.searchRoot == [0, 0, 0, 4, 5])
  }

  @Test func shortestPaths() {
    #expect(Self.graph.shortestPath(from: [0], to: 3) == [0, 1, 2, 3])
    #expect(Self.graph.shortestPath(from: [2, 0], to: 3) == [2, 3])
    #expect(Self.graph.shortestPath(from: [0], to: 0) == [0])
    #expect(Self.graph.shortestPath(from: [0], to: 5) == nil)
    #expect(Self.graph.shortestPath(from: [0], to: 42) == nil)
  }

  @Test func aLongChainDoesNotOverflowTheStack() {
    let n = 100_000
    let chain = Digraph(nodeCount: n, edges: (0..<n).map { (from: $0, to: ($0 + 1) % n) })
    #expect(chain.cycles().first?.count == n)
  }
}
