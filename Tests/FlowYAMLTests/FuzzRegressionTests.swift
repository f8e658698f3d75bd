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
    let bytes = try [UInt8](
      Data(contentsOf: Self.directory.appendingPathComponent("leak-event-refused-after-comment.yaml")))
    #expect(throws: LoadError.self) { try YAMLLoader.load(bytes: bytes, file: "t.yaml") }
    do {
      _ = try YAMLLoader.load(bytes: bytes, file: "t.yaml")
    } catch {
      #expect(error.code == .syntax)
      #expect(error.description == "t.yaml:1:7: error: invalid YAML: a comment needs whitespace before '#' [load]")
    }
  }
}

/// The limits in docs/limits.md that the YAML loader enforces, with the messages not checked elsewhere
/// (size, nesting and alias expansion are in YAMLLoaderTests).
struct YAMLLimitTests {
  func loadError(_ text: String, limits: LoadLimits = .default) -> LoadError? {
    #expect(throws: LoadError.self) { try YAMLLoader.load(bytes: Array(text.utf8), file: "t.yaml", limits: limits) }
  }

  @Test("more values than the node limit")
  func nodes() {
    let error = loadError("[1, 2, 3, 4, 5]", limits: LoadLimits(maxNodes: 5))
    #expect(error?.code == .tooLarge)
    #expect(error?.location == SourceLocation(line: 1, column: 14))
    #expect(error?.description == "t.yaml:1:14: error: the document has more than 5 values (the node limit) [load]")
  }

  @Test("an alias that would nest its copy deeper than 128 levels")
  func aliasDepth() {
    let anchored = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    let text = "a: &x \(anchored)\nb: \(String(repeating: "[", count: 30))*x\(String(repeating: "]", count: 30))\n"
    let error = loadError(text)
    #expect(error?.code == .tooDeep)
    #expect(error?.description == "t.yaml:2:34: error: alias '*x' nests values deeper than 128 levels [load]")
  }

  @Test("a flow file over 8 MiB is refused with both sizes")
  func size() {
    let error = loadError(String(repeating: "#", count: 8 << 20) + "\n")
    #expect(error?.code == .tooLarge)
    #expect(
      error?.description == "t.yaml:1:1: error: the input is 8388609 bytes, more than the limit of 8388608 bytes [load]"
    )
  }
}
