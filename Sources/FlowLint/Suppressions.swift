package import FlowCore
package import FlowLoading

/// `# flowlint-disable-next-line rule-id[, rule-id]` comments: each silences findings of the named rules on
/// the following line. Only rules about style and likely mistakes can be silenced
/// (``RuleDescription/isSuppressible``); naming any other rule is an error (`unsuppressible-rule`) and
/// silences nothing. A suppression that silences nothing is reported (`unused-suppression`), and so is one
/// naming a rule that does not exist (`unknown-rule`).
package struct Suppressions {
  package static let directive = "flowlint-disable-next-line"

  struct Entry {
    var rule: String
    /// Where the rule id is written.
    var location: SourceLocation
    /// The line whose findings it silences.
    var target: Int
    var used = false
  }

  var entries: [Entry] = []
  let file: String

  package init(text: SourceText, file: String) {
    self.file = file
    for number in text.lines(containing: Self.directive) {
      guard let line = text.line(number) else { continue }
      let offset = number - 1
      guard let hash = line.firstIndex(of: "#") else { continue }
      let comment = line[line.index(after: hash)...]
      let trimmed = comment.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix(Self.directive) else { continue }
      var column =
        line.unicodeScalars.distance(
          from: line.unicodeScalars.startIndex, to: trimmed.unicodeScalars.startIndex)
        + Self.directive.unicodeScalars.count + 1
      let list = trimmed.dropFirst(Self.directive.count)
      for part in list.split(separator: ",", omittingEmptySubsequences: false) {
        let leading = part.prefix { $0 == " " || $0 == "\t" }.unicodeScalars.count
        let name = part.trimmingBlanks
        if !name.isEmpty {
          entries.append(
            Entry(
              rule: String(name), location: SourceLocation(line: offset + 1, column: column + leading),
              target: offset + 2))
        }
        column += part.unicodeScalars.count + 1
      }
    }
  }

  /// The findings that are not suppressed, plus a warning for each unused or unknown suppression and an
  /// error for each suppression of a rule that cannot be silenced (whose findings all stay). A suppression
  /// is unused only if its rule was among the `checked` ones: a rule that did not run (the flow did not load,
  /// or the rule waits for a clean load) may still have something to report.
  package mutating func apply(to findings: [Diagnostic], checked: Set<String>) -> [Diagnostic] {
    guard !entries.isEmpty else { return findings }
    let known = RuleRegistry.ids
    var kept: [Diagnostic] = []
    for finding in findings {
      var silenced = false
      for index in entries.indices
      where entries[index].target == finding.location.line && entries[index].rule == finding.ruleID {
        entries[index].used = true
        silenced = RuleRegistry.description(of: entries[index].rule)?.isSuppressible == true
      }
      if !silenced { kept.append(finding) }
    }
    for entry in entries {
      if let rule = RuleRegistry.description(of: entry.rule), !rule.isSuppressible {
        kept.append(
          Diagnostic(
            UnsuppressibleRuleRule.description.severity,
            UnsuppressibleRuleRule.refusal(of: entry.rule),
            file: file, at: entry.location, rule: UnsuppressibleRuleRule.description.id,
            notes: ["only rules about style and likely mistakes can be silenced; 'flowlint --list-rules' marks them"]))
        continue
      }
      guard !entry.used else { continue }
      if !known.contains(entry.rule) {
        kept.append(
          Diagnostic(
            UnknownRuleRule.description.severity,
            "unknown rule '\(entry.rule)' in a suppression" + Suggestion.didYouMean(entry.rule, in: known),
            file: file, at: entry.location, rule: UnknownRuleRule.description.id,
            notes: ["run 'flowlint --list-rules' for the rule ids"]))
      } else if checked.contains(entry.rule) {
        kept.append(
          Diagnostic(
            UnusedSuppressionRule.description.severity,
            "unused suppression of '\(entry.rule)'; no '\(entry.rule)' finding on line \(entry.target)",
            file: file, at: entry.location, rule: UnusedSuppressionRule.description.id))
      }
    }
    return kept
  }
}

extension Substring {
  fileprivate var trimmingBlanks: Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return text
  }
}
