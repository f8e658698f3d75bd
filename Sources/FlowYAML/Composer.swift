internal import CLibYAML
internal import FlowCore

/// Builds positioned `Node` trees from libyaml's event stream.
///
/// Owns the `yaml_parser_t` and a private copy of the input (libyaml reads from it until the parser is
/// deleted), so it is neither `Sendable` nor reusable: make one per load call.
final class Composer {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let input: UnsafeMutableBufferPointer<UInt8>
  private let file: String
  private let limits: LoadLimits
  private let length: Int
  /// Where this composer's text sits in the file when it reads a part of it (`SplitParse`): the lines before
  /// it, added to every position, and how deep the part's first collection is in the whole document.
  private let lineOffset: Int
  private let baseDepth: Int
  /// Whether `documents` first edits the prologue (`Prologue`); false for a part of a file after its first
  /// (`SplitParse`), which has no prologue.
  private let rewritesPrologue: Bool

  /// Anchors defined so far in the current document.
  private var anchors: [String: Built] = [:]
  /// Anchors whose node is still being built (an alias to one of them would be recursive).
  private var openAnchors: [String] = []
  /// Nodes copied through aliases so far.
  private var aliasExpansion = 0
  /// Nodes in the stream so far, alias copies included.
  private(set) var nodeCount = 0

  // State for the checks libyaml does not make (see "Strictness").
  /// Input is ASCII, so libyaml's character index is the byte offset.
  private let isASCII: Bool
  /// Character index → byte offset cursor (marks are mostly met in increasing order).
  private var cursorIndex = 0
  private var cursorOffset = 0
  /// 3 when the input starts with a UTF-8 byte order mark, which `input` leaves out.
  private let bomLength: Int
  /// Byte offset just past the previous event.
  private var lastEventEnd = 0
  /// Byte offsets of the event `next` returned last.
  private var currentStart = 0
  private var currentEnd = 0
  /// Indentation (column - 1) of the enclosing block collections.
  private var blockIndents: [Int] = []
  /// Number of enclosing flow collections.
  private var flowDepth = 0
  /// Whether the previous document ended without `...` (nil before the first document).
  private var previousEndImplicit: Bool?

  /// A composed node with its size and height, so aliases to it can be bounded without walking it.
  struct Built {
    var node: Node
    var count: Int
    var height: Int
    /// The scalar's text as written, for a scalar used as a mapping key through an alias.
    var text: String?

    /// The node, moved out rather than copied (a copy retains what it holds); a null node is left in its place.
    mutating func takeNode() -> Node {
      var taken = Node(.null, at: node.location)
      swap(&taken, &node)
      return taken
    }
  }

  init(
    bytes: [UInt8], file: String, limits: LoadLimits, isASCII: Bool, lineOffset: Int = 0, baseDepth: Int = 0,
    rewritesPrologue: Bool = true
  ) {
    self.file = file
    self.limits = limits
    self.isASCII = isASCII
    self.lineOffset = lineOffset
    self.baseDepth = baseDepth
    self.rewritesPrologue = rewritesPrologue
    // libyaml counts a byte order mark as a column of the first line, which shifts its indentation (a second
    // top-level key is then "not at the document's indentation"): it reads the text after the mark instead.
    bomLength = bytes.starts(with: FileInput.utf8ByteOrderMark) ? 3 : 0
    input = .allocate(capacity: max(bytes.count - bomLength, 1))
    _ = input.initialize(from: bytes.dropFirst(bomLength))
    parser = .allocate(capacity: 1)
    parser.initialize(to: yaml_parser_t())
    yaml_parser_initialize(parser)
    length = bytes.count - bomLength
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(parser, input.baseAddress, length)
  }

  /// Whether the last document read defined an anchor (and so could have used an alias).
  var definedAnchors: Bool { !anchors.isEmpty }

  deinit {
    yaml_parser_delete(parser)
    parser.deinitialize(count: 1)
    parser.deallocate()
    input.deallocate()
  }
}

// MARK: - Documents

