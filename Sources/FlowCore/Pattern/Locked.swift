#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex, for what the threads of `flowrun explore --jobs N` share (the patterns
/// ``LinearPattern/compiled(_:)`` keeps and each pattern's automaton), and for what the two threads of a lint share
/// (a ``TaskShare``'s state, the rules' findings).
///
/// Not `Synchronization.Mutex`, which on Linux waits on a futex through atomics compiled into the standard library:
/// ThreadSanitizer (CI explores every flow with `--jobs 2` and `--jobs 4` under it) does not see that ordering and
/// reports each access to the value from a second thread as a race; it sees a pthread mutex's.
package final class Locked<Value>: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Read and written only between `pthread_mutex_lock` and `pthread_mutex_unlock`.
  private var value: Value

  package init(_ value: Value) {
    self.value = value
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
