import Foundation
import Testing

/// Paths that are not readable flow files, trees with links, and inputs as users have them (a byte order mark,
/// CRLF line ends), through the tools.
@Suite struct FilePathTests {
  @Test func eachUnreadablePathGetsItsOwnMessageAndExitCode2() throws {
    let directory = try Tool.temporaryDirectory()
    #expect(mkfifo(directory.path + "/pipe.yaml", 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: directory.path + "/loop.yaml", withDestinationPath: "loop.yaml")
    try FileManager.default.createDirectory(
      atPath: directory.path + "/folder.yaml/x", withIntermediateDirectories: true)
    // A pipe is found and not read (the summary counts it); a loop is refused before the walk.
    let cases = [
      ("pipe.yaml", "is a named pipe (FIFO), not a regular file; only regular files are read", true),
      ("loop.yaml", "is a symbolic link that loops (too many levels of symbolic links)", false),
    ]
    for (name, reason, summarized) in cases {
      let path = directory.path + "/" + name
      let lint = try Tool.run("flowlint", [path])
      #expect(lint.status == 2)
      let summary = summarized ? "flowlint: checked 0 files; 1 could not be read\n" : ""
      #expect(lint.stderr == "\(path): error: \(reason)\n" + summary)
      let run = try Tool.run("flowrun", [path], stdin: "")
      #expect(run.status == 2)
      #expect(run.stderr == "\(path): error: \(reason)\n")
      let test = try Tool.run("flowrun", ["test", path])
      #expect(test.status == 2)
      #expect(test.stdout.contains("\(path): \(reason)") || test.stderr == "flowrun test: \(path): \(reason)\n")
    }
    let folder = directory.path + "/folder.yaml"
    let run = try Tool.run("flowrun", [folder], stdin: "")
    #expect(run.status == 2)
    #expect(run.stderr == "\(folder): error: is a directory, not a file\n")
    let missing = try Tool.run("flowrun", [directory.path + "/missing.yaml"], stdin: "")
    #expect(missing.stderr == "\(directory.path)/missing.yaml: error: no such file or directory\n")
  }

