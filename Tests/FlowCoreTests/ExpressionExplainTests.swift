import FlowTestSupport
import Testing

@testable import FlowCore

struct ExpressionExplainTests {
  @Test(arguments: [
    ("!(env.osVersion >= 26 && env.alarmKitAvailable)", "!(18 >= 26 && false)"),
    (
      "onboardingStep == 11 && !(env.osVersion >= 26 && env.alarmKitAvailable)",
      "11 == 11 && !(18 >= 26 && false)"
    ),
    ("env.osVersion >= 26", "18 >= 26"),
    ("displayName == 'User' ? '' : displayName", "\"User\" == \"User\" ? \"\" : \"User\""),
    ("'calm' in ideals", "\"calm\" in [\"calm\", \"focus\"]"),
    ("result.name ?? 'anonymous'", "null ?? \"anonymous\""),
    ("habitTimes['wake'] < habitTimes.training", "\"06:00\" < \"19:00\""),
    ("isLaterToday(habitTimes.wake)", "isLaterToday(\"06:00\")"),
    ("nextHabit(habitTimes)", "nextHabit({training: \"19:00\", wake: \"06:00\"})"),
    ("ideals[onboardingStep - 10]", "[\"calm\", \"focus\"][11 - 10]"),
    ("(1 + 2) * 3", "(1 + 2) * 3"),
    ("((1)) + (2 * 3)", "1 + 2 * 3"),
    ("1 - (2 - 3)", "1 - (2 - 3)"),
    ("a ?? (b ?? c)", "a ?? b ?? c"),
    ("(a ?? b) ?? c", "(a ?? b) ?? c"),
    ("(true ? 1 : 2) + 1", "(true ? 1 : 2) + 1"),
    ("-(-1)", "-(-1)"),
    ("small < 0", "-9223372036854775808 < 0"),
    ("-onboardingStep", "-11"),
    ("unknown.member == 1", "unknown.member == 1"),
    ("onboardingStep.x", "11.x"),
    ("[env.locale, 'x\"y']", "[\"en-US\", \"x\\\"y\"]"),
    ("size(step.id) > 0", "size(\"welcome\") > 0"),
  ])
  func explains(_ source: String, _ expected: String) throws {
    #expect(try parse(source).explain(in: ExpressionFixtures.bindings) == expected)
  }

  @Test func explanationsParseBackToTheSameValue() throws {
    let sources = [
      "onboardingStep == 11 && !(env.osVersion >= 26 && env.alarmKitAvailable)",
      "displayName == 'User' ? '' : displayName + '!'",
      "size(ideals) * -2 - -onboardingStep",
      "'calm' in ideals && size(ideals) == 2",
      "[env.locale, 'a\\'b'] + ideals",
    ]
    for source in sources {
      let expression = try parse(source)
      let explained = try parse(expression.explain(in: ExpressionFixtures.bindings))
      #expect(
        try explained.evaluate(in: ExpressionFixtures.bindings) == expression.evaluate(in: ExpressionFixtures.bindings),
        "\(source)")
    }
  }

  @Test func referencesListEveryNamePathWithItsColumn() throws {
    let expression = try parse(
      "onboardingStep == 11 && !(env.osVersion >= 26 && env['alarmKitAvailable']) || ideals[n].x == size(habitTimes)")
    #expect(
      expression.references.map { "\($0)@\($0.column)" } == [
        "onboardingStep@1", "env.osVersion@27", "env.alarmKitAvailable@50", "ideals@79", "n@86", "habitTimes@99",
      ])
    #expect(expression.references[1].path == ["env", "osVersion"])
  }

  @Test func literalsHaveNoReferences() throws {
    #expect(try parse("1 + 2 == 3 && now() == '10:00'").references.isEmpty)
  }
}
