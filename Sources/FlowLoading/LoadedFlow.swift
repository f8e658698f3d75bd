package import FlowCore

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

  /// The document as JSON that FlowCore alone loads and runs (`FlowCompiler.compile(json:file:)`), as
  /// `flowrun export --json` writes it; nil when the bytes were not a document.
  ///
  /// One form for one document: comments and YAML styles (quoting, flow or block collections, anchors and
  /// aliases) are gone, every scalar is written as the JSON type the YAML 1.2 core schema resolved it to,
  /// two-space indentation, a line break at the end. Mapping keys keep the order the file gives them, the order
  /// the compiler reads: steps are numbered in that order and an effect's first key names its kind.
  package var exportedJSON: String? { node.map { JSONWriter.write($0, pretty: true) + "\n" } }

  /// Reads and compiles the same bytes again at each call: a flow equal to ``flow`` that shares none of its strings
  /// and arrays, for a thread that runs it on its own (a part of `flowrun explore --jobs N`); nil when the bytes
  /// are not kept (a file past the size limit) or do not compile. It holds the bytes, not the document's tree.
  package var flowCopier: @Sendable () -> Flow? {
    let (bytes, file, compiles) = (text.bytes, file, flow != nil)
    return {
      guard compiles, let node = try? FlowLoader.parse(bytes: bytes, file: file) else { return nil }
      return FlowCompiler.compile(node, file: file).flow
    }
  }
}

/// What a FlowKit YAML or JSON file is: a flow, or a scenario table that runs one.
package enum DocumentKind: String, Sendable, Hashable {
  case flow
  case scenarioTable = "scenario table"
}

extension DocumentKind {
  /// What a document is: the kind its `$schema` names (the modeline comment
  /// `# yaml-language-server: $schema=…/scenario.schema.json` before the document, or a top-level `$schema`
  /// key), else the kind its top-level keys show (`steps`: a flow; `cases`: a scenario table); nil when
  /// neither says.
  package static func of(text: SourceText, node: Node?) -> DocumentKind? {
    var schema = node?["$schema"]?.string
    if schema == nil {
      for number in 1...max(1, min(text.lineCount, 20)) {
        guard let line = text.line(number)?.drop(while: { $0 == " " || $0 == "\t" }) else { break }
        if line.isEmpty { continue }
        guard line.hasPrefix("#") else { break }
        // Searched by hand: `firstRange(of:)` builds a search table first, which costs more than this.
        if let start = line.indices.first(where: { line[$0...].hasPrefix("$schema=") }) {
          let value = line[start...].dropFirst("$schema=".count)
          schema = String(value.prefix { $0 != " " && $0 != "\t" && $0 != "\r" })
          break
        }
      }
    }
    if let schema {
      if schema.hasSuffix("scenario.schema.json") { return .scenarioTable }
      if schema.hasSuffix("flow.schema.json") { return .flow }
    }
    if node?["steps"] != nil { return .flow }
    if node?["cases"] != nil { return .scenarioTable }
    return nil
  }
}

extension LoadedFlow {
  /// What the file is (``DocumentKind/of(text:node:)``).
  package var kind: DocumentKind? { DocumentKind.of(text: text, node: node) }
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