  /// The summary counts the files that could not be read and never calls such a run clean.
  @Test func flowlintsSummaryCountsTheFilesItCouldNotRead() throws {
    let directory = try Tool.temporaryDirectory()
    let pipe = directory.path + "/pipe.yaml"
    #expect(mkfifo(pipe, 0o600) == 0)
    let flow = Tool.packageRoot.path + "/flows/tempoai.yaml"
    let clean = try Tool.run("flowlint", [flow, pipe])
    #expect(clean.status == 2)
    #expect(
      clean.stderr == """
        \(pipe): error: is a named pipe (FIFO), not a regular file; only regular files are read
        flowlint: checked 1 file; 1 could not be read

        """)
    let broken = directory.path + "/broken.yaml"
    try Data("flow: x\nversion: '1'\nlocales: [en]\nstart: nowhere\nsteps:\n  a: { kind: terminal }\n".utf8).write(
      to: URL(fileURLWithPath: broken))
    let findings = try Tool.run("flowlint", [broken, pipe])
    #expect(findings.status == 2)
    #expect(
      findings.stderr == """
        \(pipe): error: is a named pipe (FIFO), not a regular file; only regular files are read
        flowlint: checked 1 file: 2 errors, 0 warnings; 1 could not be read

        """)
  }

  @Test func flowlintOnATreeWithALinkToItsParentEndsAndChecksEachFileOnce() throws {
    let directory = try Tool.temporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Tool.packageRoot.path + "/flows/tempoai.yaml", toPath: directory.path + "/tempoai.yaml")
    try FileManager.default.createSymbolicLink(atPath: directory.path + "/sub/up", withDestinationPath: "..")
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/sub/again.yaml", withDestinationPath: "../tempoai.yaml")
    let result = try Tool.run("flowlint", [directory.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "flowlint: checked 1 file: no findings\n")
  }

  /// `flowrun test DIR` runs the tables in a folder that also holds their flows, and leaves the flows out; a flow
  /// named on its own is refused with what to do instead (issue 15, item 8, the other way round).
  @Test func flowrunTestLeavesOutFlowsFoundBesideTablesAndRefusesOneNamedAlone() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(
      """
      flow: demo
      version: "1"
      locales: [en]
      start: end
      steps:
        end: {kind: terminal, outcome: completed}

      """.utf8
    ).write(to: directory.appendingPathComponent("flow.yaml"))
    try Data(
      "flow: flow.yaml\ncases:\n  - {name: ends, source: s, commands: [], expect: {ended: completed}}\n".utf8
    ).write(to: directory.appendingPathComponent("rows.yaml"))
    let folder = try Tool.run("flowrun", ["test", ".", "--verbose"], directory: directory)
    #expect(folder.status == 0, "\(folder.stderr)")
    #expect(
      folder.stdout == """
        SKIP ./flow.yaml: a flow file, not a scenario table
        PASS ./rows.yaml:3 ends (s)
        1 passed, 0 failed

        """)
    let alone = try Tool.run("flowrun", ["test", "flow.yaml"], directory: directory)
    #expect(alone.status == 2)
    #expect(
      alone.stdout == """
        ERROR flow.yaml: not a valid scenario table
            flow.yaml:1:1: error: this is a flow file, not a scenario table: 'flowrun test' runs tables (a mapping \
        with 'flow' and 'cases'); run the flow with 'flowrun flow.yaml' [scenario]
        0 passed, 1 failed

        """)
  }

  @Test func aScenarioNamingAFileThatIsNotAFlowDoesNotQuoteIt() throws {
    let directory = try Tool.temporaryDirectory()
    let secret = directory.appendingPathComponent("secrets.yaml")
    try Data("token: hunter2-secret\nowner: someone\n".utf8).write(to: secret)
    let table = directory.appendingPathComponent("table.yaml")
    try Data("flow: secrets.yaml\ncases:\n  - name: one\n    source: s\n    commands: [next]\n".utf8).write(to: table)
    let result = try Tool.run("flowrun", ["test", table.path])
    #expect(result.status == 2)
    #expect(!result.stdout.contains("hunter2") && !result.stdout.contains("someone"), "\(result.stdout)")
    #expect(
      result.stdout == """
        ERROR \(table.path): its flow \(secret.path) has errors
            \(secret.path):1:1: error: not a flow file: expected a mapping with 'flow' and 'steps', found a mapping \
        without them [load]
        0 passed, 1 failed

        """, "\(result.stdout)")
  }

  @Test func aByteOrderMarkAndCRLFAreAcceptedInFlowsScriptsAndScenarios() throws {
    let directory = try Tool.temporaryDirectory()
    func bomAndCRLF(_ text: String) -> Data {
      Data([0xEF, 0xBB, 0xBF] + Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }
    let flow = directory.appendingPathComponent("tempoai.yaml")
    try bomAndCRLF(try String(contentsOfFile: Tool.packageRoot.path + "/flows/tempoai.yaml", encoding: .utf8))
      .write(to: flow)
    let lint = try Tool.run("flowlint", ["--strict", flow.path])
    #expect(lint.status == 0, "\(lint.stdout)")
    let script = directory.appendingPathComponent("script.txt")
    try bomAndCRLF("tap english\nstate\n").write(to: script)
    let run = try Tool.run("flowrun", [flow.path, "--script", script.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("language = \"en\""), "\(run.stdout)")
    let table = directory.appendingPathComponent("table.yaml")
    try bomAndCRLF(
      "flow: tempoai.yaml\ncases:\n  - name: english\n    source: s\n    commands: [tap english]\n"
        + "    expect:\n      path: [language, welcome]\n"
    ).write(to: table)
    let test = try Tool.run("flowrun", ["test", table.path])
    #expect(test.stdout.hasSuffix("1 passed, 0 failed\n"), "\(test.stdout)")
  }

  @Test func commandsPipedWithAByteOrderMarkAndCRLFAreRead() throws {
    let run = try Tool.run("flowrun", ["flows/tempoai.yaml"], stdin: "\u{FEFF}tap english\r\nstate\r\n")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("language = \"en\""), "\(run.stdout)")
  }

  @Test func aScriptInUTF16IsRefusedByName() throws {
    let directory = try Tool.temporaryDirectory()
    let script = directory.appendingPathComponent("script.txt")
    try Data([0xFF, 0xFE, 0x6E, 0x00]).write(to: script)
    let run = try Tool.run("flowrun", ["flows/tempoai.yaml", "--script", script.path])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "flowrun: cannot read the script: \(script.path): the file is UTF-16 (little-endian) (it starts with "
        + "its byte order mark); save it as UTF-8\n")
  }
  @Test func devNullIsAnEmptyScript() throws {
    let directory = try Tool.temporaryDirectory()
    let empty = directory.appendingPathComponent("empty.txt")
    try Data().write(to: empty)
    let fromEmptyFile = try Tool.run("flowrun", ["flows/tempoai.yaml", "--script", empty.path])
    let fromDevNull = try Tool.run("flowrun", ["flows/tempoai.yaml", "--script", "/dev/null"])
    #expect(fromDevNull.status == 0, "\(fromDevNull.stderr)")
    #expect(fromDevNull.stdout == fromEmptyFile.stdout)
    #expect(fromDevNull.stderr == fromEmptyFile.stderr)
  }
}
