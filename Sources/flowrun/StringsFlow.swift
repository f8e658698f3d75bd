import ArgumentParser
import FlowCommandLine
import FlowLint
import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct StringsFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "strings",
    abstract: "Work with a flow's localized strings.",
    subcommands: [Export.self])

  struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write a flow's texts in every locale as an Xcode String Catalog (.xcstrings).",
      discussion: """
        flowrun strings export FLOW --xcstrings checks the flow as flowrun does before running it (a flow with \
        errors is refused) and writes every string of its 'strings' table, in every locale that defines it, as a \
        String Catalog laid out as Xcode writes one (keys sorted, two-space indentation, no newline at the end), \
        so that saving it in Xcode changes nothing. The source language is the flow's first locale; every key \
        is marked as added by hand ("extractionState" : "manual") and every text as translated, with its \
        {name} placeholders as the flow gives them. 'flowlint FLOW --strings CATALOG.xcstrings' checks a \
        catalog against the flow.

        With -o the catalog is written atomically (a temporary file beside it, then renamed); an existing file \
        is replaced only with --force.

        Example: flowrun strings export flows/anicca-v04.yaml --xcstrings -o App/Localizable.xcstrings

        Exit codes: 0 written; 2 usage, the flow cannot be read or has errors, or the file exists (without \
        --force) or cannot be written.
        """)

    @Argument(help: "The flow file (YAML or JSON).")
    var flow: String

    @Flag(help: "Write an Xcode String Catalog (the one format, required).")
    var xcstrings = false

    @Option(
      name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Replace the -o file when it exists.")
    var force = false

    func validate() throws {
      if !xcstrings { throw ValidationError("Missing the export format: add '--xcstrings'.") }
      if force && output == nil { throw ValidationError("'--force' needs '-o FILE'.") }
    }

    func run() async throws {
      let text = StringCatalog.text(of: try FlowArgument.load(flow))
      guard let output else {
        print(text, terminator: "")
        return
      }
      do {
        try TextFile.write(text, to: output, replacing: force)
      } catch {
        printError("flowrun: error: \(OutputFile.message(error))")
        throw ExitStatus.unusable.exitCode
      }
    }
  }
}
