import Dispatch
import FlowCore
import Synchronization

/// Parallel exploration (`flowrun explore --jobs N`, ``ExploreOptions/jobs``).
///
/// The waiting states are taken in batches (``ExpansionBatch``). `jobs - 1` threads try the moves of a batch's
/// states from its start, each taking the next piece of the batch when done with one, so a slow piece holds no
/// thread back. Each thread reuses moves through its own transition cache (``Explorer/ReusingWorker``), as one
/// thread does with its one cache, and gives the states reached packed as the set packs its rows
/// (``ExpandedPiece``). While the exploring thread takes one batch, the threads already expand the next (the
/// states waiting behind it). When it is done, it stops them (``ExpansionBatch/claim()``), takes the pieces they
/// expanded in order, and numbers and stores the states they reach exactly as one thread does; the states of the
/// pieces no thread took it expands and takes itself, one at a time, as one thread does (the
/// Explorer+Reusing.swift path, with its own cache). So the same ids, edges, witnesses and report come out for
/// every number of jobs, and no state's moves are packed for another thread when the exploring thread catches up
/// with the others. The threads use a copy of the coder made when the batch started, which only reads the coder's
/// tables: a state holding a value new to them is left for the exploring thread to encode.
extension Explorer {
  /// Waiting states per thread in a batch: enough to keep the threads busy, few enough that a batch's
  /// successors stay a few megabytes.
  static let parallelBatch = 1_024
  /// States a thread takes at a time.
  static let parallelPiece = 32
  /// States a part explored alone expands between two looks for a spare thread (``ExploreOptions/spareThreads``): a
  /// power of two.
  static let spareThreadInterval = 256
  /// Most moves the exploring thread keeps for the threads' caches to learn between two batches: while the
  /// frontier is too narrow for a batch, it expands every state itself and no batch teaches them.
  static let lessonsKept = 16_384

  /// A thread's own transition cache (``TransitionCache``) for `--jobs N`: the moves of the states it expands are
  /// reused or made by the engine and kept, as one thread does (Explorer+Reusing.swift). Each cache learns the
  /// moves of the states its threads take; the exploring thread takes what they give in the states' order, so
  /// the exploration does not depend on which cache learnt what.
  ///
  /// The records of a reached outcome go to the exploring thread once, with the first edge that takes it (its
  /// transitions have a witness from then on: the exploring thread takes this cache's pieces in the order it
  /// made them, ``ReusingWorkers``), and are dropped here.
  struct ReusingWorker {
    var cache: TransitionCache
    /// The moves this cache numbered (``TransitionCache/moveIDs`` holds the numbers): the exploring thread maps
    /// each to its number in the exploration (``Exploring/workerMoves``).
    var numbered: Int32 = 0
    var reuse = Exploration.TransitionReuse()
    /// The moves the engine made and this cache kept during the batch under way, which the other caches learn
    /// (the exploring thread's before it takes the batch, the other workers' at the next; ``ReusingWorkers``):
    /// without them each cache made most of them again (on anicca-v01 in batches on two threads, before a
    /// relaunch's key left out the permission statuses, the engine made 17,800 more moves than with one, a tenth of
    /// the exploration's instructions; with them, about 1,100 more: 36,865 to 36,967 against 35,758,
    /// `flowbench explore-file`).
    var lessons: [TransitionCache.Lesson] = []
    /// The state being expanded (its key, its payload, and both one after the other) and the successor written.
    private var stateKey: [UInt32]
    private var statePayload: [UInt32]
    private var words: [UInt32] = []
    private var key: [UInt32]
    private var payload: [UInt32]

    /// A worker starting from `cache` (the one thread's, ``TransitionCache/forAnotherThread()``).
    init(cache: TransitionCache, coder: StateCoder) {
      self.cache = cache
      key = .zeroWords(coder.width)
      payload = .zeroWords(coder.payloadWidth)
      stateKey = .zeroWords(coder.width)
      statePayload = .zeroWords(coder.payloadWidth)
    }

