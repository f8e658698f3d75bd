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

  /// `**` matches any number of folders (none too), `*` and `?` within one component; a pattern matches a whole
  /// path, not a prefix of it.
  @Test(arguments: [
    ("flows/drafts/**", "flows/drafts/a.yaml", true), ("flows/drafts/**", "flows/drafts/x/y/a.yaml", true),
    ("flows/drafts/**", "flows/a.yaml", false), ("**/a.yaml", "a.yaml", true), ("**/a.yaml", "x/y/a.yaml", true),
    ("flows/*.yaml", "flows/a.yaml", true), ("flows/*.yaml", "flows/x/a.yaml", false),
    ("flows/**/old-?.yaml", "flows/v1/v2/old-3.yaml", true), ("flows/**/old-?.yaml", "flows/v1/old-33.yaml", false),
    ("flows/drafts", "flows/drafts/a.yaml", false), ("**", "a/b/c", true), ("a/**/**/b", "a/b", true),
  ])
  func patternsMatchWholePaths(_ pattern: String, _ path: String, _ expected: Bool) {
    let components = LintConfiguration.components(path)
    #expect(LintConfiguration.matches(LintConfiguration.components(pattern), components[...]) == expected)
  }

  /// Many `**` on a deep path are answered at once, either way (they took exponential time).
  @Test func manyDoubleStarsOnADeepPathAreQuick() {
    let deep = (1...25).map { "d\($0)" }.joined(separator: "/") + "/a.yaml"
    let stars = Array(repeating: "**", count: 16).joined(separator: "/")
    let path = LintConfiguration.components(deep)[...]
    #expect(!LintConfiguration.matches(LintConfiguration.components(stars + "/nomatch"), path))
    #expect(LintConfiguration.matches(LintConfiguration.components(stars + "/d25/a.yaml"), path))
    #expect(LintConfiguration.matches(LintConfiguration.components("d1/" + stars + "/*.yaml"), path))
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
