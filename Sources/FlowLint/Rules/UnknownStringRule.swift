internal import FlowCore

/// A text key that no locale's strings define.
struct UnknownStringRule: LintRule {
  static let description = RuleDescription(
    id: "unknown-string",
    summary: "every text key (titles, bodies, labels, options, placeholders) must be defined in 'strings'",
    severity: .error,
    triggering: [
      .translated(title: "↓welcome_titel")
    ],
    nonTriggering: [
      .translated(title: "welcome_title")
    ])

  func check(_ context: LintContext) {
    let flow = context.flow
    let tables = flow.locales.compactMap { flow.strings[$0] }
    guard !flow.locales.isEmpty else { return }
    // Each text looked up in the tables (usually found in the first), rather than every key of every table put
    // into one set first; that set is made only for a suggestion.
    var allKeys: Set<String>?
    for text in context.walk.texts where !tables.contains(where: { $0[text.key] != nil }) {
      if allKeys == nil { allKeys = tables.reduce(into: []) { $0.formUnion($1.keys) } }
      context.report(
        Self.description,
        "unknown string '\(text.key)'; it is not in 'strings' for \(Suggestion.list(flow.locales))"
          + Suggestion.didYouMean(text.key, in: allKeys ?? []),
        at: text.location)
    }
  }
}

extension Example {
  /// A flow in English and Japanese, both defining `welcome_title`, whose one step shows the string `title`.
  static func translated(title: String, file: String = #filePath, line: Int = #line) -> Example {
    .flow(
      locales: "[en, ja]",
      header: """
        strings:
          en: {welcome_title: Welcome}
          ja: {welcome_title: ようこそ}
        """,
      start: "end", steps: "end: {kind: terminal, outcome: completed, title: \(title)}", endStep: false, file: file,
      line: line)
  }
}
