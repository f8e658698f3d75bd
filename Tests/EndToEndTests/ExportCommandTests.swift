import Foundation
import Testing

/// `flowrun export FLOW --json` from the command line.
struct ExportCommandTests {
  @Test func exportWritesTheFlowAsIndentedJSONInTheFilesOrder() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let yaml = """
      flow: tiny  # comments are dropped
      version: '1.0'
      locales: [en]
      start: a
      steps:
        a: { kind: screen, title: t, next: end }
        end: { kind: terminal, outcome: completed }
      strings: { en: { t: Hello } }
      """
    try yaml.write(to: directory.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowrun", ["export", "tiny.yaml", "--json"], directory: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        {
          "flow": "tiny",
          "version": "1.0",
          "locales": [
            "en"
          ],
          "start": "a",
          "steps": {
            "a": {
              "kind": "screen",
              "title": "t",
              "next": "end"
            },
            "end": {
              "kind": "terminal",
              "outcome": "completed"
            }
          },
          "strings": {
            "en": {
              "t": "Hello"
            }
          }
        }

        """)
  }

  @Test func exportWithoutAFormatIsAUsageMistake() throws {
    let result = try Tool.run("flowrun", ["export", "flows/tempoai.yaml"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("Error: Missing the export format: add '--json'.\n"), "\(result.stderr)")
  }
}
