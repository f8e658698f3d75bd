internal import FlowCore

/// What a new version of a flow does to users whose progress an older version saved. No single file triggers
/// it: `flowlint NEW --against OLD` reports it (the command compares the two flows); it is registered so that
/// `--list-rules`, SARIF and the documentation know it.
package struct VersionResumeRule: LintRule {
  package static let description = RuleDescription(
    id: "version-resume",
    summary:
      "with '--against OLD': a step raw value saved by OLD that now means a different step is an error, a saved "
      + "step that now resumes elsewhere is a warning",
    severity: .error,
    explanation: """
      Reported only by `flowlint NEW.yaml --against OLD.yaml`, which launches both flows on every raw value OLD \
      can save; `flowrun diff OLD.yaml NEW.yaml` shows the whole comparison. A flow checked alone never reports \
      it. A clean flow:
      """,
    nonTriggering: [.flow(steps: "welcome: {kind: screen, rawValue: 0, next: end}")])

  package init() {}
}
