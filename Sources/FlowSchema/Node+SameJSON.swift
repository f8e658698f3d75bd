internal import FlowCore

extension Node {
  /// JSON equality as JSON Schema defines it: like `jsonEquals` (positions ignored, 1 equals 1.0), but strings
  /// and keys compare by Unicode scalars, not by canonical equivalence ("é" and "e\u{301}" differ).
  func sameJSON(_ other: Node) -> Bool {
    switch (content, other.content) {
    case (.string(let a), .string(let b)):
      // Equal UTF-8 is equal scalars, and comparing bytes is much cheaper than decoding scalars.
      return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    case (.sequence(let a), .sequence(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.sameJSON($1) }
    case (.mapping(let a), .mapping(let b)):
      guard a.count == b.count else { return false }
      for entry in a {
        let keyBytes = entry.key.utf8
        guard let match = b.first(where: { $0.key.utf8.elementsEqual(keyBytes) }),
          match.value.sameJSON(entry.value)
        else { return false }
      }
      return true
    default:
      return jsonEquals(other)
    }
  }
}
