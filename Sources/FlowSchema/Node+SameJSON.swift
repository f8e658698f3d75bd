internal import FlowCore

extension Node {
  /// JSON equality as JSON Schema defines it: like `jsonEquals` (positions ignored, 1 equals 1.0), but strings
  /// and keys compare by Unicode scalars, not by canonical equivalence ("é" and "e\u{301}" differ).
  func sameJSON(_ other: Node) -> Bool {
    switch (content, other.content) {
    case (.string(let a), .string(let b)):
      return Self.sameScalars(a, b)
    case (.sequence(let a), .sequence(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.sameJSON($1) }
    case (.mapping(let a), .mapping(let b)):
      guard a.count == b.count else { return false }
      for entry in a {
        guard let match = b.first(where: { Self.sameScalars($0.key, entry.key) }),
          match.value.sameJSON(entry.value)
        else { return false }
      }
      return true
    default:
      return jsonEquals(other)
    }
  }

  /// Whether two strings have the same Unicode scalars: the same UTF-8 bytes, compared without decoding (most
  /// comparisons differ in length already), in place where both strings keep them contiguous (native strings
  /// and literals do), which is several times faster than walking the two UTF-8 views.
  private static func sameScalars(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
      b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
    }
    return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
  }
}
