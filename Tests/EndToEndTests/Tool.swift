import Foundation
import Testing

/// Runs a built executable of this package (flowrun, flowlint) and captures what it printed.
struct Tool {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The products directory: where the test bundle is, or the package's `.build/debug`.
  static let productsDirectory: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [beside, beside.deletingLastPathComponent()]
    where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("flowrun").path) {
      return candidate
    }
    return packageRoot.appendingPathComponent(".build/debug")
  }()

  static func run(
    _ name: String, _ arguments: [String], stdin: String? = nil, directory: URL = packageRoot,
    environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent(name)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["SWIFT_BACKTRACE"] = "enable=no"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowkit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
