internal import FlowCore

/// A hash consistent with `Node.sameJSON` (equal values always hash alike): ignores positions and key order,
/// and hashes 1 and 1.0 alike.
enum JSONHash {
  static func of(_ node: Node) -> Int {
    var hasher = Hasher()
    combine(node, into: &hasher)
    return hasher.finalize()
  }

  private static func combine(_ node: Node, into hasher: inout Hasher) {
    switch node.content {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(1); hasher.combine(b)
    case .int(let i): hasher.combine(2); hasher.combine(Double(i))
    case .double(let d): hasher.combine(2); hasher.combine(d)
    case .string(let s): hasher.combine(3); hasher.combine(s)
    case .sequence(let items):
      hasher.combine(4)
      hasher.combine(items.count)
      for item in items { combine(item, into: &hasher) }
    case .mapping(let entries):
      hasher.combine(5)
      // Order-independent: sum of per-entry hashes.
      var sum = 0
      for entry in entries {
        var entryHasher = Hasher()
        entryHasher.combine(entry.key)
        combine(entry.value, into: &entryHasher)
        sum &+= entryHasher.finalize()
      }
      hasher.combine(sum)
    }
  }
}
