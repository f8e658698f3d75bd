import FlowCore
import FlowLint
import FlowLoading
import FlowSchema
import Foundation
import Testing

/// Inputs the schema and flow fuzz targets (Fuzz/Targets/schema.swift, flow.swift) keep in
/// Tests/FuzzRegressions/{schema,flow}: each must compile or be refused as a schema, validate, and load and
/// lint as a flow, with diagnostics and never a crash.
struct FuzzRegressionTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

  static func inputs(_ targets: String...) -> [String] {
    targets.flatMap { target in
      let directory = root.appendingPathComponent(target).path
      return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map {
        "\(target)/\($0)"
      }
    }
  }

  @Test("every schema or flow regression input is handled with diagnostics", arguments: inputs("schema", "flow"))
  func replay(_ name: String) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(name)))
    let loaded = FlowLoader.load(bytes: bytes, file: "fuzz.yaml")
    let findings = Linter.lint(loaded)
    #expect(loaded.isRunnable || !findings.isEmpty)
    guard let node = loaded.node else { return }
    do {
      let schema = try JSONSchema(node, file: "fuzz.schema.json")
      _ = schema.validate(node, file: "fuzz.json")
    } catch {
      #expect(!error.message.isEmpty)
    }
  }
}
