/// "Did you mean" suggestions and name lists for diagnostics, shared by every module.
package enum Suggestion {
  /// The candidate closest to `name` by case-insensitive edit distance, or nil when none is close enough.
  ///
  /// A candidate qualifies when its distance is at most `max(1, name.count / 3)`; among equally close
  /// candidates the one that sorts first wins, so the answer does not depend on the order of `candidates`.
  package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
    let target = Array(name.lowercased().unicodeScalars)
    let threshold = max(1, target.count / 3)
    var best: (distance: Int, name: String)?
    for candidate in candidates {
      let scalars = Array(candidate.lowercased().unicodeScalars)
      guard abs(scalars.count - target.count) <= threshold else { continue }
      guard let distance = editDistance(target, scalars, limit: threshold) else { continue }
      if let current = best, current.distance < distance || (current.distance == distance && current.name <= candidate)
      {
        continue
      }
      best = (distance, candidate)
    }
    return best?.name
  }

  /// `'a', 'b', 'c'`: the names sorted and quoted, cut after `limit` names with `, ...`.
  package static func list(_ names: some Sequence<String>, limit: Int = 12) -> String {
    let sorted = Set(names).sorted()
    var text = sorted.prefix(limit).map { "'\($0)'" }.joined(separator: ", ")
    if sorted.count > limit { text += ", ..." }
    return text
  }

  /// The note added to a message when there is a suggestion: `; did you mean 'x'?`, or "".
  package static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
    closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// Edit distance counting a swap of two neighbouring characters as one edit (optimal string alignment),
  /// or nil as soon as it must exceed `limit`.
  private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
    if a.isEmpty { return b.count <= limit ? b.count : nil }
    if b.isEmpty { return a.count <= limit ? a.count : nil }
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], twoBack[j - 2] + 1)
        }
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      (twoBack, previous, current) = (previous, current, twoBack)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