    /// Tries the moves of the state whose key and payload are `state` (one after the other) and adds its edges
    /// to `piece`; `coder` is the thread's copy, which does not intern: a successor holding a value new to it is
    /// left for the exploring thread to encode, and not kept.
    mutating func expand(
      _ state: UnsafeBufferPointer<UInt32>, into piece: inout ExpandedPiece, explorer: Explorer,
      coder: inout StateCoder
    ) {
      let width = stateKey.count
      words.removeAll(keepingCapacity: true)
      words += state
      let expandedKey = UnsafeBufferPointer(rebasing: state[..<width])
      let expandedPayload = UnsafeBufferPointer(rebasing: state[width...])
      _ = stateKey.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: expandedKey) }
      _ = statePayload.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: expandedPayload) }
      coder.expandWords(key: expandedKey, payload: expandedPayload)
      let (context, isNew) = cache.context(of: words)
      if isNew { cache.addMoves(explorer.moves(from: coder.expanding(clock: explorer.options.clock))) }
      for index in cache.moves[Int(context)].indices {
        var number = cache.moveID(context: context, move: index)
        if number < 0 {
          number = numbered
          numbered += 1
          cache.setMoveID(number, at: .init(context: context, move: index, outcome: nil))
          piece.newMoves.append(cache.moves[Int(context)][index])
        }
        var reused = cache.outcome(context: context, move: index, words: words)
        if let outcome = reused, cache.kind(of: outcome) == .reached,
          cache.write(stateKey, statePayload, outcome: outcome, into: &key, &payload, coder: &coder) == .unknownValue
        {
          reused = nil  // it loads a value this copy of the coder has no id for: the engine makes it
        }
        if let outcome = reused {
          reuse.hits += 1
          if explorer.options.checksReusedTransitions {
            check(outcome, move: cache.moves[Int(context)][index], explorer: explorer, coder: &coder)
          }
          switch cache.kind(of: outcome) {
          case .refused: break
          case .failed: piece.add(.failed(cache.moves[Int(context)][index], cache.failure(of: outcome)))
          case .reached:
            let records = cache.records(of: outcome)
            if !records.isEmpty && !reachesItself { cache.dropRecords(of: outcome) }
            piece.add(number, key, payload, records: records)
          }
          continue
        }
        reuse.misses += 1
        cache.log.clear()
        let move = cache.moves[Int(context)][index]
        let (made, unencoded) = make(move, explorer: explorer, coder: &coder, log: cache.log)
        if let unencoded, case .reached(_, let records) = made {
          piece.add(.reached(move, unencoded, records))
          continue
        }
        let successor = key + payload
        let remembered = cache.remember(
          made, context: context, move: index, words: words, successor: successor, coder: &coder)
        let outcome = remembered?.id
        if let remembered {
          lessons.append(cache.lesson(words: words, context: context, move: index, kept: remembered))
        }
        switch made {
        case .refused: break
        case .failed(let message): piece.add(.failed(move, message))
        case .reached(_, let records):
          if let outcome, !records.isEmpty, !reachesItself { cache.dropRecords(of: outcome) }
          piece.add(number, key, payload, records: records)
        }
      }
    }

    /// Whether the successor written is the state being expanded (a move that changes nothing is no edge).
    private var reachesItself: Bool { key == stateKey && payload == statePayload }

    /// With ``ExploreOptions/checksReusedTransitions``: makes `move` with the engine too and counts a mismatch
    /// with `outcome`, reused (its successor written).
    private mutating func check(_ outcome: Int32, move: ExploreMove, explorer: Explorer, coder: inout StateCoder) {
      let (reusedKey, reusedPayload) = (key, payload)
      let (made, unencoded) = make(move, explorer: explorer, coder: &coder, log: nil)
      let same = unencoded == nil && key == reusedKey && payload == reusedPayload
      if !made.agrees(with: cache.outcome(outcome), sameSuccessor: same) { reuse.mismatches += 1 }
      (key, payload) = (reusedKey, reusedPayload)
    }

    /// Makes `move` with the engine from the state `coder` is expanding, noting what it reads and writes in
    /// `log` when given. A successor is encoded into `key` and `payload`, or returned when `coder` cannot encode
    /// it. The outcome's writes are empty (``TransitionCache/remember(_:context:move:words:successor:coder:)``
    /// works them out).
    private mutating func make(
      _ move: ExploreMove, explorer: Explorer, coder: inout StateCoder, log: AccessLog?
    ) -> (TransitionCache.Outcome, unencoded: RunState?) {
      do {
        let state = coder.expanding(clock: explorer.options.clock)
        guard let (next, records) = try explorer.apply(move, to: state, log: log) else { return (.refused, nil) }
        let encoded = coder.encode(next, into: &key, payload: &payload)
        return (.reached(writes: [], records: records), encoded ? nil : next)
      } catch {
        return (.failed("\(error)"), nil)
      }
    }
  }
}

