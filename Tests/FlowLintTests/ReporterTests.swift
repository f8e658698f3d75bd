import FlowCore
import FlowLint
import FlowLoading
import Foundation
import Testing

struct ReporterTests {
  static let text = SourceText("steps:\n  welcome: {kind: screen, next: ends}\n  title: ようこそ\n")
  static let error = Diagnostic(
    .error, "unknown step 'ends'; expected one of 'end', 'welcome'", file: "flows/a.yaml",
    at: SourceLocation(line: 2, column: 33), rule: "unknown-step", notes: ["did you mean 'end'?"])
  static let warning = Diagnostic(
    .warning, "step 'orphan' is unreachable, really", file: "flows/a.yaml", at: SourceLocation(line: 3, column: 11),
    rule: "unreachable-step")
  static let files = [FileReport(file: "flows/a.yaml", text: text, diagnostics: [error, warning])]

  @Test func textShowsTheLineACaretAndNotes() {
    let report = TextReporter.report(Self.files, rules: RuleRegistry.descriptions, color: false)
    let expected = [
      "flows/a.yaml:2:33: error: unknown step 'ends'; expected one of 'end', 'welcome' [unknown-step]",
      "  welcome: {kind: screen, next: ends}",
      String(repeating: " ", count: 32) + "^",
      "note: did you mean 'end'?",
      "flows/a.yaml:3:11: warning: step 'orphan' is unreachable, really [unreachable-step]",
      "  title: ようこそ",
      String(repeating: " ", count: 9 + 2) + "^",  // よ is two columns wide
      "",
    ]
    #expect(report == expected.joined(separator: "\n"))
  }

  @Test func textIsColouredOnlyWhenAsked() {
    #expect(!TextReporter.report(Self.files, rules: [], color: false).contains("\u{1B}["))
    #expect(TextReporter.report(Self.files, rules: [], color: true).contains("\u{1B}[1;31merror"))
  }

  @Test func jsonHasSortedKeys() throws {
    let report = JSONReporter.report(Self.files, rules: [], color: false)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]])
    #expect(array.count == 2)
    #expect(array[0]["rule"] as? String == "unknown-step")
    #expect(array[0]["line"] as? Int == 2 && array[0]["column"] as? Int == 33)
    #expect(array[1]["severity"] as? String == "warning")
    let keys = ["column", "file", "line", "message", "notes", "rule", "severity"]
    let positions = keys.map { report.range(of: "\"\($0)\"")!.lowerBound }
    #expect(positions == positions.sorted())
  }

  @Test func sarifHasTheFieldsCodeScanningNeeds() throws {
    let report = SARIFReporter.report(Self.files, rules: RuleRegistry.descriptions, color: false)
    let log = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "flowlint")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.count == RuleRegistry.descriptions.count)
    #expect((rules.first?["shortDescription"] as? [String: Any])?["text"] as? String != nil)
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.map { $0["ruleId"] as? String } == ["unknown-step", "unreachable-step"])
    #expect(results.map { $0["level"] as? String } == ["error", "warning"])
    let location = try #require(
      (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "flows/a.yaml")
    let region = try #require(location["region"] as? [String: Any])
    #expect(region["startLine"] as? Int == 2 && region["startColumn"] as? Int == 33)
    let ruleIndex = try #require(results[0]["ruleIndex"] as? Int)
    #expect(rules[ruleIndex]["id"] as? String == "unknown-step")
  }

  @Test func githubAnnotationsEscapeTheirValues() {
    let report = GitHubReporter.report(Self.files, rules: [], color: false)
    #expect(
      report == """
        ::error file=flows/a.yaml,line=2,col=33,title=unknown-step::unknown step 'ends'; expected one of 'end', 'welcome'%0Adid you mean 'end'?
        ::warning file=flows/a.yaml,line=3,col=11,title=unreachable-step::step 'orphan' is unreachable, really

        """)
  }

  @Test func theRuleDocumentationIsCurrent() throws {
    let path = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appending(path: "docs/lint-rules.md")
    let onDisk = try String(contentsOf: path, encoding: .utf8)
    #expect(
      onDisk == RuleDocumentation.markdown(),
      "docs/lint-rules.md is out of date; run 'flowlint --list-rules --format markdown > docs/lint-rules.md'")
  }
}
