#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `first` on a new thread while `second` runs on this one, and returns both results once both are done.
/// A thread of its own, not a Dispatch queue: starting Dispatch's pool costs more than the work saved here.
///
/// When no thread can be started, `second` runs first and then `first`, on this thread: `first` may wait for
/// something `second` does (a ``TaskShare`` helper waits for the tasks `second` offers).
package func concurrently<First: Sendable, Second>(
  _ first: @escaping @Sendable () -> First, and second: () -> Second
) -> (First, Second) {
  let task = ThreadTask(first)
  guard let thread = JoinableThread(task.run) else {
    let other = second()
    return (first(), other)
  }
  let other = second()
  thread.join()
  return (task.result!, other)
}

/// Runs `body(0)` on this thread and `body(1)` to `body(count - 1)` each on a thread of its own, and returns once
/// all are done (at once when `count` is 0). When a thread cannot be started, its body runs on this thread after
/// `body(0)`.
package func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  guard count > 0 else { return }
  let threads = (1..<count).map { index in (index, JoinableThread { body(index) }) }
  body(0)
  for (index, thread) in threads {
    if let thread { thread.join() } else { body(index) }
  }
}

/// The work and result of the thread `concurrently` starts: only that thread writes `result`, and the caller
/// reads it only after joining the thread.
private final class ThreadTask<Result: Sendable>: @unchecked Sendable {
  let body: @Sendable () -> Result
  var result: Result?
  init(_ body: @escaping @Sendable () -> Result) { self.body = body }
  func run() { result = body() }
}

/// A POSIX thread running a closure, to be joined once.
private struct JoinableThread {
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  private let thread: pthread_t

  /// Starts `body` on a new thread; nil when no thread could be started.
  init?(_ body: @escaping @Sendable () -> Void) {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
        body.run()
        return nil
      }, context)
    guard started == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return nil
    }
    self.thread = thread
  }

  func join() { pthread_join(thread, nil) }
}
