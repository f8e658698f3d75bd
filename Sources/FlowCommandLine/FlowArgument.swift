package import ArgumentParser
package import FlowCore
import FlowLint
package import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// A flow file named on the command line, for the commands that run, explore, draw or compare it.
package enum FlowArgument {
  /// Loads, validates, compiles and lints the flow at `path` (``FlowLoader``, then ``Linter``), prints every
  /// diagnostic to standard error as `flowlint` does (position, message, the source line and a caret), and
  /// returns the compiled flow when nothing is an error.
  ///
  /// - Throws: ``ExitStatus/unusable`` after printing, when the file cannot be read or the flow has errors:
  ///   a flow with errors must not run.
  package static func load(_ path: String) throws(ExitCode) -> Flow {
    try loadDocument(path).flow
  }

  /// Like ``load(_:)``, and also returns the loaded document (its tree and text) beside the compiled flow.
  package static func loadDocument(_ path: String) throws(ExitCode) -> (loaded: LoadedFlow, flow: Flow) {
    let loaded: LoadedFlow
    do {
      loaded = try FlowLoader.load(path: path)
    } catch {
      printError(error.description)
      throw ExitStatus.unusable.exitCode
    }
    let diagnostics = Linter.lint(loaded)
    if !diagnostics.isEmpty {
      let color = wantsColor(STDERR_FILENO)
      printError(diagnostics.map { TextReporter.render($0, text: loaded.text, color: color) }.joined(separator: "\n"))
    }
    guard let flow = loaded.flow, !diagnostics.contains(where: { $0.severity == .error }) else {
      throw ExitStatus.unusable.exitCode
    }
    return (loaded, flow)
  }
}
