import ArgumentParser
import FlowCommandLine
import FlowLoading

struct ExportFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a flow as canonical JSON that an app loads with FlowCore alone.",
    discussion: """
      flowrun export FLOW --json checks the flow as flowrun does before running it (a flow with errors is \
      refused) and writes it to standard output as JSON: comments and YAML styles are gone, every value is \
      written as the type YAML resolved it to, two-space indentation, keys in the order the file gives them \
      (the order the compiler reads). The same file always exports to the same bytes. An app loads the result \
      with FlowCompiler.compile(json:file:) and runs it with traces identical to the YAML's.

      Example: flowrun export flows/anicca-v04.yaml --json > Resources/onboarding.json

      Exit codes: 0 written; 2 usage, or the flow cannot be read or has errors.
      """)

  @Argument(help: "The flow file (YAML or JSON).")
  var flow: String

  @Flag(help: "Write JSON (the one export format, required).")
  var json = false

  func validate() throws {
    if !json { throw ValidationError("Missing the export format: add '--json'.") }
  }

  func run() async throws {
    let (loaded, _) = try FlowArgument.loadDocument(flow)
    print(loaded.exportedJSON ?? "", terminator: "")
  }
}
