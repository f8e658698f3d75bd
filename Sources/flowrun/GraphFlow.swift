import ArgumentParser
struct GraphFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "graph", abstract: "stub")
  func run() async throws {}
}
