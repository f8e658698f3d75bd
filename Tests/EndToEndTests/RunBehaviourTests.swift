import Foundation
import Testing

/// How a run behaves, seen whole through `flowrun`'s output: each test runs the smallest flow that shows one
/// behaviour (issue 15) and compares everything flowrun printed.
@Suite struct RunBehaviourTests {
  /// Runs `flowrun FLOW ARGUMENTS` on `flow` written to a temporary file, with `commands` on standard input.
  static func flowrun(_ flow: String, _ arguments: [String] = [], commands: String) throws -> Tool.Result {
    let directory = try Tool.temporaryDirectory()
    try Data(flow.utf8).write(to: directory.appendingPathComponent("flow.yaml"))
    return try Tool.run("flowrun", ["flow.yaml"] + arguments, stdin: commands, directory: directory)
  }

  static let header = """
    flow: t
    version: "1"
    locales: [en]

    """

  /// Issue 15, item 1: back from the step an action's outcome led to landed on the action step, whose action
  /// does not run again, and left the user there with only `back`.
  @Test func backPassesOverAnActionStep() throws {
    let flow =
      Self.header + """
        start: welcome
        back: true
        steps:
          welcome: {kind: screen, next: signIn}
          signIn:
            kind: action
            action: sign-in-with-apple
            on: {success: profile, failure: welcome, cancelled: welcome}
          profile: {kind: screen, next: done}
          done: {kind: terminal, outcome: completed}
        """
    let result = try Self.flowrun(
      flow, ["--auth", "success", "--auth", "cancelled"], commands: "next\nback\nnext\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⤷ launch → welcome: start
        ┌ welcome · screen · en
        │  ▸ Next  [next]
        └ back: not available
        › next
          ◆ sign-in-with-apple: success (system dialog)
        ┌ profile · screen · en
        │  ▸ Next  [next]
        └ back: available
        › back
          ← back from profile to welcome
        ┌ welcome · screen · en
        │  ▸ Next  [next]
        └ back: not available
        › next
          ◆ sign-in-with-apple: cancelled (system dialog)
        ┌ welcome · screen · en
        │  ▸ Next  [next]
        └ back: not available

        """, "\(result.stdout)")
  }

  static let permissions =
    header + """
      permissions: [notifications, healthKit]
      start: notify
      steps:
        notify: {kind: permission, permission: notifications, next: health}
        health: {kind: permission, permission: healthKit, next: done}
        done: {kind: terminal, outcome: completed}
      """

  /// Issue 15, item 3: a partial grant became a full one (a second request answered `granted (no dialog)` and
  /// left the scripted answers unused; a relaunch read `granted`). Notifications ask again after a partial
  /// (provisional) grant; HealthKit answers partial again at once; both stay partial across a relaunch.
  @Test func aPartialGrantStaysPartial() throws {
    let result = try Self.flowrun(
      Self.permissions,
      [
        "--permission", "notifications=partial", "--permission", "notifications=granted", "--permission",
        "healthKit=partial",
      ], commands: "tap request\ntap request\nnext\ntap request\ntap request\nrestart\nstate\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⤷ launch → notify: start
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission notifications: partial (system dialog)
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission notifications: granted (system dialog)
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › next
        ┌ health · permission · en
        │  ▸ Allow healthKit  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission healthKit: partial (system dialog)
        ┌ health · permission · en
        │  ▸ Allow healthKit  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission healthKit: partial (no dialog)
        ┌ health · permission · en
        │  ▸ Allow healthKit  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › restart
          ⤷ launch → notify: start
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › state
        step: notify
        language: en
        variables:
        permissions:
          healthKit = partial
          notifications = granted
        store (at launch, updated by writes):
        clock: 09:00

        """, "\(result.stdout)")
  }

