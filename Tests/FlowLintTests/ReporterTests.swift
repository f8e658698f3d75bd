import FlowCore
import FlowLint
import FlowLoading
import Foundation
import Testing

struct ReporterTests {
  static let text = SourceText("steps:\n  welcome: {kind: screen, next: ends}\n  title: ようこそ\n")
  static let error = Diagnostic(
    .error, "unknown step 'ends'; expected one of 'end', 'welcome'", file: "flows/a.yaml",
    at: SourceLocation(line: 2, column: 33), rule: "unknown-step", notes: ["did you mean 'end'?"])
  static let warning = Diagnostic(
    .warning, "step 'orphan' is unreachable, really", file: "flows/a.yaml", at: SourceLocation(line: 3, column: 11),
    rule: "unreachable-step")
  static let files = [FileReport(file: "flows/a.yaml", text: text, diagnostics: [error, warning])]

  @Test func textShowsTheLineACaretAndNotes() {
    let report = TextReporter.report(Self.files, rules: RuleRegistry.descriptions, color: false)
    let expected = [
      "flows/a.yaml:2:33: error: unknown step 'ends'; expected one of 'end', 'welcome' [unknown-step]",
      "  welcome: {kind: screen, next: ends}",
      String(repeating: " ", count: 32) + "^",
      "note: did you mean 'end'?",
      "flows/a.yaml:3:11: warning: step 'orphan' is unreachable, really [unreachable-step]",
      "  title: ようこそ",
      String(repeating: " ", count: 9 + 2) + "^",  // よ is two columns wide
      "",
    ]
    #expect(report == expected.joined(separator: "\n"))
  }

