extension Diagnostic {
  /// One message per problem: `earlier` (a stage that reads the document more precisely: the schema before
  /// the compiler, loading before the lint rules), then each of `later` that says something new, in order.
  ///
  /// A later diagnostic on a line where `earlier` has an error describes the same mistake again, less
  /// precisely, and is left out unless `keep` says otherwise; a diagnostic equal to one already kept is left
  /// out. With no `earlier`, this only removes repeats.
  package static func merging(
    _ earlier: [Diagnostic], _ later: [Diagnostic], keep: (Diagnostic) -> Bool = { _ in false }
  ) -> [Diagnostic] {
    let errorLines = Set(earlier.filter { $0.severity == .error }.map(\.location.line))
    var merged = earlier
    var seen = Set(earlier)
    for diagnostic in later where keep(diagnostic) || !errorLines.contains(diagnostic.location.line) {
      if seen.insert(diagnostic).inserted { merged.append(diagnostic) }
    }
    return merged
  }
}
