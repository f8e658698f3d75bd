import Foundation
import PackagePlugin

/// Lints a target's flow files while it builds: every `.yaml`, `.yml` or `.json` file in a folder named
/// `flows` among the target's files (declare the folder as a resource to ship it). Errors fail the build as
/// `file:line:col: error:` lines, which Xcode shows on the flow's line; warnings show as warnings.
///
/// ```swift
/// .target(name: "Onboarding", resources: [.process("flows")],
///         plugins: [.plugin(name: "FlowLintPlugin", package: "FlowKit")])
/// ```
@main
struct FlowLintPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
    guard let target = target as? any SourceModuleTarget else { return [] }
    let flows = target.sourceFiles.map(\.url).filter { $0.pathComponents.dropLast().contains("flows") }
      .filter { ["yaml", "yml", "json"].contains($0.pathExtension) }
    guard !flows.isEmpty else { return [] }
    // The build runs a command only for the outputs it needs: flowlint's success writes an empty Swift file
    // into the target, so every build of the target lints first, and again only after a flow changes.
    let stamp = context.pluginWorkDirectoryURL.appending(path: "FlowLint-\(target.name).swift")
    let script = "rm -f \"$1\"; out=$1; shift; \"$@\" && echo '// flowlint passed' > \"$out\""
    return [
      .buildCommand(
        displayName: "flowlint \(flows.count) flow file(s) of \(target.name)",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script, "sh", stamp.path, try context.tool(named: "flowlint").url.path] + flows.map(\.path),
        inputFiles: flows, outputFiles: [stamp])
    ]
  }
}
