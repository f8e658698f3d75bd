import FlowCore
import FlowRuntime
import Foundation
import Testing

/// Flags and scenario settings are checked against what the flow declares (issue 11, deliverable 7).
@Suite struct FlowNamesTests {
  static let flow = """
    flow: names
    version: "1"
    locales: [en, ja]
    start: ask
    environment:
      osVersion: { type: int, default: 18 }
      beta: { type: bool, default: false }
    permissions: [healthKit, location]
    steps:
      ask:
        kind: permission
        permission: healthKit
        on: { granted: signIn, denied: signIn }
      signIn:
        kind: action
        action: sign-in-with-apple
        on:
          success: { to: done, effects: [{ requestReview: true }] }
          failure: done
          cancelled: done
      done:
        kind: terminal
        outcome: completed
    """

  func setup(
    env: [String] = [], permission: [String] = [], status: [String] = [], auth: [String] = [],
    restore: [String] = [], review: [String] = [], answer: [String] = []
  ) -> SessionSetup {
    var answers = answer.compactMap(ActionFlag.init(answer:))
    for (spelling, texts) in zip(ActionFlag.spellings, [auth, restore, review]) {
      answers += texts.map { ActionFlag(flag: spelling.flag, action: spelling.action, text: $0) }
    }
    return SessionSetup(
      environment: env, permissionAnswers: permission, permissionStatuses: status, actionAnswers: answers, clock: nil,
      store: nil, interactive: false)
  }

  @Test(arguments: [
    (
      ["--permission", "helthKit=denied"],
      "unknown permission 'helthKit' in --permission; did you mean 'healthKit'? (the flow asks for: 'healthKit', 'location')"
    ),
    (
      ["--permission", "healthKit=grnted"],
      "unknown outcome 'grnted' in --permission healthKit; did you mean 'granted'? ('request-permission' answers one of: 'denied', 'error', 'granted', 'partial', 'timeout', 'unavailable')"
    ),
    (
      ["--permission-status", "camera=denied"],
      "unknown permission 'camera' in --permission-status (the flow asks for: 'healthKit', 'location')"
    ),
    (
      ["--env", "osVersio=26"],
      "unknown environment fact 'osVersio' in --env; did you mean 'osVersion'? (the flow declares: 'beta', 'osVersion')"
    ),
    (["--env", "osVersion=abc"], "the environment fact 'osVersion' in --env is an int; found 'abc'"),
    (["--env", "beta=1"], "the environment fact 'beta' in --env is a bool; found '1'"),
    (
      ["--env", "osVersion=99999999999999999999"],
      "the integer 99999999999999999999 in --env osVersion is out of range; integers must be between -9223372036854775808 and 9223372036854775807"
    ),
    (
      ["--env", "osVersion=-9223372036854775809"],
      "the integer -9223372036854775809 in --env osVersion is out of range; integers must be between -9223372036854775808 and 9223372036854775807"
    ),
    (
      ["--auth", "sucess"],
      "unknown outcome 'sucess' in --auth; did you mean 'success'? ('sign-in-with-apple' answers one of: 'cancelled', 'failure', 'success')"
    ),
    (
      ["--auth", "success:name=99999999999999999999"],
      "the integer 99999999999999999999 in --auth name is out of range; integers must be between -9223372036854775808 and 9223372036854775807"
    ),
    (
      ["--auth", "success:nme=Akira"],
      "unknown result field 'nme' in --auth: outcome 'success' of 'sign-in-with-apple' does not return it; did you mean 'name'? (it returns 'name', 'userId')"
    ),
    (
      ["--auth", "failure:name=Akira"],
      "unknown result field 'name' in --auth: outcome 'failure' of 'sign-in-with-apple' does not return it (it returns no result)"
    ),
    (
      ["--answer", "sign-in-with-aple=success"],
      "unknown action 'sign-in-with-aple' in --answer sign-in-with-aple; did you mean 'sign-in-with-apple'? (the flow declares: 'purchase', 'request-review', 'restore-profile', 'restore-purchases', 'sign-in-with-apple')"
    ),
    (
      ["--answer", "purchase=purchased"],
      "--answer purchase: the flow never performs 'purchase', so nothing would read this answer"
    ),
    (
      ["--restore", "found"], "--restore: the flow never performs 'restore-profile', so nothing would read this answer"
    ),
    (
      ["--review", "shwn"],
      "unknown outcome 'shwn' in --review; did you mean 'shown'? ('request-review' answers one of: 'shown', 'suppressed')"
    ),
  ])
  func aFlagTheFlowDoesNotDeclareIsNamedWithASuggestion(_ flag: [String], _ message: String) throws {
    let flow = try compileFlow(Self.flow)
    let value = [flag[1]]
    let setup: SessionSetup
    switch flag[0] {
    case "--permission": setup = self.setup(permission: value)
    case "--permission-status": setup = self.setup(status: value)
    case "--env": setup = self.setup(env: value)
    case "--auth": setup = self.setup(auth: value)
    case "--answer": setup = self.setup(answer: value)
    case "--restore": setup = self.setup(restore: value)
    default: setup = self.setup(review: value)
    }
    #expect(setup.problems(with: flow, lang: nil) == [message])
  }