/// What a thread gives for a piece of a batch (``ExpansionBatch``), in flat arrays rather than a value per state
/// or per edge: each state's edges in the order of its moves, and the states they reach, packed.
struct ExpandedPiece: Sendable {
  /// The ``Explorer/ReusingWorker`` that expanded the piece (its slot in ``ReusingWorkers``), and the moves it
  /// numbered while doing so (in the order of their numbers; those numbered before are in earlier pieces).
  private(set) var worker = 0
  var newMoves: [ExploreMove] = []
  /// Per state, the end of its edges in `edges`; -1 for a state at --max-depth, whose moves are not tried.
  var edgeEnds: [Int32] = []
  /// Per edge: the worker's number of its move (≥ 0), the state it reaches being the next in `rows` (or, with
  /// no packer, the next key and payload in `words`); or `-1 - i` for `others[i]`, a failure or a state the
  /// worker could not encode.
  var edges: [Int32] = []
  /// With a packer (``ExpansionBatch/packer``; not with `--compact`), the states reached as the set packs them
  /// (``StateSet/insert(packed:hash:)``), `packer.rowBytes` each, and the hashes of their keys: the exploring
  /// thread takes an edge from these few bytes, packed here, rather than from the words, which are several times
  /// as many. A state with a value too wide for the packer's columns has the hash `Int.min`, no bytes, and its
  /// key and payload in `words`.
  private(set) var packer: PackedRows.Packer? = nil
  var rows: [UInt8] = []
  /// The end of the rows packed in `rows` (which grows ahead of them).
  private(set) var rowsEnd = 0
  var hashes: [Int] = []
  var words: [UInt32] = []
  var others: [Explorer.Successor] = []
  /// The records of the edges that have any, by edge (in `edges`), in order.
  var records: [(edge: Int32, records: [Record])] = []

  /// Empties the piece (a piece of a batch taken, ``ExpansionBatch``'s `recycled`) for worker `worker` to expand
  /// `states` states of `stride` words into, keeping its arrays' room: room for a few edges per state. Fresh
  /// arrays for every piece were allocated on one thread and freed on another, and their rows zeroed (on
  /// anicca-v01 the zeroing alone was 230 million instructions, 2% of the exploration).
  mutating func prepare(worker: Int, packer: PackedRows.Packer?, states: Int, stride: Int) {
    self.worker = worker
    self.packer = packer
    newMoves.removeAll(keepingCapacity: true)
    edgeEnds.removeAll(keepingCapacity: true)
    edges.removeAll(keepingCapacity: true)
    rowsEnd = 0
    hashes.removeAll(keepingCapacity: true)
    words.removeAll(keepingCapacity: true)
    others.removeAll(keepingCapacity: true)
    records.removeAll(keepingCapacity: true)
    // Room for eight edges a state: growing the words by doubling copied about half a gigabyte on anicca-v01.
    let edgesRoom = states * 8
    if let packer {
      // Not zeroed: only the rows packed are read.
      let bytes = edgesRoom * packer.rowBytes
      if rows.count < bytes { rows = [UInt8](unsafeUninitializedCapacity: bytes) { $1 = bytes } }
      hashes.reserveCapacity(edgesRoom)
    } else {
      words.reserveCapacity(edgesRoom * stride)
    }
    edges.reserveCapacity(edgesRoom)
    edgeEnds.reserveCapacity(states)
  }

  mutating func add(_ number: Int32, _ key: [UInt32], _ payload: [UInt32], records: [Record]) {
    if !records.isEmpty { self.records.append((Int32(edges.count), records)) }
    edges.append(number)
    // From the arrays' storage: appending the arrays themselves retained and released them, at every edge.
    key.withUnsafeBufferPointer { key in
      payload.withUnsafeBufferPointer { payload in
        if let packer {
          if let hash = packer.pack(key, payload, into: &rows, at: rowsEnd) {
            rowsEnd += packer.rowBytes
            hashes.append(hash)
            return
          }
          hashes.append(Int.min)
        }
        words.append(contentsOf: key)
        words.append(contentsOf: payload)
      }
    }
  }

