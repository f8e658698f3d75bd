import Foundation
import Testing

/// `flowrun --variant EXPERIMENT=VARIANT` (issue 12 item 4): the pin wins over the device id, shows in the trace
/// and in `state`, and `--record` writes it as the case's `variants:`; a pin the flow does not declare is exit 2.
@Suite struct VariantFlagTests {
  static func flowDirectory() throws -> URL {
    let directory = try Tool.temporaryDirectory()
    let flow = Tool.packageRoot.appendingPathComponent("Tests/Flows/experiments.yaml")
    try FileManager.default.copyItem(at: flow, to: directory.appendingPathComponent("flow.yaml"))
    return directory
  }

  @Test func aPinnedVariantIsRunShownAndRecorded() throws {
    let directory = try Self.flowDirectory()
    let result = try Tool.run(
      "flowrun", ["flow.yaml", "--variant", "path=short", "--variant", "paywall=early", "--record", "recorded.yaml"],
      stdin: "next\nstate\n", directory: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
          ⚑ experiment paywall: early (pinned)
          ⚑ experiment path: short (pinned)
          ⤷ launch → welcome: start
        ┌ welcome · screen · en
        │ Learn a language in five minutes a day
        │  ▸ Continue  [next]
        └ back: not available
        › next
          • track onboarding_step {step: "welcome", paywall: "early", path: "short"}
          ⤷ welcome → paywall: experiment.paywall == "early" → "early" == "early" → true
        ┌ paywall · screen · en
        │ Try Pro free for a week
        │  ▸ Start my free week  [tap subscribe]
        │  ▸ Continue  [next]
        └ back: not available
        › state
        step: paywall
        language: en
        variables:
          goal = ""
        permissions:
        store (at launch, updated by writes):
        variants:
          paywall = early
          path = short
        clock: 09:00

        """, "\(result.stdout)")
    let recorded = try String(contentsOf: directory.appendingPathComponent("recorded.yaml"), encoding: .utf8)
    // `state` only shows: the recording leaves it out.
    #expect(
      recorded.split(separator: "\n").drop { !$0.hasPrefix("    variants:") }.joined(separator: "\n") == """
            variants: {path: "short", paywall: "early"}
            commands:
              - "next"
            expect:
              path: ["welcome", "paywall"]
              events:
                - "track onboarding_step {step: \\"welcome\\", paywall: \\"early\\", path: \\"short\\"}"
              at: "paywall"
              ended: false
        """)
  }

  @Test func aPinTheFlowDoesNotDeclareIsRefusedBeforeTheRun() throws {
    let directory = try Self.flowDirectory()
    let result = try Tool.run(
      "flowrun", ["flow.yaml", "--variant", "paywall=erly", "--variant", "colour=red", "--variant", "paywall"],
      stdin: "next\n", directory: directory)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        Error: unknown variant 'erly' of experiment 'paywall' in --variant; did you mean 'early'? (its variants: \
        'early', 'late')
        Error: unknown experiment 'colour' in --variant (the flow declares: 'path', 'paywall')
        Error: 'paywall' in --variant must be EXPERIMENT=VARIANT, e.g. paywall=late

        """)
  }
}
