import FlowCore
import FlowLint
import FlowLoading
import Testing

/// Lint of experiments (issue 12 item 4): undeclared experiments and variants in expressions, one-variant
/// experiments. Whole findings, from the smallest flow that shows each.
@Suite struct ExperimentLintTests {
  static func findings(
    _ steps: String, experiments: String = "paywall: {id: env.deviceId, variants: {early: 50, late: 50}}"
  )
    -> [String]
  {
    let text = """
      flow: demo
      version: "1"
      locales: [en]
      environment:
        deviceId: {type: string, default: device-1}
      experiments:
        \(experiments)
      start: welcome
      steps:
        \(steps)
        end: {kind: terminal, outcome: completed}
      """
    return Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "x.yaml")).map(\.description)
  }

  @Test func everyStringComparedWithTheVariantMustBeOneOfItsVariants() {
    #expect(
      Self.findings(
        #"welcome: {kind: screen, skipIf: 'experiment.paywall != "lat" || experiment.paywall in ["early", "erly"]', next: end}"#
      ) == [
        "x.yaml:10:58: error: 'lat' is not a variant of experiment 'paywall'; its variants: 'early', 'late'; did you "
          + "mean 'late'? [unknown-variant]",
        "x.yaml:10:99: error: 'erly' is not a variant of experiment 'paywall'; its variants: 'early', 'late'; did you "
          + "mean 'early'? [unknown-variant]",
      ])
  }

  @Test func anUndeclaredExperimentIsReportedOnceWithASuggestion() {
    #expect(
      Self.findings(#"welcome: {kind: screen, skipIf: 'experiment.paywal == "early"', next: end}"#) == [
        "x.yaml:10:36: error: experiment 'paywal' is not declared in 'experiments'; declared: 'paywall'; did you "
          + "mean 'paywall'? [unknown-variant]"
      ])
  }

  @Test func anExperimentWithOneVariantIsAWarning() {
    #expect(
      Self.findings(
        #"welcome: {kind: screen, skipIf: 'experiment.paywall == "early"', next: end}"#,
        experiments: "paywall: {id: env.deviceId, variants: {early: 100}}") == [
          "x.yaml:7:3: warning: experiment 'paywall' has one variant ('early'), which every run gets; add another to "
            + "compare, or remove the experiment [single-variant]"
        ])
  }

  @Test func theIdMustBeAString() {
    #expect(
      Self.findings(
        "welcome: {kind: screen, next: end}", experiments: "paywall: {id: size(env.deviceId), variants: {a: 1, b: 1}}")
        == [
          "x.yaml:7:17: error: the id of experiment 'paywall' must be string; found int [expression-type]"
        ])
  }
}
