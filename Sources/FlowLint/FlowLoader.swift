package import FlowCore
internal import FlowSchema
internal import FlowYAML
internal import Foundation

/// A flow file after loading: its text, its tree, the compiled flow, and what went wrong on the way.
package struct LoadedFlow: Sendable {
  /// The path as given, used in every diagnostic.
  package var file: String
  /// The source lines, for carets and for positions inside scalars.
  package var text: SourceText
  /// The document tree; nil when the bytes are not a YAML/JSON document.
  package var node: Node?
  /// The compiled flow; nil when the document could not be read or is not a mapping.
  package var flow: Flow?
  /// Load, schema and compiler diagnostics, one per problem, sorted by position.
  package var diagnostics: [Diagnostic]
  /// Whether the document passed the schema. Rules that reason about the whole graph only run when it did,
  /// so a misspelled key is reported once (by the schema), not again as a dead end.
  package var isSchemaValid: Bool

  /// Whether the flow can be run: it compiled and nothing is an error.
  package var isRunnable: Bool { flow != nil && !diagnostics.contains { $0.severity == .error } }
}

/// A path that could not be read at all (missing, a directory, no permission): not a finding about a flow,
/// so tools exit with status 2 rather than 1.
package struct FlowIOError: Error, Hashable, Sendable, CustomStringConvertible {
  package var path: String
  package var reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: error: reason`
  package var description: String { "\(path): error: \(reason)" }
}

/// Loads flow files: bytes → tree (YAML, or JSON for `.json` files and text starting with `{`) → schema
/// validation against the embedded flow schema → ``FlowCompiler``.
///
/// Schema and compiler diagnostics never repeat each other: when the schema reports a problem on a line, the
/// compiler's diagnostics on that line are dropped, since they describe the same mistake less precisely.
package enum FlowLoader {
  /// Reads and loads the file at `path`.
  ///
  /// - Throws: ``FlowIOError`` when the path does not exist, is a directory or cannot be read. Everything
  ///   wrong with the contents is a diagnostic in the result instead.
  package static func load(path: String, limits: LoadLimits = .default) throws(FlowIOError) -> LoadedFlow {
    try load(bytes: readBytes(path: path), file: path, limits: limits)
  }

  /// The bytes of the file at `path`.
  ///
  /// - Throws: ``FlowIOError`` when the path does not exist, is a directory or cannot be read.
  package static func readBytes(path: String) throws(FlowIOError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw FlowIOError(path: path, reason: "no such file or directory")
    }
    if isDirectory.boolValue { throw FlowIOError(path: path, reason: "is a directory, not a flow file") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FlowIOError(path: path, reason: "cannot read the file (permission denied?)")
    }
    return [UInt8](data)
  }

  /// Loads a flow from its bytes; never throws: every problem is a diagnostic.
  package static func load(bytes: [UInt8], file: String, limits: LoadLimits = .default) -> LoadedFlow {
    // No snippet text for input the readers refuse by size anyway.
    let text = bytes.count <= limits.maxBytes ? SourceText(bytes: bytes) : SourceText("")
    var loaded = LoadedFlow(file: file, text: text, node: nil, flow: nil, diagnostics: [], isSchemaValid: false)
    let node: Node
    do {
      node = try parse(bytes: bytes, file: file, limits: limits)
    } catch {
      loaded.diagnostics = [error.diagnostic]
      return loaded
    }
    loaded.node = node

    let schemaDiagnostics: [Diagnostic]
    switch flowSchema {
    case .success(let schema): schemaDiagnostics = schema.validate(node, file: file)
    case .failure(let error):
      schemaDiagnostics = [
        Diagnostic(
          .error, "the embedded flow schema does not compile: \(error.message)", file: file,
          at: SourceLocation(line: 1, column: 1), rule: "schema")
      ]
    }
    loaded.isSchemaValid = schemaDiagnostics.isEmpty

    let (flow, compilerDiagnostics) = FlowCompiler.compile(node, file: file)
    loaded.flow = flow
    let positioned = ExpressionPositions.repositionSyntaxErrors(compilerDiagnostics, in: node, text: loaded.text)
    let schemaLines = Set(schemaDiagnostics.map(\.location.line))
    var diagnostics = schemaDiagnostics
    var seen = Set(schemaDiagnostics)
    for diagnostic in positioned where !schemaLines.contains(diagnostic.location.line) {
      if seen.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
    }
    loaded.diagnostics = diagnostics.sorted(by: Diagnostic.positionOrder)
    return loaded
  }

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

  /// The embedded flow schema, compiled once.
  static let flowSchema: Result<JSONSchema, SchemaError> = {
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

extension Diagnostic {
  /// File, then line and column, then errors before warnings, then message: a stable order for reports.
  package static func positionOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
    if a.file != b.file { return a.file < b.file }
    if a.location != b.location { return a.location < b.location }
    if a.severity != b.severity { return a.severity > b.severity }
    if a.ruleID != b.ruleID { return (a.ruleID ?? "") < (b.ruleID ?? "") }
    return a.message < b.message
  }
}
