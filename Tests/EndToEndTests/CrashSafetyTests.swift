import FlowCore
import FlowRuntime
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `flowrun --state FILE` writes the store atomically: killed at any moment, it leaves the previous complete
/// store or the new one, never a torn file.
@Suite struct CrashSafetyTests {
  /// A large value the flow never touches: every write of the store rewrites it, which widens the window in
  /// which a kill lands mid-write, and a torn file would cut it short.
  static let padding = String(repeating: "0123456789abcdef", count: 6_000)

  @Test func killedAtRandomPointsTheStoreIsNeverTorn() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("state.json").path
    try FileStore.write(["Padding": .string(Self.padding)], to: state)
    // Each tap chooses the language, which is persisted: one store write per tap, alternating values.
    let script = directory.appendingPathComponent("script.txt")
    try Data(String(repeating: "tap english\nback\ntap japanese\nback\n", count: 100).utf8).write(to: script)

    // How long the tool takes from launch to its first store write (much longer in a sanitized build): the
    // kills land from just before that point to a few dozen writes after it.
    let startup = try Self.timeToFirstWrite(state: state, script: script.path)
    let earliest = UInt32(startup * 0.8 * 1e6)

    var generator = SystemRandomNumberGenerator()
    var killedRunning = 0
    var languagesWritten: Set<Value> = []
    var previous = ""
    /// The store must be one complete version: it parses, and holds the untouched value and a language.
    func verify(_ label: String) -> Bool {
      guard let text = try? String(contentsOfFile: state, encoding: .utf8) else {
        Issue.record("\(label): the store is gone or not text")
        return false
      }
      let stored: [String: Value]
      do {
        stored = try FileStore.read(path: state)
      } catch {
        Issue.record("\(label): the store is torn (\(error)); it begins \(text.prefix(80))")
        return false
      }
      let language = stored["SelectedLanguage"]
      guard stored["Padding"] == .string(Self.padding),
        language == nil || language == .string("en") || language == .string("ja"),
        Set(stored.keys).isSubset(of: ["Padding", "SelectedLanguage", "OnboardingStartTime"])
      else {
        Issue.record("\(label): the store is not a version flowrun wrote: \(text.prefix(120))")
        return false
      }
      if text != previous, let language { languagesWritten.insert(language) }
      previous = text
      return true
    }
    guard verify("after the first run") else { return }

    for iteration in 0..<200 {
      let process = try Self.launch(state: state, script: script.path)
      usleep(earliest + UInt32.random(in: 0...60_000, using: &generator))
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killedRunning += 1 }
      guard verify("iteration \(iteration)") else { return }
    }
    // The test means something only if most runs were killed while still writing, and the store changed.
    #expect(killedRunning >= 150, "only \(killedRunning) of 200 runs were killed while running")
    #expect(languagesWritten == [.string("en"), .string("ja")], "languages written: \(languagesWritten)")
  }

  static func launch(state: String, script: String) throws -> Process {
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("flowrun")
    process.arguments = ["flows/tempoai.yaml", "--state", state, "--script", script]
    process.currentDirectoryURL = Tool.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Seconds from launch until the store file is first replaced; the run is then killed.
  static func timeToFirstWrite(state: String, script: String) throws -> Double {
    func modified() -> Date? { try? FileManager.default.attributesOfItem(atPath: state)[.modificationDate] as? Date }
    let before = modified()
    let start = Date()
    let process = try launch(state: state, script: script)
    while process.isRunning && modified() == before && Date().timeIntervalSince(start) < 30 { usleep(1_000) }
    let elapsed = Date().timeIntervalSince(start)
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(modified() != before, "flowrun never wrote the store")
    return elapsed
  }
}
