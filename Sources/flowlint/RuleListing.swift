import FlowCore
import FlowLint

/// `--list-rules`: the rule ids with their summaries, as text, JSON or the markdown of docs/lint-rules.md.
enum RuleListing {
  static func render(format: FlowLintCommand.Format) -> String {
    let rules = RuleRegistry.descriptions
    switch format {
    case .markdown:
      return RuleDocumentation.markdown(rules)
    case .json, .sarif:
      return RuleDocumentation.json(rules)
    case .text, .github:
      let width = rules.map(\.id.count).max() ?? 0
      return rules.map { rule in
        rule.id + String(repeating: " ", count: width - rule.id.count + 2)
          + "\(rule.severity.rawValue == "error" ? "error  " : "warning") " + rule.summary
          + (rule.isSuppressible ? " (can be silenced)" : "")
      }.joined(separator: "\n") + "\n"
    }
  }
}
