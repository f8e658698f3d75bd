import FlowCore
import FlowRuntime
import Foundation
import Testing

struct FileStoreTests {
  func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func writesAreReadBackAndLeaveNoTemporaryFile() async throws {
    let directory = try temporaryDirectory()
    let store = FileStore(path: directory + "/state.json")
    _ = try await store.load()
    try await store.set("SelectedLanguage", to: "en")
    try await store.set("steps", to: .list(["a", "b"]))
    try await store.remove("steps")
    #expect(try FileStore.read(path: directory + "/state.json") == ["SelectedLanguage": "en"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
  }

  @Test func temporaryFilesOfKilledWritersAreRemovedOnLoad() async throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory + "/.state.json.tmp-999999999", contents: Data("{\"a".utf8))
    _ = try await FileStore(path: directory + "/state.json").load()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test(arguments: ["", "{", "[1, 2]", "{\"a\": 1,}", "\u{0}\u{1}binary"])
  func aDamagedStoreIsAnErrorNotACrash(_ contents: String) throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory + "/state.json", contents: Data(contents.utf8))
    #expect(throws: StoreError.self) { try FileStore.read(path: directory + "/state.json") }
  }

  @Test func aNumberWithAFractionIsNamedWithItsKey() throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(
      atPath: directory + "/state.json", contents: Data("{\"ok\": 1,\n \"ratio\": 1.5}".utf8))
    let error = #expect(throws: StoreError.self) { try FileStore.read(path: directory + "/state.json") }
    #expect(
      error?.message.hasSuffix(
        "/state.json:2:11: the value of 'ratio' has a number with a fraction; stored values are booleans, integers, strings, lists and maps"
      ) == true, "\(String(describing: error))")
  }
}