  /// A review is requested by an effect, which may be written anywhere effects are; `--review` is accepted
  /// exactly when one is.
  @Test(arguments: [
    "hooks: { launch: [{ requestReview: true }] }",
    "hooks: { advance: [{ requestReview: true }] }",
    "hooks: { enter: [{ requestReview: true }] }",
    "reset: { effects: [{ requestReview: true }] }",
  ])
  func aReviewRequestedAnywhereAcceptsReview(_ hook: String) throws {
    let flow = try compileFlow(Self.bare + "\n" + hook)
    #expect(setup(review: ["shown"]).problems(with: flow, lang: nil).isEmpty)
  }

  @Test func reviewIsRefusedForAFlowThatNeverRequestsOne() throws {
    let flow = try compileFlow(Self.bare)
    #expect(
      setup(review: ["shown"]).problems(with: flow, lang: nil) == [
        "--review: the flow never performs 'request-review', so nothing would read this answer"
      ])
  }

  /// A flow with one terminal step and nothing else.
  static let bare = """
    flow: bare
    version: "1"
    locales: [en]
    start: done
    steps:
      done: { kind: terminal, outcome: completed }
    """

  @Test func anUnknownLocaleIsNamedWithTheFlowsLocales() throws {
    let flow = try compileFlow(Self.flow)
    #expect(setup().problems(with: flow, lang: "fr") == ["unknown locale 'fr' in --lang (the flow has: 'en', 'ja')"])
    #expect(
      setup().problems(with: flow, lang: "jp") == [
        "unknown locale 'jp' in --lang; did you mean 'ja'? (the flow has: 'en', 'ja')"
      ])
  }

  @Test func flagsTheFlowDeclaresPass() throws {
    let flow = try compileFlow(Self.flow)
    let setup = self.setup(
      env: ["osVersion=26", "beta=true"], permission: ["healthKit=partial"], status: ["location=denied"],
      auth: ["success:name=Akira,userId=30"], review: ["suppressed"])
    #expect(setup.problems(with: flow, lang: "ja").isEmpty)
  }

  @Test func aFlowWithoutFactsOrPermissionsSaysSo() throws {
    let flow = try compileFlow(Self.bare)
    #expect(
      setup(env: ["x=1"], permission: ["camera=granted"]).problems(with: flow, lang: nil) == [
        "unknown environment fact 'x' in --env (the flow declares no environment fact)",
        "unknown permission 'camera' in --permission (the flow asks for no permission)",
      ])
  }

  @Test func scenarioSettingsTheFlowDoesNotDeclareAreNamedWithTheirPosition() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Self.flow.write(toFile: directory + "/f.yaml", atomically: true, encoding: .utf8)
    let table = """
      flow: f.yaml
      cases:
        - name: typos
          source: "issue 11"
          env: { osVersio: 26, beta: "yes" }
          permissions: { helthKit: denied }
          commands: []
          expect: { at: ask }
      """
    try table.write(toFile: directory + "/t.yaml", atomically: true, encoding: .utf8)
    var printed: [String] = []
    let summary = await ScenarioSuite.run(files: [directory + "/t.yaml"], filter: nil, verbose: false) {
      printed.append($0)
    }
    #expect(summary.unreadable == 1)
    #expect(summary.failed == 1)
    let path = directory + "/t.yaml"
    #expect(
      printed == [
        "ERROR \(path):3 typos (issue 11): the case does not fit its flow",
        "    \(path):5:12: unknown environment fact 'osVersio' in env; did you mean 'osVersion'? (the flow declares: 'beta', 'osVersion')",
        "    \(path):5:26: the environment fact 'beta' in env is a bool; found \"yes\"",
        "    \(path):6:20: unknown permission 'helthKit' in permissions; did you mean 'healthKit'? (the flow asks for: 'healthKit', 'location')",
      ])
  }
}
