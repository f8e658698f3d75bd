import FlowTestSupport
import Testing

@testable import FlowCore

/// Decimals, dates, durations, map literals, `matches`, the conversions and `bucket`: each function with its edge
/// values, evaluated and type-checked.
struct ExpressionValueTypesTests {
  /// 2026-11-25T23:55:00Z on the clock.
  static let lateEvening = Bindings(
    [
      "birth": .date(951_782_400), "sent": .date(1_795_650_600), "id": .string("device-0001"), "weight": .decimal(80.5),
    ],
    secondsSinceEpoch: 1_795_650_900)

  func evaluate(_ source: String, in bindings: Bindings = lateEvening) throws -> Value {
    try FlowExpression(source).evaluate(in: bindings)
  }

  func evaluationError(_ source: String) -> String? {
    do {
      _ = try FlowExpression(source).evaluate(in: Self.lateEvening)
      return nil
    } catch {
      return error.description
    }
  }

  @Test(arguments: [
    // decimals
    ("80.5", Value.decimal(80.5)),
    ("-0.25", .decimal(-0.25)),
    ("1e3", .decimal(1000)),
    ("2.5e-1", .decimal(0.25)),
    ("80.5 + 1", .decimal(81.5)),
    ("1 + 0.5", .decimal(1.5)),
    ("7 / 2.0", .decimal(3.5)),
    ("7.5 % 2", .decimal(1.5)),
    ("-weight", .decimal(-80.5)),
    ("1 == 1.0", .bool(true)),
    ("1 != 1.5", .bool(true)),
    ("2 < 2.5", .bool(true)),
    ("1.0 in [1, 2]", .bool(true)),
    // map literals
    ("{}", .map([:])),
    ("{a: 1, 'b c': 'x', \"d\": [true]}", .map(["a": .int(1), "b c": .string("x"), "d": .list([.bool(true)])])),
    ("{a: {b: 2}}.a.b", .int(2)),
    ("{en: 'Hi', ja: 'こんにちは'}['ja']", .string("こんにちは")),
    ("'a' in {a: 1}", .bool(true)),
    // matches
    ("matches('abc-123', '^[a-z]+-\\\\d+$')", .bool(true)),
    ("matches('ABC', '^[a-z]+$')", .bool(false)),
    ("matches('x@example.com', '@')", .bool(true)),
    ("matches('', '^$')", .bool(true)),
    // conversions
    ("int('42')", .int(42)),
    ("int('-9223372036854775808')", .int(Int.min)),
    ("int(80.9)", .int(80)),
    ("int(-80.9)", .int(-80)),
    ("int(7)", .int(7)),
    ("int(duration('1h'))", .int(3600)),
    ("int(date('1970-01-02'))", .int(86400)),
    ("string(42)", .string("42")),
    ("string(80.5)", .string("80.5")),
    ("string(2.0)", .string("2.0")),
    ("string(true)", .string("true")),
    ("string('x')", .string("x")),
    ("string(birth)", .string("2000-02-29")),
    ("string(timestamp())", .string("2026-11-25T23:55:00Z")),
    ("string(duration('90m'))", .string("1h30m")),
    ("decimal('80.5')", .decimal(80.5)),
    ("decimal(3)", .decimal(3)),
    ("decimal('-2')", .decimal(-2)),
    // dates and durations
    ("date('2000-02-29') == birth", .bool(true)),
    ("date('2026-11-25T23:50Z') == sent", .bool(true)),
    ("date('2026-11-25T23:50:00') == sent", .bool(true)),
    ("timestamp() - sent", .duration(300)),
    ("timestamp() - sent < duration('10m')", .bool(true)),
    ("timestamp() - sent > duration('4m')", .bool(true)),
    ("sent + duration('10m') > timestamp()", .bool(true)),
    ("duration('10m') + sent", .date(1_795_651_200)),
    ("today()", .date(1_795_564_800)),
    ("today() + duration('1d') - timestamp()", .duration(300)),
    ("sent - duration('1d')", .date(1_795_564_200)),
    ("duration('1h') * 2", .duration(7200)),
    ("3 * duration('1m')", .duration(180)),
    ("duration('1h') / 4", .duration(900)),
    ("-duration('1h')", .duration(-3600)),
    ("duration('1h') - duration('2h')", .duration(-3600)),
    ("duration('1d2h30m15s')", .duration(95415)),
    ("duration('-10s')", .duration(-10)),
    ("duration('0s')", .duration(0)),
    ("birth < today()", .bool(true)),
    // calendar arithmetic: Feb 29 clamps to Feb 28, month ends clamp
    ("addYears(birth, 1)", .date(983_318_400)),
    ("string(addYears(birth, 1))", .string("2001-02-28")),
    ("string(addYears(birth, 4))", .string("2004-02-29")),
    ("string(addMonths(date('2025-01-31'), 1))", .string("2025-02-28")),
    ("string(addMonths(date('2024-01-31'), 1))", .string("2024-02-29")),
    ("string(addMonths(date('2025-03-31'), -1))", .string("2025-02-28")),
    ("string(addMonths(date('2025-12-15T10:30'), 1))", .string("2026-01-15T10:30:00Z")),
    ("string(addYears(date('2025-06-01'), -2025 + 1))", .string("0001-06-01")),
    ("yearsBetween(birth, timestamp())", .int(26)),
    ("yearsBetween(birth, date('2018-02-27'))", .int(17)),
    ("yearsBetween(birth, date('2018-02-28'))", .int(18)),
    ("yearsBetween(date('2000-03-01'), date('2018-02-28'))", .int(17)),
    ("yearsBetween(timestamp(), birth)", .int(-26)),
    ("birth <= addYears(today(), -18)", .bool(true)),
    // bucket: FNV-1a of "salt:id", modulo 100
    ("bucket(id, 'paywall')", .int(53)),
    ("bucket('device-0002', 'paywall')", .int(20)),
    ("bucket('device-0003', 'paywall')", .int(31)),
  ])
  func evaluates(_ source: String, _ expected: Value) throws {
    #expect(try evaluate(source) == expected, "\(source)")
  }

