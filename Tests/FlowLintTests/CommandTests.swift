import Foundation
import Testing

/// Runs the built `flowlint` binary (next to the test bundle, in the products directory).
struct CommandTests {
  static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var binary: URL? {
    var directory = Bundle.main.bundleURL
    for _ in 0..<4 {
      let candidate = directory.appending(path: "flowlint")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Output
  {
    guard let binary else {
      Issue.record("the flowlint binary was not found next to the test bundle (\(Bundle.main.bundleURL.path))")
      return Output(status: -1, stdout: "", stderr: "")
    }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? root
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "flowlint-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let clean = """
    flow: demo
    version: "1"
    locales: [en]
    start: welcome
    steps:
      welcome: {kind: screen, next: end}
      end: {kind: terminal, outcome: completed}

    """

  @Test func aCleanFlowExitsZero() throws {
    let dir = try Self.temporaryDirectory()
    try Self.clean.write(to: dir.appending(path: "clean.yaml"), atomically: true, encoding: .utf8)
    let output = try Self.run(["clean.yaml"], in: dir)
    #expect(output.status == 0)
    #expect(output.stdout == "")
    #expect(output.stderr == "flowlint: checked 1 file: no findings\n")
  }

  @Test func findingsExitOneWithTextAndCaret() throws {
    let dir = try Self.temporaryDirectory()
    try Self.clean.replacingOccurrences(of: "next: end}", with: "next: ends}")
      .write(to: dir.appending(path: "broken.yaml"), atomically: true, encoding: .utf8)
    let output = try Self.run(["broken.yaml"], in: dir, environment: ["NO_COLOR": "1"])
    #expect(output.status == 1)
    #expect(
      output.stdout.hasPrefix(
        """
        broken.yaml:6:33: error: unknown step 'ends'; expected one of 'end', 'welcome' [unknown-step]
          welcome: {kind: screen, next: ends}
                                        ^
        note: did you mean 'end'?
        """))
  }

  /// Issue 15, item 1: a user could reach a step and not leave it, and lint was silent.
  @Test func aStepTheUserCannotLeaveIsATrap() throws {
    let dir = try Self.temporaryDirectory()
    try """
    flow: demo
    version: "1"
    locales: [en]
    start: welcome
    steps:
      welcome: {kind: screen, next: signIn}
      signIn:
        kind: action
        action: sign-in-with-apple
        on: {success: end, failure: tips, cancelled: stay}
      tips: {kind: screen, next: more}
      more: {kind: screen, next: tips}
      end: {kind: terminal, outcome: completed}

    """.write(to: dir.appending(path: "trap.yaml"), atomically: true, encoding: .utf8)
    let output = try Self.run(["trap.yaml"], in: dir, environment: ["NO_COLOR": "1"])
    #expect(output.status == 1)
    #expect(
      output.stdout == """
        trap.yaml:10:33: error: steps 'tips', 'more' lead only to each other: a user who reaches them can never get \
        to a terminal or go back [trap]
            on: {success: end, failure: tips, cancelled: stay}
                                        ^
        note: give one of them a way on to a terminal (a 'next', a button or a route), or allow 'back'
        trap.yaml:10:50: error: outcome 'cancelled' of action 'sign-in-with-apple' keeps the user on 'signIn', an \
        action step: its action ran when the step was entered and does not run again, so nothing leads on from there \
        [trap]
            on: {success: end, failure: tips, cancelled: stay}
                                                         ^
        note: send 'cancelled' to a step the user can act on (a screen that offers to try again, say), or give \
        'signIn' a 'next' or a button

        """, "\(output.stdout)")
    #expect(output.stderr == "flowlint: checked 1 file: 2 errors, 0 warnings\n")
  }

  @Test func warningsFailOnlyWithStrict() throws {
    let dir = try Self.temporaryDirectory()
    try (Self.clean + "  orphan: {kind: screen, next: end}\n")
      .write(to: dir.appending(path: "warn.yaml"), atomically: true, encoding: .utf8)
    #expect(try Self.run(["warn.yaml"], in: dir).status == 0)
    #expect(try Self.run(["--strict", "warn.yaml"], in: dir).status == 1)
    let quiet = try Self.run(["--quiet", "warn.yaml"], in: dir)
    #expect(quiet.status == 0 && quiet.stdout == "" && quiet.stderr == "")
  }

  @Test func unreadablePathsAndUsageErrorsExitTwo() throws {
    let missing = try Self.run(["/nonexistent/flows"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("/nonexistent/flows: error: no such file or directory"))
    #expect(try Self.run(["--format", "xml"]).status == 2)
    #expect(try Self.run(["--no-such-option"]).status == 2)
    let dir = try Self.temporaryDirectory()
    try "{\"type\": \"strin\"}".write(to: dir.appending(path: "bad.schema.json"), atomically: true, encoding: .utf8)
    try "a: 1\n".write(to: dir.appending(path: "doc.yaml"), atomically: true, encoding: .utf8)
    let badSchema = try Self.run(["--schema", "bad.schema.json", "doc.yaml"], in: dir)
    #expect(badSchema.status == 2)
    #expect(badSchema.stderr.contains("bad.schema.json:1:"))
  }

  @Test func badInputFilesExitOneWithPositions() throws {
    let dir = try Self.temporaryDirectory()
    let inputs: [String: [UInt8]] = [
      "empty.yaml": [],
      "binary.yaml": [0x00, 0x01, 0x02, 0xFF],
      "notyaml.yaml": Array("a: [\n".utf8),
      "deep.yaml": Array(String(repeating: "[", count: 3000).utf8),
      "bomb.yaml": Array(
        "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d]\n"
          .utf8),
      "shape.yaml": Array("- a\n".utf8),
      "huge.yaml": Array(String(repeating: "k: v\n", count: 10_500_000).utf8),
    ]
    for (name, bytes) in inputs {
      try Data(bytes).write(to: dir.appending(path: name))
      let output = try Self.run(["--format", "json", name], in: dir)
      #expect(output.status == 1, "\(name): \(output.stderr)")
      let findings = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
      #expect(findings?.isEmpty == false, "\(name)")
      #expect(findings?.allSatisfy { ($0["line"] as? Int ?? 0) >= 1 && ($0["column"] as? Int ?? 0) >= 1 } == true)
      #expect(!output.stderr.contains("Fatal error") && !output.stderr.contains("Stack dump"))
    }
  }

  @Test func directoriesAreSearchedAndReportedAsGitHubAnnotations() throws {
    let dir = try Self.temporaryDirectory()
    try FileManager.default.createDirectory(at: dir.appending(path: "flows/nested"), withIntermediateDirectories: true)
    try Self.clean.write(to: dir.appending(path: "flows/a.yaml"), atomically: true, encoding: .utf8)
    try Self.clean.replacingOccurrences(of: "start: welcome", with: "start: welcom")
      .write(to: dir.appending(path: "flows/nested/b.yml"), atomically: true, encoding: .utf8)
    try "not a flow".write(to: dir.appending(path: "flows/readme.txt"), atomically: true, encoding: .utf8)
    let output = try Self.run(["--format", "github"], in: dir)
    #expect(output.status == 1)
    #expect(
      output.stdout == """
        ::error file=flows/nested/b.yml,line=4,col=8,title=unknown-step::unknown step 'welcom'; expected one of 'end', 'welcome'%0Adid you mean 'welcome'?

        """)
  }

  @Test func schemaModeValidatesAnyDocument() throws {
    let dir = try Self.temporaryDirectory()
    try
      #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}"#
      .write(to: dir.appending(path: "s.json"), atomically: true, encoding: .utf8)
    try "name: 3\n".write(to: dir.appending(path: "bad.yaml"), atomically: true, encoding: .utf8)
    try "name: ok\n".write(to: dir.appending(path: "good.yaml"), atomically: true, encoding: .utf8)
    #expect(try Self.run(["--schema", "s.json", "good.yaml"], in: dir).status == 0)
    let bad = try Self.run(["--schema", "s.json", "bad.yaml"], in: dir, environment: ["NO_COLOR": "1"])
    #expect(bad.status == 1)
    #expect(bad.stdout.hasPrefix("bad.yaml:1:7: error: "))
  }

  @Test func listRulesPrintsEveryRule() throws {
    let output = try Self.run(["--list-rules"])
    #expect(output.status == 0)
    for id in ["unknown-step", "dead-end", "automatic-loop", "expression-type", "unused-suppression"] {
      #expect(output.stdout.contains("\n" + id + " ") || output.stdout.hasPrefix(id + " "), "\(id)")
    }
  }

  @Test func theSeedFlowsAreClean() throws {
    let output = try Self.run(["--strict", "flows"])
    #expect(output.status == 0, "\(output.stdout)")
  }
}
