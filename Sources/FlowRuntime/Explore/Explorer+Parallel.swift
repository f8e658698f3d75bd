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

extension Explorer {
  /// A thread's own transition cache (``TransitionCache``) for `--jobs N`: the moves of the states it expands are
  /// reused or made by the engine and kept, as one thread does (Explorer+Reusing.swift). Each cache learns the
  /// moves of the states its threads take; the exploring thread takes what they give in the states' order, so
  /// the exploration does not depend on which cache learnt what.
  ///
  /// The records of a reached outcome go to the exploring thread once, with the first edge that takes it (its
  /// transitions have a witness from then on: the exploring thread takes this cache's expansions in the order it
  /// made them), and are dropped here.
  struct ReusingWorker {
    var cache: TransitionCache
    /// The moves this cache numbered (``TransitionCache/moveIDs`` holds the numbers): the exploring thread maps
    /// each to its number in the exploration (``Exploring/workerMoves``).
    var numbered: Int32 = 0
    var reuse = Exploration.TransitionReuse()
    /// The successor being written, and the words of the state being expanded.
    private var key: [UInt32]
    private var payload: [UInt32]
    private var words: [UInt32] = []

    init(coder: StateCoder, flow: Flow) {
      cache = TransitionCache(coder: coder, flow: flow)
      key = Array(repeating: 0, count: coder.width)
      payload = Array(repeating: 0, count: coder.payloadWidth)
    }

    /// Tries the moves of `waiting` (unless it is at --max-depth), reusing what this cache kept; `coder` is the
    /// thread's copy, which does not intern: a successor holding a value new to it is left for the exploring
    /// thread to encode, and not kept.
    mutating func expand(
      _ waiting: WaitingState, worker slot: Int, explorer: Explorer, coder: inout StateCoder
    ) -> Expansion {
      var expansion = Expansion(state: nil)
      expansion.worker = slot
      guard waiting.expands else { return expansion }
      let clock = explorer.options.clock
      coder.expandWords(key: waiting.key[...], payload: waiting.payload[...])
      words.removeAll(keepingCapacity: true)
      words += waiting.key
      words += waiting.payload
      let (context, isNew) = cache.context(of: words)
      if isNew { cache.addMoves(explorer.moves(from: coder.expanding(clock: clock))) }
      let moves = cache.moves[Int(context)]
      var successors: [Successor] = []
      successors.reserveCapacity(moves.count)
      for index in moves.indices {
        let move = moves[index]
        var number = cache.moveIDs[Int(context)][index]
        if number < 0 {
          number = numbered
          numbered += 1
          cache.setMoveID(number, at: .init(context: context, move: index, outcome: nil))
          expansion.newMoves.append(move)
        }
        var reused = cache.outcome(context: context, move: index, words: words)
        if let outcome = reused, cache.kind(of: outcome) == .reached,
          !cache.write(waiting.key, waiting.payload, outcome: outcome, into: &key, &payload, coder: &coder)
        {
          reused = nil  // it loads a value this copy of the coder has no id for: the engine makes it
        }
        if let outcome = reused {
          reuse.hits += 1
          if explorer.options.checksReusedTransitions {
            let (reusedKey, reusedPayload) = (key, payload)
            let (made, unencoded) = make(move, explorer: explorer, coder: &coder, log: nil)
            let same = unencoded == nil && key == reusedKey && payload == reusedPayload
            if !made.agrees(with: cache.outcome(outcome), sameSuccessor: same) { reuse.mismatches += 1 }
            (key, payload) = (reusedKey, reusedPayload)
          }
          switch cache.kind(of: outcome) {
          case .refused: break
          case .failed: successors.append(.failed(move, cache.failure(of: outcome)))
          case .reached:
            let records = cache.records(of: outcome)
            if !records.isEmpty && !isExpanding(waiting) { cache.dropRecords(of: outcome) }
            expansion.words += key
            expansion.words += payload
            successors.append(.numbered(number, records))
          }
          continue
        }
        reuse.misses += 1
        cache.log.clear()
        let (made, unencoded) = make(move, explorer: explorer, coder: &coder, log: cache.log)
        if let unencoded, case .reached(_, let records) = made {
          successors.append(.reached(move, unencoded, records))
          continue
        }
        let outcome = cache.remember(
          made, context: context, move: index, words: words, successor: key + payload, coder: &coder)
        switch made {
        case .refused: break
        case .failed(let message): successors.append(.failed(move, message))
        case .reached(_, let records):
          if let outcome, !records.isEmpty, !isExpanding(waiting) { cache.dropRecords(of: outcome) }
          expansion.words += key
          expansion.words += payload
          successors.append(.numbered(number, records))
        }
      }
      expansion.successors = successors
      return expansion
    }

