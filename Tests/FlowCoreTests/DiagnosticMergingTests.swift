import FlowCore
import Testing

/// `Diagnostic.merging`: one message per problem across the stages that read a document.
struct DiagnosticMergingTests {
  static func at(_ line: Int, _ column: Int, _ message: String, _ severity: Diagnostic.Severity = .error) -> Diagnostic
  {
    Diagnostic(severity, message, file: "f.yaml", at: SourceLocation(line: line, column: column))
  }

  @Test func laterDiagnosticsOnALineWithAnEarlierErrorAreLeftOut() {
    let earlier = [Self.at(3, 5, "schema says"), Self.at(7, 1, "a warning", .warning)]
    let later = [Self.at(3, 9, "compiler says"), Self.at(7, 2, "on the warning's line"), Self.at(9, 1, "new")]
    #expect(
      Diagnostic.merging(earlier, later).map(\.message) == [
        "schema says", "a warning", "on the warning's line", "new",
      ])
  }

  @Test func keepOverridesTheLineRuleAndRepeatsAreDropped() {
    let earlier = [Self.at(3, 5, "schema says")]
    let later = [
      Self.at(3, 5, "the rule says"), Self.at(4, 1, "new"), Self.at(4, 1, "new"), Self.at(3, 5, "schema says"),
    ]
    #expect(
      Diagnostic.merging(earlier, later) { $0.message == "the rule says" }.map(\.message) == [
        "schema says", "the rule says", "new",
      ])
    #expect(Diagnostic.merging([], later).map(\.message) == ["the rule says", "new", "schema says"])
  }
}
