import Foundation
import Testing

@Suite struct FlowRunTests {
  @Test func jsonTraceIsUsableFromScripts() throws {
    let result = try Tool.run(
      "flowrun", ["flows/anicca-v04.yaml", "--trace", "json", "--permission", "notifications=granted"],
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
    let result = try Tool.run("flowrun", ["flows/anicca-v04.yaml"], stdin: "next\nchoose nonsense\nnext\n")
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

  @Test func aCorruptedStateFileIsReplacedByDefaultsWithAWarning() throws {
    let directory = try Tool.temporaryDirectory()
    let state = directory.appendingPathComponent("state.json")
    try Data("{\"SelectedLanguage\": \"en\", trunc".utf8).write(to: state)
    let result = try Tool.run("flowrun", ["flows/tempoai.yaml", "--state", state.path], stdin: "state\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("warning: the store could not be read"))
    #expect(result.stdout.contains("language = \"ja\""))
  }

  @Test func recordedSessionsRunAsScenarios() throws {
    let directory = try Tool.temporaryDirectory()
    let record = directory.appendingPathComponent("case.yaml").path
    let flow = Tool.packageRoot.appendingPathComponent("flows/anicca-v04.yaml").path
    let result = try Tool.run(
      "flowrun", [flow, "--record", record, "--auth", "success:name=Akira", "--restore", "found:displayName=Akira"],
      stdin: "tap restore\n")
    #expect(result.status == 0, "\(result.stderr)")
    let replay = try Tool.run("flowrun", ["test", record])
    #expect(replay.stdout.hasSuffix("1 passed, 0 failed\n"), "\(replay.stdout)")
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

  @Test func unknownCommandsSuggestTheNearestOne() throws {
    let result = try Tool.run("flowrun", ["flows/tempoai.yaml"], stdin: "nxet\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("unknown command 'nxet'; did you mean 'next'?"), "\(result.stderr)")
  }
}
