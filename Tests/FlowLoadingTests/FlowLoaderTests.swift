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
}
