import Foundation
import Testing

@testable import FlowLint

/// `.flowlint.yml` paths are worked out on strings (no URL, which cost a tenth of linting a seed flow): absolute
/// against the working directory, `.` and `..` resolved, repeated and trailing slashes dropped.
struct LintConfigurationPathTests {
  @Test func pathsAreMadeAbsoluteAndNormalized() {
    let cwd = FileManager.default.currentDirectoryPath
    #expect(LintConfiguration.absolute("/repo/flows/./a.yaml") == "/repo/flows/a.yaml")
    #expect(LintConfiguration.absolute("/repo//flows/drafts/../a.yaml") == "/repo/flows/a.yaml")
    #expect(LintConfiguration.absolute("/repo/flows/") == "/repo/flows")
    #expect(LintConfiguration.absolute("/../a") == "/a")
    #expect(LintConfiguration.absolute("/") == "/")
    #expect(LintConfiguration.absolute("flows/a.yaml") == cwd + "/flows/a.yaml")
    #expect(LintConfiguration.absolute(".") == cwd)
  }

  /// The search goes up from a folder to the one holding `.git`, and names the file it found by an absolute path.
  @Test func theNearestFileUpwardIsFound() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flowlint-find-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/repo/.git", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: root + "/repo/a/b", withIntermediateDirectories: true)
    #expect(LintConfiguration.find(from: root + "/repo/a/b") == nil)
    #expect(FileManager.default.createFile(atPath: root + "/repo/.flowlint.yml", contents: Data()))
    #expect(LintConfiguration.find(from: root + "/repo/a/b") == root + "/repo/.flowlint.yml")
    #expect(LintConfiguration.find(from: root + "/repo/a/./b/..") == root + "/repo/.flowlint.yml")
    #expect(FileManager.default.createFile(atPath: root + "/repo/a/.flowlint.yml", contents: Data()))
    #expect(LintConfiguration.find(from: root + "/repo/a/b/") == root + "/repo/a/.flowlint.yml")
  }
}
