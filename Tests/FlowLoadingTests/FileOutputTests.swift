import FlowLoading
import Foundation
import Testing

/// The path helpers and the text-file writer the tools use instead of `NSString` and `String.write(toFile:)`.
struct FileOutputTests {
  /// Each row: a path, then its directory, name, path without extension, `c` appended and standardized form.
  @Test(arguments: [
    ("", "", "", "", "c", ""), ("/", "/", "/", "/", "/c", "/"), ("a", "", "a", "a", "a/c", "a"),
    ("/a", "/", "a", "/a", "/a/c", "/a"), ("a/b/", "a", "b", "a/b/", "a/b/c", "a/b"),
    ("./a", ".", "a", "./a", "./a/c", "./a"), ("a/./b", "a/.", "b", "a/./b", "a/./b/c", "a/b"),
    ("a/../b", "a/..", "b", "a/../b", "a/../b/c", "a/../b"),
    ("/a/../../b", "/a/../..", "b", "/a/../../b", "/a/../../b/c", "/b"),
    ("flows/x.test.yaml", "flows", "x.test.yaml", "flows/x.test", "flows/x.test.yaml/c", "flows/x.test.yaml"),
    ("a/.hidden", "a", ".hidden", "a/.hidden", "a/.hidden/c", "a/.hidden"),
    ("a.b/c", "a.b", "c", "a.b/c", "a.b/c/c", "a.b/c"),
  ])
  func pathsAreTakenApartAsNSStringDid(
    _ path: String, _ directory: String, _ name: String, _ stem: String, _ appended: String, _ standardized: String
  ) {
    #expect(FilePaths.directory(of: path) == directory)
    #expect(FilePaths.name(of: path) == name)
    #expect(FilePaths.removingExtension(path) == stem)
    #expect(FilePaths.appending("c", to: path) == appended)
    #expect(FilePaths.standardized(path) == standardized)
  }

  @Test func aFileIsWrittenReplacedOnlyWhenAskedAndAFailureNamesTheCause() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("textfile-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/out.yaml"

    try TextFile.write("first\n", to: path, replacing: false)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")

    let refused = #expect(throws: TextFile.WriteError.self) {
      try TextFile.write("second\n", to: path, replacing: false)
    }
    #expect(refused?.description == "'\(path)' exists")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")

    try TextFile.write("second\n", to: path, replacing: true)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.yaml"])

    let missing = #expect(throws: TextFile.WriteError.self) {
      try TextFile.write("x", to: directory + "/no/such/out.yaml", replacing: true)
    }
    #expect(missing?.description == "cannot write '\(directory)/no/such/out.yaml': No such file or directory")
  }
}
