extension LinearPattern {
  /// A short text that `source` matches in full, of at least `minLength` scalars when one is found by repeating
  /// its open repetitions more often: built from the pattern's own tree (each class's plainest scalar, each
  /// repetition its fewest times, the shortest alternative) and checked against the pattern. Nil when the
  /// pattern does not parse or no such text is found (a word boundary the plain scalars cannot meet).
  ///
  /// What `flowrun explore` types into a field with a `pattern` or an input whose `valid` calls `matches`.
  package static func example(matching source: String, minLength: Int = 0) -> String? {
    var parser = Parser(Array(source.unicodeScalars))
    guard let tree = try? parser.parse(), let whole = try? LinearPattern("^(?:" + source + ")$") else { return nil }
    var previous = -1
    for extra in 0...64 {
      guard let scalars = tree.example(extra: extra) else { return nil }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      if scalars.count >= minLength, whole.matches(text) { return text }
      // Repeating more no longer lengthens the text: no longer example exists this way.
      if scalars.count == previous { return nil }
      previous = scalars.count
    }
    return nil
  }
}

extension LinearPattern.Tree {
  /// The scalars of a shortest text of the tree, each open repetition taken `extra` more times than its fewest
  /// (bounded by its most); nil when a part has no text (an empty class).
  fileprivate func example(extra: Int) -> [Unicode.Scalar]? {
    switch self {
    case .empty, .assertion: return []
    case .scalar(let scalarClass): return scalarClass.plainest.map { [$0] }
    case .sequence(let parts):
      var scalars: [Unicode.Scalar] = []
      for part in parts {
        guard let more = part.example(extra: extra) else { return nil }
        scalars += more
      }
      return scalars
    case .alternation(let choices):
      return choices.compactMap { $0.example(extra: extra) }.min { $0.count < $1.count }
    case .repetition(let body, let fewest, let most):
      let count = most.map { Swift.min($0, fewest + extra) } ?? fewest + extra
      guard count > 0 else { return [] }
      guard let once = body.example(extra: extra) else { return nil }
      return Array([[Unicode.Scalar]](repeating: once, count: count).joined())
    }
  }
}

extension LinearPattern.ScalarClass {
  /// The scalar a person would type for the class: a letter, a digit or a space when the class has one, else its
  /// first scalar.
  fileprivate var plainest: Unicode.Scalar? {
    for candidate in "aA0 _-.@x".unicodeScalars where contains(candidate) { return candidate }
    if !negated, let first = ranges.first, let scalar = Unicode.Scalar(first.lowerBound) { return scalar }
    return nil
  }
}
