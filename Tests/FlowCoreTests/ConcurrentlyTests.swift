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
}
