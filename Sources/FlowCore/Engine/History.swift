import Synchronization

/// The steps the user can go back to: a persistent stack, so copying a state (which the engine does for
/// every event, to leave the caller's state untouched on failure) costs O(1) however long the run is.
///
/// The steps are kept in chunks of ``Chunk/capacity``, linked to the chunk below. Histories that share a chunk
/// each see a prefix of it; a slot, once written, never changes. Appending writes the next slot in place when
/// no other history has claimed it (an atomic claim, so histories on different threads may share chunks), and
/// otherwise copies the visible part of the chunk first: an append allocates once per chunk, not once per step.
package struct History: Sendable, Hashable {
  private final class Chunk: @unchecked Sendable {
    static let capacity = 16
    /// The chunk below, full; written only at creation and in `deinit` (when no one else holds the chunk).
    private(set) var previous: Chunk?
    /// The steps, oldest first; a slot below `claimed` is written once, by the history that claimed it.
    let slots: UnsafeMutablePointer<StepIndex>
    /// How many slots some history has claimed.
    let claimed: Atomic<Int>

    init(previous: Chunk?, copying source: UnsafeMutablePointer<StepIndex>? = nil, count: Int = 0) {
      self.previous = previous
      slots = .allocate(capacity: Self.capacity)
      if let source { slots.initialize(from: source, count: count) }
      claimed = Atomic(count)
    }

    /// Claims slot `index` for `step`, when no history has claimed it yet.
    func claim(_ index: Int, for step: StepIndex) -> Bool {
      guard claimed.compareExchange(expected: index, desired: index + 1, ordering: .relaxed).exchanged else {
        return false
      }
      (slots + index).initialize(to: step)
      return true
    }

    // Unlink iteratively: releasing a long chain recursively would overflow the stack.
    deinit {
      slots.deallocate()
      var next = previous
      previous = nil
      while isKnownUniquelyReferenced(&next), let chunk = next {
        next = chunk.previous
        chunk.previous = nil
      }
    }
  }

  /// The chunk the most recent steps are in; every chunk below it is full.
  private var top: Chunk?
  /// How many slots of `top` this history holds.
  private var used = 0
  package private(set) var count = 0

  package init() {}

  package var isEmpty: Bool { count == 0 }
  package var last: StepIndex? { top.map { $0.slots[used - 1] } }

  package mutating func append(_ step: StepIndex) {
    if let top, used < Chunk.capacity {
      if !top.claim(used, for: step) {
        // Another history wrote this slot: continue in a copy of the part this one sees.
        let copy = Chunk(previous: top.previous, copying: top.slots, count: used)
        _ = copy.claim(used, for: step)
        self.top = copy
      }
      used += 1
    } else {
      let chunk = Chunk(previous: top)
      _ = chunk.claim(0, for: step)
      top = chunk
      used = 1
    }
    count += 1
  }

  @discardableResult
  package mutating func removeLast() -> StepIndex {
    guard let chunk = top else { preconditionFailure("removeLast() on an empty history") }
    used -= 1
    count -= 1
    let step = chunk.slots[used]
    if used == 0 {
      top = chunk.previous
      used = top == nil ? 0 : Chunk.capacity
    }
    return step
  }

  /// Most recent last.
  package var steps: [StepIndex] {
    var result: [StepIndex] = []
    result.reserveCapacity(count)
    var chunk = top
    var visible = used
    while let current = chunk {
      for index in stride(from: visible - 1, through: 0, by: -1) { result.append(current.slots[index]) }
      chunk = current.previous
      visible = Chunk.capacity
    }
    return result.reversed()
  }

  package static func == (lhs: History, rhs: History) -> Bool {
    guard lhs.count == rhs.count, lhs.used == rhs.used else { return false }
    var a = lhs.top
    var b = rhs.top
    var visible = lhs.used
    while let x = a, let y = b {
      if x === y { return true }
      for index in 0..<visible where x.slots[index] != y.slots[index] { return false }
      a = x.previous
      b = y.previous
      visible = Chunk.capacity
    }
    return a == nil && b == nil
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(last)
  }
}
