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

  func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

  /// Opens a store the way `flowrun` does, for a flow that persists `SelectedLanguage`.
  func open(_ path: String, reset: Bool = false) throws(StoreError) -> FileStore.Opened {
    try FileStore.open(path: path, persistedKeys: ["SelectedLanguage"], reset: reset)
  }

  @Test func writesAreReadBackAndLeaveNoTemporaryFile() async throws {
    let directory = try temporaryDirectory()
    let store = try open(directory + "/state.json").store
    _ = try await store.load()
    try await store.set("SelectedLanguage", to: "en")
    try await store.set("steps", to: .list(["a", "b"]))
    try await store.remove("steps")
    #expect(try FileStore.read(path: directory + "/state.json") == ["SelectedLanguage": "en"])
    #expect(contents(directory + "/state.json") == "{\"flowkitStore\":1,\"values\":{\"SelectedLanguage\":\"en\"}}\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
  }

  @Test func temporaryFilesOfKilledWritersAreRemovedOnOpen() throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory + "/.state.json.tmp-999999999", contents: Data("{\"a".utf8))
    _ = try open(directory + "/state.json")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
  }

  @Test(arguments: ["", "{", "{\"a\": 1,}", "{\"flowkitStore\": 1, \"values\": [", "{\"SelectedLanguage\": 1e999}"])
  func aDamagedStoreIsRefusedAndLeftAsItIs(_ text: String) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/state.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    #expect(throws: StoreError.self) { try FileStore.read(path: path) }
    let error = #expect(throws: StoreError.self) { try open(path) }
    #expect(
      error?.message.contains("to start fresh, run again with --reset-state") == true, "\(String(describing: error))")
    #expect(contents(path) == text)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
  }

  @Test func resetMovesADamagedStoreAsideToANamedBackup() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/state.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data("{\"SelectedLanguage\": \"en\", trunc".utf8))
    let opened = try open(path, reset: true)
    let backup = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasPrefix("state.json.backup-") })
    // Named after the local time: state.json.backup-YYYYMMDD-HHMMSS.
    let stamp = backup.dropFirst("state.json.backup-".count)
    #expect(
      stamp.count == 15 && stamp.enumerated().allSatisfy { $0.offset == 8 ? $0.element == "-" : $0.element.isNumber })
    #expect(stamp.hasPrefix(String(Calendar.current.component(.year, from: Date()))))
    #expect(
      opened.notice == "flowrun: moved the old store \(path) aside to \(directory)/\(backup); "
        + "starting from the flow's defaults")
    #expect(contents(directory + "/" + backup) == "{\"SelectedLanguage\": \"en\", trunc")
    #expect(try FileStore.read(path: path) == [:])
  }

  @Test(arguments: [
    ("flow: x\nsteps: {}\n", "invalid JSON"), ("[1, 2]", "the store must be a JSON object; found a list"),
    ("{\"flow\": \"x\", \"steps\": {}}", "has no \"flowkitStore\" marker and none of the flow's stored keys"),
    ("{\"flowkitStore\": 2, \"values\": {}}", "the store's format is 2 and this flowrun reads format 1"),
  ])
  func aFileThatIsNotAStoreIsRefusedEvenWithReset(_ text: String, _ phrase: String) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/state.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    for reset in [false, true] {
      let error = #expect(throws: StoreError.self) { try open(path, reset: reset) }
      #expect(error?.message.contains(phrase) == true, "\(String(describing: error))")
      #expect(
        error?.message.hasSuffix(
          "\(path) is not a FlowKit store, so flowrun leaves it as it is "
            + "(even with --reset-state); give --state a new file or an existing store") == true)
    }
    #expect(contents(path) == text)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
  }

  @Test func thePreviousFormatIsReadAndKeysTheFlowDoesNotDeclareAreKept() async throws {
    let directory = try temporaryDirectory()
    let path = directory + "/state.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data("{\"SelectedLanguage\":\"en\",\"Other\":[1]}".utf8))
    let store = try open(path).store
    #expect(try await store.load() == ["SelectedLanguage": "en", "Other": .list([.int(1)])])
    try await store.set("SelectedLanguage", to: "ja")
    #expect(contents(path) == "{\"flowkitStore\":1,\"values\":{\"Other\":[1],\"SelectedLanguage\":\"ja\"}}\n")
  }

  @Test func aSecondWriterIsRefusedWhileTheFirstHoldsTheStore() async throws {
    let directory = try temporaryDirectory()
    let path = directory + "/state.json"
    let first = try open(path).store
    try await first.set("SelectedLanguage", to: "en")
    let error = #expect(throws: StoreError.self) { try open(path) }
    #expect(
      error?.message
        == "\(path): the store is in use by another flowrun (it holds the store's lock); wait for it to end, "
        + "or give this run another --state file")
    try await first.set("SelectedLanguage", to: "ja")
    #expect(try FileStore.read(path: path) == ["SelectedLanguage": "ja"])
  }

  @Test func aSymbolicLinkIsFollowedToTheStoreAndKept() async throws {
    let directory = try temporaryDirectory()
    try FileStore.write(["SelectedLanguage": "en"], to: directory + "/real.json")
    try FileManager.default.createSymbolicLink(atPath: directory + "/link.json", withDestinationPath: "real.json")
    let store = try open(directory + "/link.json").store
    try await store.set("SelectedLanguage", to: "ja")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.json") == "real.json")
    #expect(try FileStore.read(path: directory + "/real.json") == ["SelectedLanguage": "ja"])
  }

  @Test func aLinkToNothingAFolderAndALoopAreRefusedByName() throws {
    let directory = try temporaryDirectory()
    try FileManager.default.createSymbolicLink(atPath: directory + "/dangling.json", withDestinationPath: "none.json")
    try FileManager.default.createSymbolicLink(atPath: directory + "/loop.json", withDestinationPath: "loop.json")
    try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: false)
    let cases = [
      ("dangling.json", "is a symbolic link to 'none.json', which does not exist"),
      ("loop.json", "is a symbolic link that loops (too many levels of symbolic links)"),
      ("folder", "is a directory, not a file"),
    ]
    for (name, phrase) in cases {
      let error = #expect(throws: StoreError.self) { try open(directory + "/" + name) }
      #expect(error?.message.hasPrefix("\(directory)/\(name): \(phrase)") == true, "\(String(describing: error))")
    }
  }

  @Test func aNamedPipeIsRefusedWithoutBlocking() throws {
    let directory = try temporaryDirectory()
    #expect(mkfifo(directory + "/pipe", 0o600) == 0)
    let error = #expect(throws: StoreError.self) { try open(directory + "/pipe") }
    #expect(
      error?.message == "\(directory)/pipe: is a named pipe (FIFO), not a regular file; only regular files are read")
  }

  @Test func aWriteThatFailsNamesThePathAndTheSystemError() async throws {
    let directory = try temporaryDirectory()
    let store = try open(directory + "/state.json").store
    try FileManager.default.removeItem(atPath: directory)
    let error = await #expect(throws: StoreError.self) { try await store.set("SelectedLanguage", to: "en") }
    #expect(
      error?.message
        == "\(directory)/state.json: cannot write the store: cannot create \(directory)/.state.json.tmp-\(getpid()) "
        + "(No such file or directory)")
  }

  @Test func aNumberTooLargeToHoldIsNamedWithItsKey() throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(
      atPath: directory + "/state.json", contents: Data("{\"big\": [1, 1e999]}".utf8))
    let error = #expect(throws: StoreError.self) { try FileStore.read(path: directory + "/state.json") }
    #expect(
      error?.message
        == "\(directory)/state.json:1:13: the value of 'big' has a number too large to hold (inf); "
        + "stored values are booleans, numbers, strings, lists and maps")
  }

  /// Numbers with a fraction are decimals, and whole numbers beyond 64 bits are read as decimals too (a decimal such
  /// as 1e20 is written that way).
  @Test func numbersWithAFractionAreDecimals() throws {
    let directory = try temporaryDirectory()
    _ = FileManager.default.createFile(
      atPath: directory + "/state.json",
      contents: Data("{\"ok\": 1,\n \"ratio\": 1.5, \"big\": 99999999999999999999}".utf8))
    let read = try FileStore.read(path: directory + "/state.json")
    #expect(read == ["ok": .int(1), "ratio": .decimal(1.5), "big": .decimal(1e20)])
  }
}
