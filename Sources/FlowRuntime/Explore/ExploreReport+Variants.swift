import FlowCore

// Explore per variant: which steps and terminals the runs of each variant of each experiment reach.

extension ExploreReport {
  /// The steps the runs of one variant reach (every setup pins one variant of each experiment, and a restart keeps
  /// it), in the flow's order.
  package struct VariantReach: Sendable, Equatable {
    package var experiment: String
    package var variant: String
    package var reached: [String]
    /// Steps no run of this variant enters (retired steps are left out).
    package var unreached: [String]
    /// The terminals runs of this variant end at.
    package var terminals: [String]
  }

  /// One ``VariantReach`` per variant of each of the flow's experiments, in the order declared.
  static func variantReach(_ exploration: Exploration) -> [VariantReach] {
    let flow = exploration.flow
    guard !flow.experiments.isEmpty else { return [] }
    // reached[e][v][step], ended[e][v][step]
    var reached = flow.experiments.map {
      [[Bool]](repeating: [Bool](repeating: false, count: flow.steps.count), count: $0.variants.count)
    }
    var ended = reached
    let variantOfSetup = exploration.setups.map { setup in
      flow.experiments.map { experiment in setup.variants[experiment.name].flatMap(experiment.variantIndex(named:)) }
    }
    var setupOf = [Int32](repeating: -1, count: exploration.stateCount)
    for state in 0..<exploration.stateCount {
      let parent = Int(exploration.parent[state])
      setupOf[state] = parent < 0 ? exploration.setupOf[state] : setupOf[parent]
      let step = Int(exploration.step[state])
      let setup = Int(setupOf[state])
      guard step >= 0, variantOfSetup.indices.contains(setup) else { continue }
      for (experiment, variant) in variantOfSetup[setup].enumerated() {
        guard let variant else { continue }
        reached[experiment][variant][step] = true
        if exploration.isEnded(Int32(state)) { ended[experiment][variant][step] = true }
      }
    }
    var result: [VariantReach] = []
    for (e, experiment) in flow.experiments.enumerated() {
      for (v, variant) in experiment.variants.enumerated() {
        let steps = flow.steps.indices
        result.append(
          VariantReach(
            experiment: experiment.name, variant: variant.name,
            reached: steps.filter { reached[e][v][$0] }.map { flow.steps[$0].id },
            unreached: steps.filter { !reached[e][v][$0] && !flow.steps[$0].isRetired }.map { flow.steps[$0].id },
            terminals: steps.filter { ended[e][v][$0] }.map { flow.steps[$0].id }))
      }
    }
    return result
  }

  /// `variants (the steps the runs of each reach):` and a line per variant; nothing for a flow without experiments.
  var variantLines: [String] {
    guard !variants.isEmpty else { return [] }
    var lines = ["variants (the steps the runs of each reach):"]
    for reach in variants {
      let total = reach.reached.count + reach.unreached.count
      var line = "  \(reach.experiment)=\(reach.variant): \(reach.reached.count) of \(total) steps"
      if !reach.unreached.isEmpty { line += " (not reached: \(reach.unreached.joined(separator: ", ")))" }
      line += "; terminals: \(reach.terminals.isEmpty ? "none" : reach.terminals.joined(separator: ", "))"
      lines.append(line)
    }
    return lines
  }

  /// The JSON of ``variants``.
  var variantsJSON: Value {
    .list(
      variants.map {
        .map([
          "experiment": .string($0.experiment), "variant": .string($0.variant),
          "reached": .list($0.reached.map(Value.string)), "unreached": .list($0.unreached.map(Value.string)),
          "terminals": .list($0.terminals.map(Value.string)),
        ])
      })
  }
}
