import FlowCore
import FlowYAML
import Foundation
import Testing

@testable import FlowSchema

/// The flow schema's program compiled at build time (`Sources/FlowSchema/EmbeddedSchemaPrograms.swift`, which
/// `flowlint` reads instead of compiling the schema in every process) is the one the schema compiles to, reads
/// back whole, and validates every document as the freshly compiled schema does.
struct EmbeddedSchemaProgramTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let compiled: JSONSchema? = {
    guard let node = try? JSONReader.read(bytes: Array(EmbeddedSchemas.flow.utf8), file: "flow.schema.json") else {
      return nil
    }
    return try? JSONSchema(node, file: "flow.schema.json")
  }()

  static let precompiled = JSONSchema(
    precompiled: EmbeddedSchemaPrograms.flow, source: EmbeddedSchemas.flow, file: "flow.schema.json")

  @Test func embeddedProgramIsUpToDate() throws {
    let fresh = try JSONSchema.precompile(EmbeddedSchemas.flow, file: "flow.schema.json")
    #expect(EmbeddedSchemaPrograms.flow == fresh, "EmbeddedSchemaPrograms.flow is stale: run scripts/embed-schemas.sh")
    let onDisk = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/FlowSchema/EmbeddedSchemaPrograms.swift"), encoding: .utf8)
    #expect(onDisk == (try JSONSchema.embeddedProgramsFile()), "run scripts/embed-schemas.sh")
  }

  @Test func embeddedProgramReadsBackWhole() throws {
    let schema = try #require(Self.precompiled)
    #expect(schema.precompiledText(source: EmbeddedSchemas.flow) == EmbeddedSchemaPrograms.flow)
  }

  /// A plain string at the very end of the text reads back (its length header, twice its bytes plus one, is
  /// longer than what is left).
  @Test func aPlainStringAtTheEndReadsBack() {
    var writer = SchemaProgramCoding.Writer()
    writer.string("#/properties/a")
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "j1#/properties/a")
    let read = writer.bytes.withUnsafeBufferPointer { buffer in
      var reader = SchemaProgramCoding.Reader(bytes: buffer)
      return (reader.string(), reader.isAtEnd, reader.failed)
    }
    #expect(read == ("#/properties/a", true, false))
  }

  /// Text of another format version, or written for another source, or cut short, is not read: the caller
  /// compiles the schema instead.
  @Test func otherOrDamagedTextIsRefused() {
    let text = EmbeddedSchemaPrograms.flow
    #expect(JSONSchema(precompiled: text, source: EmbeddedSchemas.flow + " ", file: "f") == nil)
    #expect(JSONSchema(precompiled: text, source: EmbeddedSchemas.scenario, file: "f") == nil)
    #expect(JSONSchema(precompiled: String(text.dropLast(40)), source: EmbeddedSchemas.flow, file: "f") == nil)
    #expect(JSONSchema(precompiled: text + "0", source: EmbeddedSchemas.flow, file: "f") == nil)
    #expect(JSONSchema(precompiled: "3" + text.dropFirst(), source: EmbeddedSchemas.flow, file: "f") == nil)
    #expect(JSONSchema(precompiled: "", source: EmbeddedSchemas.flow, file: "f") == nil)
  }

  static func documents() -> [String] {
    var paths: [String] = []
    for folder in [
      "flows", "Examples", "Tests/Flows", "Tests/LanguageFlows", "Tests/LintFixtures", "Tests/SchemaCorpus",
    ] {
      let base = root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let name as String in walker where name.hasSuffix(".yaml") {
        paths.append(folder + "/" + name)
      }
    }
    return paths.sorted()
  }

  @Test func precompiledSchemaFindsWhatTheCompiledOneFinds() throws {
    let compiled = try #require(Self.compiled)
    let precompiled = try #require(Self.precompiled)
    let paths = Self.documents()
    #expect(paths.count >= 90)
    for path in paths {
      let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent(path)))
      guard let node = try? YAMLLoader.load(bytes: bytes, file: path) else { continue }
      #expect(precompiled.validate(node, file: path) == compiled.validate(node, file: path), "\(path)")
      #expect(precompiled.isValid(node) == compiled.isValid(node), "\(path)")
    }
  }
}