  @Test(arguments: [
    ("1.5 / 0", "column 5: division by zero"),
    ("1e308 * 10", "column 7: decimal overflow in '*'"),
    (
      "int('12a')",
      "column 5: int(x): \"12a\" is not an integer; expected digits with an optional leading '-', within 64 bits"
    ),
    (
      "int('9223372036854775808')",
      "column 5: int(x): \"9223372036854775808\" is not an integer; expected digits with an optional leading '-', within 64 bits"
    ),
    (
      "int(1e300)",
      "column 5: int(x): 1e+300 is not within the range of int; expected at most 9223372036854775807 in magnitude"
    ),
    (
      "decimal('1,5')",
      "column 9: decimal(x): \"1,5\" is not a number; expected digits with an optional '-' and fraction, such as \"80.5\""
    ),
    (
      "date(string(id))",
      "column 6: date(\"YYYY-MM-DD\"): \"device-0001\" is not a date; expected \"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS][Z]\", a day the month has"
    ),
    ("string([1])", "column 8: string(x) expects a bool, a number, a string, a date or a duration, found list"),
    ("addYears(birth, 8000)", "column 1: addYears(date, n): the date is outside the years 1 to 9999"),
    ("addYears(birth, 9223372036854775807)", "column 1: addYears(date, n): the date is outside the years 1 to 9999"),
    ("date('9999-12-31') + duration('1d')", "column 20: the date in '+' is outside the years 1 to 9999"),
    ("duration('1h') * 9223372036854775807", "column 16: integer overflow in '*'"),
    ("duration('1h') / 0", "column 16: division by zero"),
    ("birth + birth", "column 7: operator '+' cannot be applied to date and date"),
    ("matches(id, string('('))", "column 13: invalid pattern \"(\": missing ')'"),
  ])
  func failsWithAPositionedMessage(_ source: String, _ message: String) {
    #expect(evaluationError(source) == message, "\(source)")
  }