  /// Issue 15, item 3: `partial` was refused as a launch status, and a scripted `unavailable` was printed as a
  /// system dialog and asked again. The recording scripts the `unavailable` answer (it came from the script, not
  /// from a status) and replays as recorded.
  @Test func unavailableIsNoDialogAndIsNeverAskedAgain() throws {
    let directory = try Tool.temporaryDirectory()
    try Data(Self.permissions.utf8).write(to: directory.appendingPathComponent("flow.yaml"))
    let result = try Tool.run(
      "flowrun",
      [
        "flow.yaml", "--permission", "notifications=unavailable", "--permission-status", "healthKit=partial",
        "--record", "recorded.yaml",
      ], stdin: "tap request\nrestart\ntap request\nstate\n", directory: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⤷ launch → notify: start
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission notifications: unavailable (no dialog)
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › restart
          ⤷ launch → notify: start
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › tap request
          ◆ request-permission notifications: unavailable (no dialog)
        ┌ notify · permission · en
        │  ▸ Allow notifications  [tap request]
        │  ▸ Next  [next]
        └ back: not available
        › state
        step: notify
        language: en
        variables:
        permissions:
          healthKit = partial
          notifications = unavailable
        store (at launch, updated by writes):
        clock: 09:00

        """, "\(result.stdout)")
    let recorded = try String(contentsOf: directory.appendingPathComponent("recorded.yaml"), encoding: .utf8)
    #expect(
      recorded.split(separator: "\n").drop { !$0.hasPrefix("    permissions:") }.joined(separator: "\n") == """
            permissions: {healthKit: partial}
            answers:
              notifications: [unavailable]
            commands:
              - "tap request"
              - "restart"
              - "tap request"
            expect:
              path: ["notify", "notify"]
              events: []
              at: "notify"
              ended: false
        """, "\(recorded)")
    let replay = try Tool.run("flowrun", ["test", "recorded.yaml"], directory: directory)
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
  }

  /// Issue 15, item 9: `advance` fired for routes that chose `stay` but not for a button that stays, and a
  /// timer followed `next` while `next` was disabled. Now it fires only for a move that leaves the step (the
  /// table in docs/language.md), and a timer waits for `next` to be enabled.
  @Test func advanceFiresOnlyWhenAMoveLeavesTheStepAndTimersWaitForNext() throws {
    let flow =
      Self.header + """
        variables:
          tries: {type: int, default: 0}
          ok: {type: bool, default: false}
        hooks:
          advance:
            - track: advanced
              properties: {from: step.id}
        strings:
          en: {again: Again, allow: Allow}
        start: a
        steps:
          a:
            kind: screen
            next:
              to:
                - when: tries >= 2
                  to: b
                - to: stay
              effects:
                - set: tries
                  value: tries + 1
            buttons:
              again: {label: again, to: stay}
          b:
            kind: screen
            next: {to: done, enabled: ok}
            autoAdvance: {after: 2}
            buttons:
              allow: {label: allow, to: stay, effects: [{set: ok, value: "true"}]}
          done: {kind: terminal, outcome: completed}
        """
    let result = try Self.flowrun(flow, commands: "next\ntap again\nnext\nwait 5\ntap allow\nwait 2\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⤷ launch → a: start
        ┌ a · screen · en
        │  ▸ Again  [tap again]
        │  ▸ Next  [next]
        └ back: not available
        › next
          • set tries 1
          ⤷ a → stay: otherwise
        ┌ a · screen · en
        │  ▸ Again  [tap again]
        │  ▸ Next  [next]
        └ back: not available
        › tap again
        ┌ a · screen · en
        │  ▸ Again  [tap again]
        │  ▸ Next  [next]
        └ back: not available
        › next
          • track advanced {from: "a"}
          • set tries 2
          ⤷ a → b: tries >= 2 → 2 >= 2 → true
        ┌ b · screen · en
        │  ▸ Allow  [tap allow]
        │  ▸ Next  [next]  (disabled)
        └ back: not available
        › wait 5
        ┌ b · screen · en
        │  ▸ Allow  [tap allow]
        │  ▸ Next  [next]  (disabled)
        └ back: not available
        › tap allow
          • set ok true
        ┌ b · screen · en
        │  ▸ Allow  [tap allow]
        │  ▸ Next  [next]
        └ back: not available
        › wait 2
          • track advanced {from: "b"}
        ■ the flow ended at 'done' (completed)
        ┌ done · terminal · en
        └ back: not available

        """, "\(result.stdout)")
  }

