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

  @Test func historiesThatShareStepsDivergeWithoutTouchingEachOther() {
    // 40 steps span several chunks; copies that go back and on differently keep their own steps.
    var base = History()
    for step in 0..<40 { base.append(step) }
    var a = base
    var b = base
    a.append(100)
    b.append(200)
    #expect(a.steps == Array(0..<40) + [100])
    #expect(b.steps == Array(0..<40) + [200])
    #expect(base.steps == Array(0..<40))
    var c = base
    for _ in 0..<20 { c.removeLast() }
    c.append(300)
    #expect(c.steps == Array(0..<20) + [300])
    #expect(base.steps == Array(0..<40))
    var d = base
    for _ in 0..<20 { d.removeLast() }
    for step in 20..<40 { d.append(step) }
    #expect(d == base)
    #expect(d.hashValue == base.hashValue)
    #expect(d.last == 39)
    while !d.isEmpty { d.removeLast() }
    #expect(d == History())
  }
}
