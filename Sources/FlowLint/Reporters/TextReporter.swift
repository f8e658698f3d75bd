package import FlowCore
package import FlowLoading

/// `path:line:col: error|warning: message [rule-id]`, the source line with a caret under the column, then
/// `note:` lines.
package enum TextReporter: Reporter {
  package static let identifier = "text"

  package static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String {
    var out = ""
    for file in files {
      for diagnostic in file.diagnostics { out += render(diagnostic, text: file.text, color: color) }
    }
    return out
  }

  /// One diagnostic with its snippet and notes, ending in a newline.
  package static func render(_ diagnostic: Diagnostic, text: SourceText, color: Bool) -> String {
    let style = Style(enabled: color)
    let location = diagnostic.reportedLocation
    let severity = diagnostic.severity == .error ? style.red("error") : style.yellow("warning")
    var out =
      style.bold("\(diagnostic.file):\(location.line):\(location.column):") + " \(severity): "
      + style.bold(diagnostic.message)
    if let rule = diagnostic.ruleID { out += " [\(rule)]" }
    out += "\n"
    if diagnostic.location.line >= 1, let line = text.line(diagnostic.location.line) {
      let shown = snippet(line, column: location.column)
      out += shown.text + "\n"
      out += caretPadding(shown.text[...], column: shown.column) + style.green("^") + "\n"
    }
    for note in diagnostic.notes { out += style.cyan("note:") + " \(note)\n" }
    return out
  }

  /// The most characters of a line a snippet shows: a longer line (minified JSON, a generated file) is shown as
  /// this many around the column, with `…` where it is cut, not whole (a JSON flow on one line is thousands).
  static let snippetWidth = 120

  /// The part of `line` a snippet shows, and the column of `column` in it.
  static func snippet(_ line: Substring, column: Int) -> (text: String, column: Int) {
    // No more bytes than the width: no more characters either, and nothing to cut.
    guard line.utf8.count > snippetWidth else { return (String(line), column) }
    let scalars = Array(line.unicodeScalars)
    guard scalars.count > snippetWidth else { return (String(line), column) }
    let caret = min(max(column - 1, 0), scalars.count)
    let end = min(scalars.count, max(caret - snippetWidth / 2, 0) + snippetWidth)
    let start = max(end - snippetWidth, 0)
    var text = start > 0 ? "…" : ""
    text.unicodeScalars.append(contentsOf: scalars[start..<end])
    if end < scalars.count { text += "…" }
    return (text, caret - start + 1 + (start > 0 ? 1 : 0))
  }

  /// Blanks as wide as the text before `column` (tabs kept, East Asian wide characters counted twice).
  static func caretPadding(_ line: Substring, column: Int) -> String {
    var padding = ""
    for scalar in line.unicodeScalars.prefix(max(column - 1, 0)) {
      if scalar == "\t" {
        padding += "\t"
      } else if isWide(scalar) {
        padding += "  "
      } else if scalar.properties.generalCategory != .nonspacingMark {
        padding += " "
      }
    }
    return padding
  }

  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      true
    default: false
    }
  }

  struct Style {
    let enabled: Bool
    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func red(_ text: String) -> String { wrap(text, "1;31") }
    func yellow(_ text: String) -> String { wrap(text, "1;33") }
    func green(_ text: String) -> String { wrap(text, "1;32") }
    func cyan(_ text: String) -> String { wrap(text, "1;36") }
  }
}