extension Composer {
  /// Composes every document of the stream. With `single`, a second document is an error that points at
  /// its start.
  func documents(single: Bool) throws(LoadError) -> [Node] {
    if rewritesPrologue { try Prologue.rewrite(UnsafeMutableBufferPointer(rebasing: input[0..<length]), file: file) }
    var documents: [Node] = []
    while true {
      var event = yaml_event_t()
      try next(&event)
      defer { yaml_event_delete(&event) }
      switch event.type {
      case YAML_STREAM_START_EVENT:
        continue
      case YAML_STREAM_END_EVENT:
        return documents
      case YAML_DOCUMENT_START_EVENT:
        if single && !documents.isEmpty {
          throw LoadError(
            .multipleDocuments,
            "a second YAML document starts here; the file must hold exactly one document",
            file: file, at: location(event.start_mark))
        }
        try checkDirectivesFollowEnd(&event)
        anchors.removeAll(keepingCapacity: true)
        let root = try composeNext(depth: baseDepth)
        var end = yaml_event_t()
        try next(&end)
        previousEndImplicit = end.data.document_end.implicit != 0
        yaml_event_delete(&end)
        documents.append(root.node)
      default:
        throw LoadError(
          .syntax, "invalid YAML: unexpected parser event \(event.type.rawValue)", file: file,
          at: location(event.start_mark))
      }
    }
  }
}

// MARK: - Nodes

extension Composer {
  private func composeNext(depth: Int) throws(LoadError) -> Built {
    var event = yaml_event_t()
    try next(&event)
    defer { yaml_event_delete(&event) }
    return try compose(&event, depth: depth)
  }

  private func compose(_ event: inout yaml_event_t, depth: Int) throws(LoadError) -> Built {
    switch event.type {
    case YAML_SCALAR_EVENT:
      return try scalar(&event)
    case YAML_SEQUENCE_START_EVENT:
      return try sequence(&event, depth: depth)
    case YAML_MAPPING_START_EVENT:
      return try mapping(&event, depth: depth)
    case YAML_ALIAS_EVENT:
      return try alias(&event, depth: depth)
    default:
      throw LoadError(
        .syntax, "invalid YAML: unexpected parser event \(event.type.rawValue)", file: file,
        at: location(event.start_mark))
    }
  }

  private func scalar(_ event: inout yaml_event_t) throws(LoadError) -> Built {
    let data = event.data.scalar
    let at = location(event.start_mark)
    let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
    try checkScalar(&event, bytes)
    let content = try resolve(bytes, tag: data.tag, plain: data.style == YAML_PLAIN_SCALAR_STYLE, at: at)
    try countNodes(1, at: at)
    let node: Node
    if case .string(let text) = content, let start = textStart(of: event) {
      node = Node(string: text, at: at, textStart: start)
    } else {
      node = Node(content, at: at)
    }
    guard let anchor = data.anchor else { return Built(node: node, count: 1, height: 0) }
    let built = Built(node: node, count: 1, height: 0, text: String(decoding: bytes, as: UTF8.self))
    anchors[String(cString: anchor)] = built
    return built
  }

  private func sequence(_ event: inout yaml_event_t, depth: Int) throws(LoadError) -> Built {
    let at = location(event.start_mark)
    let anchor = event.data.sequence_start.anchor.map { String(cString: $0) }
    try checkCollectionTag(event.data.sequence_start.tag, at: at)
    try enter(depth: depth, at: at)
    try countNodes(1, at: at)
    if let anchor { openAnchors.append(anchor) }
    let collection = beginCollection(&event, flow: event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE)
    var items: [Node] = []
    var count = 1
    var height = 0
    while true {
      var item = yaml_event_t()
      try next(&item)
      defer { yaml_event_delete(&item) }
      if item.type == YAML_SEQUENCE_END_EVENT {
        try endCollection(collection, &item)
        break
      }
      var built = try compose(&item, depth: depth + 1)
      items.append(built.takeNode())
      count += built.count
      height = max(height, built.height + 1)
    }
    let built = Built(node: Node(.sequence(items), at: at), count: count, height: height)
    if let anchor {
      openAnchors.removeLast()
      anchors[anchor] = built
    }
    return built
  }

