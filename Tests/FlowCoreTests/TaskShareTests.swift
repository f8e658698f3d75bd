import Dispatch
import FlowCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct TaskShareTests {
  /// Which thread ran each task, how many times each ran, and each task's result (``Locked``, which
  /// ThreadSanitizer sees, so that these tests can run under it).
  final class Runs: Sendable {
    private let runs: Locked<[(thread: pthread_t, count: Int, result: Int)?]>
    init(count: Int) { runs = Locked(Array(repeating: nil, count: count)) }

    func record(_ index: Int, result: Int = 0) {
      runs.withLock { $0[index] = (pthread_self(), ($0[index]?.count ?? 0) + 1, result) }
    }
    var counts: [Int] { runs.withLock { $0.map { $0?.count ?? 0 } } }
    var threads: [pthread_t] { runs.withLock { $0.compactMap { $0?.thread } } }
    var results: [Int] { runs.withLock { $0.map { $0?.result ?? -1 } } }
  }

  /// With a helper on another thread, every task runs once, and all are done when `run` returns.
  @Test(arguments: [0, 1, 2, 7, 100])
  func everyTaskRunsOnceAndAllAreDoneWhenRunReturns(count: Int) {
    let share = TaskShare()
    let runs = Runs(count: count)
    let (_, resultsWhenRunReturned) = concurrently {
      share.help()
    } and: {
      share.run(count: count) { index in
        usleep(UInt32(index % 3) * 100)
        runs.record(index, result: index * index)
      }
      return runs.results
    }
    #expect(resultsWhenRunReturned == (0..<count).map { $0 * $0 })
    #expect(runs.counts == Array(repeating: 1, count: count))
  }

  /// The helper takes tasks while the runner is busy with one: task 0, taken first, waits until another task
  /// has finished. The thread that took it runs nothing else meanwhile, so that task ran on the other thread;
  /// had one thread run them all, task 0 would wait in vain.
  @Test func theTwoThreadsTakeTasksAtTheSameTime() {
    let share = TaskShare()
    let count = 8
    let runs = Runs(count: count)
    let anotherFinished = DispatchSemaphore(value: 0)
    _ = concurrently {
      share.help()
    } and: {
      share.run(count: count) { index in
        if index == 0 {
          runs.record(index, result: anotherFinished.wait(timeout: .now() + 10) == .success ? 1 : 0)
        } else {
          runs.record(index, result: 1)
          anotherFinished.signal()
        }
      }
    }
    #expect(runs.results == Array(repeating: 1, count: count), "task 0 waited in vain: one thread ran every task")
    #expect(runs.counts == Array(repeating: 1, count: count))
    let threads = runs.threads
    #expect(threads.contains { pthread_equal($0, threads[0]) == 0 })
  }

  /// A helper that waits for tasks returns when the other thread closes the share without offering any.
  @Test func aHelperReturnsWhenNothingIsOffered() {
    let share = TaskShare()
    let (helped, closed) = concurrently {
      share.help()
      return true
    } and: {
      usleep(20_000)  // the helper is most likely waiting by now; the test holds either way
      share.close()
      return true
    }
    #expect(helped && closed)
  }

  /// Closed before anything was offered, the share runs the tasks on the calling thread alone, in order.
  @Test func tasksOfferedAfterCloseRunHere() {
    let share = TaskShare()
    share.close()
    share.help()  // returns at once: nothing will be offered
    let runs = Runs(count: 5)
    let order = Locked<[Int]>([])
    share.run(count: 5) { index in
      runs.record(index)
      order.withLock { $0.append(index) }
    }
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    #expect(runs.threads.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
  }
}
