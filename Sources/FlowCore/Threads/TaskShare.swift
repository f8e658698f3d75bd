import Dispatch

/// Independent tasks that one thread offers and another thread, once its own work is done, helps with.
///
/// A lint of a large flow checks the schema on one thread while the other compiles the flow and runs the rules
/// (`FlowLoader`): the schema is done first, and its thread then takes rules too. The offering thread calls
/// ``run(count:_:)`` once; the helping thread calls ``help()``, which waits until the tasks are offered, or
/// until ``close()`` says none will be. Each task is taken once, in the order of its index, by whichever thread
/// is free, and ``run(count:_:)`` returns when all are done. A task keeps its result in a place of its own (the
/// rules' findings go to their rule's place), so the result does not depend on which thread ran what.
///
/// Not generic: making a generic type's metadata at run time costs more than the rules of a small flow. Its state
/// is ``Locked`` (a pthread mutex, which ThreadSanitizer sees), not `Synchronization.Mutex`.
///
/// Whoever offers must close: ``run(count:_:)`` closes when it returns, and a thread that ends up offering
/// nothing calls ``close()``, or a helper would wait for ever.
package final class TaskShare: Sendable {
  private enum Phase { case waiting, offered, closed }

  private struct State {
    var phase = Phase.waiting
    /// Runs task `index`.
    var task: (@Sendable (_ index: Int) -> Void)?
    var count = 0
    /// The first task nobody took.
    var next = 0
    var done = 0
    /// ``run(count:_:)`` took its last task and waits for the helper to finish.
    var runnerWaits = false
  }

  private let state = Locked(State())
  /// Signalled once, when the phase leaves `waiting`.
  private let leftWaiting = DispatchSemaphore(value: 0)
  /// Signalled when the helper finishes the last task while ``run(count:_:)`` waits for it.
  private let lastDone = DispatchSemaphore(value: 0)

  package init() {}

  /// Runs tasks `0..<count` on this thread and on a helping thread, if one comes, and returns when all are done.
  /// Called at most once.
  package func run(count: Int, _ task: @escaping @Sendable (_ index: Int) -> Void) {
    let offers = state.withLock { state in
      guard state.phase == .waiting else { return false }
      state.phase = .offered
      state.task = task
      state.count = count
      return true
    }
    guard offers else {
      // Closed before anything was offered: nobody helps.
      for index in 0..<count { task(index) }
      return
    }
    leftWaiting.signal()
    while let index = take() {
      task(index)
      finish()
    }
    let waits = state.withLock { state in
      state.runnerWaits = state.done < state.count
      if !state.runnerWaits { state.phase = .closed }
      return state.runnerWaits
    }
    if waits {
      lastDone.wait()
      // The helper's last task happened before its unlock in `finish`: locking here orders it before what
      // follows (for ThreadSanitizer too, which does not see the semaphore's ordering).
      state.withLock { _ in }
    }
  }

  /// Waits until tasks are offered or none will be, and takes tasks until none is left.
  package func help() {
    if state.withLock({ $0.phase == .waiting }) { leftWaiting.wait() }
    // Set before the phase left `waiting`, and never changed; nil when the share closed without an offer.
    guard let task = state.withLock({ $0.task }) else { return }
    while let index = take() {
      task(index)
      if finish() { lastDone.signal() }
    }
  }

  /// Says that no task will be offered, when none was: a helper waiting in ``help()`` returns.
  package func close() {
    let wasWaiting = state.withLock { state in
      guard state.phase == .waiting else { return false }
      state.phase = .closed
      return true
    }
    if wasWaiting { leftWaiting.signal() }
  }

  /// The index of a task nobody took yet, now taken.
  private func take() -> Int? {
    state.withLock { state in
      guard state.phase == .offered, state.next < state.count else { return nil }
      defer { state.next += 1 }
      return state.next
    }
  }

  /// Counts a task done; true when it was the last one and ``run(count:_:)`` waits for it.
  @discardableResult private func finish() -> Bool {
    state.withLock { state in
      state.done += 1
      guard state.done == state.count, state.runnerWaits else { return false }
      state.phase = .closed
      return true
    }
  }
}
