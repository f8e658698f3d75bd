internal import FlowCore

/// A variable nothing reads.
struct UnusedVariableRule: LintRule {
  static let description = RuleDescription(
    id: "unused-variable",
    summary:
      "a variable that is not persisted, not an answer of a choice, input or form, and never read by an expression",
    severity: .warning,
    triggering: [
      .flow(
        header: """
          variables:
            ↓leftover: {type: bool, default: false}
          """,
        start: "end")
    ],
    nonTriggering: [
      .flow(
        header: """
          variables:
            completed: {type: bool, default: false, persist: completed}
            seen: {type: bool, default: false}
          """,
        steps: "welcome: {kind: screen, skipIf: seen, next: end}")
    ])

  static var needsCleanLoad: Bool { true }

  func check(_ context: LintContext) {
    var used: Set<String> = []
    for site in context.walk.expressions {
      for reference in site.references { used.insert(reference.path[0]) }
    }
    var written: Set<String> = []
    for use in context.walk.variableUses {
      switch use.kind {
      case .choice, .input, .field: used.insert(use.name)
      case .set: written.insert(use.name)
      case .clear: break
      }
    }
    for variable in context.flow.variables where variable.persistKey == nil && !used.contains(variable.name) {
      let what = written.contains(variable.name) ? "is set but never read" : "is never used"
      context.report(
        Self.description, "variable '\(variable.name)' \(what)", at: variable.location,
        notes: ["read it in an expression, persist it, or remove it"])
    }
  }
}
