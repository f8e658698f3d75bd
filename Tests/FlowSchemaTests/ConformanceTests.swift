import FlowCore
import FlowSchema
import Foundation
import Testing

/// Runs the official JSON-Schema-Test-Suite (draft 2020-12) found at
/// `../shared/testsuites/json-schema-test-suite` relative to the package root.
///
/// Every group whose schema compiles must pass in full; groups whose schema is refused (unsupported keyword,
/// remote reference) are counted as refused. `optional/` is reported but not required. Set
/// `RECORD_CONFORMANCE=1` to rewrite the table in `docs/conformance-jsonschema.md`.
struct ConformanceTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let suite = packageRoot.appendingPathComponent(
    "../shared/testsuites/json-schema-test-suite/tests/draft2020-12"
  ).standardizedFileURL
  static var suiteExists: Bool { FileManager.default.fileExists(atPath: suite.path) }

  /// Groups known to fail, as "file: group description". Empty, and it should stay so.
  static let knownGaps: Set<String> = []

  @Test(.enabled(if: suiteExists, "JSON-Schema-Test-Suite not found at ../shared/testsuites/json-schema-test-suite"))
  func officialSuite() throws {
    var rows: [FileResult] = []
    for relative in try Self.testFiles() {
      rows.append(try Self.run(relative))
    }
    let required = rows.filter { !$0.file.hasPrefix("optional/") }
    for row in required {
      for failure in row.failures where !Self.knownGaps.contains("\(row.file): \(failure.group)") {
        Issue.record("\(row.file): \(failure.group): \(failure.test): \(failure.detail)")
      }
    }
    #expect(required.reduce(0) { $0 + $1.passed } > 0)
    let table = Self.table(rows)
    print(table)
    if ProcessInfo.processInfo.environment["RECORD_CONFORMANCE"] != nil {
      try Self.record(table)
    }
  }

  struct Failure {
    var group: String
    var test: String
    var detail: String
  }

  struct FileResult {
    var file: String
    var groups = 0
    var refusedGroups = 0
    var tests = 0
    var passed = 0
    var refusedTests = 0
    var failures: [Failure] = []
    var refusals: [String] = []
  }

  static func testFiles() throws -> [String] {
    let manager = FileManager.default
    var result: [String] = []
    for name in try manager.contentsOfDirectory(atPath: suite.path) where name.hasSuffix(".json") {
      result.append(name)
    }
    let optional = suite.appendingPathComponent("optional")
    for name in (try? manager.contentsOfDirectory(atPath: optional.path)) ?? [] where name.hasSuffix(".json") {
      result.append("optional/" + name)
    }
    let formats = optional.appendingPathComponent("format")
    for name in (try? manager.contentsOfDirectory(atPath: formats.path)) ?? [] where name.hasSuffix(".json") {
      result.append("optional/format/" + name)
    }
    return result.sorted()
  }

  static func run(_ relative: String) throws -> FileResult {
    let bytes = try [UInt8](Data(contentsOf: suite.appendingPathComponent(relative)))
    let document = try JSONReader.read(bytes: bytes, file: relative)
    var result = FileResult(file: relative)
    for group in document.sequence ?? [] {
      let groupName = group["description"]?.string ?? "?"
      let tests = group["tests"]?.sequence ?? []
      result.groups += 1
      result.tests += tests.count
      let schema: JSONSchema
      do {
        schema = try JSONSchema(group["schema"] ?? Node(.bool(true)), file: relative)
      } catch {
        result.refusedGroups += 1
        result.refusedTests += tests.count
        result.refusals.append("\(groupName): \(error.message)")
        continue
      }
      for test in tests {
        let data = test["data"] ?? Node(.null)
        let expected = test["valid"]?.bool ?? false
        let quick = schema.isValid(data)
        let diagnostics = schema.validate(data, file: "data.json")
        if quick == expected && diagnostics.isEmpty == expected {
          result.passed += 1
        } else {
          let detail =
            "expected \(expected ? "valid" : "invalid"), isValid \(quick), diagnostics: "
            + (diagnostics.isEmpty ? "none" : diagnostics.map(\.message).joined(separator: " | "))
          result.failures.append(
            Failure(group: groupName, test: test["description"]?.string ?? "?", detail: detail))
        }
      }
    }
    return result
  }

  static func table(_ rows: [FileResult]) -> String {
    var lines = [
      "| file | groups | refused groups | tests | passed | failed | refused tests |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ]
    func line(_ name: String, _ rows: [FileResult]) -> String {
      func sum(_ key: KeyPath<FileResult, Int>) -> Int { rows.reduce(0) { $0 + $1[keyPath: key] } }
      let failed = rows.reduce(0) { $0 + $1.failures.count }
      return "| \(name) | \(sum(\.groups)) | \(sum(\.refusedGroups)) | \(sum(\.tests)) | \(sum(\.passed)) "
        + "| \(failed) | \(sum(\.refusedTests)) |"
    }
    for row in rows { lines.append(line("`\(row.file)`", [row])) }
    lines.append(line("**required total**", rows.filter { !$0.file.hasPrefix("optional/") }))
    lines.append(line("**optional total**", rows.filter { $0.file.hasPrefix("optional/") }))
    lines += ["", "Refused groups (schema not compiled):", ""]
    for row in rows {
      for refusal in row.refusals { lines.append("- `\(row.file)`: \(refusal)") }
    }
    lines += [
      "", "Failing optional tests (`optional/format/` is left out: `format` is an annotation and never asserted):",
      "",
    ]
    for row in rows where row.file.hasPrefix("optional/") && !row.file.hasPrefix("optional/format/") {
      for failure in row.failures { lines.append("- `\(row.file)`: \(failure.group): \(failure.test)") }
    }
    return lines.joined(separator: "\n")
  }

  static let beginMarker =
    "<!-- conformance table: generated by RECORD_CONFORMANCE=1 swift test --filter ConformanceTests -->"
  static let endMarker = "<!-- end of conformance table -->"

  static func record(_ table: String) throws {
    let url = packageRoot.appendingPathComponent("docs/conformance-jsonschema.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    guard let begin = text.range(of: beginMarker), let end = text.range(of: endMarker) else {
      Issue.record("markers not found in docs/conformance-jsonschema.md")
      return
    }
    let updated = text[..<begin.upperBound] + "\n\n" + table + "\n\n" + text[end.lowerBound...]
    try String(updated).write(to: url, atomically: true, encoding: .utf8)
  }
}
