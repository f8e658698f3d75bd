package import FlowCore

/// What a rule checks, how severe its findings are, and examples that do and do not trigger it.
///
/// The examples are small flow documents; in a triggering example each `↓` marks where a finding of the
/// rule must be reported (the marker stands just before the reported character). The same examples are
/// run by the tests and printed in `docs/lint-rules.md`.
package struct RuleDescription: Sendable, Hashable {
  package let id: String
  /// One line, lowercase start, no final period.
  package let summary: String
  package let severity: Diagnostic.Severity
  /// Whether `# flowlint-disable-next-line` may silence the rule's findings: only rules about style and
  /// likely mistakes. A flow with a finding of any other rule is broken (it does not load, or it refers to
  /// something that does not exist, or it stops at run time), and naming such a rule in a suppression is
  /// itself an error (`unsuppressible-rule`).
  package let isSuppressible: Bool
  package let triggering: [Example]
  package let nonTriggering: [Example]
  /// For a rule no single flow triggers: what the documentation says instead of showing a triggering example.
  package let explanation: String?

  /// - Parameter suppressible: whether a suppression comment may silence the rule; by default only
  ///   warnings may be silenced.
  package init(
    id: String, summary: String, severity: Diagnostic.Severity, suppressible: Bool? = nil,
    explanation: String? = nil, triggering: [Example] = [], nonTriggering: [Example] = []
  ) {
    self.id = id
    self.summary = summary
    self.severity = severity
    self.isSuppressible = suppressible ?? (severity == .warning)
    self.triggering = triggering
    self.nonTriggering = nonTriggering
    self.explanation = explanation
  }
}

/// A flow document used as a rule example, remembering where it was written.
package struct Example: Sendable, Hashable, CustomStringConvertible {
  /// The marker placed just before the character a finding must point at.
  package static let marker: Character = "↓"

  /// What the document is written from: its whole text, or the parts `flow(...)` joins. Every rule's
  /// description is built whenever flowlint runs, while only the tests and the documentation read the
  /// examples, so they are joined when read (joining them all cost about 4M instructions per run, a tenth of
  /// linting a seed flow).
  private enum Parts: Sendable, Hashable {
    case text(String)
    case flow(locales: String, header: String, start: String, steps: String, endStep: Bool, trailer: String)
  }

  private let parts: Parts
  package let sourceFile: String
  package let sourceLine: Int

  package init(_ marked: String, file: String = #filePath, line: Int = #line) {
    self.init(parts: .text(marked), file: file, line: line)
  }

  private init(parts: Parts, file: String, line: Int) {
    self.parts = parts
    self.sourceFile = file
    self.sourceLine = line
  }

  /// A whole flow document, as every rule example is: `flow: demo`, `version: "1"`, `locales`, the
  /// top-level `header` lines (declarations such as `variables:` or `permissions:`), `start`, `steps:` with
  /// the `steps` lines indented under it and, unless `endStep` is false, the step
  /// `end: {kind: terminal, outcome: completed}` last, then the top-level `trailer` lines. Markers may
  /// stand anywhere.
  package static func flow(
    locales: String = "[en]", header: String = "", start: String = "welcome", steps: String = "",
    endStep: Bool = true, trailer: String = "", file: String = #filePath, line: Int = #line
  ) -> Example {
    Example(
      parts: .flow(
        locales: locales, header: header, start: start, steps: steps, endStep: endStep, trailer: trailer),
      file: file, line: line)
  }

  /// The text with its `↓` markers.
  package var marked: String {
    switch parts {
    case .text(let text):
      return text
    case .flow(let locales, let header, let start, let steps, let endStep, let trailer):
      var lines = ["flow: demo", "version: \"1\"", "locales: \(locales)"]
      if !header.isEmpty { lines.append(header) }
      lines += ["start: \(start)", "steps:"]
      if !steps.isEmpty {
        lines += steps.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
      }
      if endStep { lines.append("  end: {kind: terminal, outcome: completed}") }
      if !trailer.isEmpty { lines.append(trailer) }
      return lines.joined(separator: "\n")
    }
  }

  /// The document without markers.
  package var text: String { marked.replacingOccurrences(of: String(Self.marker), with: "") }

  /// Where the markers are in ``text`` (1-based line, column in Unicode scalars).
  package var markers: [SourceLocation] {
    var found: [SourceLocation] = []
    for (offset, line) in marked.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var column = 1
      for scalar in line.unicodeScalars {
        if Character(scalar) == Self.marker {
          found.append(SourceLocation(line: offset + 1, column: column))
        } else {
          column += 1
        }
      }
    }
    return found
  }

  package var description: String { "\(sourceFile):\(sourceLine)" }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
