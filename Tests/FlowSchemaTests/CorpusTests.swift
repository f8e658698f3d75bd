import FlowCore
import FlowSchema
import FlowYAML
import Foundation
import Testing

/// Validates `Tests/SchemaCorpus` against the embedded flow schema: every `valid/` document passes, and every
/// `invalid/` document fails with a diagnostic at the node its `# error-at: /json/pointer` line names.
struct CorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SchemaCorpus")

  static let schema: JSONSchema? = {
    guard let node = try? JSONReader.read(bytes: Array(EmbeddedSchemas.flow.utf8), file: "flow.schema.json") else {
      return nil
    }
    return try? JSONSchema(node, file: "flow.schema.json")
  }()

  static func files(_ folder: String) -> [String] {
    let path = corpus.appendingPathComponent(folder).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".yaml") }
      .sorted()
  }

  static func load(_ folder: String, _ name: String) throws -> (text: String, node: Node) {
    let url = corpus.appendingPathComponent(folder).appendingPathComponent(name)
    let text = try String(contentsOf: url, encoding: .utf8)
    return (text, try YAMLLoader.load(bytes: Array(text.utf8), file: name))
  }

  @Test(arguments: files("valid"))
  func validDocumentPasses(_ name: String) throws {
    let schema = try #require(Self.schema)
    let document = try Self.load("valid", name)
    #expect(schema.validate(document.node, file: name).map(\.description) == [])
  }

  @Test(arguments: files("invalid"))
  func invalidDocumentFailsAtTheNamedNode(_ name: String) throws {
    let schema = try #require(Self.schema)
    let document = try Self.load("invalid", name)
    let diagnostics = schema.validate(document.node, file: name)
    #expect(!diagnostics.isEmpty)
    if ProcessInfo.processInfo.environment["PRINT_DIAGNOSTICS"] != nil {
      print(diagnostics.map(\.description).joined(separator: "\n"))
    }
    #expect(!schema.isValid(document.node))
    let pointerLine = document.text.split(separator: "\n").first { $0.hasPrefix("# error-at: ") }
    let pointer = try #require(pointerLine.map { String($0.dropFirst("# error-at: ".count)) })
    let places = Self.locations(in: document.node, at: pointer)
    #expect(!places.isEmpty, "no node at \(pointer)")
    #expect(
      diagnostics.contains { places.contains($0.location) },
      "nothing inside \(pointer); got \(diagnostics.map(\.description))")
  }

  /// Every position inside the node at a JSON pointer: its key's, its own, and those of everything under it.
  static func locations(in root: Node, at pointer: String) -> Set<FlowCore.SourceLocation> {
    var current = root
    var result: Set<FlowCore.SourceLocation> = []
    for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let key = token.replacing("~1", with: "/").replacing("~0", with: "~")
      if let entry = current.entry(String(key)) {
        current = entry.value
        result = [entry.keyLocation]
      } else if let items = current.sequence, let index = Int(key), items.indices.contains(index) {
        current = items[index]
        result = []
      } else {
        return []
      }
    }
    var pending = [current]
    while let node = pending.popLast() {
      result.insert(node.location)
      for entry in node.entries ?? [] {
        result.insert(entry.keyLocation)
        pending.append(entry.value)
      }
      pending += node.sequence ?? []
    }
    return result
  }
}
