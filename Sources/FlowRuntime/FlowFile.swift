package import FlowCore
import FlowLint

/// Loads a flow file for running: parse, check against the schema, compile and lint.
package enum FlowFile {
  package struct Loaded: Sendable {
    package var flow: Flow?
    package var diagnostics: [Diagnostic]
    var text: SourceText?

    /// The diagnostics as `flowlint` prints them: position, message, the source line and a caret.
    package func rendered(color: Bool) -> String {
      guard let text else { return diagnostics.map(\.description).joined(separator: "\n") }
      return diagnostics.map { TextReporter.render($0, text: text, color: color) }.joined(separator: "\n")
    }
  }

  /// Loads, checks against the schema, compiles and lints the flow at `path`. A flow with errors must not run.
  package static func load(path: String) -> Loaded {
    do {
      let loaded = try FlowLoader.load(path: path)
      let diagnostics = Linter.lint(loaded)
      return Loaded(flow: loaded.flow, diagnostics: diagnostics, text: loaded.text)
    } catch {
      return Loaded(
        flow: nil, diagnostics: [Diagnostic(.error, error.reason, file: path, at: .unknown, rule: "io")], text: nil)
    }
  }
}

/// `HH:MM` <-> seconds since midnight.
package enum ClockText {
  package static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]),
      let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return Double(hour * 3600 + minute * 60)
  }
}
