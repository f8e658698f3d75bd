internal import FlowCore

/// A text key missing from an Xcode String Catalog. No single file triggers it: `flowlint FLOW --strings
/// Localizable.xcstrings` reports it (the command reads the catalog); it is registered so that `--list-rules`,
/// SARIF and the documentation know it.
package struct StringsCatalogRule: LintRule {
  package static let description = RuleDescription(
    id: "strings-catalog",
    summary:
      "with '--strings CATALOG.xcstrings': every text key the flow uses must be in the String Catalog, with a "
      + "localization for every locale the flow declares",
    severity: .error,
    explanation: """
      Reported only by `flowlint FLOW --strings Localizable.xcstrings`, at each text whose key the catalog lacks \
      or lacks in one of the flow's locales; `flowrun strings export FLOW --xcstrings` writes a catalog that \
      passes. A flow checked alone never reports it. A clean flow:
      """,
    nonTriggering: [.translated(title: "welcome_title")])

  package init() {}
}
