import FlowCore
import FlowLint
import FlowLoading
import Foundation
import Testing

/// The broken flows in `Tests/LintFixtures`: each names its expected findings in `# expect: LINE:COL rule-id`
/// header comments, and linting it must give exactly those.
struct FixtureTests {
  static let directory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "LintFixtures")

  struct Fixture: CustomTestStringConvertible, Sendable {
    let path: String
    var testDescription: String { (path as NSString).lastPathComponent }
  }

  static let fixtures: [Fixture] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { Fixture(path: directory.appending(path: $0).path) }
  }()

  @Test func thereAreFixtures() {
    #expect(Self.fixtures.count >= 8)
  }

  @Test(arguments: fixtures)
  func findingsMatchTheExpectations(_ fixture: Fixture) throws {
    let text = try String(contentsOfFile: fixture.path, encoding: .utf8)
    let expected = text.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("# expect: ") else { return nil }
      return String(line.dropFirst("# expect: ".count))
    }
    #expect(!expected.isEmpty, "a fixture names at least one expected finding")
    let loaded = try FlowLoader.load(path: fixture.path)
    let found = Linter.lint(loaded).map { "\($0.location.line):\($0.location.column) \($0.ruleID ?? "-")" }
    #expect(found == expected)
  }
}
