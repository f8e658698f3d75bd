internal import FlowCore

/// A string defined for one declared locale but not for another.
struct MissingTranslationRule: LintRule {
  static let description = RuleDescription(
    id: "missing-translation",
    summary: "every declared locale must have strings, and a key defined for one locale must be defined for all",
    severity: .error,
    triggering: [
      .flow(
        locales: "[en, ja]",
        header: """
          strings:
            en: {welcome_title: Welcome, ↓welcome_body: Hello}
            ja: {welcome_title: ようこそ}
          """,
        start: "end",
        steps: "end: {kind: terminal, outcome: completed, title: welcome_title, body: welcome_body}",
        endStep: false),
      .flow(
        locales: "[en, ↓ja]",
        header: """
          strings:
            en: {welcome_title: Welcome}
          """,
        start: "end",
        steps: "end: {kind: terminal, outcome: completed, title: welcome_title}",
        endStep: false),
    ],
    nonTriggering: [
      .translated(title: "welcome_title")
    ])

  func check(_ context: LintContext) {
    let flow = context.flow
    let localeNodes = context.root["locales"]?.sequence ?? []
    var present: [String] = []
    for locale in flow.locales {
      if flow.strings[locale] != nil {
        present.append(locale)
      } else if !flow.strings.isEmpty || !context.walk.texts.isEmpty {
        let location = localeNodes.first { $0.string == locale }?.location ?? flow.location
        let others = present + flow.locales.filter { $0 != locale && flow.strings[$0] != nil && !present.contains($0) }
        context.report(
          Self.description,
          "locale '\(locale)' has no strings; 'strings' has "
            + (others.isEmpty ? "no locales" : Suggestion.list(others)),
          at: location)
      }
    }
    guard present.count > 1 else { return }
    let tables = present.map { flow.strings[$0] ?? [:] }
    // Usually every locale has every key: tables of one size that all have the first one's keys. That is one
    // look-up a key in each other table, where the search below makes several.
    if tables.allSatisfy({ $0.count == tables[0].count })
      && tables[0].keys.allSatisfy({ key in tables.dropFirst().allSatisfy { $0[key] != nil } })
    {
      return
    }
    // Each key once, at its first definition (in the order of `locales`).
    var reported: Set<String> = []
    for (table, locale) in zip(tables, present) {
      // Only the keys some locale lacks are put in file order: sorting the whole table cost more than the rest of
      // the rule on a large flow, where usually none is missing.
      let incomplete = table.filter { key, _ in !reported.contains(key) && tables.contains { $0[key] == nil } }
      for (key, text) in incomplete.sorted(by: { $0.value.location < $1.value.location }) {
        let missing = present.indices.filter { tables[$0][key] == nil }.map { present[$0] }
        reported.insert(key)
        context.report(
          Self.description,
          "string '\(key)' is defined for '\(locale)' but missing for \(Suggestion.list(missing))",
          at: text.location)
      }
    }
  }
}
