internal import FlowCore

/// `store.a.b`: member access reads the store key `a`, not `a.b`, so a dotted key reads null.
struct DottedStoreKeyRule: LintRule {
  static let description = RuleDescription(
    id: "dotted-store-key",
    summary:
      "'store.KEY' takes one name as the key: a key with dots, such as 'com.app.done', must be written store[\"com.app.done\"]",
    severity: .error,
    triggering: [
      .flow(steps: #"welcome: {kind: screen, skipIf: "↓store.com.app.done == true", next: end}"#)
    ],
    nonTriggering: [
      .flow(steps: #"welcome: {kind: screen, skipIf: 'store["com.app.done"] == true', next: end}"#),
      .flow(steps: #"welcome: {kind: screen, skipIf: "store.done == true", next: end}"#),
    ])

  func check(_ context: LintContext) {
    for site in context.walk.expressions {
      let source = site.expr.expression.source.unicodeScalars
      for reference in site.references where reference.path.count > 2 && reference.path[0] == "store" {
        let written = source.dropFirst(reference.column - 1)
        guard written.starts(with: "store.".unicodeScalars) else { continue }
        let key = reference.path.dropFirst().joined(separator: ".")
        context.report(
          Self.description,
          "'store.\(key)' reads the store key '\(reference.path[1])', not '\(key)'; write store[\"\(key)\"]",
          at: context.location(of: site.expr, column: reference.column),
          notes: ["to read a member of a stored value, write store[\"KEY\"].member"])
      }
    }
  }
}
