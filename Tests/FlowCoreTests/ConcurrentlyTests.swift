import FlowCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct ConcurrentlyTests {
  /// The first closure runs on a thread of its own, the second on the caller's, and both results come back.
  @Test func theFirstRunsOnAnotherThreadAndBothResultsComeBack() {
    let caller = pthread_self()
    let (first, second) = concurrently {
      (thread: pthread_self(), sum: (1...1000).reduce(0, +))
    } and: {
      (thread: pthread_self(), text: "second")
    }
    #expect(pthread_equal(first.thread, caller) == 0)
    #expect(pthread_equal(second.thread, caller) != 0)
    #expect(first.sum == 500_500)
    #expect(second.text == "second")
  }

  /// `concurrently(count, body)` runs each index once, index 0 on the caller's thread and the others each on a
  /// thread of its own, all at the same time: every body waits until all have started, which bodies run one after
  /// another would wait for in vain (each gives up after 10 s and says so).
  @Test(arguments: [0, 1, 2, 4]) func eachIndexRunsOnceOnAThreadOfItsOwnAtTheSameTime(count: Int) {
    let caller = pthread_self()
    let started = Locked(0)
    let runs = Locked([(thread: pthread_t, allStarted: Bool)?](repeating: nil, count: count))
    concurrently(count) { index in
      started.withLock { $0 += 1 }
      var waited = 0
      while started.withLock({ $0 }) < count && waited < 10_000 {
        usleep(1000)
        waited += 1
      }
      let allStarted = started.withLock { $0 } == count
      runs.withLock { $0[index] = $0[index] == nil ? (pthread_self(), allStarted) : nil }
    }
    let ran = runs.withLock { $0 }
    #expect(ran.allSatisfy { $0?.allStarted == true })
    let threads = ran.compactMap { $0?.thread }
    #expect(threads.count == count)
    if let first = threads.first { #expect(pthread_equal(first, caller) != 0) }
    // No two bodies ran on one thread.
    for (index, thread) in threads.enumerated() {
      #expect(threads[..<index].allSatisfy { pthread_equal($0, thread) == 0 })
    }
  }
}
