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

    // When the tool writes the store (much later, and further apart, in a sanitized build): the kills land
    // from just before its first write to as far past its fourth as the first four writes took, so that runs
    // end after either language was written, whatever the build's speed.
    let writes = try Self.timesOfFirstWrites(4, state: state, script: script.path)
    let earliest = UInt32(writes[0] * 0.8 * 1e6)
    let spread = UInt32((writes[3] + (writes[3] - writes[0])) * 1e6) - earliest

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
      usleep(earliest + UInt32.random(in: 0...spread, using: &generator))
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

  /// Seconds from launch to each of the first `count` replacements of the store file; the run is then killed.
  static func timesOfFirstWrites(_ count: Int, state: String, script: String) throws -> [Double] {
    /// A write replaces the file (a rename): its inode and modification time tell one version from the next.
    func version() -> String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: state)
      let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate
      return "\(attributes?[.systemFileNumber] ?? "none") \(modified ?? 0)"
    }
    var last = version()
    var times: [Double] = []
    let start = Date()
    let process = try launch(state: state, script: script)
    while process.isRunning && times.count < count && Date().timeIntervalSince(start) < 60 {
      let now = version()
      if now != last {
        times.append(Date().timeIntervalSince(start))
        last = now
      }
      usleep(500)
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try #require(times.count == count, "flowrun wrote the store \(times.count) times, not \(count)")
    return times
  }
}
