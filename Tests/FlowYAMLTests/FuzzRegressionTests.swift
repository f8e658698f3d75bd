import FlowCore
import FlowYAML
import Foundation
import Testing

/// Inputs the YAML fuzz target (Fuzz/Targets/yaml.swift) once failed on, kept in Tests/FuzzRegressions/yaml.
/// Each must load or fail with a LoadError, as one document and as a stream; under `swift test
/// --sanitize=address` a leak or overflow fails the run.
struct FuzzRegressionTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzRegressions/yaml")

  static var inputs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  @Test("the regression inputs are there") func inputsExist() {
    #expect(Self.inputs.contains("leak-event-refused-after-comment.yaml"))
  }

  @Test("every regression input loads or fails with a positioned error", arguments: inputs)
  func replay(_ name: String) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
    do {
      _ = try YAMLLoader.load(bytes: bytes, file: name)
    } catch {
      #expect(error.file == name)
      #expect(error.location.line >= 1 && error.location.column >= 1)
    }
    _ = try? YAMLLoader.loadStream(bytes: bytes, file: name)
  }

  /// Bug: when the composer refused an event libyaml had already produced (here the key `b`, because the
  /// comment before it touches the quoted scalar), the event's buffers were never freed.
  @Test("an event refused after a comment without whitespace is reported (and freed)")
  func commentBeforeEvent() throws {
    let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("leak-event-refused-after-comment.yaml")))
    #expect(throws: LoadError.self) { try YAMLLoader.load(bytes: bytes, file: "t.yaml") }
    do {
      _ = try YAMLLoader.load(bytes: bytes, file: "t.yaml")
    } catch {
      #expect(error.code == .syntax)
      #expect(error.description == "t.yaml:1:7: error: invalid YAML: a comment needs whitespace before '#' [load]")
    }
  }
}