  mutating func add(_ other: Explorer.Successor) {
    edges.append(-1 - Int32(others.count))
    others.append(other)
  }

  /// Ends the edges of a state.
  mutating func endState(expanded: Bool) { edgeEnds.append(expanded ? Int32(edges.count) : -1) }
}

/// The ``Explorer/ReusingWorker``s of a parallel exploration, one per thread besides the exploring thread: a
/// batch's thread `t` takes worker `t` out of its slot and puts it back when done. A batch starts once the one
/// before it is claimed (``ExpansionBatch/claim()``), so each worker expands its pieces in the order the exploring
/// thread takes them; ThreadSanitizer sees that order through the batches' dispatch groups. The caches teach each
/// other the moves they made with the engine (``TransitionCache/Lesson``): a worker learns those of the other
/// workers' batch before and of the exploring thread's cache two batches before; the exploring thread learns the
/// workers' of the batch it takes.
final class ReusingWorkers: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Explorer.ReusingWorker?>
  /// What the one thread's cache had learnt when the threads took over (``ExploreOptions/oneThreadFirst``): each
  /// worker starts from a copy. Only read once the workers exist.
  private let seed: TransitionCache
  /// Per slot, the lessons its worker learnt in a batch (``Explorer/ReusingWorker/lessons``) and that batch's
  /// number, for two batches: batch `n`'s are at `2 * slot + n % 2`. A worker writes its slot's entry for the
  /// batch under way while the others read their entries for the batch before, which was claimed before this
  /// one started (``ExpansionBatch/claim()``).
  private let taught: UnsafeMutableBufferPointer<(batch: Int, lessons: [TransitionCache.Lesson])>

  /// The moves the exploring thread's cache made and kept while it expanded the end of batch `n` itself, at
  /// `n % 2` (``teach(exploring:batch:)``). A thread starting batch `n + 2` learns them: the exploring thread is
  /// done with batch `n` before it makes batch `n + 2`, and writes batch `n + 1`'s meanwhile.
  private let exploringTaught: UnsafeMutableBufferPointer<(batch: Int, lessons: [TransitionCache.Lesson])>

  init(jobs: Int, seed: TransitionCache) {
    slots = .allocate(capacity: jobs - 1)
    slots.initialize(repeating: nil)
    taught = .allocate(capacity: 2 * (jobs - 1))
    taught.initialize(repeating: (-1, []))
    exploringTaught = .allocate(capacity: 2)
    exploringTaught.initialize(repeating: (-1, []))
    self.seed = seed
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
    taught.deinitialize()
    taught.deallocate()
    exploringTaught.deinitialize()
    exploringTaught.deallocate()
  }

  /// The worker in `slot` for batch number `batch`, made from the seed the first time (with `coder`, the
  /// thread's); it first learns what the other workers learnt in the batch before. ``put(_:in:batch:)`` gives it
  /// back.
  func take(_ slot: Int, batch: Int, coder: StateCoder) -> Explorer.ReusingWorker {
    var worker = slots[slot].take() ?? Explorer.ReusingWorker(cache: seed.forAnotherThread(), coder: coder)
    learn(&worker.cache, fromWorkersOf: batch - 1, except: slot)
    let exploring = exploringTaught[batch % 2]
    if exploring.batch == batch - 2 {
      for lesson in exploring.lessons { worker.cache.learn(lesson) }
    }
    return worker
  }

  /// Keeps what the exploring thread's cache learnt while it expanded the end of batch number `batch` itself, for
  /// the threads starting batch `batch + 2`.
  func teach(exploring lessons: [TransitionCache.Lesson], batch: Int) {
    exploringTaught[batch % 2] = (batch, lessons)
  }

  /// Has `cache` (the exploring thread's) learn what the threads' caches learnt in batch number `batch`, which
  /// they are done with.
  func teach(_ cache: inout TransitionCache, batch: Int) {
    learn(&cache, fromWorkersOf: batch)
  }

  /// Has `cache` learn what the workers' caches (but the one in slot `skipped`) learnt in batch number `batch`.
  private func learn(_ cache: inout TransitionCache, fromWorkersOf batch: Int, except skipped: Int? = nil) {
    for slot in 0..<slots.count where slot != skipped {
      // `& 1` rather than `% 2`: the batch before the first is -1.
      let entry = taught[2 * slot + (batch & 1)]
      guard entry.batch == batch else { continue }
      for lesson in entry.lessons { cache.learn(lesson) }
    }
  }

  /// Puts `worker` back in `slot` after batch number `batch`, keeping the lessons it learnt for the others.
  func put(_ worker: consuming Explorer.ReusingWorker, in slot: Int, batch: Int) {
    var worker = worker
    taught[2 * slot + batch % 2] = (batch, worker.lessons)
    worker.lessons = []
    slots[slot] = worker
  }

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