    /// Whether the successor written is `waiting` itself (a move that changes nothing is no edge).
    private func isExpanding(_ waiting: WaitingState) -> Bool { key == waiting.key && payload == waiting.payload }

    /// Makes `move` with the engine from the state `coder` is expanding, noting what it reads and writes in
    /// `log` when given. A successor is encoded into `key` and `payload`, or returned when `coder` cannot encode
    /// it. The outcome's writes are empty (``TransitionCache/remember(_:context:move:words:successor:coder:)``
    /// works them out).
    private mutating func make(
      _ move: ExploreMove, explorer: Explorer, coder: inout StateCoder, log: AccessLog?
    ) -> (TransitionCache.Outcome, unencoded: RunState?) {
      do {
        guard
          let (next, records) = try explorer.apply(move, to: coder.expanding(clock: explorer.options.clock), log: log)
        else { return (.refused, nil) }
        let encoded = coder.encode(next, into: &key, payload: &payload)
        return (.reached(writes: [], records: records), encoded ? nil : next)
      } catch {
        return (.failed("\(error)"), nil)
      }
    }
  }
}

/// The ``Explorer/ReusingWorker``s of a parallel exploration: two per thread, one for the batch being taken and
/// one for the batch expanded meanwhile (``ExpansionBatch``). A batch's thread `t` takes worker `first + t` out
/// of its slot and puts it back when done; batches that use the same slots never overlap (the exploring thread
/// waits for a batch before it starts the one after the next), and ThreadSanitizer sees that order through the
/// batches' dispatch groups.
final class ReusingWorkers: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Explorer.ReusingWorker?>
  let jobs: Int

  init(jobs: Int) {
    self.jobs = jobs
    slots = .allocate(capacity: 2 * jobs)
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  /// The first slot of batch number `batch` (counted from 0).
  func first(ofBatch batch: Int) -> Int { (batch % 2) * jobs }

  /// The worker in `slot`, made (empty) with `coder` the first time; ``put(_:in:)`` gives it back.
  func take(_ slot: Int, coder: StateCoder, flow: Flow) -> Explorer.ReusingWorker {
    slots[slot].take() ?? Explorer.ReusingWorker(coder: coder, flow: flow)
  }

  func put(_ worker: consuming Explorer.ReusingWorker, in slot: Int) { slots[slot] = worker }

  /// The moves reused and made by every worker, once no batch is under way.
  var reuse: Exploration.TransitionReuse {
    var total = Exploration.TransitionReuse()
    for case let worker? in slots {
      total.hits += worker.reuse.hits
      total.misses += worker.reuse.misses
      total.mismatches += worker.reuse.mismatches
      total.unaccounted += worker.cache.unaccounted
    }
    return total
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
  /// The threads' transition caches and the first slot of this batch's, when moves are reused.
  private let workers: ReusingWorkers?
  private let firstWorker: Int
  private let pieces: Int
  private let next = Atomic<Int>(0)
  private let done: Pieces
  private let group = DispatchGroup()

  init(
    explorer: Explorer, states: [Explorer.WaitingState], coder: StateCoder, restarts: Explorer.RestartCache,
    workers: ReusingWorkers?, firstWorker: Int
  ) {
    self.explorer = explorer
    self.states = states
    self.coder = coder
    self.restarts = restarts
    self.workers = workers
    self.firstWorker = firstWorker
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
    for thread in 0..<min(threads, pieces) {
      DispatchQueue.global().async(group: group) { [retiring = retiring.take()] in
        _ = retiring
        self.work(thread: thread)
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

  private func work(thread: Int) {
    // The thread's own coder: it reads the tables of the batch's copy and, not interning, never writes them.
    var coder = coder
    coder.interns = false
    let slot = firstWorker + thread
    var worker = workers?.take(slot, coder: coder, flow: explorer.flow)
    defer { if let worker = worker.take() { workers?.put(worker, in: slot) } }
    var previous: (state: RunState, key: [UInt32], payload: [UInt32])?
    while true {
      let piece = next.add(1, ordering: .relaxed).oldValue
      guard piece < pieces else { return }
      var expansions: [Explorer.Expansion] = []
      expansions.reserveCapacity(Explorer.parallelPiece)
      for index in (piece * Explorer.parallelPiece)..<min(states.count, (piece + 1) * Explorer.parallelPiece) {
        if worker != nil {
          expansions.append(worker!.expand(states[index], worker: slot, explorer: explorer, coder: &coder))
        } else {
          expansions.append(
            explorer.expansion(of: states[index], coder: &coder, restarts: restarts, previous: &previous))
        }
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
