import FlowCore
import FlowRuntime
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every kind of hostile input, fed to each tool that reads a file: a clear diagnostic with the position
/// where one exists, the documented exit code (README "Exit codes"), and never a crash, a hang or a Swift
/// stack trace. The inputs are generated into a temporary directory, the 50 MB one included.
@Suite struct HostileInputTests {
  struct Input: Sendable, CustomTestStringConvertible {
    var name: String
    /// `line:col` of the diagnostic, or nil where the message names no position.
    var position: String?
    /// A phrase the message must contain.
    var phrase: String
    var testDescription: String { name }
  }

  /// Hostile flow and scenario files (YAML).
  static let documents: [Input] = [
    Input(name: "empty", position: "1:1", phrase: "the document is empty"),
    Input(name: "not-yaml", position: "2:8", phrase: "invalid YAML"),
    Input(name: "binary", position: "1:1", phrase: "NUL byte"),
    Input(name: "huge", position: "1:1", phrase: "more than the limit of"),
    Input(name: "deeply-nested", position: "1:129", phrase: "nest deeper than 128 levels"),
    Input(name: "alias-bomb", position: "5:8", phrase: "aliases expand to more than"),
    Input(name: "wrong-shape", position: "1:1", phrase: "found a list"),
    Input(name: "non-utf8", position: "2:11", phrase: "not valid UTF-8"),
    Input(name: "multi-document", position: "2:1", phrase: "a second YAML document starts here"),
  ]

  /// Hostile `--state` files (the store is JSON).
  static let stores: [Input] = [
    Input(name: "empty", position: nil, phrase: "the store file is empty"),
    Input(name: "not-json", position: "1:1", phrase: "invalid JSON"),
    Input(name: "truncated", position: "1:28", phrase: "invalid JSON"),
    Input(name: "binary", position: "1:1", phrase: "NUL byte"),
    Input(name: "huge", position: "1:1", phrase: "more than the limit of"),
    Input(name: "deeply-nested", position: "1:129", phrase: "nest deeper than 128 levels"),
    Input(name: "wrong-shape", position: "1:1", phrase: "the store must be a JSON object; found a list"),
    Input(name: "non-utf8", position: "1:10", phrase: "not valid UTF-8"),
  ]

  /// The generated files, made once for the whole suite.
  static let directory: URL = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowkit-hostile-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func write(_ name: String, _ bytes: [UInt8]) {
      try! Data(bytes).write(to: directory.appendingPathComponent(name))
    }
    func write(_ name: String, _ text: String) { write(name, Array(text.utf8)) }
    // 50 MB of plausible flow text: well-formed, but over the size limit.
    var huge = "flow: huge\nsteps:\n"
    huge.reserveCapacity(50_000_100)
    var index = 0
    while huge.utf8.count < 50_000_000 {
      huge += "  s\(index): { kind: screen, title: t\(index), next: s\(index + 1) }\n"
      index += 1
    }
    let binary = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"

    write("empty.yaml", "")
    write("not-yaml.yaml", "flow: [unclosed\n  steps: {\n")
    write("binary.yaml", binary)
    write("huge.yaml", huge)
    write("deeply-nested.yaml", nested)
    var bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1..<10 {
      let previous = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
      let current = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
      bomb += "\(current): &\(current) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
    }
    write("alias-bomb.yaml", bomb)
    write("wrong-shape.yaml", "- flow: x\n- steps: []\n")
    write("non-utf8.yaml", Array("flow: x\ntitle: caf".utf8) + [0xE9, 0x0A])
    write("multi-document.yaml", "flow: a\n---\nflow: b\n")

