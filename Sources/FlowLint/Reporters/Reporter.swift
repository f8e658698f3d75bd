internal import FlowCore

/// Turns findings into a report. Reporters are stateless; the command picks one by ``identifier``.
package protocol Reporter {
  static var identifier: String { get }
  /// The whole report for `files`; `rules` describes every rule id that may appear; `color` adds ANSI colour
  /// where the format has any.
  static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String
}

/// The report formats, in the order help lists them.
package enum ReportFormat: String, CaseIterable, Sendable {
  case text, json, sarif, github

  package var reporter: any Reporter.Type {
    switch self {
    case .text: TextReporter.self
    case .json: JSONReporter.self
    case .sarif: SARIFReporter.self
    case .github: GitHubReporter.self
    }
  }
}

extension Diagnostic {
  /// The location clamped to 1:1 for findings about a file as a whole.
  var reportedLocation: SourceLocation {
    SourceLocation(line: max(location.line, 1), column: max(location.column, 1))
  }
}
