package import FlowCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Which steps, declared transitions and permission outcomes a flow's scenario cases exercise.
///
/// Steps count when entered (retired steps are left out of the total); transitions are the flow's declared
/// step -> step edges (``Flow/declaredTransitions``); permission outcomes are every outcome of every permission
/// step's request; for a flow with experiments, each variant counts once some row ran it (pinned or assigned), and
/// the steps its rows entered are listed per variant. The percentage is over all of them together.
package struct FlowCoverage: Sendable {
  package var flow: String
  package var steps: (covered: [String], missed: [String])
  package var transitions: (covered: [FlowTransition], missed: [FlowTransition])
  package var permissionOutcomes: (covered: [PermissionOutcome], missed: [PermissionOutcome])
  /// Per variant of each experiment (`paywall=late`), in the order declared: the live steps its rows entered and
  /// missed; `run` is false when no row ran it.
  package var variants: [(name: String, run: Bool, steps: (covered: [String], missed: [String]))] = []

  package init(flow: Flow, observations: [Observation]) {
    self.flow = "\(flow.id) \(flow.version)"
    let entered = Set(observations.flatMap(\.path))
    let liveSteps = flow.steps.filter { !$0.isRetired }.map(\.id)
    steps = (liveSteps.filter(entered.contains), liveSteps.filter { !entered.contains($0) })
    let taken = observations.reduce(into: Set<FlowTransition>()) { $0.formUnion($1.transitions) }
    let declared = flow.declaredTransitions.map(\.transition)
    transitions = (declared.filter(taken.contains), declared.filter { !taken.contains($0) })
    let seen = observations.reduce(into: Set<PermissionOutcome>()) { $0.formUnion($1.permissionOutcomes) }
    var all: [PermissionOutcome] = []
    for step in flow.steps where !step.isRetired {
      var kinds: [String] = []
      for request in step.permissionRequests where !kinds.contains(request.kind.value.rawValue) {
        kinds.append(request.kind.value.rawValue)
      }
      for kind in kinds {
        all += PermissionStatus.requestOutcomes.map { .init(step: step.id, permission: kind, outcome: $0.rawValue) }
      }
    }
    permissionOutcomes = (all.filter(seen.contains), all.filter { !seen.contains($0) })
    for experiment in flow.experiments {
      for variant in experiment.variants {
        let name = "\(experiment.name)=\(variant.name)"
        let run = observations.contains { $0.variantSteps[name] != nil }
        let entered = observations.reduce(into: Set<String>()) { $0.formUnion($1.variantSteps[name] ?? []) }
        variants.append((name, run, (liveSteps.filter(entered.contains), liveSteps.filter { !entered.contains($0) })))
      }
    }
  }

  /// Variants some row ran, and variants no row ran.
  package var variantsRun: Int { variants.filter(\.run).count }

  package var covered: Int {
    steps.covered.count + transitions.covered.count + permissionOutcomes.covered.count + variantsRun
  }
  package var total: Int {
    steps.covered.count + steps.missed.count + transitions.covered.count + transitions.missed.count
      + permissionOutcomes.covered.count + permissionOutcomes.missed.count + variants.count
  }
  /// 100 when there is nothing to cover.
  package var percent: Double { total == 0 ? 100 : Double(covered) * 100 / Double(total) }

  package var text: String {
    func ratio(_ a: Int, _ b: Int) -> String { "\(a)/\(a + b)" }
    var lines = [
      "coverage of \(flow): \(fixedPoint(percent, fractionDigits: 1))% (steps \(ratio(steps.covered.count, steps.missed.count)), "
        + "transitions \(ratio(transitions.covered.count, transitions.missed.count)), "
        + "permission outcomes \(ratio(permissionOutcomes.covered.count, permissionOutcomes.missed.count))"
        + (variants.isEmpty ? "" : ", variants \(ratio(variantsRun, variants.count - variantsRun))") + ")"
    ]
    if !steps.missed.isEmpty { lines.append("  steps never entered: \(steps.missed.joined(separator: ", "))") }
    for transition in transitions.missed { lines.append("  transition never taken: \(transition)") }
    if !permissionOutcomes.missed.isEmpty {
      lines.append(
        "  permission outcomes never seen: \(permissionOutcomes.missed.map(\.description).joined(separator: "; "))")
    }
    for variant in variants {
      let steps = "steps \(ratio(variant.steps.covered.count, variant.steps.missed.count))"
      let missed =
        variant.steps.missed.isEmpty ? "" : " (never entered: \(variant.steps.missed.joined(separator: ", ")))"
      lines.append("  variant \(variant.name): \(variant.run ? steps + missed : "never run")")
    }
    return lines.joined(separator: "\n")
  }
}