    write("store-empty.json", "")
    write("store-not-json.json", "SelectedLanguage: en\n")
    write("store-truncated.json", "{\"SelectedLanguage\": \"en\", trunc")
    write("store-binary.json", binary)
    write("store-huge.json", "{\"Padding\": \"" + String(repeating: "x", count: 50_000_000) + "\"}")
    write("store-deeply-nested.json", nested)
    write("store-wrong-shape.json", "[\"SelectedLanguage\", \"en\"]")
    write("store-non-utf8.json", Array("{\"a\":\"caf".utf8) + [0xE9, 0x22, 0x7D])
    return directory
  }()

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  struct Outcome {
    var status: Int32
    var output: String
    var stderr: String
  }

  /// Runs a built tool with files for its output and a deadline: a tool that hangs is killed and recorded.
  static func run(_ tool: String, _ arguments: [String], stdin: String = "") throws -> Outcome {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flowkit-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
    try Data(stdin.utf8).write(to: files[0])
    for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent(tool)
    process.arguments = arguments
    process.currentDirectoryURL = Tool.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let handles = try files.enumerated().map { index, file in
      try index == 0 ? FileHandle(forReadingFrom: file) : FileHandle(forWritingTo: file)
    }
    process.standardInput = handles[0]
    process.standardOutput = handles[1]
    process.standardError = handles[2]
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("\(tool) \(arguments.joined(separator: " ")) still ran after 60 s: a hang")
    }
    process.waitUntilExit()
    for handle in handles { try handle.close() }
    let stdout = String(decoding: try Data(contentsOf: files[1]), as: UTF8.self)
    let stderr = String(decoding: try Data(contentsOf: files[2]), as: UTF8.self)
    #expect(process.terminationReason == .exit, "\(tool) died of a signal: \(stderr.suffix(500))")
    for trace in ["Fatal error", "Stack dump", "Current stack trace", "💣"] {
      #expect(!stderr.contains(trace), "\(tool) printed a crash report: \(stderr.suffix(500))")
    }
    return Outcome(status: process.terminationStatus, output: stdout + stderr, stderr: stderr)
  }

  /// `file:line:col: error: … phrase …` on one line of the output (or `file … phrase` with no position).
  static func expectDiagnostic(
    _ outcome: Outcome, file: String, _ input: Input, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let prefix = input.position.map { "\(file):\($0):" } ?? "\(file)"
    let found = outcome.output.split(separator: "\n").contains { $0.contains(prefix) && $0.contains(input.phrase) }
    #expect(
      found, "expected '\(prefix) … \(input.phrase)' in:\n\(outcome.output.prefix(2_000))",
      sourceLocation: sourceLocation)
  }

  @Test(arguments: documents) func flowlintReportsTheProblemAndExits1(_ input: Input) throws {
    let file = Self.path("\(input.name).yaml")
    let outcome = try Self.run("flowlint", [file])
    #expect(outcome.status == 1, "\(outcome.output.prefix(1_000))")
    Self.expectDiagnostic(outcome, file: file, input)
  }

  @Test func flowlintExits2ForAPathItCannotRead() throws {
    let missing = Self.path("no-such-flow.yaml")
    let outcome = try Self.run("flowlint", [missing])
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains(missing), "\(outcome.output)")
  }

  @Test(arguments: documents) func flowrunRefusesTheFlowWithExitCode2(_ input: Input) throws {
    let file = Self.path("\(input.name).yaml")
    let outcome = try Self.run("flowrun", [file], stdin: "next\n")
    #expect(outcome.status == 2, "\(outcome.output.prefix(1_000))")
    Self.expectDiagnostic(outcome, file: file, input)
  }

  @Test(arguments: documents) func flowrunTestRefusesItAsAScenarioFile(_ input: Input) throws {
    let file = Self.path("\(input.name).yaml")
    let outcome = try Self.run("flowrun", ["test", file])
    #expect(outcome.status == 2, "\(outcome.output.prefix(1_000))")
    #expect(outcome.output.contains("\(file): not a valid scenario table"), "\(outcome.output.prefix(1_000))")
    Self.expectDiagnostic(outcome, file: file, input)
  }

  @Test(arguments: documents) func flowrunTestRefusesItAsTheFlowAScenarioNames(_ input: Input) throws {
    let flow = Self.path("\(input.name).yaml")
    let scenario = Self.path("scenario-\(input.name).yaml")
    let table = "flow: \(flow)\ncases:\n  - name: one step\n    source: hostile input\n    commands: [next]\n"
    try Data(table.utf8).write(to: URL(fileURLWithPath: scenario))
    let outcome = try Self.run("flowrun", ["test", scenario])
    #expect(outcome.status == 2, "\(outcome.output.prefix(1_000))")
    #expect(outcome.output.contains("\(scenario): its flow \(flow) has errors"), "\(outcome.output.prefix(1_000))")
    Self.expectDiagnostic(outcome, file: flow, input)
  }

  @Test(arguments: stores) func aHostileStoreIsRefusedWithExitCode2AndLeftAsItIs(_ input: Input) throws {
    let store = Self.path("store-\(input.name).json")
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let outcome = try Self.run("flowrun", ["flows/tempoai.yaml", "--state", store], stdin: "state\n")
    #expect(outcome.status == 2, "\(outcome.output.prefix(1_000))")
    Self.expectDiagnostic(outcome, file: store, input)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the file was changed")
  }

  @Test func aStoredValueOfTheWrongTypeFallsBackToTheDefault() throws {
    let store = Self.path("store-wrong-type.json")
    try Data("{\"flowkitStore\": 1, \"values\": {\"SelectedLanguage\": 7}}".utf8).write(
      to: URL(fileURLWithPath: store))
    let outcome = try Self.run("flowrun", ["flows/tempoai.yaml", "--state", store], stdin: "state\n")
    #expect(outcome.status == 0)
    #expect(
      outcome.output.contains("warning: stored value 7 for 'language' (key 'SelectedLanguage') is not a valid string"),
      "\(outcome.output.prefix(1_000))")
    #expect(outcome.output.contains("language = \"ja\""))
  }
}