  private func mapping(_ event: inout yaml_event_t, depth: Int) throws(LoadError) -> Built {
    let at = location(event.start_mark)
    let anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
    try checkCollectionTag(event.data.mapping_start.tag, at: at)
    try enter(depth: depth, at: at)
    try countNodes(1, at: at)
    if let anchor { openAnchors.append(anchor) }
    let collection = beginCollection(&event, flow: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE)
    var entries = MappingEntries()
    var count = 1
    var height = 0
    while true {
      var keyEvent = yaml_event_t()
      try next(&keyEvent)
      defer { yaml_event_delete(&keyEvent) }
      if keyEvent.type == YAML_MAPPING_END_EVENT {
        try endCollection(collection, &keyEvent)
        break
      }
      let (key, keyAt) = try mappingKey(&keyEvent, depth: depth + 1)
      count += 1
      try entries.refuseDuplicate(key, at: keyAt, file: file)
      var value = try composeNext(depth: depth + 1)
      count += value.count
      height = max(height, value.height + 1)
      entries.append(Node.Entry(key: key, keyLocation: keyAt, value: value.takeNode()))
    }
    let built = Built(node: Node(.mapping(entries.entries), at: at), count: count, height: height)
    if let anchor {
      openAnchors.removeLast()
      anchors[anchor] = built
    }
    return built
  }

  /// A mapping key as a string: a scalar's text as written (quotes removed), or an alias to a scalar.
  private func mappingKey(_ event: inout yaml_event_t, depth: Int) throws(LoadError) -> (String, SourceLocation) {
    let at = location(event.start_mark)
    switch event.type {
    case YAML_SCALAR_EVENT:
      let data = event.data.scalar
      let bytes = UnsafeBufferPointer(start: data.value, count: data.length)
      try checkScalar(&event, bytes)
      let key = String(decoding: bytes, as: UTF8.self)
      try countNodes(1, at: at)
      if data.tag != nil {
        // Keys are text as written; a tag on one must still be one this loader understands.
        _ = try resolve(bytes, tag: data.tag, plain: data.style == YAML_PLAIN_SCALAR_STYLE, at: at)
      }
      if let anchor = data.anchor {
        let content = try resolve(bytes, tag: data.tag, plain: data.style == YAML_PLAIN_SCALAR_STYLE, at: at)
        anchors[String(cString: anchor)] = Built(node: Node(content, at: at), count: 1, height: 0, text: key)
      }
      return (key, at)
    case YAML_ALIAS_EVENT:
      let built = try alias(&event, depth: depth)
      guard let text = built.text else {
        throw LoadError(
          .unsupported, "a mapping key must be a scalar; found an alias to \(built.node.kindDescription)",
          file: file, at: at)
      }
      return (text, at)
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let kind = event.type == YAML_SEQUENCE_START_EVENT ? "a list" : "a mapping"
      throw LoadError(
        .unsupported, "a mapping key must be a scalar; found \(kind) used as a key", file: file, at: at)
    default:
      throw LoadError(
        .syntax, "invalid YAML: unexpected parser event \(event.type.rawValue)", file: file, at: at)
    }
  }

  private func alias(_ event: inout yaml_event_t, depth: Int) throws(LoadError) -> Built {
    let at = location(event.start_mark)
    let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
    if openAnchors.contains(name) {
      throw LoadError(
        .unsupported, "alias '*\(name)' refers to a node that contains it; recursive data is not supported",
        file: file, at: at)
    }
    guard var built = anchors[name] else {
      throw LoadError(
        .syntax, "unknown alias '*\(name)'; no anchor '&\(name)' is defined before it", file: file, at: at)
    }
    aliasExpansion += built.count
    if aliasExpansion > limits.maxAliasExpansion {
      throw LoadError(
        .aliasLimit,
        "aliases expand to more than \(limits.maxAliasExpansion) nodes in total (at alias '*\(name)'); "
          + "the document repeats anchored content too often",
        file: file, at: at)
    }
    if depth + built.height > limits.maxDepth {
      throw LoadError(
        .tooDeep, "alias '*\(name)' nests values deeper than \(limits.maxDepth) levels", file: file, at: at)
    }
    try countNodes(built.count, at: at)
    built.node.location = at
    return built
  }

}

// MARK: - Scalars

extension Composer {
  private static let tagPrefix = "tag:yaml.org,2002:"

