package import FlowCore
internal import FlowSchema
internal import FlowYAML

/// Loads flow files: bytes → tree (YAML, or JSON for `.json` files and text starting with `{`) → schema
/// validation against the embedded flow schema, on a second thread while ``FlowCompiler`` compiles the tree.
///
/// Schema and compiler diagnostics never repeat each other (``Diagnostic/merging(_:_:keep:)``): when the
/// schema reports a problem on a line, the compiler's diagnostics on that line are dropped, since they describe
/// the same mistake less precisely.
package enum FlowLoader {
  /// Reads and loads the file at `path`.
  ///
  /// - Throws: ``FlowIOError`` when the path does not exist, is a directory or cannot be read. Everything
  ///   wrong with the contents is a diagnostic in the result instead.
  package static func load(path: String, limits: LoadLimits = .default) throws(FlowIOError) -> LoadedFlow {
    try load(path: path, limits: limits) { _ in () }.loaded
  }

  /// Reads and loads the file at `path`, running `work` on the compiled flow while the schema is checked (see
  /// ``load(bytes:file:limits:sharing:whileValidating:)``).
  package static func load<Work>(
    path: String, limits: LoadLimits = .default, sharing share: TaskShare? = nil,
    whileValidating work: (LoadedFlow) -> Work
  ) throws(FlowIOError) -> (loaded: LoadedFlow, work: Work?) {
    do {
      let bytes = try FlowFiles.readBytes(path: path, limit: limits.maxBytes)
      return load(bytes: bytes, file: path, limits: limits, sharing: share, whileValidating: work)
    } catch {
      guard let tooLarge = error.tooLarge else { throw error }
      let loaded = LoadedFlow(
        file: path, text: SourceText(""), node: nil, flow: nil, diagnostics: [tooLarge.diagnostic],
        isSchemaValid: false)
      return (loaded, nil)
    }
  }

  /// Loads a flow from its bytes; never throws: every problem is a diagnostic.
  package static func load(bytes: [UInt8], file: String, limits: LoadLimits = .default) -> LoadedFlow {
    load(bytes: bytes, file: file, limits: limits) { _ in () }.loaded
  }

  /// Loads a flow from its bytes, and runs `work` on the compiled flow on this thread while the schema checks the
  /// tree on another (neither needs the other). `work` sees the compiler's diagnostics only, with
  /// `isSchemaValid` true; the result has every diagnostic. `work` does not run, and its result is nil, when the
  /// bytes are not a document or hold a number no flow value holds.
  ///
  /// With `share`, the schema's thread then helps with the tasks `work` offers through it
  /// (``TaskShare/run(count:_:)``): on a large flow the schema is checked before the rules are done.
  package static func load<Work>(
    bytes: [UInt8], file: String, limits: LoadLimits = .default, sharing share: TaskShare? = nil,
    whileValidating work: (LoadedFlow) -> Work
  ) -> (loaded: LoadedFlow, work: Work?) {
    var loaded = LoadedFlow(
      file: file, text: SourceText(""), node: nil, flow: nil, diagnostics: [], isSchemaValid: false)
    let node: Node
    do {
      node = try parse(bytes: bytes, file: file, limits: limits)
    } catch {
      // No snippet text for input the readers refuse by size anyway.
      if bytes.count <= limits.maxBytes { loaded.text = SourceText(bytes: bytes) }
      loaded.diagnostics = [error.diagnostic]
      return (loaded, nil)
    }
    // The schema checks the tree on another thread while this one indexes the text's lines, looks for a number
    // no flow value holds, and compiles. Such a number refuses the file before it is compiled, as the only
    // finding: the schema's are then dropped (the validator handles any number, as it does in `--schema` mode).
    let (schemaDiagnostics, (compiled, done)) = concurrently {
      let diagnostics = validate(node, file: file)
      share?.help()
      return diagnostics
    } and: {
      // Whatever `work` offers, or when it does not run, a helper stops waiting.
      defer { share?.close() }
      // YAML the reader accepted is UTF-8 without NUL bytes (and within the size limit): it is not checked twice.
      let text =
        bytes.count > limits.maxBytes
        ? SourceText("")
        : isJSON(bytes: bytes, file: file) ? SourceText(bytes: bytes) : SourceText(checkedBytes: bytes)
      var compiled = loaded
      compiled.text = text
      if let problem = numberOutOfRange(in: node, text: text, file: file) {
        compiled.diagnostics = [problem]
        return (compiled, Work?.none)
      }
      let (flow, diagnostics) = FlowCompiler.compile(node, file: file)
      compiled.node = node
      compiled.flow = flow
      compiled.diagnostics = diagnostics.sorted(by: Diagnostic.positionOrder)
      compiled.isSchemaValid = true
      return (compiled, work(compiled))
    }
    // Refused for a number: the schema's findings are not wanted.
    guard compiled.node != nil else { return (compiled, nil) }
    loaded = compiled
    loaded.isSchemaValid = schemaDiagnostics.isEmpty
    loaded.diagnostics = Diagnostic.merging(schemaDiagnostics, compiled.diagnostics).sorted(
      by: Diagnostic.positionOrder)
    return (loaded, done)
  }

  /// The schema's diagnostics for a document tree.
  static func validate(_ node: Node, file: String) -> [Diagnostic] {
    switch flowSchema {
    case .success(let schema): schema.validate(node, file: file)
    case .failure(let error):
      [
        Diagnostic(
          .error, "the embedded flow schema does not compile: \(error.message)", file: file,
          at: SourceLocation(line: 1, column: 1), rule: "schema")
      ]
    }
  }

  /// The first number in the document that no flow value can hold: not finite, or beyond the range of `Int`
  /// (a JSON integer such as 99999999999999999999, which the JSON reader keeps as an approximate number, or a
  /// delay of 1e300 seconds). YAML refuses integer literals out of range itself; this covers JSON and floats.
  static func numberOutOfRange(in root: Node, text: SourceText, file: String) -> Diagnostic? {
    guard let node = firstNumberOutOfRange(root), case .double(let number) = node.content else { return nil }
    let written = text.line(node.location.line).map { line in
      String(
        line.unicodeScalars.dropFirst(max(node.location.column - 1, 0))
          .prefix { "0123456789+-.eEinfINFaN".unicodeScalars.contains($0) })
    }
    let shown = written.flatMap { $0.isEmpty ? nil : $0 } ?? "\(number)"
    return Diagnostic(
      .error,
      "the number \(shown) is out of range; numbers in a flow must be between \(Int.min) and \(Int.max)",
      file: file, at: node.location, rule: "load")
  }

  /// The first such number in document order. Recursive (documents are at most `LoadLimits.maxDepth` deep), so
  /// that no node is copied onto a stack; a child that holds no collection is looked at in place, without a call
  /// (copying each node into a call and freeing it cost more than the check).
  private static func firstNumberOutOfRange(_ node: Node) -> Node? {
    switch node.content {
    case .double(let number) where isOutOfRange(number):
      return node
    case .sequence(let items):
      for index in items.indices {
        switch items[index].content {
        case .double(let number) where isOutOfRange(number): return items[index]
        case .sequence, .mapping:
          if let found = firstNumberOutOfRange(items[index]) { return found }
        default: continue
        }
      }
    case .mapping(let entries):
      for index in entries.indices {
        switch entries[index].value.content {
        case .double(let number) where isOutOfRange(number): return entries[index].value
        case .sequence, .mapping:
          if let found = firstNumberOutOfRange(entries[index].value) { return found }
        default: continue
        }
      }
    default:
      break
    }
    return nil
  }

  private static func isOutOfRange(_ number: Double) -> Bool { !number.isFinite || abs(number) >= 0x1p63 }

  /// Whether bytes read from `file` are JSON: a `.json` extension, or text whose first non-blank byte is `{`.
  package static func isJSON(bytes: [UInt8], file: String) -> Bool {
    if file.lowercased().hasSuffix(".json") { return true }
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    for byte in bytes[start...] {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
      default: return byte == UInt8(ascii: "{")
      }
    }
    return false
  }

  /// Parses YAML or JSON (see ``isJSON(bytes:file:)``) into a positioned tree.
  package static func parse(bytes: [UInt8], file: String, limits: LoadLimits = .default) throws(LoadError) -> Node {
    if isJSON(bytes: bytes, file: file) {
      return try JSONReader.read(bytes: bytes, file: file, limits: limits)
    }
    return try YAMLLoader.load(bytes: bytes, file: file, limits: limits)
  }

  /// The embedded flow schema: its program compiled when FlowKit was built (`EmbeddedSchemaPrograms`, read in
  /// about a tenth of the time compiling takes), or compiled here once when that is not the current schema's.
  static let flowSchema: Result<JSONSchema, SchemaError> = {
    if let schema = JSONSchema(
      precompiled: EmbeddedSchemaPrograms.flow, source: EmbeddedSchemas.flow, file: "flow.schema.json")
    {
      return .success(schema)
    }
    do throws(SchemaError) {
      let root: Node
      do throws(LoadError) {
        root = try JSONReader.read(bytes: Array(EmbeddedSchemas.flow.utf8), file: "flow.schema.json")
      } catch {
        throw SchemaError(.invalidKeyword, error.message, file: "flow.schema.json", at: error.location)
      }
      // Its patterns are valid: EmbeddedSchemasTests compiles it with pattern checking on.
      return .success(try JSONSchema(root, file: "flow.schema.json", checkingPatterns: false))
    } catch {
      return .failure(error)
    }
  }()
}
