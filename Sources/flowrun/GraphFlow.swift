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

struct GraphFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph",
    abstract: "Print a flow as a Graphviz (dot) or Mermaid diagram.",
    discussion: """
      Steps are shaped by kind (screens boxes, choices rounded boxes, inputs parallelograms, permissions hexagons, \
      actions components, terminals double circles); retired steps are grey and dashed. Edges are labelled with \
      the button or outcome and the route's guard in brackets; a skipIf is a dashed edge to the step's next; \
      resume routes are dotted edges (dashed in Mermaid) from the launch point labelled with their condition, a \
      route by raw value one edge per step with a rawValue, labelled [EXPR == N].

      Example: flowrun graph flows/anicca-v04.yaml | dot -Tsvg -o docs/diagrams/anicca-v04.svg

      Exit codes: 0 success; 2 the flow cannot be read or has errors.
      """)

  @Argument(help: "The flow file (YAML or JSON).")
  var flow: String

  @Option(help: "dot or mermaid.")
  var format: Format = .dot

  enum Format: String, ExpressibleByArgument, CaseIterable { case dot, mermaid }

  func run() async throws {
    let compiled = try FlowArgument.load(flow)
    print(FlowGraph.render(compiled, as: format == .dot ? .dot : .mermaid), terminator: "")
  }
}
