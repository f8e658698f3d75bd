package import FlowCore

/// Variants pinned from outside the flow (`flowrun --variant EXPERIMENT=VARIANT`, a scenario case's `variants:`),
/// checked against the experiments the flow declares like every other flag (see ``FlowNames``).
extension Flow {
  /// The pin of `variant` for `experiment` in `place` (`--variant`, `variants`): nil when the flow declares the
  /// experiment and it has the variant, else the whole message, with a suggestion.
  package func checkVariantPin(_ experiment: String, _ variant: String, in place: String) -> String? {
    let names = experiments.map(\.name)
    guard let declared = self.experiment(experiment) else {
      let known = names.isEmpty ? "the flow declares no experiment" : "the flow declares: \(Suggestion.list(names))"
      return "unknown experiment '\(experiment)' in \(place)\(Suggestion.didYouMean(experiment, in: names)) (\(known))"
    }
    let variants = declared.variants.map(\.name)
    guard !variants.contains(variant) else { return nil }
    return "unknown variant '\(variant)' of experiment '\(experiment)' in \(place)"
      + "\(Suggestion.didYouMean(variant, in: variants)) (its variants: \(Suggestion.list(variants)))"
  }

  /// `EXPERIMENT=VARIANT` flags as pins (a later flag for the same experiment wins), and what in them does not fit
  /// the flow, one message per flag.
  package func variantPins(_ flags: [String], in place: String) -> (pins: [String: String], problems: [String]) {
    var pins: [String: String] = [:]
    var problems: [String] = []
    for flag in flags {
      let parts = flag.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        problems.append("'\(flag)' in \(place) must be EXPERIMENT=VARIANT, e.g. paywall=late")
        continue
      }
      if let problem = checkVariantPin(parts[0], parts[1], in: place) {
        problems.append(problem)
      } else {
        pins[parts[0]] = parts[1]
      }
    }
    return (pins, problems)
  }
}
