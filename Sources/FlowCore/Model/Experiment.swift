/// An experiment the flow declares (`experiments: {NAME: {id, salt, variants}}`): an A/B test whose variant
/// every run is assigned at launch, deterministically from a stable id, unless something pins it.
///
/// A run is assigned the variant whose share of the 100 buckets of `bucket(id, salt)` holds the id's bucket: the
/// variants divide buckets 0 to 99 in the order written, each in proportion to its weight (``bucketRanges``), so
/// `bucket(env.deviceId, "paywall") < 50` in an expression picks the same devices as the first of two variants
/// weighted 50 and 50 with that salt.
package struct Experiment: Sendable, Hashable {
  package let name: String
  /// The stable id a run is assigned by (`env.deviceId`); nil only when the flow failed to compile.
  package let id: Expr?
  /// The salt of `bucket(id, salt)`: the experiment's name unless `salt:` says otherwise.
  package let salt: String
  package let variants: [Variant]
  package let location: SourceLocation

  /// One arm of the experiment, with its relative weight.
  package struct Variant: Sendable, Hashable {
    package let name: String
    /// A positive integer, relative to the other variants' weights.
    package let weight: Int
    package let location: SourceLocation

    package init(name: String, weight: Int, location: SourceLocation) {
      self.name = name
      self.weight = weight
      self.location = location
    }
  }

  package init(name: String, id: Expr?, salt: String, variants: [Variant], location: SourceLocation) {
    self.name = name
    self.id = id
    self.salt = salt
    self.variants = variants
    self.location = location
  }

  /// The index of the variant called `name`.
  package func variantIndex(named name: String) -> Int? { variants.firstIndex { $0.name == name } }

  /// The buckets each variant gets, in order: variant `i` gets `100 * (w0 + ... + w(i-1)) / total` up to
  /// `100 * (w0 + ... + wi) / total` (integer division, so the ranges cover 0..<100 with no gap). Empty when a
  /// weight is not positive.
  package var bucketRanges: [Range<Int>] {
    guard !variants.isEmpty, variants.allSatisfy({ $0.weight > 0 }) else { return [] }
    var total = 0
    for variant in variants {
      let (sum, overflow) = total.addingReportingOverflow(variant.weight)
      guard !overflow else { return [] }
      total = sum
    }
    var ranges: [Range<Int>] = []
    var cumulative = 0
    var lower = 0
    for variant in variants {
      cumulative += variant.weight
      let product = cumulative.multipliedFullWidth(by: StableHash.buckets)
      let upper = total.dividingFullWidth((high: product.high, low: product.low)).quotient
      ranges.append(lower..<upper)
      lower = upper
    }
    return ranges
  }

  /// The variant whose range of ``bucketRanges`` holds `bucket` (0 to 99); nil when the weights are not usable.
  package func variantIndex(forBucket bucket: Int) -> Int? {
    bucketRanges.firstIndex { $0.contains(bucket) }
  }

  /// The variant a run with the stable id `id` is assigned, and its bucket.
  package func assignment(of id: String) -> (variant: Int, bucket: Int)? {
    let bucket = StableHash.bucket(id, salt: salt)
    return variantIndex(forBucket: bucket).map { ($0, bucket) }
  }
}

extension Flow {
  /// The experiment called `name`.
  package func experiment(_ name: String) -> Experiment? { experiments.first { $0.name == name } }

  /// The variant of each experiment in `state`, by experiment name (empty before launch).
  package func variants(in state: RunState) -> [String: String] {
    var variants: [String: String] = [:]
    for (experiment, index) in zip(experiments, state.variants) where experiment.variants.indices.contains(index) {
      variants[experiment.name] = experiment.variants[index].name
    }
    return variants
  }
}