  /// A line longer than a snippet shows (a minified JSON flow is one line) is cut around the column, with `…`
  /// where it is cut and the caret under the same character; a column near either end shows that end.
  @Test(arguments: [
    (500, "…" + String(repeating: "a", count: 60) + "X" + String(repeating: "b", count: 59) + "…", 62),
    (3, "aaX" + String(repeating: "b", count: 117) + "…", 3),
    (998, "…" + String(repeating: "a", count: 117) + "Xcc", 119),
  ])
  func aLongLineIsShownAroundTheColumn(column: Int, shown: String, caret: Int) {
    // 1,000 characters: `a`s, the `X` at `column`, `b`s, and three `c`s at the end.
    var line = String(repeating: "a", count: column - 1) + "X"
    line += String(repeating: "b", count: max(0, 997 - line.count))
    line += String(repeating: "c", count: 1_000 - line.count)
    let text = SourceText("steps:\n" + line + "\n")
    let diagnostic = Diagnostic(.error, "here", file: "f.json", at: SourceLocation(line: 2, column: column), rule: "r")
    #expect(
      TextReporter.render(diagnostic, text: text, color: false)
        == "f.json:2:\(column): error: here [r]\n\(shown)\n" + String(repeating: " ", count: caret - 1) + "^\n")
  }

  @Test func textIsColouredOnlyWhenAsked() {
    #expect(!TextReporter.report(Self.files, rules: [], color: false).contains("\u{1B}["))
    #expect(TextReporter.report(Self.files, rules: [], color: true).contains("\u{1B}[1;31merror"))
  }

  @Test func jsonHasSortedKeys() throws {
    let report = JSONReporter.report(Self.files, rules: [], color: false)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]])
    #expect(array.count == 2)
    #expect(array[0]["rule"] as? String == "unknown-step")
    #expect(array[0]["line"] as? Int == 2 && array[0]["column"] as? Int == 33)
    #expect(array[1]["severity"] as? String == "warning")
    let keys = ["column", "file", "line", "message", "notes", "rule", "severity"]
    let positions = keys.map { report.range(of: "\"\($0)\"")!.lowerBound }
    #expect(positions == positions.sorted())
  }

  /// The whole document: rules from the registry, URIs relative to the repository root with `%SRCROOT%` (a
  /// path given relative to a subfolder, one with `..` and a space), and a file outside the root as `file://`.
  @Test func sarifIsTheWholeDocumentCodeScanningNeeds() throws {
    let rules = ["unknown-step", "unreachable-step"].compactMap(RuleRegistry.description(of:))
    let outside = Diagnostic(
      .error, "the file must be one readable YAML or JSON document", file: "/tmp/other flow.yaml",
      at: SourceLocation(line: 0, column: 0), rule: nil)
    var inside = Self.warning
    inside.file = "../flows/b c.yaml"
    let files = [
      FileReport(file: "flows/a.yaml", text: Self.text, diagnostics: [Self.error]),
      FileReport(file: "../flows/b c.yaml", text: Self.text, diagnostics: [inside]),
      FileReport(file: "/tmp/other flow.yaml", text: SourceText(""), diagnostics: [outside]),
    ]
    let report = SARIFReporter.report(files, rules: rules, root: "/repo", workingDirectory: "/repo/sub/./")
    #expect(
      report == #"""
        {
          "$schema" : "https://json.schemastore.org/sarif-2.1.0.json",
          "runs" : [
            {
              "originalUriBaseIds" : {
                "%SRCROOT%" : {
                  "uri" : "file:///repo/"
                }
              },
              "results" : [
                {
                  "level" : "error",
                  "locations" : [
                    {
                      "physicalLocation" : {
                        "artifactLocation" : {
                          "uri" : "sub/flows/a.yaml",
                          "uriBaseId" : "%SRCROOT%"
                        },
                        "region" : {
                          "startColumn" : 33,
                          "startLine" : 2
                        }
                      }
                    }
                  ],
                  "message" : {
                    "text" : "unknown step 'ends'; expected one of 'end', 'welcome'\ndid you mean 'end'?"
                  },
                  "ruleId" : "unknown-step",
                  "ruleIndex" : 0
                },
                {
                  "level" : "warning",
                  "locations" : [
                    {
                      "physicalLocation" : {
                        "artifactLocation" : {
                          "uri" : "flows/b%20c.yaml",
                          "uriBaseId" : "%SRCROOT%"
                        },
                        "region" : {
                          "startColumn" : 11,
                          "startLine" : 3
                        }
                      }
                    }
                  ],
                  "message" : {
                    "text" : "step 'orphan' is unreachable, really"
                  },
                  "ruleId" : "unreachable-step",
                  "ruleIndex" : 1
                },
                {
                  "level" : "error",
                  "locations" : [
                    {
                      "physicalLocation" : {
                        "artifactLocation" : {
                          "uri" : "file:///tmp/other%20flow.yaml"
                        },
                        "region" : {
                          "startColumn" : 1,
                          "startLine" : 1
                        }
                      }
                    }
                  ],
                  "message" : {
                    "text" : "the file must be one readable YAML or JSON document"
                  },
                  "ruleId" : "load"
                }
              ],
              "tool" : {
                "driver" : {
                  "informationUri" : "https://github.com/flowkit/flowkit/blob/main/docs/lint-rules.md",
                  "name" : "flowlint",
                  "rules" : [
                    {
                      "defaultConfiguration" : {
                        "level" : "error"
                      },
                      "id" : "unknown-step",
                      "name" : "unknown-step",
                      "shortDescription" : {
                        "text" : "'start', transitions, buttons, outcomes and routes must name a step of 'steps'"
                      }
                    },
                    {
                      "defaultConfiguration" : {
                        "level" : "warning"
                      },
                      "id" : "unreachable-step",
                      "name" : "unreachable-step",
                      "shortDescription" : {
                        "text" : "a step that no move from 'start' or a 'resume' route leads to (silent for 'retired: true' steps)"
                      }
                    }
                  ]
                }
              }
            }
          ],
          "version" : "2.1.0"
        }

        """#)
  }

  /// Every rule id flowlint can report is registered in the driver, `version-resume` (from `--against`) and
  /// `strings-catalog` (from `--strings`) too.
  @Test func sarifRegistersEveryRuleTheToolCanReport() throws {
    let report = SARIFReporter.report([], rules: RuleRegistry.descriptions, root: "/r", workingDirectory: "/r")
    let log = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let ids = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    #expect(ids == RuleRegistry.descriptions.map(\.id))
    #expect(ids.contains("version-resume"))
    #expect(ids.contains("strings-catalog"))
  }

  @Test func githubAnnotationsEscapeTheirValues() {
    let report = GitHubReporter.report(Self.files, rules: [], color: false)
    #expect(
      report == """
        ::error file=flows/a.yaml,line=2,col=33,title=unknown-step::unknown step 'ends'; expected one of 'end', 'welcome'%0Adid you mean 'end'?
        ::warning file=flows/a.yaml,line=3,col=11,title=unreachable-step::step 'orphan' is unreachable, really

        """)
  }

  @Test func theRuleDocumentationIsCurrent() throws {
    let path = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appending(path: "docs/lint-rules.md")
    let onDisk = try String(contentsOf: path, encoding: .utf8)
    #expect(
      onDisk == RuleDocumentation.markdown(),
      "docs/lint-rules.md is out of date; run 'flowlint --list-rules --format markdown > docs/lint-rules.md'")
  }
}
