import FlowCore
import FlowRuntime
import Foundation
import Testing

@Suite struct FlowRunTests {
  @Test func jsonTraceIsUsableFromScripts() throws {
    let result = try Tool.run(
      "flowrun",
      ["flows/anicca-v04.yaml", "--trace", "json", "--permission", "notifications=granted", "--restore", "empty"],
      stdin: "next\nnext\nchoose kind\nchoose 1\ninput wake=06:00\ntap request\n")
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    let entered = objects.filter { $0["type"] as? String == "enter" }.compactMap { $0["step"] as? String }
    #expect(entered == ["welcome", "value", "ideals", "struggles", "habitSetup", "notifications", "paywall"])
    let last = try #require(objects.last)
    #expect(last["type"] as? String == "end")
    #expect(last["outcome"] as? String == "paywall")
    #expect(last["step"] as? String == "paywall")
  }

  @Test func aRefusedScriptCommandStopsWithItsLineNumberAndStep() throws {
    let result = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--restore", "empty"], stdin: "next\nchoose nonsense\nnext\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("<stdin>:2: 'choose nonsense' was refused on step 'value'"), "\(result.stderr)")
  }

  @Test func theStoreSurvivesAcrossRunsAndRestart() throws {
    let directory = try Tool.temporaryDirectory()
    let state = directory.appendingPathComponent("state.json").path
    let first = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", state], stdin: "tap english\nnext\n")
    #expect(first.status == 0, "\(first.stderr)")
    let stored = try String(contentsOfFile: state, encoding: .utf8)
    #expect(stored.contains("\"SelectedLanguage\":\"en\""))
    // A second run is a relaunch: TempoAI restarts at page 0 but keeps the language.
    let second = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", state, "--trace", "json"], stdin: "state\n")
    #expect(second.stdout.contains("\"step\":\"language\""))
    #expect(second.stdout.contains("language: en"))
  }

  @Test func aCorruptedStateFileIsRefusedUntilResetMovesItAside() throws {
    let directory = try Tool.temporaryDirectory()
    let state = directory.appendingPathComponent("state.json")
    let damaged = "{\"SelectedLanguage\": \"en\", trunc"
    try Data(damaged.utf8).write(to: state)
    let refused = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", state.path], stdin: "state\n")
    #expect(refused.status == 2)
    #expect(
      refused.stderr == """
        flowrun: \(state.path):1:28: error: invalid JSON: expected a string key after ',', found 't' [load]
        the store cannot be read, and flowrun does not overwrite it; to start fresh, run again with --reset-state \
        (it moves the file aside to a backup first)

        """, "\(refused.stderr)")
    #expect(try String(contentsOf: state, encoding: .utf8) == damaged)

    let reset = try Tool.run(
      "flowrun", ["flows/tempoai.yaml", "--state", state.path, "--reset-state"], stdin: "state\n")
    #expect(reset.status == 0, "\(reset.stderr)")
    let backup = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("state.json.backup-") })
    #expect(
      reset.stderr
        == "flowrun: moved the old store \(state.path) aside to \(directory.path)/\(backup); starting from the flow's "
        + "defaults\n")
    #expect(try String(contentsOfFile: directory.path + "/" + backup, encoding: .utf8) == damaged)
    #expect(reset.stdout.contains("language = \"ja\""))
  }

  @Test func aFlowGivenAsTheStateFileIsRefusedAndNotChanged() throws {
    let directory = try Tool.temporaryDirectory()
    let copy = directory.appendingPathComponent("anicca-v03.yaml")
    try FileManager.default.copyItem(at: Tool.packageRoot.appendingPathComponent("flows/anicca-v03.yaml"), to: copy)
    let before = try Data(contentsOf: copy)
    for flags in [[], ["--reset-state"]] {
      let result = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", copy.path] + flags, stdin: "state\n")
      #expect(result.status == 2)
      #expect(result.stderr.contains("\(copy.path) is not a FlowKit store, so flowrun leaves it as it is"))
    }
    #expect(try Data(contentsOf: copy) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["anicca-v03.yaml"])
  }

  @Test func aSecondFlowrunOnTheSameStoreIsRefusedWhileTheFirstRuns() throws {
    let directory = try Tool.temporaryDirectory()
    let state = directory.appendingPathComponent("state.json").path
    let first = Process()
    first.executableURL = Tool.productsDirectory.appendingPathComponent("flowrun")
    first.arguments = ["flows/tempoai.yaml", "--state", state]
    first.currentDirectoryURL = Tool.packageRoot
    let input = Pipe()
    first.standardInput = input
    first.standardOutput = FileHandle.nullDevice
    first.standardError = FileHandle.nullDevice
    try first.run()
    defer {
      try? input.fileHandleForWriting.close()
      first.waitUntilExit()
    }
    // The first run creates the store (and holds its lock) before it reads a command.
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: state) && Date() < deadline { usleep(20_000) }
    let second = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", state], stdin: "tap english\n")
    #expect(second.status == 2)
    #expect(
      second.stderr
        == "flowrun: \(state): the store is in use by another flowrun (it holds the store's lock); wait for it to "
        + "end, or give this run another --state file\n")
    input.fileHandleForWriting.write(Data("tap english\n".utf8))
    try input.fileHandleForWriting.close()
    first.waitUntilExit()
    #expect(first.terminationStatus == 0)
    #expect(try FileStore.read(path: state)["SelectedLanguage"] == .string("en"))
  }

  @Test func aStoreThatCannotBeWrittenExits2WithThePathAndTheSystemError() throws {
    let result = try Tool.run(
      "flowrun", ["flows/tempoai.yaml", "--state", "/nonexistent-folder/state.json"], stdin: "state\n")
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix(
        "flowrun: /nonexistent-folder/state.json: cannot write the store: cannot create /nonexistent-folder/"),
      "\(result.stderr)")
    #expect(result.stderr.hasSuffix("(No such file or directory)\n"), "\(result.stderr)")
  }

  @Test func recordedSessionsRunAsScenarios() throws {
    let directory = try Tool.temporaryDirectory()
    let record = directory.appendingPathComponent("case.yaml").path
    let flow = Tool.packageRoot.appendingPathComponent("flows/anicca-v04.yaml").path
    let result = try Tool.run(
      "flowrun",
      [
        flow, "--record", record, "--auth", "success:name=Akira", "--restore", "empty", "--restore",
        "found:displayName=Akira",
      ],
      stdin: "tap restore\n")
    #expect(result.status == 0, "\(result.stderr)")
    let recorded = try String(contentsOfFile: record, encoding: .utf8)
    // `flow:` is relative to the recorded file's folder, so the table keeps working when both move.
    let line = recorded.split(separator: "\n").first { $0.hasPrefix("flow: ") } ?? ""
    let written = line.dropFirst("flow: \"".count).dropLast()
    #expect(!written.hasPrefix("/") && written.hasSuffix("flows/anicca-v04.yaml"), "\(line)")
    #expect(directory.appendingPathComponent(String(written)).standardizedFileURL.path == flow, "\(line)")
    let replay = try Tool.run("flowrun", ["test", record])
    #expect(replay.stdout.hasSuffix("1 passed, 0 failed\n"), "\(replay.stdout)")
  }

  /// A file that is there already is not replaced by `--record` or `--emit-scenarios` without `--force`, and that
  /// is said before the session or the exploration, not after it; with `--force` it is replaced.
  @Test func anExistingFileIsReplacedOnlyWithForce() throws {
    let directory = try Tool.temporaryDirectory()
    let mine = "# my notes\n"
    try Data(mine.utf8).write(to: directory.appendingPathComponent("case.yaml"))
    let flow = Tool.packageRoot.appendingPathComponent("flows/tempoai.yaml").path
    let refused = try Tool.run(
      "flowrun", [flow, "--record", "case.yaml"], stdin: "tap english\n", directory: directory)
    #expect(refused.status == 2)
    #expect(refused.stdout.isEmpty, "the session ran: \(refused.stdout)")
    #expect(
      refused.stderr == "flowrun: error: 'case.yaml' exists; add --force to replace it, or --record to another file\n")
    #expect(try String(contentsOf: directory.appendingPathComponent("case.yaml"), encoding: .utf8) == mine)
    let noFolder = try Tool.run(
      "flowrun", [flow, "--record", "drafts/case.yaml"], stdin: "tap english\n", directory: directory)
    #expect(noFolder.status == 2)
    #expect(noFolder.stdout.isEmpty, "the session ran: \(noFolder.stdout)")
    #expect(
      noFolder.stderr
        == "flowrun: error: cannot write 'drafts/case.yaml': there is no folder 'drafts'; make it first, or write "
        + "to another file\n")
    let replaced = try Tool.run(
      "flowrun", [flow, "--record", "case.yaml", "--force"], stdin: "tap english\n", directory: directory)
    #expect(replaced.status == 0, "\(replaced.stderr)")
    let recorded = try String(contentsOf: directory.appendingPathComponent("case.yaml"), encoding: .utf8)
    #expect(recorded.hasPrefix("# Recorded by flowrun"), "\(recorded)")

    let emitted = directory.appendingPathComponent("generated/tempoai.explore.yaml")
    try FileManager.default.createDirectory(
      at: emitted.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(mine.utf8).write(to: emitted)
    let notExplored = try Tool.run(
      "flowrun", ["explore", flow, "--emit-scenarios", "generated"], directory: directory)
    #expect(notExplored.status == 2)
    #expect(notExplored.stdout.isEmpty, "it explored: \(notExplored.stdout)")
    #expect(
      notExplored.stderr
        == "flowrun explore: error: 'generated/tempoai.explore.yaml' exists; add --force to replace it, or choose "
        + "another --emit-scenarios folder\n")
    #expect(try String(contentsOf: emitted, encoding: .utf8) == mine)
    let intoAFile = try Tool.run(
      "flowrun", ["explore", flow, "--emit-scenarios", "case.yaml", "--force"], directory: directory)
    #expect(intoAFile.status == 2)
    #expect(intoAFile.stdout.isEmpty, "it explored: \(intoAFile.stdout)")
    #expect(intoAFile.stderr == "flowrun explore: error: 'case.yaml' is not a folder; name a folder to write into\n")
    let explored = try Tool.run(
      "flowrun", ["explore", flow, "--emit-scenarios", "generated", "--force"], directory: directory)
    #expect(explored.status == 0, "\(explored.stderr)")
    #expect(try String(contentsOf: emitted, encoding: .utf8).hasPrefix("# Generated by `flowrun explore"))
  }

  /// A run that runs no case is not a pass: a folder with no table, or a filter that matches no case, is exit 2
  /// with what to check.
  @Test func nothingRunIsAnError() throws {
    let directory = try Tool.temporaryDirectory()
    try FileManager.default.copyItem(
      at: Tool.packageRoot.appendingPathComponent("flows/tempoai.yaml"),
      to: directory.appendingPathComponent("tempoai.yaml"))
    let noTable = try Tool.run("flowrun", ["test", directory.path])
    #expect(noTable.status == 2)
    #expect(noTable.stdout == "0 passed, 0 failed\n")
    #expect(
      noTable.stderr
        == "flowrun test: error: no scenario table in '\(directory.path)'; a table is a YAML file with 'flow:' and "
        + "'cases:' (flow files are left out; --verbose names them)\n")
    let noCase = try Tool.run("flowrun", ["test", "Tests/Scenarios/tempoai.yaml", "--filter", "no such case"])
    #expect(noCase.status == 2)
    #expect(
      noCase.stderr
        == "flowrun test: error: no case of the 1 table in 'Tests/Scenarios/tempoai.yaml' matches --filter "
        + "'no such case' (it matches a case's name or source text)\n")
  }

  /// `--force` alone is a usage mistake: there is nothing for it to replace.
  @Test(arguments: [
    (["flows/tempoai.yaml", "--force"], "Error: '--force' needs '--record FILE'."),
    (["explore", "flows/tempoai.yaml", "--force"], "Error: '--force' needs '--emit-scenarios DIR'."),
  ])
  func forceWithoutAFileIsAUsageMistake(_ arguments: [String], _ message: String) throws {
    let result = try Tool.run("flowrun", arguments, stdin: "")
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").first.map(String.init) == message, "\(result.stderr)")
  }

  @Test func aFlowWithErrorsIsRefusedWithExitCode2() throws {
    let directory = try Tool.temporaryDirectory()
    let flow = directory.appendingPathComponent("broken.yaml")
    try Data("flow: x\nversion: '1'\nlocales: [en]\nstart: nowhere\nsteps:\n  a: { kind: screen }\n".utf8).write(
      to: flow)
    let result = try Tool.run("flowrun", [flow.path], stdin: "")
    #expect(result.status == 2)
    #expect(result.stderr.contains("broken.yaml:4:8"), "\(result.stderr)")
  }

  @Test(arguments: [
    ["--bogus", "flows/tempoai.yaml"], ["graph"], ["explore", "flows/tempoai.yaml", "--max-states", "x"],
    ["test", "--min-coverage", "abc"], ["flows/tempoai.yaml", "--clock", "25:00"],
    ["explore", "flows/tempoai.yaml", "--history-depth", "101"],
    ["explore", "flows/tempoai.yaml", "--max-states", "0"],
    ["explore", "flows/tempoai.yaml", "--max-depth", "-1"],
    ["explore", "flows/tempoai.yaml", "--jobs", "0"],
    ["explore", "flows/tempoai.yaml", "--one-thread-first", "-1"],
  ])
  func aUsageMistakeExitsWith2(_ arguments: [String]) throws {
    let result = try Tool.run("flowrun", arguments, stdin: "")
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
  }

  /// A negative limit is out of range, not an option `-1` that leaves the limit without a value; a coverage
  /// bound that is no percentage (500 would fail every flow, `nan` pass every one) is refused before anything runs.
  @Test(arguments: [
    (["explore", "flows/tempoai.yaml", "--jobs", "-1"], "--jobs -1 is out of range; it must be between 1 and 256"),
    (
      ["explore", "flows/tempoai.yaml", "--max-states", "-5"],
      "--max-states -5 is out of range; it must be between 1 and 1000000000"
    ),
    (
      ["test", "--min-coverage", "-5"],
      "--min-coverage -5.0 is out of range; it must be a percentage between 0 and 100, e.g. 90"
    ),
    (
      ["test", "--min-coverage", "500"],
      "--min-coverage 500.0 is out of range; it must be a percentage between 0 and 100, e.g. 90"
    ),
    (
      ["test", "--min-coverage", "nan"],
      "--min-coverage nan is out of range; it must be a percentage between 0 and 100, e.g. 90"
    ),
  ])
  func aNumberOutOfRangeIsNamed(_ arguments: [String], _ message: String) throws {
    let result = try Tool.run("flowrun", arguments, stdin: "")
    #expect(result.status == 2)
    #expect(result.stderr.split(separator: "\n").first.map(String.init) == "Error: " + message, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// ArgumentParser would report the missing flow first; the unknown option is the mistake to name.
  @Test(arguments: [
    (["--bogus"], "run [<options>] <flow>", "run"),
    (["--reviw"], "run [<options>] <flow>", "run"),
    (["diff", "--bogus"], "diff <old> <new> [--format <format>]", "diff"),
  ])
  func anUnknownOptionIsNamedEvenWithoutAFlow(_ arguments: [String], _ usage: String, _ command: String) throws {
    let result = try Tool.run("flowrun", arguments, stdin: "")
    let option = arguments.last ?? ""
    let suggestion = option == "--reviw" ? ". Did you mean '--review'?" : ""
    #expect(result.status == 2)
    #expect(
      result.stderr == """
        Error: Unknown option '\(option)'\(suggestion)
        Usage: flowrun \(usage)
          See 'flowrun \(command) --help' for more information.

        """)
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    (
      ["flows/tempoai.yaml", "--permission", "helthKit=denied"],
      "Error: unknown permission 'helthKit' in --permission; did you mean 'healthKit'? (the flow asks for: 'healthKit', 'location')\n"
    ),
    (
      ["flows/anicca-v03.yaml", "--env", "osVersio=26"],
      "Error: unknown environment fact 'osVersio' in --env; did you mean 'osVersion'? (the flow declares: 'alarmKitAvailable', 'locale', 'osVersion')\n"
    ),
    (["flows/tempoai.yaml", "--lang", "fr"], "Error: unknown locale 'fr' in --lang (the flow has: 'en', 'ja')\n"),
    (
      ["flows/anicca-v01.yaml", "--review", "shown"],
      "Error: --review: the flow never performs 'request-review', so nothing would read this answer\n"
    ),
    (
      ["flows/anicca-v04.yaml", "--review", "suppressed"],
      "Error: --review: the flow never performs 'request-review', so nothing would read this answer\n"
    ),
  ])
  func aFlagTheFlowDoesNotDeclareExitsWith2(_ arguments: [String], _ message: String) throws {
    let directory = try Tool.temporaryDirectory()
    let state = directory.appendingPathComponent("state.json").path
    let result = try Tool.run("flowrun", arguments + ["--state", state], stdin: "next\n")
    #expect(result.status == 2)
    #expect(result.stderr == message)
    #expect(result.stdout.isEmpty)
    // Refused before the store is opened: nothing is created.
    #expect(!FileManager.default.fileExists(atPath: state))
  }

  /// anicca-v03 asks for a review when habitSetup is left: `--review` is accepted and changes nothing before.
  @Test func reviewIsAcceptedForAFlowThatRequestsOne() throws {
    let plain = try Tool.run("flowrun", ["flows/anicca-v03.yaml"], stdin: "next\n")
    let reviewed = try Tool.run("flowrun", ["flows/anicca-v03.yaml", "--review", "suppressed"], stdin: "next\n")
    #expect(plain.status == 0)
    #expect(reviewed.status == 0)
    #expect(reviewed.stderr == plain.stderr)
    #expect(reviewed.stdout == plain.stdout)
    #expect(!reviewed.stdout.isEmpty)
  }

  /// The start-up fetch asks by the device id while the user is anonymous (seed 002 patch 6): the one action
  /// performed at launch carries it.
  @Test func theStartUpFetchAsksByTheDeviceIDWhileAnonymous() throws {
    let result = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--restore", "empty", "--env", "deviceId=device-42", "--trace", "json"],
      stdin: "")
    #expect(result.status == 0, "\(result.stderr)")
    let performed = result.stdout.split(separator: "\n").filter { $0.contains(#""effect":"perform""#) }
    #expect(
      performed == [
        #"{"action":"restore-profile","arguments":{"userId":"device-42"},"effect":"perform","#
          + #""summary":"perform restore-profile {userId: \"device-42\"}","type":"effect"}"#
      ])
  }

  /// Anicca v0.4 fetches the profile at launch (seed 002 patch 6): unanswered, the run stops before the first
  /// screen and names the flag.
  @Test func anUnansweredLaunchActionStopsBeforeTheFirstScreen() throws {
    let result = try Tool.run("flowrun", ["flows/anicca-v04.yaml"], stdin: "next\n")
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "flowrun: the flow shows a system dialog ('restore-profile?') that no flag answers, and standard input "
        + "is not a terminal to ask on; script the answer with --restore OUTCOME (one of found, empty, error)\n")
    let answered = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--restore", "found:displayName=Mei"], stdin: "state\n")
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout.contains("  displayName = \"Mei\"  (persisted as com.anicca.userProfile.displayName)\n"))
  }

  @Test func anUnscriptedDialogWithoutATerminalNamesTheFlagToScriptIt() throws {
    let commands = "next\nnext\nchoose kind\nchoose 1\ninput wake=06:00\ntap request\n"
    let result = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--trace", "json", "--restore", "empty"], stdin: commands)
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "flowrun: <stdin>:6: the flow shows a system dialog ('Allow notifications?') that no flag answers, and "
        + "standard input is not a terminal to ask on; script the answer with --permission notifications=OUTCOME "
        + "(one of granted, denied, partial, error, timeout)\n")
    // Nothing was granted: the trace has no answer to the dialog.
    #expect(!result.stdout.contains("granted"), "\(result.stdout)")
    let scripted = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--permission", "notifications=granted", "--restore", "empty"],
      stdin: commands)
    #expect(scripted.status == 0, "\(scripted.stderr)")
  }

  @Test func anExplorationOutOfRangeNamesTheLimitAndTheRange() throws {
    let result = try Tool.run("flowrun", ["explore", "flows/tempoai.yaml", "--history-depth", "1000"], stdin: "")
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("Error: --history-depth 1000 is out of range; it must be between 0 and 100\n"),
      "\(result.stderr)")
  }

  @Test func theJobsAreARangeAndDoNotChangeTheReport() throws {
    let result = try Tool.run("flowrun", ["explore", "flows/tempoai.yaml", "--jobs", "257"], stdin: "")
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("Error: --jobs 257 is out of range; it must be between 1 and 256\n"), "\(result.stderr)")
    let one = try Tool.run("flowrun", ["explore", "flows/tempoai.yaml", "--jobs", "1"], stdin: "")
    let three = try Tool.run(
      "flowrun", ["explore", "flows/tempoai.yaml", "--jobs", "3", "--one-thread-first", "100"], stdin: "")
    #expect(one.status == 0 && three.status == 0)
    #expect(one.stdout.hasPrefix("tempoai-onboarding 1.0.0: 1276 states"), "\(one.stdout)")
    #expect(three.stdout == one.stdout)
  }

  /// The summary line says how many parts and threads explored: Tests/Flows/experiments.yaml has four sets of
  /// variants, so two jobs make two parts, and six jobs four parts and two threads no part needs (too few states
  /// wait in any part for a batch, so none takes one).
  @Test func theSummaryLineCountsThePartsAndTheThreads() throws {
    // The report is one thread's but for its memory line (each part keeps its own states).
    func report(_ stdout: String) -> [Substring] { stdout.split(separator: "\n").filter { !$0.hasPrefix("memory:") } }
    let one = try Tool.run("flowrun", ["explore", "Tests/Flows/experiments.yaml"], stdin: "")
    for (jobs, parts) in [("2", "2 parts on as many threads"), ("6", "4 parts on 6 threads")] {
      let result = try Tool.run("flowrun", ["explore", "Tests/Flows/experiments.yaml", "--jobs", jobs], stdin: "")
      #expect(result.status == 0 && report(result.stdout) == report(one.stdout), "\(result.stderr)")
      let summary = try Regex(
        #"^explored 24 states and 64 moves in [0-9]+\.[0-9]{2} s \([0-9]+ states/s\)(, [0-9]+ MB peak resident)?, in "#
          + parts + #"\n$"#)
      #expect(result.stderr.wholeMatch(of: summary) != nil, "\(result.stderr)")
    }
  }

  @Test func anExplorationStoppedAtALimitSaysSoAndExitsWith1() throws {
    let result = try Tool.run("flowrun", ["explore", "flows/tempoai.yaml", "--max-states", "20"], stdin: "")
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "tempoai-onboarding 1.0.0: 20 states, 22 moves from 16 launch setups (explored 20 states, stopped at the "
          + "limit (--max-states 20): the results below are partial; raise the limit to see everything)\n"),
      "\(result.stdout)")
    // Standard error is not a terminal here: no progress line, only the summary (time and memory vary).
    let summary = try Regex(
      #"^explored 20 states and 22 moves in [0-9]+\.[0-9]{2} s \([0-9]+ states/s\)(, [0-9]+ MB peak resident)?\n$"#)
    #expect(result.stderr.wholeMatch(of: summary) != nil, "\(result.stderr)")
  }

  @Test func everyCommandPrintsTheDiagnosticsOfABrokenFlowWithCarets() throws {
    let directory = try Tool.temporaryDirectory()
    let flow = directory.appendingPathComponent("broken.yaml")
    try Data("flow: x\nversion: '1'\nlocales: [en]\nstart: nowhere\nsteps:\n  a: { kind: screen }\n".utf8).write(
      to: flow)
    let expected = try Tool.run("flowrun", [flow.path], stdin: "").stderr
    #expect(expected.contains("start: nowhere\n       ^"), "\(expected)")
    for arguments in [["explore", flow.path], ["graph", flow.path], ["diff", flow.path, "flows/tempoai.yaml"]] {
      let result = try Tool.run("flowrun", arguments)
      #expect(result.status == 2)
      #expect(result.stderr == expected, "\(arguments)")
    }
  }

  @Test func aRuntimeFailureNamesTheFlowFileAndThePositionOfWhatFailed() throws {
    let directory = try Tool.temporaryDirectory()
    let flow = directory.appendingPathComponent("divide.yaml")
    try Data(
      """
      flow: divide
      version: "1"
      locales: [en]
      strings:
        en: {divide: Divide}
      variables:
        n: {type: int, default: 0}
        m: {type: int, default: 0, persist: M}
      start: welcome
      steps:
        welcome:
          kind: screen
          buttons:
            divide:
              label: divide
              effects:
                - set: m
                  value: 10 / n
              to: done
        done: {kind: terminal, outcome: completed}

      """.utf8
    ).write(to: flow)
    let result = try Tool.run("flowrun", [flow.path], stdin: "tap divide\n")
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "\(flow.path):18:20: error: cannot evaluate '10 / n': division by zero (the flow failed on step "
        + "'welcome', at line 1 of the commands)\n", "\(result.stderr)")
  }

  @Test func unknownCommandsSuggestTheNearestOne() throws {
    let result = try Tool.run("flowrun", ["flows/tempoai.yaml"], stdin: "nxet\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("unknown command 'nxet'; did you mean 'next'?"), "\(result.stderr)")
  }
}

@Suite struct FlowRunCommandNumberTests {
  @Test func waitBeyondAYearIsRefusedWithTheRangeNotACrash() throws {
    let script = try Tool.temporaryDirectory().appendingPathComponent("wait.txt").path
    try "wait 1e19\nstate\n".write(toFile: script, atomically: true, encoding: .utf8)
    let result = try Tool.run("flowrun", ["flows/anicca-v04.yaml", "--restore", "empty", "--script", script])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "\(script):1: wait: 1e19 is out of range; seconds must be a number from 0 to 31536000 (one year)\n")
  }

  @Test func anExtremeOptionNumberIsAnUnknownOption() throws {
    let result = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--restore", "empty"], stdin: "next\nchoose -9223372036854775808\nstate\n")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("<stdin>:2: 'choose -9223372036854775808' was refused on step 'value'"), "\(result.stderr)"
    )
  }
}
