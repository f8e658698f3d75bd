import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct DiffFlows: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two versions of a flow, including what happens to users whose progress OLD saved.",
    discussion: """
      Reports steps added, removed, retired and reordered; changed transitions, guards and effects; the analytics \
      events along the main path before and after; and, for every step raw value OLD persists, where NEW resumes \
      such a user. A raw value that now names a different step is an error.

      Exit codes: 0 no errors; 1 saved progress would resume at the wrong step; 2 a flow cannot be read.
      """)

  @Argument(help: "The old flow file.")
  var old: String

  @Argument(help: "The new flow file.")
  var new: String

  @Option(help: "Output format: text or json.")
  var format: OutputFormat = .text

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

  func run() async throws {
    let report = FlowDiff.compare(old: try FlowArgument.load(old), new: try FlowArgument.load(new))
    print(format == .json ? report.json.prettyJSON : report.text)
    if report.hasErrors { throw ExitStatus.findings.exitCode }
  }
}
