import Dispatch
import FlowCore
import Synchronization

/// Parallel exploration (`flowrun explore --jobs N`, ``ExploreOptions/jobs``).
///
/// The waiting states are taken in batches (``ExpansionBatch``). Threads decode a batch's states, try their moves
/// and encode the states they reach (``Explorer/Expansion/tryMoves(_:restartCached:coder:)``: the engine's work,
/// pure and most of the time), each taking the next piece of the batch when done with one, so a slow piece holds
/// no thread back. ``Explorer/explore()`` then takes the batch's expansions one at a time, in the order of their
/// ids, and numbers and stores the states they reach exactly as one thread does: the same ids, edges, witnesses
/// and report for every number of jobs. While it takes one batch, the other threads already expand the next (the
/// states waiting behind it), from a copy of the coder and of the relaunch cache made when that batch started. The
/// copies only read the coder's tables: a state holding a value new to them is left for the exploring thread to
/// encode.
extension Explorer {
  /// Waiting states per thread in a batch: enough to keep the threads busy, few enough that the batch's
  /// successors (run states) stay a few megabytes.
  static let parallelBatch = 1_024
  /// States a thread takes at a time.
  static let parallelPiece = 32

  /// A waiting state as the threads get it: its key and payload, and whether its moves are tried.
  struct WaitingState: Sendable {
    var key: [UInt32]
    var payload: [UInt32]
    var expands: Bool
  }

  /// Decodes `state` with `coder` (a copy of the exploring thread's that does not intern) and tries its moves
  /// unless it is at --max-depth; `previous` is the state the same thread decoded before (a state shares the
  /// values equal to its).
  func expansion(
    of waiting: WaitingState, coder: inout StateCoder, restarts: RestartCache,
    previous: inout (state: RunState, key: [UInt32], payload: [UInt32])?
  ) -> Expansion {
    let state = coder.decode(
      waiting.key, payload: waiting.payload, clock: options.clock, previous: previous?.state,
      previousKey: previous?.key ?? [], previousPayload: previous?.payload ?? [])
    previous = (state, waiting.key, waiting.payload)
    var expansion = Expansion(state: state)
    guard waiting.expands else { return expansion }
    let cached =
      state.pending == nil && restarts[coder.launchInputs(key: waiting.key, payload: waiting.payload)] != nil
    coder.expand(state, key: waiting.key, payload: waiting.payload)
    expansion.tryMoves(self, restartCached: cached, coder: &coder)
    return expansion
  }
}

/// Waiting states being expanded on several threads: ``start(threads:retiring:)`` sets threads to work on it,
/// ``finish()`` waits for them and returns the expansions in the order of the states. The exploring thread only
/// takes the expansions: the run states are allocated and freed on the worker threads (freeing them on the
/// exploring thread while a worker allocates made the two contend for malloc's arena lock: 40,000 context
/// switches and 16 s of system time on anicca-v01).
final class ExpansionBatch: Sendable {
  let explorer: Explorer
  let states: [Explorer.WaitingState]
  /// What the threads read: copies, so that the exploration goes on changing its own meanwhile.
  let coder: StateCoder
  let restarts: Explorer.RestartCache
  private let pieces: Int
  private let next = Atomic<Int>(0)
  private let done: Pieces
  private let group = DispatchGroup()

  init(
    explorer: Explorer, states: [Explorer.WaitingState], coder: StateCoder, restarts: Explorer.RestartCache
  ) {
    self.explorer = explorer
    self.states = states
    self.coder = coder
    self.restarts = restarts
    pieces = (states.count + Explorer.parallelPiece - 1) / Explorer.parallelPiece
    done = Pieces(count: pieces)
  }

  /// The range of state ids a batch starting at `first` covers, when `count` states are known.
  static func range(from first: Int, count: Int, jobs: Int) -> Range<Int> {
    first..<min(count, first + Explorer.parallelBatch * jobs)
  }

  /// Sets `threads` threads expanding pieces of the batch; the first releases `retiring` (a batch taken, whose
  /// run states the threads allocated: freed on a worker thread, not while the exploring thread allocates).
  func start(threads: Int, retiring: ExpansionBatch?) {
    var retiring = retiring
    for _ in 0..<min(threads, pieces) {
      DispatchQueue.global().async(group: group) { [retiring = retiring.take()] in
        _ = retiring
        self.work()
      }
    }
  }

  /// Waits for the threads, returns the expansions.
  func finish() -> [Explorer.Expansion] {
    group.wait()
    return done.slots.flatMap { $0 }
  }

  /// Leaves the pieces not started yet and waits for the threads (a limit stopped the exploration).
  func abandon() {
    next.store(pieces, ordering: .relaxed)
    group.wait()
  }

  private func work() {
    // The thread's own coder: it reads the tables of the batch's copy and, not interning, never writes them.
    var coder = coder
    coder.interns = false
    var previous: (state: RunState, key: [UInt32], payload: [UInt32])?
    while true {
      let piece = next.add(1, ordering: .relaxed).oldValue
      guard piece < pieces else { return }
      var expansions: [Explorer.Expansion] = []
      expansions.reserveCapacity(Explorer.parallelPiece)
      for index in (piece * Explorer.parallelPiece)..<min(states.count, (piece + 1) * Explorer.parallelPiece) {
        expansions.append(
          explorer.expansion(of: states[index], coder: &coder, restarts: restarts, previous: &previous))
      }
      done.slots[piece] = expansions
    }
  }
}

/// The expansions of a batch, one slot per piece. A slot is written once, by the thread that took the piece from
/// the batch's atomic counter (so by exactly one thread), and read only after every thread is done
/// (``ExpansionBatch/finish()`` waits for their dispatch group first). ThreadSanitizer sees both the counter and
/// the group; it does not see Synchronization's `Mutex` on Linux, which is why this is not one.
private final class Pieces: @unchecked Sendable {
  let slots: UnsafeMutableBufferPointer<[Explorer.Expansion]>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: [])
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }
}
