import FlowCore
import FlowLint
import FlowLoading

/// Loads a flow file for running: parse, check against the schema and compile (``FlowLoader``), then lint
/// (``Linter``). A flow with errors must not run.
enum FlowFile {
  struct Loaded: Sendable {
    var flow: Flow?
    var diagnostics: [Diagnostic]
    var text: SourceText?

    /// The diagnostics as `flowlint` prints them: position, message, the source line and a caret.
    func rendered(color: Bool) -> String {
      guard let text else { return diagnostics.map(\.description).joined(separator: "\n") }
      return diagnostics.map { TextReporter.render($0, text: text, color: color) }.joined(separator: "\n")
    }
  }

  /// Loads, checks against the schema, compiles and lints the flow at `path`.
  static func load(path: String) -> Loaded {
    do {
      let loaded = try FlowLoader.load(path: path)
      return Loaded(flow: loaded.flow, diagnostics: Linter.lint(loaded), text: loaded.text)
    } catch {
      return Loaded(
        flow: nil, diagnostics: [Diagnostic(.error, error.reason, file: path, at: .unknown, rule: "io")], text: nil)
    }
  }
}