/// Waiting states being expanded on several threads: ``start(jobs:retiring:)`` sets `jobs - 1` threads to work
/// on it; ``claim()`` stops them, waits for them and returns the pieces they expanded, in the order of the states
/// (the exploring thread expands the rest itself). A batch taken is freed on a worker thread
/// (``start(jobs:retiring:)``): freeing its arrays on the exploring thread while a worker allocates made the two
/// contend for malloc's arena lock.
final class ExpansionBatch: Sendable {
  let explorer: Explorer
  /// The waiting states' keys and payloads, one after the other (`stride` words each), from state `first` on.
  let first: Int
  let count: Int
  let stride: Int
  /// The batches made before this one.
  let number: Int
  let words: StateWords
  /// Per state, whether its moves are tried (it is not at --max-depth).
  let expands: [Bool]
  /// What the threads read: a copy, so that the exploration goes on changing its own meanwhile.
  let coder: StateCoder
  /// The set's packer when the batch was made (nil with `--compact`): the threads pack the states they reach.
  let packer: PackedRows.Packer?
  /// The threads' transition caches.
  private let workers: ReusingWorkers
  private let pieces: Int
  private let next = Atomic<Int>(0)
  private let done: Pieces
  /// The pieces of a batch taken before this one, whose arrays the threads reuse (``ExpandedPiece/prepare``).
  private let recycled: Pieces?
  private let group = DispatchGroup()

  /// A batch whose threads reuse the arrays of `recycling`'s pieces (a batch taken) for theirs.
  init(
    explorer: Explorer, first: Int, number: Int, words: StateWords, expands: [Bool], coder: StateCoder,
    packer: PackedRows.Packer?, workers: ReusingWorkers, recycling: ExpansionBatch?
  ) {
    recycled = recycling?.done
    self.number = number
    self.explorer = explorer
    self.first = first
    count = expands.count
    stride = coder.width + coder.payloadWidth
    self.words = words
    self.expands = expands
    self.coder = coder
    self.packer = packer
    self.workers = workers
    pieces = (count + Explorer.parallelPiece - 1) / Explorer.parallelPiece
    done = Pieces(count: pieces)
  }

  /// The range of state ids a batch starting at `first` covers, when `count` states are known: at most half as
  /// many as were taken before it, so that early on, when most states hold values new to the coder, the threads
  /// get a fresh copy of it often (a successor their copy cannot encode is made by the engine and not kept).
  static func range(from first: Int, count: Int, jobs: Int) -> Range<Int> {
    let size = min(max(first / 2, Explorer.parallelPiece * jobs), Explorer.parallelBatch * jobs)
    return first..<min(count, first + size)
  }

  /// The key and payload of state `index` of the batch, one after the other.
  func state(_ index: Int) -> UnsafeBufferPointer<UInt32> {
    UnsafeBufferPointer(rebasing: words.buffer[(index * stride)..<((index + 1) * stride)])
  }

  /// Sets `jobs - 1` threads expanding pieces of the batch; the first releases `retiring` (a batch taken, whose
  /// arrays the threads allocated: freed on a worker thread, not while the exploring thread allocates).
  func start(jobs: Int, retiring: ExpansionBatch?) {
    var retiring = retiring
    for thread in 0..<min(jobs - 1, pieces) {
      DispatchQueue.global().async(group: group) { [retiring = retiring.take()] in
        _ = retiring
        self.work(thread: thread)
      }
    }
  }

  /// Stops the threads from taking more pieces, waits for the pieces they took, and returns those (the first
  /// `claimed`, in order): the exploring thread expands the states of the others itself.
  func claim() -> (pieces: UnsafeMutableBufferPointer<ExpandedPiece>, claimed: Int) {
    let claimed = min(next.exchange(pieces, ordering: .relaxed), pieces)
    group.wait()
    return (done.slots, claimed)
  }