  /// The standard tags a scalar may carry; any other explicit tag is an error, never ignored.
  private static let scalarTags: Set<Substring> = ["str", "null", "bool", "int", "float"]

  /// Resolves a scalar by its tag when it has a standard one, else by the core schema when it is plain.
  ///
  /// - Throws: for a tag other than `!`, `!!str`, `!!null`, `!!bool`, `!!int` and `!!float` (`!!binary`,
  ///   `!foo`), for a value its tag does not fit, and for an integer outside the range of `Int`.
  private func resolve(
    _ bytes: UnsafeBufferPointer<UInt8>, tag: UnsafeMutablePointer<yaml_char_t>?, plain: Bool, at: SourceLocation
  ) throws(LoadError) -> Node.Content {
    if let tag {
      let name = String(cString: tag)
      if name == "!" { return .string(String(decoding: bytes, as: UTF8.self)) }
      let short = name.hasPrefix(Self.tagPrefix) ? name.dropFirst(Self.tagPrefix.count) : nil
      guard let short, Self.scalarTags.contains(short) else { throw unsupportedTag(name, at: at) }
      switch short {
      case "str":
        return .string(String(decoding: bytes, as: UTF8.self))
      case "null":
        if CoreSchema.isNull(bytes) { return .null }
      case "bool":
        if let value = CoreSchema.bool(bytes) { return .bool(value) }
      case "int":
        try checkIntegerRange(bytes, at: at)
        if case .int(let value)? = CoreSchema.number(bytes) { return .int(value) }
      default:
        switch CoreSchema.number(bytes) {
        case .int(let value)?: return .double(Double(value))
        case .double(let value)?: return .double(value)
        default: break
        }
      }
      throw LoadError(
        .syntax, "'\(String(decoding: bytes, as: UTF8.self))' is not a valid !!\(short) value", file: file, at: at)
    }
    guard plain else { return .string(String(decoding: bytes, as: UTF8.self)) }
    try checkIntegerRange(bytes, at: at)
    return CoreSchema.resolvePlain(bytes) ?? .string(String(decoding: bytes, as: UTF8.self))
  }

  /// Refuses a collection's explicit tag other than `!!seq`/`!!map` (and `!`).
  func checkCollectionTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, at: SourceLocation) throws(LoadError) {
    guard let tag else { return }
    let name = String(cString: tag)
    guard name != "!", name != Self.tagPrefix + "seq", name != Self.tagPrefix + "map" else { return }
    throw unsupportedTag(name, at: at)
  }

  private func unsupportedTag(_ name: String, at: SourceLocation) -> LoadError {
    let shown = name.hasPrefix(Self.tagPrefix) ? "!!" + name.dropFirst(Self.tagPrefix.count) : name
    return LoadError(
      .unsupported,
      "the tag '\(shown)' is not supported; only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are (remove "
        + "the tag, or quote the value to make it a string)",
      file: file, at: at)
  }

  /// An integer literal (decimal, `0o`, `0x`) must fit in a 64-bit `Int`: it is refused with its value and the
  /// range, rather than read as an approximate number.
  private func checkIntegerRange(_ bytes: UnsafeBufferPointer<UInt8>, at: SourceLocation) throws(LoadError) {
    guard CoreSchema.isIntegerLiteral(bytes), case .double? = CoreSchema.number(bytes) else { return }
    throw LoadError(
      .unsupported,
      "the integer \(String(decoding: bytes, as: UTF8.self)) is out of range; integers must be between \(Int.min) "
        + "and \(Int.max)",
      file: file, at: at)
  }
}

// MARK: - Limits and errors

extension Composer {
  private func enter(depth: Int, at: SourceLocation) throws(LoadError) {
    if depth >= limits.maxDepth {
      throw LoadError(.tooDeep, "lists and mappings nest deeper than \(limits.maxDepth) levels", file: file, at: at)
    }
  }

  private func countNodes(_ added: Int, at: SourceLocation) throws(LoadError) {
    nodeCount += added
    if nodeCount > limits.maxNodes {
      throw LoadError(
        .tooLarge, "the document has more than \(limits.maxNodes) values (the node limit)", file: file, at: at)
    }
  }

