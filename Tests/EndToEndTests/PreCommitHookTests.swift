import Foundation
import Testing

/// `.pre-commit-hooks.yaml`: the hooks run flowlint on the flow files their `files` pattern selects.
struct PreCommitHookTests {
  static let hooks = Tool.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml")

  /// Each hook's `entry` (after the tool name) and `files` pattern: the arguments and files pre-commit passes.
  static func hookFields() throws -> [(id: String, entry: String, files: String)] {
    let text = try String(contentsOf: hooks, encoding: .utf8)
    var result: [(id: String, entry: String, files: String)] = []
    for block in text.components(separatedBy: "\n- ").dropFirst() {
      var fields: [String: String] = [:]
      for line in ("- " + block).split(separator: "\n") {
        let trimmed = line.drop { $0 == " " || $0 == "-" }
        guard let colon = trimmed.firstIndex(of: ":") else { continue }
        fields[String(trimmed[..<colon])] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      result.append((fields["id"] ?? "", fields["entry"] ?? "", fields["files"] ?? ""))
    }
    return result
  }

  /// flows/ holds the five seed flows and the two example apps (lingo-subscription, ledger-finance).
  @Test func bothHooksLintTheShippedFlowsAndSelectNothingElse() throws {
    let fields = try Self.hookFields()
    #expect(fields.map(\.id) == ["flowlint", "flowlint-system"])
    for hook in fields {
      let pattern = try NSRegularExpression(pattern: hook.files)
      func selected(_ path: String) -> Bool {
        pattern.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
      }
      #expect(["flows/a.yaml", "app/flows/b.yml", "flows/c.json"].allSatisfy(selected), "\(hook.files)")
      #expect(!["a.yaml", ".github/workflows/ci.yml", "flows/readme.md", "Package.swift"].contains(where: selected))
      let arguments = hook.entry.split(separator: " ").map(String.init)
      #expect(arguments.first == "flowlint")
      let flows = try FileManager.default.contentsOfDirectory(
        atPath: Tool.packageRoot.appendingPathComponent("flows").path
      )
      .map { "flows/" + $0 }.filter(selected).sorted()
      #expect(flows.count == 7)
      let result = try Tool.run("flowlint", Array(arguments.dropFirst()) + flows)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      #expect(result.stderr == "flowlint: checked 7 files: no findings\n")
    }
  }
}
