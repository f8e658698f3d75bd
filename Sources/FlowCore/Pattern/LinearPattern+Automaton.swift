extension LinearPattern {
  /// A pattern's program as a deterministic automaton, built lazily (the subset construction, one state at a time)
  /// and shared by every thread that matches with the pattern: after the first few strings a match costs one table
  /// lookup per ASCII character instead of a walk over the program's threads.
  ///
  /// A state is the set of program positions a match may continue from (always including the start, since a
  /// pattern matches anywhere unless anchored). Only programs without word-boundary assertions are turned into
  /// automata (there the only assertions, `^` and `$`, depend on nothing but being at the start or the end), and
  /// the table stops growing at ``maxStates``, after which ``matches(_:)`` answers nil and the caller runs the VM:
  /// both keep matching linear in the text.
  final class Automaton: Sendable {
    static let maxStates = 512

    private let program: [Instruction]
    private let classes: [ScalarClass]
    private let anchored: Bool
    private let table: Locked<Table>

    init?(program: [Instruction], classes: [ScalarClass]) {
      for case .assert(let assertion) in program where assertion == .wordBoundary || assertion == .notWordBoundary {
        return nil
      }
      self.program = program
      self.classes = classes
      if case .assert(.start) = program.first { anchored = true } else { anchored = false }
      table = Locked(Table())
    }

    /// Whether the pattern matches anywhere in `text`, or nil when the table is full.
    func matches(_ text: String) -> Bool? {
      table.withLock { table -> Bool? in
        var state = table.startState(in: self)
        var scalars = text.unicodeScalars.makeIterator()
        while let current = state {
          guard let scalar = scalars.next() else { return table.states[current].matchesAtEnd }
          if table.states[current].matchesBefore { return true }
          if anchored && table.states[current].threads.isEmpty { return false }
          if scalar.value < 128, let known = table.states[current].ascii[Int(scalar.value)] {
            state = known
            continue
          }
          state = table.step(from: current, over: scalar, in: self)
        }
        return nil
      }
    }

    /// The closure of `pending`: the scalar-consuming positions reached, and whether `match` is reached.
    fileprivate func closure(of pending: [Int], atStart: Bool, atEnd: Bool) -> (threads: [Int], matches: Bool) {
      var seen = Array(repeating: false, count: program.count)
      var stack = pending.reversed() as [Int]
      var threads: [Int] = []
      var matches = false
      while let pc = stack.popLast() {
        if seen[pc] { continue }
        seen[pc] = true
        switch program[pc] {
        case .match: matches = true
        case .scalar: threads.append(pc)
        case .jump(let target): stack.append(target)
        case .split(let first, let second):
          stack.append(second)
          stack.append(first)
        case .assert(.start): if atStart { stack.append(pc + 1) }
        case .assert(.end): if atEnd { stack.append(pc + 1) }
        case .assert: break  // word boundaries: excluded in init
        }
      }
      return (threads, matches)
    }

    fileprivate func accepts(_ pc: Int, _ scalar: Unicode.Scalar) -> Bool {
      guard case .scalar(let index) = program[pc] else { return false }
      return classes[index].contains(scalar)
    }

    /// The ASCII scalars cut into runs that every class of the program contains all or none of (`[a-z]` makes
    /// `a` to `z` one run): from any state, the scalars of a run step to the same state. Per ASCII value, where
    /// its run starts and ends; nil when a class is a Unicode category.
    fileprivate func asciiRuns() -> [Range<UInt8>]? {
      var bounds = Array(repeating: false, count: 129)
      bounds[0] = true
      bounds[128] = true
      for scalarClass in classes where !scalarClass.markASCIIBounds(in: &bounds) { return nil }
      var runs: [Range<UInt8>] = []
      runs.reserveCapacity(128)
      var start = 0
      for end in 1...128 where bounds[end] {
        runs += repeatElement(UInt8(start)..<UInt8(end), count: end - start)
        start = end
      }
      return runs
    }
  }

  fileprivate struct StateKey: Hashable {
    var pending: [Int]
    var atStart: Bool
  }

  fileprivate struct StateInfo {
    var threads: [Int]
    /// `match` is reached before the next scalar is read (not at the end of the text).
    var matchesBefore: Bool
    /// `match` is reached at the end of the text.
    var matchesAtEnd: Bool
    /// The next state for each ASCII scalar, once computed.
    var ascii: [Int?] = Array(repeating: nil, count: 128)
  }

  fileprivate struct Table {
    var ids: [StateKey: Int] = [:]
    var states: [StateInfo] = []
    /// The state every match starts in, once computed (looking it up by key cost more than matching a short
    /// text).
    var start: Int?
    /// ``Automaton/asciiRuns()``, worked out at the first step over an ASCII scalar: a step over one fills the
    /// table for its whole run. Empty before, and when there are none.
    var asciiRuns: [Range<UInt8>] = []
    var workedOutRuns = false

    mutating func startState(in automaton: Automaton) -> Int? {
      if let start { return start }
      start = id(of: [0], atStart: true, in: automaton)
      return start
    }

    mutating func id(of pending: [Int], atStart: Bool, in automaton: Automaton) -> Int? {
      let key = StateKey(pending: pending, atStart: atStart)
      if let id = ids[key] { return id }
      guard states.count < Automaton.maxStates else { return nil }
      let before = automaton.closure(of: pending, atStart: atStart, atEnd: false)
      let atEnd = automaton.closure(of: pending, atStart: atStart, atEnd: true)
      states.append(StateInfo(threads: before.threads, matchesBefore: before.matches, matchesAtEnd: atEnd.matches))
      ids[key] = states.count - 1
      return states.count - 1
    }

    mutating func step(from state: Int, over scalar: Unicode.Scalar, in automaton: Automaton) -> Int? {
      var pending: Set<Int> = [0]
      for pc in states[state].threads where automaton.accepts(pc, scalar) { pending.insert(pc + 1) }
      guard let next = id(of: pending.sorted(), atStart: false, in: automaton) else { return nil }
      if scalar.value < 128 {
        if !workedOutRuns {
          workedOutRuns = true
          asciiRuns = automaton.asciiRuns() ?? []
        }
        let run = asciiRuns.isEmpty ? UInt8(scalar.value)..<UInt8(scalar.value + 1) : asciiRuns[Int(scalar.value)]
        for member in run { states[state].ascii[Int(member)] = next }
      }
      return next
    }
  }
}
