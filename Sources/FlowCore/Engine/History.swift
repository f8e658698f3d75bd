/// The steps the user can go back to: a persistent stack, so copying a state (which the engine does for
/// every event, to leave the caller's state untouched on failure) costs O(1) however long the run is.
package struct History: Sendable, Hashable {
  // `previous` is written only at creation and in `deinit` (when no one else holds the node), so sharing
  // nodes between threads is safe.
  private final class Node: @unchecked Sendable {
    let step: StepIndex
    private(set) var previous: Node?
    init(step: StepIndex, previous: Node?) {
      self.step = step
      self.previous = previous
    }

    // Unlink iteratively: releasing a long chain recursively would overflow the stack.
    deinit {
      var next = previous
      previous = nil
      while isKnownUniquelyReferenced(&next), let node = next {
        next = node.previous
        node.previous = nil
      }
    }
  }

  private var top: Node?
  package private(set) var count = 0

  package init() {}

  package var isEmpty: Bool { top == nil }
  package var last: StepIndex? { top?.step }

  package mutating func append(_ step: StepIndex) {
    top = Node(step: step, previous: top)
    count += 1
  }

  @discardableResult
  package mutating func removeLast() -> StepIndex {
    guard let node = top else { preconditionFailure("removeLast() on an empty history") }
    top = node.previous
    count -= 1
    return node.step
  }

  /// Most recent last.
  package var steps: [StepIndex] {
    var result: [StepIndex] = []
    var node = top
    while let current = node {
      result.append(current.step)
      node = current.previous
    }
    return result.reversed()
  }

  package static func == (lhs: History, rhs: History) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var a = lhs.top
    var b = rhs.top
    while let x = a, let y = b {
      if x === y { return true }
      if x.step != y.step { return false }
      a = x.previous
      b = y.previous
    }
    return a == nil && b == nil
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(top?.step)
  }
}
