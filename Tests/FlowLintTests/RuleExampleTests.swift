import FlowCore
import FlowLoading
import Testing

@testable import FlowLint

/// Every rule's examples: triggering ones report the rule exactly at the `↓` markers, the others never.
struct RuleExampleTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let rule: RuleDescription
    var testDescription: String { rule.id }
  }

  static let cases = RuleRegistry.descriptions.map(Case.init)

  static func findings(of rule: String, in example: Example) -> [Diagnostic] {
    let loaded = FlowLoader.load(bytes: Array(example.text.utf8), file: "example.yaml")
    return Linter.lint(loaded).filter { $0.ruleID == rule }
  }

  @Test(arguments: cases)
  func triggeringExamplesReportAtTheMarkers(_ c: Case) {
    for example in c.rule.triggering {
      let found = Self.findings(of: c.rule.id, in: example)
      #expect(!example.markers.isEmpty, "example at \(example) has no ↓ marker")
      #expect(
        found.map(\.location) == example.markers,
        "example at \(example): \(found.map(\.description))")
      #expect(found.allSatisfy { $0.severity == c.rule.severity })
    }
  }

  @Test(arguments: cases)
  func nonTriggeringExamplesReportNothing(_ c: Case) {
    #expect(!c.rule.nonTriggering.isEmpty)
    for example in c.rule.nonTriggering {
      let found = Self.findings(of: c.rule.id, in: example)
      #expect(found.isEmpty, "example at \(example): \(found.map(\.description))")
    }
  }

  /// Non-triggering examples are clean flows: no rule at all fires on them, so the docs show good flows.
  @Test(arguments: cases)
  func nonTriggeringExamplesAreClean(_ c: Case) {
    for example in c.rule.nonTriggering {
      let loaded = FlowLoader.load(bytes: Array(example.text.utf8), file: "example.yaml")
      let found = Linter.lint(loaded)
      #expect(found.isEmpty, "example at \(example): \(found.map(\.description))")
    }
  }

  /// `flow-shape` comes from the compiler; `version-resume`, `else-covers-new-outcome` and `strings-catalog` need
  /// a second file (`--against`, `--strings`); `scenario-table` is about tables, not flows.
  @Test func everyRuleHasATriggeringExampleExceptCompilerShapeTheTwoFileChecksAndTables() {
    let missing = RuleRegistry.descriptions.filter { $0.triggering.isEmpty }.map(\.id)
    #expect(
      missing == ["flow-shape", "version-resume", "else-covers-new-outcome", "strings-catalog", "scenario-table"])
  }

  @Test func ruleIDsAreUniqueAndWellFormed() {
    let ids = RuleRegistry.descriptions.map(\.id)
    #expect(Set(ids).count == ids.count)
    for id in ids {
      #expect(id.split(separator: "-").allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "a" && $0 <= "z" } }, "\(id)")
    }
  }
}
