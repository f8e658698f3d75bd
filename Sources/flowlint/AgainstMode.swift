import FlowCore
import FlowLint
import FlowLoading
import FlowRuntime

/// `flowlint --against OLD`: what each linted flow does to users whose progress OLD saved.
enum AgainstMode {
  static let ruleID = VersionResumeRule.description.id

  /// Adds a finding per saved raw value the new flow resumes wrongly (error) or differently (warning), at the
  /// step of the new flow that has that raw value (or at `flow:` when none has).
  static func check(_ outcome: inout RunOutcome, against oldFlow: Flow, at oldPath: String) {
    for index in outcome.reports.indices {
      let report = outcome.reports[index]
      guard let newFlow = report.loaded?.flow, !report.diagnostics.contains(where: { $0.severity == .error })
      else { continue }
      outcome.reports[index].diagnostics += ElseCoversNewOutcomeRule.findings(
        in: newFlow, against: oldFlow, file: report.file)
      let diff = FlowDiff.compare(old: oldFlow, new: newFlow)
      for resume in diff.resumes {
        guard let problem = resume.problem else { continue }
        let location = newFlow.steps.first { $0.rawValue == resume.rawValue }?.location ?? newFlow.location
        outcome.reports[index].diagnostics.append(
          Diagnostic(
            problem == .error ? .error : .warning, "progress saved by \(oldPath): \(resume.message)",
            file: report.file, at: location, rule: ruleID))
      }
    }
  }
}
