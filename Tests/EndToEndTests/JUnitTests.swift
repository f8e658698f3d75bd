import Foundation
import Testing

/// `flowrun test --format junit`: JUnit XML for CI dashboards.
struct JUnitTests {
  @Test func oneSuitePerTableOneCasePerRowFailuresWithTheRowsPosition() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let flow = Tool.packageRoot.appendingPathComponent("flows/tempoai.yaml").path
    let table = """
      flow: \(flow)
      cases:
        - name: starts at the language page
          source: test
          commands: []
          expect:
            path: [language]
        - name: starts <elsewhere> & "fails"
          source: test
          commands: []
          expect:
            path: [welcome]
      """
    try table.write(to: directory.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowrun", ["test", "t.yaml", "--format", "junit"], directory: directory)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="flowrun test" tests="2" failures="1" errors="0">
          <testsuite name="t.yaml" tests="2" failures="1" errors="0">
            <testcase classname="t.yaml" name="starts at the language page" file="t.yaml" line="3"/>
            <testcase classname="t.yaml" name="starts &lt;elsewhere&gt; &amp; &quot;fails&quot;" file="t.yaml" line="8">
              <failure message="t.yaml:8: path diverged at #1: expected 'welcome', got 'language'">path diverged at #1: expected 'welcome', got 'language'
              expected: ["welcome"]
              actual:   ["language"]</failure>
            </testcase>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func aTableThatDoesNotLoadIsAnError() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try "cases: 3\n".write(to: directory.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowrun", ["test", "bad.yaml", "--format", "junit"], directory: directory)
    #expect(result.status == 2)
    #expect(result.stdout.contains(#"<testsuites name="flowrun test" tests="1" failures="0" errors="1">"#))
    #expect(result.stdout.contains(#"<error message="bad.yaml: not a valid scenario table">"#), "\(result.stdout)")
  }
}
