import FlowCore
import FlowLoading
import Foundation
import Testing

/// Reading flow files: paths that cannot be read, YAML or JSON, directories of flows.
struct FlowLoaderTests {
  @Test func anUnreadablePathIsAnIOErrorNotAFinding() {
    #expect(throws: FlowIOError.self) { try FlowLoader.load(path: "/nonexistent/flow.yaml") }
    #expect(throws: FlowIOError.self) { try FlowLoader.load(path: "/tmp") }
  }

  /// No number in a flow may be one no flow value holds: never read as 0, Int.min or an approximate number.
  @Test(arguments: [
    ("{\"flow\": \"x\", \"rawValue\": 99999999999999999999}", "a.json", "1:27", "99999999999999999999"),
    ("{\"flow\": \"x\", \"n\": -1e19}", "a.json", "1:20", "-1e19"),
    ("flow: x\nafter: 1e300\n", "a.yaml", "2:8", "1e300"), ("flow: x\nafter: -.inf\n", "a.yaml", "2:8", "-.inf"),
  ])
  func numbersOutsideIntAreRefusedWithTheirTextAndTheRange(
    _ text: String, _ file: String, _ position: String, _ written: String
  ) {
    let loaded = FlowLoader.load(bytes: Array(text.utf8), file: file)
    #expect(
      loaded.diagnostics.map(\.description) == [
        "\(file):\(position): error: the number \(written) is out of range; numbers in a flow must be between "
          + "-9223372036854775808 and 9223372036854775807 [load]"
      ])
  }

  @Test func jsonIsDetectedByExtensionOrLeadingBrace() {
    #expect(FlowLoader.isJSON(bytes: Array("flow: a".utf8), file: "a.json"))
    #expect(FlowLoader.isJSON(bytes: Array("  \n{\"flow\": 1}".utf8), file: "a.yaml"))
    #expect(!FlowLoader.isJSON(bytes: Array("flow: {a: 1}".utf8), file: "a.yaml"))
  }

  @Test func aDirectoryListsItsFlowFilesSortedAndRecursively() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flowloading-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("nested"), withIntermediateDirectories: true)
    for name in ["b.yaml", "a.json", "nested/c.yml", "notes.txt", ".hidden.yaml"] {
      try Data("flow: x\n".utf8).write(to: root.appendingPathComponent(name))
    }
    let found = try FlowFiles.paths(in: [root.path]).map { String($0.dropFirst(root.path.count + 1)) }
    #expect(found == ["a.json", "b.yaml", "nested/c.yml"])
    let again = try FlowFiles.paths(in: [root.path + "/b.yaml", root.path, root.path + "/b.yaml"])
    #expect(again.map { String($0.dropFirst(root.path.count + 1)) } == ["b.yaml", "a.json", "nested/c.yml"])
    #expect(throws: FlowIOError(path: "/nonexistent", reason: "no such file or directory")) {
      try FlowFiles.paths(in: ["/nonexistent"])
    }
  }

  @Test func aReadableFileGivesItsBytes() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flowloading-\(UUID().uuidString).yaml")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data("flow: x\n".utf8).write(to: path)
    #expect(try FlowFiles.readBytes(path: path.path) == Array("flow: x\n".utf8))
    #expect(throws: FlowIOError(path: "/tmp", reason: "is a directory, not a file")) {
      try FlowFiles.readBytes(path: "/tmp")
    }
  }

  /// A copy of a loaded flow (for a thread that explores a part of it on its own) is the same flow, read again:
  /// equal steps and variables, none of its strings or arrays stored where the original's are.
  @Test func aCopyOfTheFlowIsEqualAndSharesNoStorage() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let loaded = try FlowLoader.load(path: root.appendingPathComponent("flows/anicca-v04.yaml").path)
    let flow = try #require(loaded.flow)
    let copy = try #require(loaded.flowCopier())
    #expect(copy.id == flow.id && copy.steps == flow.steps && copy.variables == flow.variables)
    func storage<Element>(_ array: [Element]) -> UnsafeRawPointer? {
      array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    func storage(_ string: String) -> UnsafeRawPointer? {
      var string = string
      return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
    #expect(storage(copy.steps) != storage(flow.steps) && storage(copy.variables) != storage(flow.variables))
    let description = try #require(flow.description)
    #expect(description.utf8.count > 15, "a string this short is stored inline, not shared")
    #expect(storage(try #require(copy.description)) != storage(description))
    // A document that is not a flow has none.
    #expect(FlowLoader.load(bytes: Array("[1, 2]\n".utf8), file: "x.yaml").flowCopier() == nil)
  }
}
