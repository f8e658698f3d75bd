import ArgumentParser
struct DiffFlows: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "diff", abstract: "stub")
  func run() async throws {}
}
