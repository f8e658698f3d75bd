import Foundation
import PackagePlugin

/// `swift package flowlint [ARGUMENTS...]`: runs flowlint with the arguments given, or, with none, on the
/// package's `flows/` folder (when it has one) and every flow file the build-tool plugin lints (files in a
/// `flows` folder of a target).
@main
struct FlowLintCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var paths = arguments
    if paths.isEmpty {
      let root = context.package.directoryURL.appending(path: "flows")
      if FileManager.default.fileExists(atPath: root.path) { paths.append(root.path) }
      for case let target as any SourceModuleTarget in context.package.targets {
        paths += target.sourceFiles.map(\.url).filter { $0.pathComponents.dropLast().contains("flows") }
          .filter { ["yaml", "yml", "json"].contains($0.pathExtension) }.map(\.path)
      }
    }
    let flowlint = Process()
    flowlint.executableURL = try context.tool(named: "flowlint").url
    flowlint.arguments = paths
    try flowlint.run()
    flowlint.waitUntilExit()
    if flowlint.terminationStatus != 0 {
      Diagnostics.error("flowlint exited with status \(flowlint.terminationStatus)")
      throw FlowLintFailed()
    }
  }
}

private struct FlowLintFailed: Error {}
