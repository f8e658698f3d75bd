import FlowTestSupport
import Testing

@testable import FlowCore

struct ExpressionEvaluationTests {
  @Test(arguments: [
    // literals
    ("true", Value.bool(true)),
    ("false", .bool(false)),
    ("null", .null),
    ("42", .int(42)),
    ("-7", .int(-7)),
    ("-9223372036854775808", .int(Int.min)),
    ("\"double\"", .string("double")),
    ("'single'", .string("single")),
    (#""a\"b\\c\n\t\u{1F600}'""#, .string("a\"b\\c\n\t😀'")),
    (#"'it\'s'"#, .string("it's")),
    ("[]", .list([])),
    ("[1, 'a', [true]]", .list([.int(1), .string("a"), .list([.bool(true)])])),
    ("['a', 'b',]", .list([.string("a"), .string("b")])),
    // arithmetic and precedence
    ("1 + 2 * 3", .int(7)),
    ("(1 + 2) * 3", .int(9)),
    ("10 - 4 - 3", .int(3)),
    ("7 / 2", .int(3)),
    ("-7 / 2", .int(-3)),
    ("7 % 3", .int(1)),
    ("-(2 + 3)", .int(-5)),
    ("- -3", .int(3)),
    ("'a' + 'b'", .string("ab")),
    ("['a'] + ['b', 'c']", .list([.string("a"), .string("b"), .string("c")])),
    // comparisons
    ("1 < 2", .bool(true)),
    ("2 <= 2", .bool(true)),
    ("3 > 4", .bool(false)),
    ("4 >= 5", .bool(false)),
    ("'07:30' < '19:00'", .bool(true)),
    ("'b' > 'a'", .bool(true)),
    ("1 == 1", .bool(true)),
    ("1 != 2", .bool(true)),
    ("[1, [2]] == [1, [2]]", .bool(true)),
    ("1 == 'a'", .bool(false)),
    ("null == null", .bool(true)),
    ("1 + 1 == 2 && 'a' < 'b'", .bool(true)),
    // logic
    ("!true", .bool(false)),
    ("!!true", .bool(true)),
    ("true && false", .bool(false)),
    ("false || true", .bool(true)),
    ("true || false && false", .bool(true)),
    ("false && 1 / 0 == 0", .bool(false)),
    ("true || unknownName", .bool(true)),
    ("true ? 1 : 2", .int(1)),
    ("false ? 1 : true ? 2 : 3", .int(2)),
    ("null ?? 'x'", .string("x")),
    ("'a' ?? 'x'", .string("a")),
    ("null ?? null ?? 3", .int(3)),
    ("1 + 2 ?? 5", .int(3)),
    // in
    ("'calm' in ideals", .bool(true)),
    ("'rest' in ideals", .bool(false)),
    ("'wake' in habitTimes", .bool(true)),
    ("'sleep' in habitTimes", .bool(false)),
    ("'ser' in 'User'", .bool(true)),
    ("'' in 'User'", .bool(true)),
    ("'x' in result.habits", .bool(false)),
    ("1 in [1, 2] == true", .bool(true)),
    // names, members and indexes
    ("onboardingStep", .int(11)),
    ("env.osVersion", .int(18)),
    ("env['locale']", .string("en-US")),
    ("permission.notifications == 'granted'", .bool(true)),
    ("store.SelectedLanguage", .string("ja")),
    ("store.missing", .null),
    ("store.missing.deeper", .null),
    ("result.name ?? ''", .string("")),
    ("result.userId ?? ''", .string("u-1")),
    ("habitTimes['wake']", .string("06:00")),
    ("ideals[1]", .string("focus")),
    ("ideals[2]", .null),
    ("ideals[-1]", .null),
    ("ideals[0 + 1]", .string("focus")),
    ("step.id == 'welcome' && step.rawValue == 0", .bool(true)),
    ("onboardingStep == 11 && !(env.osVersion >= 26 && env.alarmKitAvailable)", .bool(true)),
    ("displayName == 'User' ? '' : displayName", .string("")),
    // functions
    ("size(ideals)", .int(2)),
    ("size('héllo')", .int(5)),
    ("size(habitTimes)", .int(2)),
    ("size(result.habits)", .int(0)),
    ("contains(ideals, 'calm')", .bool(true)),
    ("contains('onboarding', 'board')", .bool(true)),
    ("contains(habitTimes, 'training')", .bool(true)),
    ("startsWith(env.locale, 'en')", .bool(true)),
    ("startsWith('ja-JP', 'en')", .bool(false)),
    ("lower('AbC')", .string("abc")),
    ("upper('AbC')", .string("ABC")),
    ("trim('  hi there \\n')", .string("hi there")),
    ("trim('   ')", .string("")),
    ("keys(habitTimes)", .list([.string("training"), .string("wake")])),
    ("keys(result.habits)", .list([])),
    ("now()", .string("20:10")),
    ("minutes('07:05')", .int(425)),
    ("minutes('7:05')", .int(425)),
    ("minutes('23:59')", .int(1439)),
    ("isLaterToday('20:11')", .bool(true)),
    ("isLaterToday('20:10')", .bool(false)),
    ("isLaterToday('06:00')", .bool(false)),
    ("nextHabit(habitTimes)", .string("wake")),
    ("nextHabit(result.habits)", .string("")),
    ("size(keys(habitTimes)) + minutes(now())", .int(1212)),
  ])
  func evaluates(_ source: String, _ expected: Value) throws {
    #expect(try parse(source).evaluate(in: ExpressionFixtures.bindings) == expected)
  }

  @Test(arguments: [
    ("1 / 0", "division by zero", 3),
    ("5 % (2 - 2)", "division by zero", 3),
    ("big + 1", "integer overflow in '+'", 5),
    ("small - 1", "integer overflow in '-'", 7),
    ("big * 2", "integer overflow in '*'", 5),
    ("small / -1", "integer overflow in '/'", 7),
    ("small % -1", "integer overflow in '%'", 7),
    ("-small", "integer overflow in '-'", 1),
    ("nobody", "unknown name 'nobody'", 1),
    ("1 + 'a'", "operator '+' cannot be applied to int and string", 3),
    ("'a' < 1", "operator '<' cannot be applied to string and int", 5),
    ("!1", "operator '!' cannot be applied to int", 1),
    ("1 && true", "operator '&&' expects bool operands, found int", 3),
    ("false || 'x'", "operator '||' expects bool operands, found string", 7),
    ("1 ? 2 : 3", "expected a bool condition for '?:', found int", 1),
    ("onboardingStep.x", "cannot read member 'x' of int", 16),
    ("ideals['a']", "a list index must be an int, found string", 8),
    ("habitTimes[1]", "a map index must be a string, found int", 12),
    ("displayName[0]", "cannot index string; expected a list or a map", 12),
    (
      "1 in 2",
      "operator 'in' cannot look for int in int; expected an element of a list, a key of a map or a substring of a string",
      3
    ),
    ("size(1)", "size(x) expects a list, a string or a map, found int", 6),
    ("lower(result.name)", "lower(s) expects a string, found null", 7),
    ("minutes('25:00')", "invalid time \"25:00\"; expected \"HH:MM\" between 00:00 and 23:59", 9),
    ("minutes('7:5')", "invalid time \"7:5\"; expected \"HH:MM\" between 00:00 and 23:59", 9),
    ("isLaterToday(displayName)", "invalid time \"User\"; expected \"HH:MM\" between 00:00 and 23:59", 14),
    ("nextHabit(ideals)", "nextHabit(map) expects a map of \"HH:MM\" times, found list", 11),
  ])
  func failsToEvaluate(_ source: String, _ message: String, _ column: Int) throws {
    let expression = try parse(source)
    let error = #expect(throws: ExpressionError.self) { try expression.evaluate(in: ExpressionFixtures.bindings) }
    #expect(error?.code == .evaluation)
    #expect(error?.message == message)
    #expect(error?.column == column)
  }

  @Test func conditionsMustBeBool() throws {
    #expect(try parse("onboardingStep == 11").evaluateCondition(in: ExpressionFixtures.bindings))
    let error = #expect(throws: ExpressionError.self) {
      try parse("onboardingStep").evaluateCondition(in: ExpressionFixtures.bindings)
    }
    #expect(error?.message == "expected a bool condition, found int")
    #expect(error?.column == 1)
  }

  @Test func contextsAreReadThroughTheProtocol() throws {
    struct Fixed: ExpressionContext {
      func value(of root: String) -> Value? { root == "x" ? .int(2) : nil }
      var minutesSinceMidnight: Int { -30 }
    }
    #expect(try parse("x * 21").evaluate(in: Fixed()) == .int(42))
    #expect(try parse("now()").evaluate(in: Fixed()) == .string("23:30"))
  }

  @Test func expressionsAreEqualByTheirSource() throws {
    #expect(try parse("a + 1") == parse("a + 1"))
    #expect(try parse("a + 1") != parse("a+1"))
    #expect(try Set([parse("x"), parse("x"), parse("y")]).count == 2)
    #expect(try parse("a  +  1").description == "a  +  1")
  }
}
