import FlowCore
import FlowLint
import FlowLoading
import Testing

/// `automatic-loop` reports a cycle of automatic moves only when its conditions can hold together (issue 15,
/// item 6): steps whose skip conditions exclude each other used to need a suppression.
struct AutomaticLoopTests {
  /// Steps `a` and `b` skipping to each other while `aSkip` and `bSkip` hold; `enter` effects go on `b`.
  static func flow(_ aSkip: String, _ bSkip: String, bEnter: String = "[]") -> String {
    """
    flow: demo
    version: "1"
    locales: [en]
    variables:
      x: {type: bool, default: true}
      n: {type: int, default: 1}
      plan: {type: string, default: "p"}
    start: a
    steps:
      a: {kind: screen, skipIf: '\(aSkip)', next: b}
      b: {kind: screen, skipIf: '\(bSkip)', enter: \(bEnter), next: a, skip: end}
      end: {kind: terminal, outcome: completed, enter: [{log: x}, {log: n}, {log: plan}]}

    """
  }

  func findings(_ text: String) -> [String] {
    let loaded = FlowLoader.load(bytes: Array(text.utf8), file: "demo.yaml")
    return Linter.lint(loaded).map(\.description)
  }

  static let loop =
    "demo.yaml:10:3: error: steps 'a', 'b' can loop forever without a user action; every move between them is "
    + "automatic [automatic-loop]"

  @Test(arguments: [
    ("x", "!x"), ("!x", "x"), ("n == 1", "n == 2"), ("plan == \"p\"", "plan != \"p\""),
    ("x && n == 1", "n == 2 && x"), ("x == true", "x == false"), ("!(x || n == 2)", "n == 2"),
    ("1 == n", "n != 1"), ("n > 1", "n < 1"), ("n >= 2", "1 >= n"), ("n > 1 && n < 3", "n != 2"),
    ("!(n <= 5)", "n == 5"),
  ])
  func skipConditionsThatExcludeEachOtherAreNoLoop(_ a: String, _ b: String) {
    #expect(findings(Self.flow(a, b)) == [])
  }

  @Test(arguments: [
    ("x", "x"), ("n == 1", "plan == \"p\""), ("x || n == 2", "!x"), ("n > 1", "n < 3"), ("x", "n != 1"),
  ])
  func skipConditionsThatMayHoldTogetherAreALoop(_ a: String, _ b: String) {
    #expect(findings(Self.flow(a, b)) == [Self.loop])
  }

  /// `b` sets `x` on entry, so `a`'s `x` and `b`'s `!x` are read at different values: a real loop.
  @Test func aConditionOnAVariableSetOnTheWayIsTakenToHold() {
    #expect(findings(Self.flow("x", "!x", bEnter: "[{set: x, value: '!x'}]")) == [Self.loop])
  }
}
