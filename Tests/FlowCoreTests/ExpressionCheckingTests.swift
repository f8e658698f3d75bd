import FlowTestSupport
import Testing

@testable import FlowCore

struct ExpressionCheckingTests {
  @Test(arguments: [
    ("true", ValueType.bool),
    ("null", .null),
    ("1 + 2", .int),
    ("'a' + displayName", .string),
    ("[]", .list(.any)),
    ("['a', 'b']", .list(.string)),
    ("['a', null]", .list(.optional(.string))),
    ("ideals + ['x']", .list(.string)),
    ("env.osVersion", .int),
    ("env['locale']", .string),
    ("env.osVersion >= 26 && env.alarmKitAvailable", .bool),
    ("habitTimes.wake", .optional(.string)),
    ("habitTimes['wake']", .optional(.string)),
    ("habitTimes.wake ?? '07:00'", .string),
    ("ideals[0]", .optional(.string)),
    ("store.anyKey", .any),
    ("result.name", .optional(.string)),
    ("result.name ?? ''", .string),
    ("result.habits.wake", .optional(.string)),
    ("result.habits ?? habitTimes", .map(.string)),
    ("step.rawValue ?? 0", .int),
    ("step.rawValue == 3", .bool),
    ("result.name == 'x'", .bool),
    ("null == 1", .bool),
    ("anything.deep.member", .any),
    ("anything + 1", .int),
    ("anything < 'a'", .bool),
    ("true ? 1 : null", .optional(.int)),
    ("onboardingCompleted ? displayName : 'x'", .string),
    ("'a' in ideals", .bool),
    ("'wake' in habitTimes", .bool),
    ("'ser' in displayName", .bool),
    ("'osVersion' in env", .bool),
    ("size(ideals)", .int),
    ("contains(ideals, 'calm')", .bool),
    ("startsWith(env.locale, 'en')", .bool),
    ("lower(result.name)", .string),
    ("keys(habitTimes)", .list(.string)),
    ("now()", .string),
    ("minutes(now())", .int),
    ("nextHabit(habitTimes)", .string),
    ("nextHabit(result.habits)", .string),
    ("isLaterToday(habitTimes.wake ?? '07:00')", .bool),
  ])
  func types(_ source: String, _ expected: ValueType) throws {
    #expect(try parse(source).check(in: ExpressionFixtures.scope) == expected)
  }

