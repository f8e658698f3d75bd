import FlowCore

// What a new version does to the experiments: added, removed, and devices that now get another variant.

extension FlowDiff {
  /// One entry per experiment added, removed or changed (its id, salt or variants), with what the change does to
  /// devices already assigned: how many of the 100 buckets now get a variant of another name.
  static func experimentChanges(old: Flow, new: Flow) -> [FlowDiffReport.Change] {
    var changes: [FlowDiffReport.Change] = []
    var names = old.experiments.map(\.name)
    for experiment in new.experiments where !names.contains(experiment.name) { names.append(experiment.name) }
    for name in names {
      let before = old.experiment(name)
      let after = new.experiment(name)
      let beforeText = before.map(describe) ?? "(none)"
      var afterText = after.map(describe) ?? "(none)"
      guard beforeText != afterText else { continue }
      if let before, let after {
        if before.id?.description != after.id?.description || before.salt != after.salt {
          afterText += " (another id or salt: every device is assigned again)"
        } else {
          let moved = (0..<StableHash.buckets).filter { bucket in
            let was = before.variantIndex(forBucket: bucket).map { before.variants[$0].name }
            let now = after.variantIndex(forBucket: bucket).map { after.variants[$0].name }
            return was != now
          }.count
          afterText += " (\(moved) of \(StableHash.buckets) buckets now get another variant)"
        }
      }
      changes.append(.init(subject: name, before: beforeText, after: afterText))
    }
    return changes
  }

  /// `id env.deviceId, salt "paywall": early 50, late 50`.
  static func describe(_ experiment: Experiment) -> String {
    "id \(experiment.id?.description ?? "-"), salt \(Value.string(experiment.salt).description): "
      + experiment.variants.map { "\($0.name) \($0.weight)" }.joined(separator: ", ")
  }
}
