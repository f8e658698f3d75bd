// Experiments: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  /// Assigns each of the flow's experiments a variant, at launch (after the stored and initial values are read,
  /// before the `launch:` entries run): the pinned one when `pinned` names a variant of it, else the variant whose
  /// share of the buckets holds `bucket(id, salt)`. A pin the flow does not know is a warning, never a failure (an
  /// app's pin may outlive the experiment).
  mutating func assignVariants(pinned: [String: String]) throws(RunError) {
    state.variants = []
    for (name, variant) in pinned.sorted(by: { $0.key < $1.key }) where flow.experiment(name) == nil {
      let names = flow.experiments.map(\.name)
      note(
        .warning(
          "variant '\(variant)' is pinned for the experiment '\(name)', which the flow does not declare"
            + (names.isEmpty ? "" : " (its experiments: \(Suggestion.list(names)))")))
    }
    for experiment in flow.experiments {
      if let pin = pinned[experiment.name] {
        if let index = experiment.variantIndex(named: pin) {
          state.variants.append(index)
          note(.assigned(experiment: experiment.name, variant: pin, why: "pinned"))
          continue
        }
        note(
          .warning(
            "'\(pin)' is not a variant of the experiment '\(experiment.name)' (its variants: "
              + "\(Suggestion.list(experiment.variants.map(\.name)))); assigned by its id instead"))
      }
      guard let idExpr = experiment.id else {
        throw RunError(message: "the experiment '\(experiment.name)' has no 'id' to assign a variant by")
      }
      let id = try evaluate(idExpr)
      guard case .string(let text) = id else {
        throw RunError(
          message: "\(idExpr.location): the id of the experiment '\(experiment.name)' ('\(idExpr.expression.source)') "
            + "is \(id.description); expected a string")
      }
      guard let (index, bucket) = experiment.assignment(of: text) else {
        throw RunError(message: "the experiment '\(experiment.name)' has no variant with a positive weight")
      }
      let range = experiment.bucketRanges[index]
      state.variants.append(index)
      note(
        .assigned(
          experiment: experiment.name, variant: experiment.variants[index].name,
          why:
            "bucket(\(id.description), \(Value.string(experiment.salt).description)) = \(bucket), in "
            + "\(range.lowerBound)...\(range.upperBound - 1)"))
    }
  }

  /// A `track` effect's properties followed by the run's variant of each experiment, under the experiment's
  /// name (a property the effect writes itself keeps its value).
  func addVariants(to properties: inout TrackProperties) {
    log?.readVariants()
    for (experiment, index) in zip(flow.experiments, state.variants) where properties[experiment.name] == nil {
      properties[experiment.name] = .string(experiment.variants[index].name)
    }
  }
}
