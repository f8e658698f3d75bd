import FlowCore
import FlowYAML
import Foundation
import Testing

/// Reading the files a user names: each kind of path that is not a readable regular file gets its own message,
/// sizes are checked before reading, and directory walks neither loop nor list a file twice.
struct FileInputTests {
  let directory: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fileinput-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  func reason(_ name: String) -> String? {
    do {
      _ = try FileInput.read(directory + "/" + name)
      return nil
    } catch {
      #expect(error.path == directory + "/" + name)
      return error.reason
    }
  }

  @Test func eachKindOfUnreadablePathHasItsOwnMessage() throws {
    #expect(mkfifo(directory + "/pipe.yaml", 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: directory + "/loop.yaml", withDestinationPath: "loop.yaml")
    try FileManager.default.createSymbolicLink(atPath: directory + "/dangling.yaml", withDestinationPath: "none.yaml")
    try FileManager.default.createDirectory(atPath: directory + "/folder.yaml", withIntermediateDirectories: false)
    #expect(reason("pipe.yaml") == "is a named pipe (FIFO), not a regular file; only regular files are read")
    #expect(reason("loop.yaml") == "is a symbolic link that loops (too many levels of symbolic links)")
    #expect(reason("dangling.yaml") == "is a symbolic link to 'none.yaml', which does not exist")
    #expect(reason("folder.yaml") == "is a directory, not a file")
    #expect(reason("missing.yaml") == "no such file or directory")
    #expect(
      throws: FileInputError(path: directory + "/missing.yaml", reason: "no such file or directory", kind: .missing)
    ) {
      try FileInput.read(directory + "/missing.yaml")
    }
    #expect(
      (try? FileInput.read("/dev/null")) == nil
        && FileInput.kindOfNonRegularFile(at: "/dev/null")
          == "is a device, not a regular file; only regular files are read"
    )
  }

  @Test func aLinkToARegularFileIsRead() throws {
    try Data("a: 1\n".utf8).write(to: URL(fileURLWithPath: directory + "/real.yaml"))
    try FileManager.default.createSymbolicLink(atPath: directory + "/link.yaml", withDestinationPath: "real.yaml")
    #expect(try FileInput.read(directory + "/link.yaml") == Array("a: 1\n".utf8))
  }

  @Test func aHugeFileIsRefusedBySizeBeforeItIsRead() throws {
    let path = directory + "/huge.yaml"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, 1 << 30) == 0)  // 1 GiB, sparse: reading it whole would take seconds and 1 GiB
    let start = ContinuousClock.now
    let error = #expect(throws: FileInputError.self) { try FileInput.read(path, limit: 8 << 20) }
    #expect(ContinuousClock.now - start < .milliseconds(100))
    #expect(error?.kind == .tooLarge(size: 1 << 30, limit: 8 << 20))
    #expect(
      error?.loadError.description
        == "\(path):1:1: error: the input is 1073741824 bytes, more than the limit of 8388608 bytes [load]")
  }

  @Test func aWalkDoesNotFollowLinkedFoldersAndListsAFileOnce() throws {
    let tree = directory + "/tree"
    try FileManager.default.createDirectory(atPath: tree + "/sub", withIntermediateDirectories: true)
    try Data("a: 1\n".utf8).write(to: URL(fileURLWithPath: tree + "/a.yaml"))
    try Data("a: 1\n".utf8).write(to: URL(fileURLWithPath: tree + "/.hidden.yaml"))
    try FileManager.default.createSymbolicLink(atPath: tree + "/sub/up", withDestinationPath: "..")
    try FileManager.default.createSymbolicLink(atPath: tree + "/sub/root", withDestinationPath: "/")
    try FileManager.default.createSymbolicLink(atPath: tree + "/sub/same.yaml", withDestinationPath: "../a.yaml")
    try FileManager.default.linkItem(atPath: tree + "/a.yaml", toPath: tree + "/sub/hard.yml")
    try Data("b: 1\n".utf8).write(to: URL(fileURLWithPath: tree + "/sub/b.YML"))
    let found = try FileInput.files(under: tree, extensions: [".yaml", ".yml"])
    #expect(found == [tree + "/a.yaml", tree + "/sub/b.YML"])
  }

  @Test func textDropsAUTF8ByteOrderMarkAndNamesOtherEncodings() throws {
    #expect(try FileInput.text(of: [0xEF, 0xBB, 0xBF] + Array("next\n".utf8), path: "s.txt") == "next\n")
    let error = #expect(throws: FileInputError.self) {
      try FileInput.text(of: [0xFF, 0xFE, 0x6E, 0x00], path: "s.txt")
    }
    #expect(
      error?.description
        == "s.txt: the file is UTF-16 (little-endian) (it starts with its byte order mark); save it as UTF-8")
    #expect(throws: FileInputError.self) { try FileInput.text(of: [0x6E, 0xC0, 0xAF], path: "s.txt") }
  }
}
