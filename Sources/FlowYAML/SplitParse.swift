internal import CMemoryHints
package import FlowCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a large document on two threads: libyaml reads one character after another, and on a flow of
/// 10,000 steps it and the composer take half of a lint.
///
/// Most of such a file is one top-level block mapping (a flow's `steps`), one key per line at the same
/// indentation. The text is cut at the start of one of those key lines, near the middle: this thread reads what
/// comes before the cut and what follows the mapping, while another thread reads the rest of the mapping as a
/// document of its own (a block mapping at that indentation), with its positions moved down by the lines before
/// it. The three trees are then put back together.
///
/// A cut is only a guess from the lines' first characters, so the result is taken only when it cannot differ
/// from reading the file whole; otherwise `load` returns nil and the file is read on one thread, which also
/// reports any error exactly as it would have:
/// - each part reads without an error (an unterminated quote, a flow collection left open at the cut, an alias to
///   an anchor of another part are errors);
/// - the first part's last top-level key is the cut mapping's key, on its line, and the second part is one
///   mapping starting at the cut, at the keys' indentation; the third part, if any, is a mapping at column 1;
/// - no key of the second part is also a key of the first part's mapping, and no top-level key of the third part
///   is one of the first part's;
/// - neither the second nor the third part defines an anchor, and the parts hold no more nodes than the limit;
/// - the file has no carriage return, and no `---` or `...` line after its first top-level key on a line of its
///   own (one document, whose prologue is all in the first part).
///
/// A line at the keys' indentation that starts with a key cannot continue anything of the line before it except
/// a quoted string or a flow collection (a plain scalar, a block scalar and a nested collection all end there), and
/// those leave the first part unterminated. `SplitParseTests` compares both readings on every YAML file of the
/// repository and of the YAML test suite, and on files made to cut through each of those cases.
package enum SplitParse {
  /// Below this size a file is read on one thread: starting a thread and merging would cost more than reading
  /// half of it.
  package static let minimumBytes = 256 * 1024

  /// Where a text is cut.
  package struct Plan: Sendable {
    /// The 0-based line of the top-level key (`steps:`) whose block mapping is cut.
    package var keyLine: Int
    /// The indentation of that mapping's keys.
    package var indent: Int
    /// The offset and 0-based line where the second part starts: a line holding one of the mapping's keys.
    package var split: Int
    package var splitLine: Int
    /// The offset and 0-based line where the mapping ends: the next line at column 1 that is not a comment, or
    /// the end of the text.
    package var end: Int
    package var endLine: Int
  }

  /// The file read in parts on two threads, or nil when it cannot be cut or its parts might not add up to
  /// what reading it whole gives (see the type's description), whatever its size. Each thread checks the bytes
  /// of its parts as `InputCheck.validate` would (nil when one fails: reading the file whole reports the problem).
  package static func load(bytes: [UInt8], file: String, limits: LoadLimits = .default) -> Node? {
    guard InputCheck.mayPass(bytes, limits: limits),
      let plan = bytes.withUnsafeBufferPointer({ Self.plan($0) })
    else { return nil }
    // Each thread's tree takes tens of megabytes: its malloc arena asks for huge pages (fewer page faults).
    flowkit_expect_large_heap()
    let (secondPart, (firstPart, thirdPart)) = concurrently {
      flowkit_expect_large_heap()
      return Part(
        Array(bytes[plan.split..<plan.end]), file: file, limits: limits, lineOffset: plan.splitLine, baseDepth: 1)
    } and: {
      // Only the first part has a prologue for `Prologue` to edit: after the first top-level key it changes no
      // line but a `---` or `...` one, and a plan has none there.
      let first = Part(
        Array(bytes[..<plan.split]), file: file, limits: limits, lineOffset: 0, baseDepth: 0, rewritesPrologue: true)
      let third = Part(Array(bytes[plan.end...]), file: file, limits: limits, lineOffset: plan.endLine, baseDepth: 0)
      return (first, third)
    }
    guard let firstPart, let secondPart, let thirdPart, !secondPart.definedAnchors, !thirdPart.definedAnchors,
      firstPart.nodeCount + secondPart.nodeCount + thirdPart.nodeCount <= limits.maxNodes
    else { return nil }
    return merge(firstPart.root, secondPart.root, thirdPart.root, plan: plan)
  }

  /// One part read as a document of its own.
  private struct Part: Sendable {
    var root: Node?
    var nodeCount: Int
    var definedAnchors: Bool

    /// Nil when the part does not read as at most one document.
    init?(
      _ bytes: [UInt8], file: String, limits: LoadLimits, lineOffset: Int, baseDepth: Int,
      rewritesPrologue: Bool = false
    ) {
      // A byte order mark belongs at the file's start only.
      if lineOffset > 0 && bytes.starts(with: FileInput.utf8ByteOrderMark) { return nil }
      guard let isASCII = InputCheck.scan(bytes) else { return nil }
      let composer = Composer(
        bytes: bytes, file: file, limits: limits, isASCII: isASCII, lineOffset: lineOffset, baseDepth: baseDepth,
        rewritesPrologue: rewritesPrologue)
      guard let documents = try? composer.documents(single: true) else { return nil }
      root = documents.first
      nodeCount = composer.nodeCount
      definedAnchors = composer.definedAnchors
    }
  }

  /// The whole document from its three parts, when they fit together as the plan expects.
  private static func merge(_ first: Node?, _ second: Node?, _ third: Node?, plan: Plan) -> Node? {
    guard var root = first, case .mapping(var entries) = root.content, let last = entries.indices.last,
      entries[last].keyLocation == SourceLocation(line: plan.keyLine + 1, column: 1),
      case .mapping(let before) = entries[last].value.content,
      entries[last].value.location.column == plan.indent + 1,
      let second, second.location == SourceLocation(line: plan.splitLine + 1, column: plan.indent + 1),
      case .mapping(let after) = second.content
    else { return nil }
    var following: [Node.Entry] = []
    if let third {
      guard case .mapping(let thirdEntries) = third.content, third.location.column == 1 else { return nil }
      following = thirdEntries
    }
    guard !sharesKey(before, after), !sharesKey(entries, following) else { return nil }
    entries[last].value.content = .mapping(before + after)
    root.content = .mapping(entries + following)
    return root
  }

  private static func sharesKey(_ some: [Node.Entry], _ others: [Node.Entry]) -> Bool {
    guard !some.isEmpty && !others.isEmpty else { return false }
    let keys = Set(some.map(\.key))
    return others.contains { keys.contains($0.key) }
  }

  // MARK: - Where to cut

  /// The cut for a text, from the first byte of each line: the largest top-level block mapping, cut at a line
  /// of one of its keys such that each thread reads about half of the text. Nil when there is nothing worth
  /// cutting (the mapping is under a quarter of the text) or the text has a carriage return.
  package static func plan(_ text: UnsafeBufferPointer<UInt8>) -> Plan? {
    let count = text.count
    guard count > 0, let base = text.baseAddress, memchr(base, 0x0D, count) == nil else { return nil }
    var largest: Region?
    // The region of the last key line, until a line at column 1 with content ends it.
    var open: Region?
    func close(_ region: Region?, at end: Int, line: Int) {
      guard var region else { return }
      (region.end, region.endLine) = (end, line)
      if region.size > largest?.size ?? -1 { largest = region }
    }
    var sawKey = false
    var lineStart = 0
    var line = 0
    while lineStart < count {
      let next = nextLine(text, after: lineStart)
      let first = text[lineStart]
      if first != 0x20 && first != 0x0A && first != UInt8(ascii: "#") {
        close(open, at: lineStart, line: line)
        open = nil
        if sawKey && isDocumentMarker(text, lineStart) { return nil }
        if isKeyAlone(text, lineStart, next) {
          open = Region(keyLine: line, start: next, startLine: line + 1)
          sawKey = true
        }
      }
      lineStart = next
      line += 1
    }
    close(open, at: count, line: line)
    guard let largest, largest.size * 4 >= count else { return nil }
    return cut(text, largest)
  }

  /// The lines of a top-level key's block value: from the line after the key to the next line at column 1 with
  /// content (offsets, and 0-based line numbers).
  private struct Region {
    var keyLine: Int
    var start: Int
    var startLine: Int
    var end = 0
    var endLine = 0
    var size: Int { end - start }
  }

  /// A cut inside the region: at the first key line at the entries' indentation at or after the point that
  /// halves the work, and after the region's first entry.
  private static func cut(_ text: UnsafeBufferPointer<UInt8>, _ region: Region) -> Plan? {
    // The first entry's indentation.
    var lineStart = region.start
    var line = region.startLine
    var indent = 0
    while lineStart < region.end {
      indent = spaces(text, lineStart)
      let first = lineStart + indent < text.count ? text[lineStart + indent] : 0x0A
      if first != 0x0A && first != UInt8(ascii: "#") { break }
      lineStart = nextLine(text, after: lineStart)
      line += 1
    }
    guard lineStart < region.end, indent > 0, isKeyStart(text[lineStart + indent]) else { return nil }
    // This thread reads the text before the cut and after the region; the other, the rest of the region.
    let target = max(region.end - text.count / 2, nextLine(text, after: lineStart))
    lineStart = nextLine(text, after: lineStart)
    line += 1
    while lineStart < region.end {
      if lineStart >= target && spaces(text, lineStart) == indent && lineStart + indent < region.end
        && isKeyStart(text[lineStart + indent])
      {
        return Plan(
          keyLine: region.keyLine, indent: indent, split: lineStart, splitLine: line, end: region.end,
          endLine: region.endLine)
      }
      lineStart = nextLine(text, after: lineStart)
      line += 1
    }
    return nil
  }

  /// The start of the line after the one starting at `start` (the text's end for the last line).
  private static func nextLine(_ text: UnsafeBufferPointer<UInt8>, after start: Int) -> Int {
    guard let found = memchr(text.baseAddress! + start, 0x0A, text.count - start) else { return text.count }
    return text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
  }

  private static func spaces(_ text: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
    var i = start
    while i < text.count && text[i] == 0x20 { i += 1 }
    return i - start
  }

  /// A letter, digit or underscore: the start of a plain key, never of a sequence entry, a comment, a quote, a
  /// flow collection, an anchor, an alias, a tag or a block scalar.
  private static func isKeyStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// `name:` alone on its line (spaces and a comment may follow): a top-level key whose value is on the lines
  /// below. The name is letters, digits, `_`, `-` and `.`, starting with a letter, digit or `_`.
  private static func isKeyAlone(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ next: Int) -> Bool {
    guard isKeyStart(text[start]) else { return false }
    var i = start + 1
    while i < next && (isKeyStart(text[i]) || text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: ".")) {
      i += 1
    }
    guard i < next && text[i] == UInt8(ascii: ":") else { return false }
    i += 1
    while i < next && text[i] == 0x20 { i += 1 }
    return i == next || text[i] == 0x0A || (text[i] == UInt8(ascii: "#") && text[i - 1] == 0x20)
  }

  /// `---` or `...` at the start of a line, alone or followed by a space: a document's start or end.
  private static func isDocumentMarker(_ text: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
    guard start + 3 <= text.count else { return false }
    let first = text[start]
    guard first == UInt8(ascii: "-") || first == UInt8(ascii: ".") else { return false }
    guard text[start + 1] == first && text[start + 2] == first else { return false }
    return start + 3 == text.count || text[start + 3] == 0x20 || text[start + 3] == 0x0A || text[start + 3] == 0x09
  }
}
