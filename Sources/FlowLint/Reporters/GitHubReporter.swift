internal import FlowCore

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=RULE::message`.
package enum GitHubReporter: Reporter {
  package static let identifier = "github"

  package static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String {
    var out = ""
    for diagnostic in files.flatMap(\.diagnostics) {
      let location = diagnostic.reportedLocation
      let rule = diagnostic.ruleID ?? "load"
      let message = ([diagnostic.message] + diagnostic.notes).joined(separator: "\n")
      out +=
        "::\(diagnostic.severity.rawValue) file=\(property(diagnostic.file)),line=\(location.line),"
        + "col=\(location.column),title=\(property(rule))::\(data(message))\n"
    }
    return out
  }

  /// Escapes a message as the runner expects (`%`, CR, LF).
  static func data(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.append(character)
      }
    }
    return out
  }

  /// Escapes a property value (also `:` and `,`).
  static func property(_ text: String) -> String {
    data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
  }
}
