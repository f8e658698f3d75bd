// The flow's `experiments:` section: part of the flow compiler (see FlowCompiler.swift).

extension Compiler {
  /// `experiments: {paywall: {id: env.deviceId, salt: paywall-2026, variants: {early: 50, late: 50}}}`.
  func compileExperiments(_ node: Node?) -> [Experiment] {
    guard let node else { return [] }
    guard let entries = node.entries else {
      error(
        "'experiments' must be a mapping of experiment names to experiments; found \(node.kindDescription)",
        at: node.location)
      return []
    }
    return entries.map(compileExperiment)
  }

  func compileExperiment(_ entry: Node.Entry) -> Experiment {
    let node = entry.value
    let name = entry.key
    var id: Expr? = nil
    if let idNode = node["id"] {
      id = expression(idNode)
    } else {
      error(
        "experiment '\(name)' needs an 'id': the expression of the stable id its variant is assigned by "
          + "(id: env.deviceId)", at: entry.keyLocation)
    }
    var variants: [Experiment.Variant] = []
    if let variantsNode = node["variants"], let variantEntries = variantsNode.entries {
      for variant in variantEntries {
        guard let weight = variant.value.int else {
          error(
            "the weight of variant '\(variant.key)' of experiment '\(name)' must be a whole number (early: 50); "
              + "found \(variant.value.kindDescription)", at: variant.value.location, rule: CompilerRule.variantWeight)
          variants.append(.init(name: variant.key, weight: 0, location: variant.keyLocation))
          continue
        }
        if weight <= 0 {
          error(
            "the weight of variant '\(variant.key)' of experiment '\(name)' must be positive; found \(weight) "
              + "(leave out a variant no run should get)", at: variant.value.location, rule: CompilerRule.variantWeight)
        }
        variants.append(.init(name: variant.key, weight: weight, location: variant.keyLocation))
      }
      if variantEntries.isEmpty {
        error(
          "experiment '\(name)' has no variants: give a mapping of variant names to weights (early: 50, late: 50)",
          at: variantsNode.location)
      }
    } else {
      error(
        "experiment '\(name)' needs 'variants': a mapping of variant names to weights (early: 50, late: 50)",
        at: node["variants"]?.location ?? entry.keyLocation)
    }
    let experiment = Experiment(
      name: name, id: id, salt: node["salt"].flatMap(scalarString) ?? name, variants: variants,
      location: entry.keyLocation)
    let total = variants.reduce(0) { $0 &+ max($1.weight, 0) }
    for (variant, range) in zip(variants, experiment.bucketRanges) where range.isEmpty {
      error(
        "variant '\(variant.name)' of experiment '\(name)' gets none of the \(StableHash.buckets) buckets runs are "
          + "assigned by (weight \(variant.weight) of \(total)); raise its weight", at: variant.location,
        rule: CompilerRule.variantWeight)
    }
    return experiment
  }
}
