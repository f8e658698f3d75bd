import FlowCore
import Foundation
import Testing

/// docs/language.md's table of the permission catalogue is the prelude's (`schemas/prelude.json`): every kind, the
/// platform call that asks for it and the platform status each outcome stands for (issue 12 item 2).
struct PermissionCatalogueDocTests {
  static let begin = "<!-- permission catalogue: generated from schemas/prelude.json; PermissionCatalogueDocTests -->\n"
  static let end = "<!-- end of the permission catalogue -->"

  /// The table, one row per kind in the prelude's order.
  static var table: String {
    let columns = ["granted", "partial", "denied", "unavailable", "notDetermined", "error"]
    func cell(_ text: String?) -> String {
      (text ?? "-").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
    var lines = [
      "| kind | asked with | " + columns.joined(separator: " | ") + " | notes |",
      "|" + String(repeating: "---|", count: columns.count + 3),
    ]
    let kinds = Prelude.declarations.permissions.values.sorted { $0.location.line < $1.location.line }
    for kind in kinds {
      let statuses = Dictionary(kind.statuses.map { ($0.name, $0.value) }) { first, _ in first }
      var row = "| `\(kind.kind)` | \(cell(kind.api)) | "
      row += columns.map { cell(statuses[$0]) }.joined(separator: " | ") + " | \(kind.note.map(cell) ?? "") |"
      lines.append(row)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func theDocumentedTableIsThePreludes() throws {
    let docs = try String(
      contentsOf: Tool.packageRoot.appendingPathComponent("docs/language.md"), encoding: .utf8)
    guard let start = docs.range(of: Self.begin),
      let stop = docs.range(of: Self.end, range: start.upperBound..<docs.endIndex)
    else {
      Issue.record(
        "docs/language.md has no generated permission catalogue; put this between the markers:\n\(Self.table)")
      return
    }
    #expect(String(docs[start.upperBound..<stop.lowerBound]) == Self.table, "expected:\n\(Self.table)")
    #expect(Prelude.declarations.permissions.count == 19)
  }
}