  private func work(thread: Int) {
    // The thread's own coder: it reads the tables of the batch's copy and, not interning, never writes them.
    var coder = coder
    coder.interns = false
    let slot = thread
    var worker = workers.take(slot, batch: number, coder: coder)
    let packer = packer?.unshared()
    var (key, payload) = ([UInt32].zeroWords(coder.width), [UInt32].zeroWords(coder.payloadWidth))
    while true {
      let piece = next.add(1, ordering: .relaxed).oldValue
      guard piece < pieces else { break }
      let states = (piece * Explorer.parallelPiece)..<min(count, (piece + 1) * Explorer.parallelPiece)
      for index in states { words.unpack(index, key: &key, payload: &payload) }
      var expanded = recycled?.take(piece) ?? ExpandedPiece()
      expanded.prepare(worker: slot, packer: packer, states: Explorer.parallelPiece, stride: stride)
      for index in states {
        if expands[index] { worker.expand(state(index), into: &expanded, explorer: explorer, coder: &coder) }
        expanded.endState(expanded: expands[index])
      }
      done.slots[piece] = expanded
    }
    workers.put(worker, in: slot, batch: number)
  }
}

/// The keys and payloads of a batch's states (``ExpansionBatch/words``): an allocation of its own rather than an
/// array, whose reference count every thread changed at every state (the threads then waited on each other for
/// it). The exploring thread copies the states' packed rows (``rows``) when it makes the batch, a copy per chunk
/// of the set; the thread that takes a piece unpacks its states' words (``unpack(_:key:payload:)``), before the
/// exploring thread reads them (after ``ExpansionBatch/claim()``). Unpacking every state on the exploring
/// thread made a batch in 1.4 million instructions on anicca-v01 (7% of that thread's work); copying rows takes a
/// quarter of that.
final class StateWords: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<UInt32>
  /// The states' rows, packed by `packer`.
  private let rows: UnsafeMutableRawBufferPointer
  private let packer: PackedRows.Packer

  /// Room for `count` states of `stride` words, whose rows `copy` writes (`count` rows of `packer.rowBytes`).
  init(count: Int, stride: Int, packer: PackedRows.Packer, copy: (UnsafeMutableRawBufferPointer) -> Void) {
    // Not zeroed: every state's words are unpacked before they are read.
    buffer = .allocate(capacity: count * stride)
    rows = .allocate(byteCount: max(1, count * packer.rowBytes), alignment: 8)
    self.packer = packer
    copy(UnsafeMutableRawBufferPointer(rebasing: rows[..<(count * packer.rowBytes)]))
  }

  deinit {
    buffer.deallocate()
    rows.deallocate()
  }

  /// Unpacks state `index`'s row into its words (`key` and `payload` are the thread's, written on the way).
  func unpack(_ index: Int, key: inout [UInt32], payload: inout [UInt32]) {
    let start = index * packer.rowBytes
    packer.unpack(UnsafeRawBufferPointer(rebasing: rows[start..<(start + packer.rowBytes)]), into: &key, &payload)
    let stride = key.count + payload.count
    _ = UnsafeMutableBufferPointer(rebasing: buffer[(index * stride)..<(index * stride + key.count)])
      .update(fromContentsOf: key)
    _ = UnsafeMutableBufferPointer(rebasing: buffer[(index * stride + key.count)..<((index + 1) * stride)])
      .update(fromContentsOf: payload)
  }
}

/// The pieces of a batch, one slot per piece. A slot is written once, by the thread that took the piece from
/// the batch's atomic counter (so by exactly one thread), and read only after every thread is done
/// (``ExpansionBatch/claim()`` waits for their dispatch group first). ThreadSanitizer sees both the counter and
/// the group; it does not see Synchronization's `Mutex` on Linux, which is why this is not one.
private final class Pieces: @unchecked Sendable {
  let slots: UnsafeMutableBufferPointer<ExpandedPiece>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: ExpandedPiece())
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  /// Piece `index`, left empty in its slot; nil when there is no such piece. Only the thread that took piece
  /// `index` of a batch recycling these takes it.
  func take(_ index: Int) -> ExpandedPiece? {
    guard index < slots.count else { return nil }
    defer { slots[index] = ExpandedPiece() }
    return slots[index]
  }
}