  @Test(
    arguments: [
      (
        "env.osVerson >= 26", 5,
        "unknown member 'osVerson' of 'env'; expected one of 'alarmKitAvailable', 'locale', 'osVersion'; did you mean 'osVersion'?"
      ),
      (
        "env['local']", 5,
        "unknown member 'local' of 'env'; expected one of 'alarmKitAvailable', 'locale', 'osVersion'; did you mean 'locale'?"
      ),
      (
        "result.nme ?? ''", 8,
        "unknown member 'nme' of 'result'; expected one of 'habits', 'name', 'userId'; did you mean 'name'?"
      ),
      ("permission.camera", 12, "unknown member 'camera' of 'permission'; expected one of 'alarmKit', 'notifications'"),
      ("onboardingStpe == 1", 1, "unknown name 'onboardingStpe'; did you mean 'onboardingStep'?"),
      ("1 + zzz", 5, "unknown name 'zzz'"),
      ("displayName.first", 13, "cannot read member 'first' of string"),
      ("onboardingStep[0]", 15, "cannot index int; expected a list or a map"),
      ("ideals['a']", 8, "a list index must be an int, found string"),
      ("habitTimes[1]", 12, "a map index must be a string, found int"),
      ("onboardingStep == 'x'", 16, "cannot compare int with string; they are different types"),
      ("ideals == habitTimes", 8, "cannot compare list<string> with map<string>; they are different types"),
      ("result.name != 3", 13, "cannot compare string? with int; they are different types"),
      ("1 + 'a'", 3, "operator '+' cannot be applied to int and string"),
      ("displayName - 1", 13, "operator '-' cannot be applied to string and int"),
      ("null + 1", 6, "operator '+' cannot be applied to null and int"),
      ("ideals < 'a'", 8, "operator '<' cannot be applied to list<string> and string"),
      ("!displayName", 1, "operator '!' cannot be applied to string"),
      ("-'a'", 1, "operator '-' cannot be applied to string"),
      ("onboardingStep && true", 16, "operator '&&' expects bool operands, found int"),
      ("true || displayName", 6, "operator '||' expects bool operands, found string"),
      ("displayName ? 1 : 2", 1, "expected a bool condition for '?:', found string"),
      ("onboardingCompleted ? 1 : 'a'", 21, "the branches of '?:' have different types, int and string"),
      ("result.name ?? 0", 13, "the operands of '??' have different types, string? and int"),
      ("[1, 'a']", 5, "list elements have different types, int and string"),
      (
        "1 in ideals", 3,
        "operator 'in' cannot look for int in list<string>; expected an element of a list, a key of a map or a substring of a string"
      ),
      (
        "1 in habitTimes", 3,
        "operator 'in' cannot look for int in map<string>; expected an element of a list, a key of a map or a substring of a string"
      ),
      ("size(onboardingStep)", 6, "size(x) expects a list, a string or a map, found int"),
      (
        "contains(displayName, 1)", 10,
        "contains(haystack, needle) cannot look for int in string; expected an element of a list, a key of a map or a substring of a string"
      ),
      ("startsWith(displayName, 1)", 25, "startsWith(s, prefix) expects a string, found int"),
      ("upper(ideals)", 7, "upper(s) expects a string, found list<string>"),
      ("keys(ideals)", 6, "keys(map) expects a map, found list<string>"),
      ("minutes(3)", 9, "minutes(\"HH:MM\") expects a string, found int"),
      ("minutes('7h30')", 9, "invalid time \"7h30\"; expected \"HH:MM\" between 00:00 and 23:59"),
      ("isLaterToday('24:00')", 14, "invalid time \"24:00\"; expected \"HH:MM\" between 00:00 and 23:59"),
      ("nextHabit(counts)", 11, "nextHabit(map) expects a map of \"HH:MM\" times, found map<int>"),
      ("nextHabit(ideals)", 11, "nextHabit(map) expects a map of \"HH:MM\" times, found list<string>"),
    ] as [(String, Int, String)])
  func rejects(_ source: String, _ column: Int, _ message: String) throws {
    let expression = try parse(source)
    let error = #expect(throws: ExpressionError.self) { try expression.check(in: ExpressionFixtures.scope) }
    #expect(error?.code == .type)
    #expect(error?.message == message)
    #expect(error?.column == column)
  }

  @Test func unknownNamesListTheNamesInScope() throws {
    let error = #expect(throws: ExpressionError.self) {
      try parse("lenguage == 'ja'").check(in: TypeScope(["language": .string, "env": .record([:])]))
    }
    #expect(error?.message == "unknown name 'lenguage'; did you mean 'language'?")
    #expect(error?.notes == ["names in scope: 'env', 'language'"])
  }

  @Test(arguments: ["onboardingCompleted", "env.osVersion >= 26", "anything", "store.flag", "!(1 < 2)"])
  func acceptsConditions(_ source: String) throws {
    try parse(source).checkCondition(in: ExpressionFixtures.scope)
  }

  @Test(arguments: [
    ("onboardingStep", "expected a bool condition, found int"),
    ("'yes'", "expected a bool condition, found string"),
    ("ideals", "expected a bool condition, found list<string>"),
    ("null", "expected a bool condition, found null"),
  ])
  func rejectsConditions(_ source: String, _ message: String) throws {
    let error = #expect(throws: ExpressionError.self) {
      try parse(source).checkCondition(in: ExpressionFixtures.scope)
    }
    #expect(error?.message == message)
    #expect(error?.column == 1)
  }

  @Test(arguments: [
    (Value.list([.string("a"), .string("b")]), ValueType.list(.string)),
    (.list([]), .list(.any)),
    (.list([.int(1), .string("b")]), .list(.any)),
    (.map(["a": .string("x"), "b": .null]), .map(.optional(.string))),
  ])
  func typesOfValues(_ value: Value, _ expected: ValueType) {
    #expect(ValueType(of: value) == expected)
  }
}
