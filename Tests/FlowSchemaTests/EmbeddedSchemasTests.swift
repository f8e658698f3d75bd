import FlowCore
import FlowLint
import FlowSchema
import Foundation
import Testing

/// `Sources/FlowSchema/EmbeddedSchemas.swift` must match `schemas/*.schema.json`, and every embedded schema
/// must compile without warnings.
struct EmbeddedSchemasTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let embedded: [(name: String, text: String)] = [
    ("flow", EmbeddedSchemas.flow), ("scenario", EmbeddedSchemas.scenario),
    ("flowlint-config", EmbeddedSchemas.flowlintConfig),
  ]

  @Test(arguments: embedded.map(\.name))
  func embeddedSchemaIsCurrent(_ name: String) throws {
    let url = Self.packageRoot.appendingPathComponent("schemas/\(name).schema.json")
    let onDisk = (try? String(contentsOf: url, encoding: .utf8)) ?? "{}"
    let text = try #require(Self.embedded.first { $0.name == name }?.text)
    #expect(text == onDisk, "EmbeddedSchemas.\(name) is stale: run scripts/embed-schemas.sh")
  }

  @Test func everySchemaFileIsEmbedded() throws {
    let directory = Self.packageRoot.appendingPathComponent("schemas")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for file in files where file.hasSuffix(".schema.json") {
      let name = String(file.dropLast(".schema.json".count))
      #expect(
        Self.embedded.contains { $0.name == name }, "schemas/\(file) is not embedded: run scripts/embed-schemas.sh")
    }
  }

  @Test(arguments: embedded.map(\.name))
  func embeddedSchemaCompilesCleanly(_ name: String) throws {
    let text = try #require(Self.embedded.first { $0.name == name }?.text)
    let node = try JSONReader.read(bytes: Array(text.utf8), file: "\(name).schema.json")
    let schema = try JSONSchema(node, file: "\(name).schema.json")
    #expect(schema.warnings.map(\.description) == [])
  }
  /// The `description` of every property named `key` anywhere in the embedded schema `text`.
  static func descriptions(of key: String, in text: String) throws -> [String] {
    var found: [String] = []
    func collect(_ node: Node) {
      if let text = node[key]?["description"]?.string { found.append(text) }
      for entry in node.entries ?? [] { collect(entry.value) }
    }
    collect(try JSONReader.read(bytes: Array(text.utf8), file: "schema.json"))
    return found
  }

  /// An author writing `commands` in an editor sees every kind of command, including `settings` and `@STEP`.
  @Test func theScenarioCommandsDescriptionNamesSettingsAndAtStep() throws {
    let descriptions = try Self.descriptions(of: "commands", in: EmbeddedSchemas.scenario)
    #expect(!descriptions.isEmpty)
    for text in descriptions {
      #expect(text.contains("settings KIND=STATUS") && text.contains("@STEP"), "\(text)")
    }
  }

  /// The `advance` hook runs before the route is chosen (docs/language.md): no `target` is bound in it.
  @Test func theAdvanceHookDescriptionBindsNoTarget() throws {
    let descriptions = try Self.descriptions(of: "advance", in: EmbeddedSchemas.flow)
    #expect(!descriptions.isEmpty)
    for text in descriptions {
      #expect(text.contains("`target` is not bound"), "\(text)")
    }
  }

  /// The `.flowlint.yml` schema (for editors) names every rule id, and pins the rules that cannot be silenced
  /// to `error`, as flowlint's own check of the file does.
  @Test func theConfigurationSchemaKnowsEveryRule() throws {
    let node = try JSONReader.read(
      bytes: Array(EmbeddedSchemas.flowlintConfig.utf8), file: "flowlint-config.schema.json")
    let rules = try #require(node["properties"]?["rules"])
    let ids = rules["propertyNames"]?["enum"]?.sequence?.compactMap(\.string)
    #expect(ids == RuleRegistry.descriptions.map(\.id))
    let pinned = rules["properties"]?.entries?.filter { $0.value["const"]?.string == "error" }.map(\.key)
    #expect(pinned == RuleRegistry.descriptions.filter { !$0.isSuppressible }.map(\.id))
  }
}
