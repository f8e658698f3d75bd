internal import FlowCore

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// An array of findings, each `{column, file, line, message, notes, rule, severity}`, with sorted keys.
package enum JSONReporter: Reporter {
  package static let identifier = "json"

  struct Finding: Encodable {
    var file: String
    var line: Int
    var column: Int
    var severity: String
    var rule: String
    var message: String
    var notes: [String]
  }

  package static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String {
    let findings = files.flatMap(\.diagnostics).map { diagnostic in
      Finding(
        file: diagnostic.file, line: diagnostic.reportedLocation.line, column: diagnostic.reportedLocation.column,
        severity: diagnostic.severity.rawValue, rule: diagnostic.ruleID ?? "load", message: diagnostic.message,
        notes: diagnostic.notes)
    }
    return encode(findings) + "\n"
  }

  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }
}