  private func next(_ event: inout yaml_event_t) throws(LoadError) {
    guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
    currentStart = offset(event.start_mark)
    currentEnd = max(currentStart, offset(event.end_mark))
    switch event.type {
    case YAML_STREAM_START_EVENT, YAML_STREAM_END_EVENT, YAML_DOCUMENT_START_EVENT:
      break
    default:
      if currentStart > lastEventEnd {
        // The caller frees only events it received: free this one when refusing it.
        do throws(LoadError) {
          try checkGap(lastEventEnd, currentStart)
        } catch {
          yaml_event_delete(&event)
          throw error
        }
      }
    }
    lastEventEnd = max(lastEventEnd, currentEnd)
  }

  /// Where a quoted or block scalar's text starts: after the quote, or on the line after the `|` or `>` header
  /// at the block's indentation (the column of its first non-blank line); nil for a plain scalar.
  private func textStart(of event: yaml_event_t) -> SourceLocation? {
    let start = location(event.start_mark)
    switch event.data.scalar.style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE:
      return start.advanced(by: 1)
    case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
      var i = currentStart  // the byte offset: libyaml's index counts characters
      while i < length && input[i] != 0x0A { i += 1 }
      while i < length {
        i += 1  // past the line break
        var column = 1
        while i < length && (input[i] == 0x20 || input[i] == 0x09) {
          i += 1
          column += 1
        }
        if i < length && input[i] != 0x0A && input[i] != 0x0D {
          return SourceLocation(line: start.line + 1, column: column)
        }
        while i < length && input[i] != 0x0A { i += 1 }
      }
      return nil
    default:
      return nil
    }
  }

  /// libyaml's 0-based mark as a 1-based position.
  private func location(_ mark: yaml_mark_t) -> SourceLocation {
    SourceLocation(line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
  }

  /// libyaml's error, phrased for a user: its problem, then what it was reading and where that started.
  private func parserError() -> LoadError {
    let state = parser.pointee
    let problem = state.problem.map { String(cString: $0) } ?? "unknown error"
    switch state.error {
    case YAML_MEMORY_ERROR:
      return LoadError(
        .tooLarge, "out of memory while reading YAML", file: file, at: SourceLocation(line: 1, column: 1))
    case YAML_READER_ERROR:
      let offset = Int(state.problem_offset)
      let at = TextPosition.location(of: offset, in: Array(UnsafeBufferPointer(input)))
      return LoadError(
        .syntax, "invalid input: \(problem) at byte offset \(offset + bomLength)", file: file, at: at)
    default:
      var message = "invalid YAML: \(problem)"
      if let context = state.context.map({ String(cString: $0) }) {
        message += " (\(context) at \(location(state.context_mark)))"
      }
      return LoadError(.syntax, message, file: file, at: location(state.problem_mark))
    }
  }
}

// MARK: - Strictness

/// Checks for YAML that libyaml accepts but the YAML 1.2 specification rejects.
extension Composer {
  struct Collection {
    var flow: Bool
    /// For a flow collection inside a block collection: the indentation its lines must exceed.
    var indent: Int?
    var start: Int
  }

  private func beginCollection(_ event: inout yaml_event_t, flow: Bool) -> Collection {
    if flow {
      let indent = flowDepth == 0 ? blockIndents.last : nil
      flowDepth += 1
      return Collection(flow: true, indent: indent, start: currentStart)
    }
    blockIndents.append(Int(event.start_mark.column))
    return Collection(flow: false, indent: nil, start: currentStart)
  }

  private func endCollection(_ collection: Collection, _ event: inout yaml_event_t) throws(LoadError) {
    guard collection.flow else {
      blockIndents.removeLast()
      return
    }
    flowDepth -= 1
    if let indent = collection.indent {
      try checkContinuationLines(
        collection.start, currentEnd, indent: indent, what: "a flow collection", comments: true)
    }
  }

