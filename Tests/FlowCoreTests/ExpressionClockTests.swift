import Testing

@testable import FlowCore

struct ExpressionClockTests {
  static let habits = Value.map(["wake": .string("06:00"), "training": .string("19:00")])

  @Test(arguments: [
    (20 * 60 + 10, "wake"),  // after both: tomorrow's 06:00 comes first
    (18 * 60, "training"),
    (5 * 60, "wake"),
    (6 * 60, "wake"),  // a time equal to now counts as now
    (6 * 60 + 1, "training"),
    (19 * 60, "training"),
    (23 * 60 + 59, "wake"),
    (0, "wake"),
    (24 * 60 + 5 * 60, "wake"),  // the clock is taken modulo a day
    (-60, "wake"),  // 23:00
  ])
  func nextHabit(at minutes: Int, _ expected: String) throws {
    let bindings = Bindings(["habits": Self.habits], minutesSinceMidnight: minutes)
    #expect(try FlowExpression("nextHabit(habits)").evaluate(in: bindings) == .string(expected))
  }

  @Test func nextHabitBreaksTiesByKeyAndSkipsValuesThatAreNotTimes() throws {
    let bindings = Bindings(
      [
        "tied": .map(["b": .string("07:00"), "a": .string("07:00"), "c": .string("08:00")]),
        "messy": .map(["a": .string(""), "b": .int(5), "c": .string("25:00"), "d": .string("09:30")]),
        "none": .map(["a": .string("later")]),
        "empty": .map([:]),
      ], minutesSinceMidnight: 6 * 60)
    #expect(try FlowExpression("nextHabit(tied)").evaluate(in: bindings) == .string("a"))
    #expect(try FlowExpression("nextHabit(messy)").evaluate(in: bindings) == .string("d"))
    #expect(try FlowExpression("nextHabit(none)").evaluate(in: bindings) == .string(""))
    #expect(try FlowExpression("nextHabit(empty)").evaluate(in: bindings) == .string(""))
  }

  @Test(arguments: [
    (0, "00:00"), (5, "00:05"), (9 * 60 + 7, "09:07"), (23 * 60 + 59, "23:59"), (24 * 60, "00:00"), (-1, "23:59"),
  ])
  func now(at minutes: Int, _ expected: String) throws {
    #expect(try FlowExpression("now()").evaluate(in: Bindings(minutesSinceMidnight: minutes)) == .string(expected))
  }

  @Test(arguments: [
    ("06:00", 5 * 60 + 59, true),
    ("06:00", 6 * 60, false),
    ("06:00", 6 * 60 + 1, false),
    ("23:59", 0, true),
    ("00:00", 0, false),
  ])
  func isLaterToday(_ time: String, at minutes: Int, _ expected: Bool) throws {
    let bindings = Bindings(["t": .string(time)], minutesSinceMidnight: minutes)
    #expect(try FlowExpression("isLaterToday(t)").evaluate(in: bindings) == .bool(expected))
  }

  @Test(arguments: [
    ("00:00", 0), ("0:00", 0), ("9:30", 570), ("09:30", 570), ("23:59", 1439),
  ])
  func parsesTimes(_ text: String, _ minutes: Int) {
    #expect(TimeOfDay.minutes(text) == minutes)
  }

  @Test(arguments: [
    "", "9", "930", "24:00", "12:60", "12:5", "123:00", ":30", "12:30:00", "1a:30", "12-30", " 9:30", "١٢:٣٠",
  ])
  func rejectsMalformedTimes(_ text: String) {
    #expect(TimeOfDay.minutes(text) == nil)
  }
}
