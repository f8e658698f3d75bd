import Foundation
import Testing

/// `flowrun strings export FLOW --xcstrings` and `flowlint FLOW --strings CATALOG.xcstrings`.
struct StringsCatalogTests {
  static let tinyFlow = """
    flow: tiny
    version: '1.0'
    locales: [ja, en]
    start: a
    steps:
      a: { kind: screen, title: [{when: formal, key: title_ja}, {key: title}], body: greeting, next: end }
      end: { kind: terminal, outcome: completed }
    strings:
      ja: { title: ようこそ, title_ja: こんにちは, greeting: 'やあ {name} "A/B"' }
      en: { title: Welcome, title_ja: Hello, greeting: 'Hi {name} "A/B"' }
    variables: { formal: { type: bool, default: false } }
    """

  /// A directory holding `tiny.yaml`.
  static func tinyDirectory() throws -> URL {
    let directory = try Tool.temporaryDirectory()
    try tinyFlow.write(to: directory.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
    return directory
  }

  @Test func exportWritesTheCatalogAsXcodeLaysItOut() throws {
    let directory = try Self.tinyDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try Tool.run("flowrun", ["strings", "export", "tiny.yaml", "--xcstrings"], directory: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(
      result.stdout == #"""
        {
          "sourceLanguage" : "ja",
          "strings" : {
            "greeting" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Hi {name} \"A/B\""
                  }
                },
                "ja" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "やあ {name} \"A/B\""
                  }
                }
              }
            },
            "title" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Welcome"
                  }
                },
                "ja" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "ようこそ"
                  }
                }
              }
            },
            "title_ja" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Hello"
                  }
                },
                "ja" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "こんにちは"
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }
        """#)
  }

  /// Every seed flow exports to a catalog that `--strings` finds complete.
  /// A text with plural forms becomes a plural variation with each form, as Xcode writes one.
  @Test func aTextWithPluralFormsIsExportedAsAPluralVariation() throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try """
    flow: tries
    version: '1.0'
    locales: [en, ja]
    start: a
    variables: { left: { type: int, default: 2 } }
    steps:
      a: { kind: screen, title: { key: tries_left, args: { count: left } }, next: end }
      end: { kind: terminal, outcome: completed }
    strings:
      en: { tries_left: { one: "{count} try left", other: "{count} tries left" } }
      ja: { tries_left: "あと{count}回" }
    """.write(to: directory.appendingPathComponent("tries.yaml"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowrun", ["strings", "export", "tries.yaml", "--xcstrings"], directory: directory)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == #"""
        {
          "sourceLanguage" : "en",
          "strings" : {
            "tries_left" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "{count} try left"
                        }
                      },
                      "other" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "{count} tries left"
                        }
                      }
                    }
                  }
                },
                "ja" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "あと{count}回"
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }
        """#)
  }

  @Test(arguments: ["anicca-v04.yaml", "tempoai.yaml"])
  func exportedCatalogPassesTheCheck(seed: String) throws {
    let directory = try Tool.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalog = directory.appendingPathComponent("Localizable.xcstrings").path
    let export = try Tool.run("flowrun", ["strings", "export", "flows/\(seed)", "--xcstrings", "-o", catalog])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout == "")
    let lint = try Tool.run("flowlint", ["flows/\(seed)", "--strings", catalog])
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    #expect(lint.stdout == "")
    #expect(lint.stderr == "flowlint: checked 1 file: no findings\n")
  }

  @Test func aMissingLocalizationIsReportedWhereTheFlowUsesTheKey() throws {
    let directory = try Self.tinyDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let catalog = """
      {
        "sourceLanguage" : "ja",
        "strings" : {
          "greeting" : { "localizations" : { "en" : {}, "ja" : {} } },
          "title" : { "localizations" : { "ja" : {} } }
        },
        "version" : "1.0"
      }
      """
    try catalog.write(
      to: directory.appendingPathComponent("Localizable.xcstrings"), atomically: true, encoding: .utf8)
    let result = try Tool.run(
      "flowlint", ["tiny.yaml", "--strings", "Localizable.xcstrings", "--quiet"], directory: directory)
    #expect(result.status == 1)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        tiny.yaml:6:50: error: string 'title_ja' is not in Localizable.xcstrings [strings-catalog]
          a: { kind: screen, title: [{when: formal, key: title_ja}, {key: title}], body: greeting, next: end }
                                                         ^
        tiny.yaml:6:67: error: string 'title' has no 'en' localization in Localizable.xcstrings [strings-catalog]
          a: { kind: screen, title: [{when: formal, key: title_ja}, {key: title}], body: greeting, next: end }
                                                                          ^

        """)
  }

  @Test(arguments: [
    ("{\"strings\": ", "C.xcstrings:1:13: error: invalid JSON: expected a value, found the end of the input [load]\n"),
    (
      "{\"strings\": {\"k\": {\"localizations\": []}}}",
      "C.xcstrings:1:37: error: 'localizations' of 'k' is a list, not an object; this is not a String Catalog [load]\n"
    ),
    ("[]", "C.xcstrings:1:1: error: the catalog is a list, not an object; this is not a String Catalog [load]\n"),
  ])
  func aCatalogThatIsNotOneIsAPositionedUsageError(text: String, message: String) throws {
    let directory = try Self.tinyDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try text.write(to: directory.appendingPathComponent("C.xcstrings"), atomically: true, encoding: .utf8)
    let result = try Tool.run("flowlint", ["tiny.yaml", "--strings", "C.xcstrings"], directory: directory)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr == message)
  }

  @Test func exportReplacesAFileOnlyWithForce() throws {
    let directory = try Self.tinyDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("L.xcstrings")
    try "keep".write(to: path, atomically: true, encoding: .utf8)
    let refused = try Tool.run(
      "flowrun", ["strings", "export", "tiny.yaml", "--xcstrings", "-o", "L.xcstrings"], directory: directory)
    #expect(refused.status == 2)
    #expect(refused.stderr == "flowrun: error: 'L.xcstrings' exists; add --force to replace it\n")
    #expect(try String(contentsOf: path, encoding: .utf8) == "keep")
    let forced = try Tool.run(
      "flowrun", ["strings", "export", "tiny.yaml", "--xcstrings", "-o", "L.xcstrings", "--force"],
      directory: directory)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try String(contentsOf: path, encoding: .utf8).hasPrefix("{\n  \"sourceLanguage\" : \"ja\","))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["L.xcstrings", "tiny.yaml"])
  }
}
