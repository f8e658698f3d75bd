import FlowCore
import Testing

struct HistoryTests {
  @Test func pushPopAndValueSemantics() {
    var a = History()
    a.append(1)
    a.append(2)
    var b = a
    #expect(b.removeLast() == 2)
    #expect(a.steps == [1, 2])
    #expect(b.steps == [1])
    b.append(2)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    b.append(3)
    #expect(a != b)
  }

  @Test func releasingAVeryLongHistoryDoesNotOverflowTheStack() {
    var history = History()
    for step in 0..<1_000_000 { history.append(step) }
    #expect(history.count == 1_000_000)
    history = History()
    #expect(history.isEmpty)
  }
}
