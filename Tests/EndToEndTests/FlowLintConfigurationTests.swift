import Foundation
import Testing

/// `.flowlint.yml`: found upward from the working directory (up to a repository's root), or named with
/// `--config`, or ignored with `--no-config`; checked strictly.
struct FlowLintConfigurationTests {
  static let flow = """
    flow: demo
    version: "1"
    locales: [en]
    variables:
      leftover: {type: bool, default: false}
    start: end
    steps:
      end: {kind: terminal, outcome: completed}
      orphan: {kind: screen, next: end}

    """

  /// A repository (a folder with `.git`) holding `flows/demo.yaml`, `flows/drafts/wip.yaml` (which does not
  /// load) and, when given, `.flowlint.yml`; the working directory for the run is `flows/`.
  static func repository(configuration: String?) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appending(path: "flowlint-config-\(UUID().uuidString)")
    let drafts = root.appending(path: "flows/drafts")
    try FileManager.default.createDirectory(at: drafts, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: root.appending(path: ".git"), withIntermediateDirectories: true)
    try flow.write(to: root.appending(path: "flows/demo.yaml"), atomically: true, encoding: .utf8)
    try "flow: [".write(to: drafts.appending(path: "wip.yaml"), atomically: true, encoding: .utf8)
    if let configuration {
      try configuration.write(to: root.appending(path: ".flowlint.yml"), atomically: true, encoding: .utf8)
    }
    return root
  }

  static let settings = """
    rules:
      unused-variable: off
      unreachable-step: error
    exclude:
      - flows/drafts/**

    """

  static let unused = """
    demo.yaml:5:3: warning: variable 'leftover' is never used [unused-variable]
      leftover: {type: bool, default: false}
      ^
    note: read it in an expression, persist it, or remove it

    """

  static func unreachable(_ severity: String) -> String {
    """
    demo.yaml:9:3: \(severity): step 'orphan' is unreachable: no move from 'start' or a 'resume' route leads to it \
    [unreachable-step]
      orphan: {kind: screen, next: end}
      ^
    note: mark it 'retired: true' if it is kept only for old saved progress

    """
  }

  @Test func theNearestConfigurationTurnsOffReGradesAndExcludes() throws {
    let root = try Self.repository(configuration: Self.settings)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Tool.run("flowlint", ["."], directory: root.appending(path: "flows"))
    #expect(result.status == 1)
    #expect(result.stdout == "./" + Self.unreachable("error"))
    #expect(result.stderr == "flowlint: checked 1 file: 1 error, 0 warnings\n")
  }

  @Test func noConfigIgnoresItAndConfigNamesAnother() throws {
    let root = try Self.repository(configuration: Self.settings)
    defer { try? FileManager.default.removeItem(at: root) }
    let ignored = try Tool.run("flowlint", ["--no-config", "demo.yaml"], directory: root.appending(path: "flows"))
    #expect(ignored.status == 0)
    #expect(ignored.stdout == Self.unused + Self.unreachable("warning"))
    try "rules: {unreachable-step: off}\n".write(
      to: root.appending(path: "other.yml"), atomically: true, encoding: .utf8)
    let named = try Tool.run(
      "flowlint", ["--config", "../other.yml", "--strict", "demo.yaml"], directory: root.appending(path: "flows"))
    #expect(named.status == 1)
    #expect(named.stdout == Self.unused)
    #expect(named.stderr == "flowlint: checked 1 file: 0 errors, 1 warning\n")
    let both = try Tool.run("flowlint", ["--no-config", "--config", "other.yml", "flows"], directory: root)
    #expect(both.status == 2)
    #expect(both.stderr.hasPrefix("Error: '--config' and '--no-config' cannot be used together.\n"))
  }

  /// Without an exclusion the draft that does not load is linted; a `.flowlint.yml` above the folder with
  /// `.git` is not read.
  @Test func theSearchStopsAtTheRepositorysRoot() throws {
    let root = try Self.repository(configuration: nil)
    defer { try? FileManager.default.removeItem(at: root) }
    let inner = root.appending(path: "flows")
    try FileManager.default.createDirectory(at: inner.appending(path: ".git"), withIntermediateDirectories: true)
    try Self.settings.write(to: root.appending(path: ".flowlint.yml"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowlint", ["--quiet", "."], directory: inner)
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "./drafts/wip.yaml:2:1: error: invalid YAML: did not find expected node content (while parsing a flow "
        + "node at 2:1) [load]\n")
  }

  /// Nothing checked is not a clean run: a folder whose every file `exclude` leaves out, or no path given where
  /// there is no `flows` folder to check by default, is exit 2 with what to do.
  @Test func nothingCheckedIsAnError() throws {
    let root = try Self.repository(configuration: "exclude:\n  - flows/**\n")
    defer { try? FileManager.default.removeItem(at: root) }
    let excluded = try Tool.run("flowlint", ["flows"], directory: root)
    #expect(excluded.status == 2)
    #expect(excluded.stdout == "")
    #expect(
      excluded.stderr
        == "flowlint: error: every flow file in flows is left out by 'exclude' in "
        + root.appending(path: ".flowlint.yml").path + "; check them with --no-config, or change its patterns\n")
    let unconfigured = try Tool.run("flowlint", ["--no-config", "flows/demo.yaml"], directory: root)
    #expect(unconfigured.status == 0, "\(unconfigured.stderr)")
    // Files named one by one (as a pre-commit hook names the staged ones) and all left out: nothing to do.
    let named = try Tool.run("flowlint", ["--strict", "flows/drafts/wip.yaml"], directory: root)
    #expect(named.status == 0, "\(named.stderr)")
    #expect(named.stderr == "flowlint: checked 0 files: no findings\n")
    let noFlows = try Tool.run("flowlint", [], directory: root.appending(path: "flows/drafts"))
    #expect(noFlows.status == 2)
    #expect(
      noFlows.stderr
        == "flowlint: error: no path given, and no 'flows' folder here to check by default; name the flow files "
        + "or folders to check, e.g. flowlint onboarding.yaml\n")
  }

  @Test func anInvalidConfigurationIsAPositionedUsageError() throws {
    let root = try Self.repository(
      configuration: """
        rule: {}
        rules:
          unused-variabel: off
          unreachable-step: loud
          schema: off
          unknown-step: warning
        exclude: flows/drafts

        """)
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try Tool.run("flowlint", ["flows"], directory: root)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == """
        CONFIG:1:1: error: unknown key 'rule'; did you mean 'rules'? (allowed: 'exclude', 'rules')
        CONFIG:3:3: error: unknown rule 'unused-variabel'; did you mean 'unused-variable'? ('flowlint --list-rules' lists them)
        CONFIG:4:21: error: 'unreachable-step' must be off, warning or error
        CONFIG:5:11: error: 'schema' cannot be turned off or re-graded: its findings mean the flow is broken; fix the flow instead
        CONFIG:6:17: error: 'unknown-step' cannot be turned off or re-graded: its findings mean the flow is broken; fix the flow instead
        CONFIG:7:10: error: 'exclude' must be a list of path patterns such as 'flows/drafts/**'

        """.replacingOccurrences(of: "CONFIG", with: root.appending(path: ".flowlint.yml").path))
  }
}
