import FlowCore
import FlowLint
import FlowLoading
import Testing

/// `flowlint NEW --against OLD`: an `else` that takes an outcome OLD's declaration of the action lacked.
@Suite struct ElseCoversNewOutcomeTests {
  static func flow(outcomes: String, on: String) -> String {
    """
    flow: demo
    version: "1"
    locales: [en]
    actions:
      check-username: { outcomes: { \(outcomes) } }
    start: check
    steps:
      check:
        kind: action
        action: check-username
        on: \(on)
      end: { kind: terminal, outcome: completed }
    """
  }

  static func load(_ text: String) throws -> Flow {
    try #require(FlowLoader.load(bytes: Array(text.utf8), file: "new.yaml").flow)
  }

  @Test func anElseThatTakesANewOutcomeIsReportedAtTheElse() throws {
    let old = try Self.load(Self.flow(outcomes: "free: {}, taken: {}", on: "{free: end, else: end}"))
    let new = try Self.load(Self.flow(outcomes: "free: {}, taken: {}, banned: {}", on: "{free: end, else: end}"))
    #expect(
      ElseCoversNewOutcomeRule.findings(in: new, against: old, file: "new.yaml").map(\.description) == [
        "new.yaml:11:27: warning: 'else' on step 'check' takes 'banned' of 'check-username', an outcome the flow it "
          + "is checked against did not declare [else-covers-new-outcome]"
      ])
  }

  @Test func anElseOverOutcomesBothVersionsDeclareIsQuiet() throws {
    let old = try Self.load(Self.flow(outcomes: "free: {}, taken: {}", on: "{free: end, else: end}"))
    let new = try Self.load(
      Self.flow(outcomes: "free: {}, taken: {}, banned: {}", on: "{free: end, banned: end, else: end}"))
    #expect(ElseCoversNewOutcomeRule.findings(in: new, against: old, file: "new.yaml").isEmpty)
  }
}
