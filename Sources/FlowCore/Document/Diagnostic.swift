/// A message about a document, at a position: what every front end, validator and rule reports.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// How serious a diagnostic is: an error stops a flow from running; a warning does not.
  public enum Severity: String, Hashable, Sendable, Comparable {
    /// `warning` or `error`.
    case warning, error

    /// A warning sorts before an error.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .warning && rhs == .error }
  }

  /// Error or warning.
  public package(set) var severity: Severity
  /// What is wrong, without the position.
  public package(set) var message: String
  package var file: String
  /// Where, 1-based.
  public package(set) var location: SourceLocation
  /// A stable id such as `unknown-step` or `schema`; nil for load errors.
  package var ruleID: String?
  /// Further lines shown under the message ("did you mean ...", "allowed: ...").
  package var notes: [String]

  package init(
    _ severity: Severity, _ message: String, file: String, at location: SourceLocation,
    rule ruleID: String? = nil, notes: [String] = []
  ) {
    self.severity = severity
    self.message = message
    self.file = file
    self.location = location
    self.ruleID = ruleID
    self.notes = notes
  }

  /// `path:line:col: error: message [rule-id]`, or `path: error: message [rule-id]` for a problem with the file
  /// as a whole (one that could not be read), which has no position.
  public var description: String {
    let position = location == .unknown ? "" : ":\(location.line):\(location.column)"
    var text = "\(file)\(position): \(severity.rawValue): \(message)"
    if let ruleID { text += " [\(ruleID)]" }
    return text
  }
}