  private func checkScalar(_ event: inout yaml_event_t, _ bytes: UnsafeBufferPointer<UInt8>) throws(LoadError) {
    let data = event.data.scalar
    switch data.style {
    case YAML_PLAIN_SCALAR_STYLE:
      guard flowDepth > 0, let first = bytes.first,
        first == UInt8(ascii: "-") || first == UInt8(ascii: "?") || first == UInt8(ascii: ":")
      else { return }
      if bytes.count == 1 || bytes[1] == 0x20 || bytes[1] == 0x09 {
        let indicator = Character(Unicode.Scalar(first))
        throw LoadError(
          .syntax, "invalid YAML: '\(indicator)' cannot start a plain value inside '[...]' or '{...}'; quote the value",
          file: file, at: location(event.start_mark))
      }
    case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE:
      guard flowDepth == 0, let indent = blockIndents.last, event.end_mark.line > event.start_mark.line else { return }
      try checkContinuationLines(currentStart, currentEnd, indent: indent, what: "a quoted string", comments: false)
    case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE:
      // The header line: `|` or `>` with indicators, then optionally a comment after whitespace.
      var i = currentStart
      while i < length && input[i] != 0x0A && input[i] != 0x0D {
        if input[i] == UInt8(ascii: "#") && i > currentStart && !isWhite(input[i - 1]) {
          throw commentError(at: i)
        }
        i += 1
      }
    default:
      return
    }
  }

  /// Each line after the first in `start..<end` (blank lines, and comment lines when `comments`, aside)
  /// must start with more than `indent` spaces.
  private func checkContinuationLines(
    _ start: Int, _ end: Int, indent: Int, what: String, comments: Bool
  ) throws(LoadError) {
    var i = start
    while i < end {
      let b = input[i]
      i += 1
      guard b == 0x0A || (b == 0x0D && (i >= length || input[i] != 0x0A)) else { continue }
      var spaces = 0
      while i + spaces < length && input[i + spaces] == 0x20 { spaces += 1 }
      var j = i + spaces
      while j < length && input[j] == 0x09 { j += 1 }
      let next = j < length ? input[j] : 0x0A
      let blank = next == 0x0A || next == 0x0D || (comments && next == UInt8(ascii: "#"))
      if !blank && spaces <= indent && i + spaces < end {
        throw LoadError(
          .syntax,
          "invalid YAML: this line of \(what) must be indented by more than \(indent) spaces, "
            + "the indentation of the enclosing block; found \(spaces)",
          file: file, at: TextPosition.location(of: i + spaces, in: Array(UnsafeBufferPointer(input))))
      }
    }
  }

  /// Between two events there is only syntax: indicators, indentation and comments. A `#` there starts a
  /// comment and must follow whitespace.
  private func checkGap(_ start: Int, _ end: Int) throws(LoadError) {
    var i = start
    while i < end {
      if input[i] == UInt8(ascii: "#") {
        if i > 0 && !isWhite(input[i - 1]) { throw commentError(at: i) }
        while i < end && input[i] != 0x0A && input[i] != 0x0D { i += 1 }
        continue
      }
      i += 1
    }
  }

  /// YAML 1.2 only lets directives start a document after an explicit `...`.
  private func checkDirectivesFollowEnd(_ event: inout yaml_event_t) throws(LoadError) {
    let start = event.data.document_start
    let hasDirectives = start.version_directive != nil || start.tag_directives.start != start.tag_directives.end
    if hasDirectives && previousEndImplicit == true {
      throw LoadError(
        .syntax, "invalid YAML: a directive must follow '...', the end marker of the previous document",
        file: file, at: location(event.start_mark))
    }
  }

  private func commentError(at offset: Int) -> LoadError {
    LoadError(
      .syntax, "invalid YAML: a comment needs whitespace before '#'", file: file,
      at: TextPosition.location(of: offset, in: Array(UnsafeBufferPointer(input))))
  }

  @inline(__always) private func isWhite(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// The byte offset of a libyaml mark (whose index counts characters).
  private func offset(_ mark: yaml_mark_t) -> Int {
    let index = Int(mark.index)
    if isASCII { return min(index, length) }
    if index < cursorIndex {
      cursorIndex = 0
      cursorOffset = 0
    }
    while cursorIndex < index && cursorOffset < length {
      let b = input[cursorOffset]
      cursorOffset += b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
      cursorIndex += 1
    }
    return min(cursorOffset, length)
  }
}
