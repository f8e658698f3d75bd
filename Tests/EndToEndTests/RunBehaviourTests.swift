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
}