  /// Issue 15, item 5: the trace explained a route with the values its own effects had already changed, so the
  /// route taken showed as false (`attempts == 0 → 1 == 0 → false`), in text and in `--trace json`.
  @Test func aRouteIsExplainedWithTheValuesItWasChosenWith() throws {
    let flow =
      Self.header + """
        variables:
          attempts: {type: int, default: 0}
        start: a
        steps:
          a:
            kind: screen
            next:
              to:
                - when: attempts == 0
                  to: stay
                  effects: [{set: attempts, value: attempts + 1}]
                - to: done
          done: {kind: terminal, outcome: completed}
        """
    let text = try Self.flowrun(flow, commands: "next\nnext\n")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout == """
          ⤷ launch → a: start
        ┌ a · screen · en
        │  ▸ Next  [next]
        └ back: not available
        › next
          ⤷ a → stay: attempts == 0 → 0 == 0 → true
          • set attempts 1
        ┌ a · screen · en
        │  ▸ Next  [next]
        └ back: not available
        › next
          ⤷ a → done: otherwise
        ■ the flow ended at 'done' (completed)
        ┌ done · terminal · en
        └ back: not available

        """, "\(text.stdout)")
    let json = try Self.flowrun(flow, ["--trace", "json"], commands: "next\nnext\n")
    #expect(json.status == 0, "\(json.stderr)")
    #expect(
      json.stdout == """
        {"from":"launch","to":"a","type":"route","why":"start"}
        {"from":"launch","route":"route","to":"a","type":"move"}
        {"step":"a","type":"enter"}
        {"from":"a","to":"stay","type":"route","why":"attempts == 0 → 0 == 0 → true"}
        {"effect":"set","summary":"set attempts 1","type":"effect","value":1,"variable":"attempts"}
        {"from":"a","to":"done","type":"route","why":"otherwise"}
        {"from":"a","route":"next","to":"done","type":"move"}
        {"step":"done","type":"enter"}
        {"outcome":"completed","step":"done","type":"terminal"}
        {"outcome":"completed","step":"done","type":"end"}

        """, "\(json.stdout)")
  }

  /// Issue 15, item 10: the screen did not show what a text field holds, although `next` is enabled by it.
  @Test func aTextFieldShowsWhatItHolds() throws {
    let flow =
      Self.header + """
        variables:
          name: {type: string, default: "User", persist: name}
        start: ask
        steps:
          ask:
            kind: text-input
            variable: name
            prefill: 'name == "User" ? "" : name'
            valid: 'trim(input) != ""'
            next: done
          done: {kind: terminal, outcome: completed}
        """
    let result = try Self.flowrun(flow, commands: "input Akira\nrestart\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⤷ launch → ask: start
        ┌ ask · text-input · en
        │  ✎ holds: (empty)
        │  ▸ Next  [next]  (disabled)
        └ back: not available
        › input Akira
          • set name "Akira"
          • persist name "Akira"
        ■ the flow ended at 'done' (completed)
        ┌ done · terminal · en
        └ back: not available
        › restart
          ⤷ launch → ask: start
        ┌ ask · text-input · en
        │  ✎ holds: "Akira"
        │  ▸ Next  [next]
        └ back: not available

        """, "\(result.stdout)")
  }

  /// Issue 15, item 8: track properties were printed sorted, not in the order the flow writes them, in the text
  /// trace, `--trace json` and `--record`.
  @Test func trackPropertiesKeepTheOrderTheFlowWritesThemIn() throws {
    let flow =
      Self.header + """
        start: a
        steps:
          a:
            kind: screen
            next:
              to: done
              effects:
                - track: picked
                  properties: {zeta: 1, alpha: '"a"', mid: "true"}
          done: {kind: terminal, outcome: completed}
        """
    let text = try Self.flowrun(flow, commands: "next\n")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout == """
          ⤷ launch → a: start
        ┌ a · screen · en
        │  ▸ Next  [next]
        └ back: not available
        › next
          • track picked {zeta: 1, alpha: "a", mid: true}
        ■ the flow ended at 'done' (completed)
        ┌ done · terminal · en
        └ back: not available

        """, "\(text.stdout)")
    let directory = try Tool.temporaryDirectory()
    try Data(flow.utf8).write(to: directory.appendingPathComponent("flow.yaml"))
    let json = try Tool.run(
      "flowrun", ["flow.yaml", "--trace", "json", "--record", "recorded.yaml"], stdin: "next\n",
      directory: directory)
    #expect(json.status == 0, "\(json.stderr)")
    let track = json.stdout.split(separator: "\n").filter { $0.contains("\"track\"") }
    #expect(
      track == [
        #"{"effect":"track","event":"picked","properties":{"zeta":1,"alpha":"a","mid":true},"#
          + #""summary":"track picked {zeta: 1, alpha: \"a\", mid: true}","type":"effect"}"#
      ], "\(json.stdout)")
    let recorded = try String(contentsOf: directory.appendingPathComponent("recorded.yaml"), encoding: .utf8)
    #expect(
      recorded.split(separator: "\n").drop { !$0.hasPrefix("      events:") }.prefix(2).joined(separator: "\n")
        == """
              events:
                - "track picked {zeta: 1, alpha: \\"a\\", mid: true}"
        """, "\(recorded)")
  }
}