  /// Days that do not exist, malformed texts and out-of-range years are refused; the text of a date reads back.
  @Test(arguments: [
    ("2025-02-29", nil), ("2024-02-29", 1_709_164_800), ("2026-13-01", nil), ("2026-04-31", nil), ("2026-00-10", nil),
    ("0000-01-01", nil), ("0001-01-01", CalendarDate.earliest), ("9999-12-31T23:59:59Z", CalendarDate.latest),
    ("2026-11-25T24:00", nil), ("2026-11-25T23:60", nil), ("2026-11-25T23:59:60", nil), ("2026-11-25Z", nil),
    ("2026-1-25", nil), ("26-11-25", nil), ("2026-11-25 23:55", 1_795_650_900), ("", nil), ("2026-11-25T", nil),
    ("1969-12-31T23:59:59Z", -1),
  ])
  func datesAreReadStrictly(_ text: String, _ seconds: Int?) {
    #expect(CalendarDate.seconds(text) == seconds, "\(text)")
    if let seconds { #expect(CalendarDate.seconds(CalendarDate.text(seconds)) == seconds) }
  }

  @Test(arguments: [
    ("1d", 86400), ("90m", 5400), ("1h30m", 5400), ("-10s", -10), ("0s", 0), ("1m1h", nil), ("1h1h", nil), ("", nil),
    ("-", nil), ("10", nil), ("h", nil), ("1.5h", nil), ("1x", nil), ("9999999999999999d", nil),
  ])
  func durationsAreReadStrictly(_ text: String, _ seconds: Int?) {
    #expect(TimeSpan.seconds(text) == seconds, "\(text)")
    if let seconds { #expect(TimeSpan.seconds(TimeSpan.text(seconds)) == seconds) }
  }

  /// The platform-independent hash: the published FNV-1a 64-bit test vectors.
  @Test func bucketIsFNV1a() {
    #expect(StableHash.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
    #expect(StableHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(StableHash.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    let buckets = (0..<10_000).map { StableHash.bucket("device-\($0)", salt: "test") }
    #expect(buckets.allSatisfy { (0..<100).contains($0) })
    // Spread: every bucket is used, none more than twice its share.
    let counts = Dictionary(grouping: buckets, by: { $0 }).mapValues(\.count)
    #expect(counts.count == 100 && counts.values.allSatisfy { $0 < 200 })
  }

  /// A pattern that makes a backtracking matcher take exponential time answers at once on a long input.
  @Test func hostilePatternsStayLinear() throws {
    let long = String(repeating: "a", count: 50_000) + "b"
    let bindings = Bindings(["s": .string(long)])
    #expect(try FlowExpression("matches(s, '^(a|aa)+$')").evaluate(in: bindings) == .bool(false))
    #expect(try FlowExpression("matches(s, '(a*)*c')").evaluate(in: bindings) == .bool(false))
    #expect(try FlowExpression("matches(s, '^(a|aa)+b$')").evaluate(in: bindings) == .bool(true))
  }

  @Test(arguments: [
    ("matches('a', '(')", "column 14: invalid pattern: missing ')'"),
    ("matches('a', '(a)\\\\1')", "column 14: invalid pattern: backreferences are not supported"),
    ("{a: 1, a: 2}", "column 8: duplicate key 'a' in a map literal"),
    ("{1: 2}", "column 2: unexpected '1'; expected a map key (a name or a string)"),
    ("{a 1}", "column 4: unexpected '1'; expected ':' after the map key 'a'"),
    ("{a: 1", "column 6: unexpected end of expression; expected ',' or '}' to close '{' at column 1"),
    ("1.5x", "column 4: unexpected 'x' after a number"),
    ("1e999", "column 1: decimal literal '1e999' is too large; at most 1.7976931348623157e+308"),
  ])
  func syntaxErrors(_ source: String, _ message: String) {
    #expect(throws: ExpressionError.self) { try FlowExpression(source) }
    do {
      _ = try FlowExpression(source)
    } catch {
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  static let scope = TypeScope([
    "birth": .date, "sent": .date, "id": .string, "weight": .decimal, "wait": .duration, "count": .int,
  ])

  @Test(arguments: [
    ("weight + 1", ValueType.decimal), ("count * 1.5", .decimal), ("count + 1", .int),
    ("timestamp() - sent", .duration),
    ("sent + wait", .date), ("sent - wait", .date), ("wait * 2", .duration), ("{a: 1, b: 2.5}", .map(.decimal)),
    ("{a: 'x'}", .map(.string)), ("int('1')", .int), ("string(weight)", .string), ("decimal(count)", .decimal),
    ("date('2026-01-01')", .date), ("duration('1h')", .duration), ("today()", .date),
    ("addYears(birth, 18)", .date), ("yearsBetween(birth, today())", .int), ("bucket(id, 'x')", .int),
    ("matches(id, '^d')", .bool), ("birth < sent", .bool), ("weight >= count", .bool), ("count == weight", .bool),
    ("-wait", .duration),
  ])
  func typeChecks(_ source: String, _ expected: ValueType) throws {
    #expect(try FlowExpression(source).check(in: Self.scope) == expected, "\(source)")
  }

  @Test(arguments: [
    ("birth + sent", "column 7: operator '+' cannot be applied to date and date"),
    ("birth < 3", "column 7: operator '<' cannot be applied to date and int"),
    ("wait == 3", "column 6: cannot compare duration with int; they are different types"),
    ("{a: 1, b: 'x'}", "column 11: map values have different types, int and string"),
    (
      "date('2025-02-29')",
      "column 6: date(\"YYYY-MM-DD\"): \"2025-02-29\" is not a date (\"YYYY-MM-DD\", a day the month has)"
    ),
    ("duration('10')", "column 10: duration(\"1h30m\"): \"10\" is not a duration such as \"1h30m\""),
    ("int('x')", "column 5: int(x): \"x\" is not an integer"),
    ("matches(id, 1)", "column 13: matches(s, pattern) expects a string, found int"),
    ("addYears(birth, 1.5)", "column 17: addYears(date, n) expects an int, found decimal"),
    ("yearsBetween(birth, '2026-01-01')", "column 21: yearsBetween(from, to) expects a date, found string"),
    ("bucket(count, 'x')", "column 8: bucket(id, salt) expects a string, found int"),
  ])
  func typeErrors(_ source: String, _ message: String) throws {
    do {
      _ = try FlowExpression(source).check(in: Self.scope)
      Issue.record("\(source) checked")
    } catch {
      #expect(error.description == message)
    }
  }

  /// A value's text is an expression that evaluates back to the value.
  @Test(arguments: [
    Value.decimal(80.5), .decimal(-0.25), .decimal(1e-5), .decimal(1e20), .decimal(0), .date(951_782_400),
    .date(1_795_650_900), .date(CalendarDate.earliest), .duration(95415), .duration(-10), .duration(0),
    .map(["a b": .decimal(1.5), "c": .date(0)]),
  ])
  func descriptionsReadBack(_ value: Value) throws {
    #expect(try FlowExpression(value.description).evaluate(in: Bindings.empty) == value, "\(value)")
  }

  /// The clock's date: a clock under a day is a time on 1970-01-01; before 1970 the time of day is still right.
  @Test func clockGivesADateAndATime() throws {
    #expect(TimeOfDay.secondsSinceEpoch(ofClock: 9 * 3600) == 32400)
    #expect(TimeOfDay.clockText(seconds: 9 * 3600) == "09:00")
    #expect(TimeOfDay.clockText(seconds: 1_795_650_900) == "2026-11-25T23:55")
    #expect(TimeOfDay.clockText(seconds: 1_795_564_800) == "2026-11-25")
    #expect(TimeOfDay.clock("2026-11-25T23:55") == 1_795_650_900)
    #expect(TimeOfDay.clock("20:10") == 72600)
    #expect(TimeOfDay.clock("tomorrow") == nil)
    #expect(TimeOfDay.minutes(ofClock: -60) == 1439)
    #expect(TimeOfDay.secondsSinceEpoch(ofClock: .infinity) == 0)
    #expect(TimeOfDay.secondsSinceEpoch(ofClock: 1e300) == CalendarDate.latest)
    let bindings = Bindings(secondsSinceEpoch: 1_795_650_900)
    #expect(try FlowExpression("now()").evaluate(in: bindings) == .string("23:55"))
    #expect(try FlowExpression("now()").evaluate(in: Bindings(minutesSinceMidnight: 65)) == .string("01:05"))
    #expect(try FlowExpression("string(today())").evaluate(in: Bindings(minutesSinceMidnight: 65)) == "1970-01-01")
  }
}
