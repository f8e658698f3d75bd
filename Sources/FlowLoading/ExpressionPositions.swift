package import FlowCore

/// Places a column inside an expression at the file's line and column.
///
/// An expression's ``Expr/location`` is where its scalar starts, which for a quoted scalar is the quote and for a
/// block scalar (`|`, `>`) the indicator; the expression's first character is one column right of a quote, or
/// at the first non-blank character of the next line for a block scalar.
package enum ExpressionPositions {
  /// The file position of the 1-based `column` of the expression whose scalar starts at `scalarStart`.
  package static func location(ofColumn column: Int, scalarAt scalarStart: SourceLocation, in text: SourceText)
    -> SourceLocation
  {
    firstCharacter(scalarAt: scalarStart, in: text).advanced(by: max(column, 1) - 1)
  }

  /// The position of the expression's first character.
  package static func firstCharacter(scalarAt start: SourceLocation, in text: SourceText) -> SourceLocation {
    switch text.scalar(at: start) {
    case "\"", "'":
      return start.advanced(by: 1)
    case "|", ">":
      var line = start.line + 1
      while let content = text.line(line) {
        if let offset = content.unicodeScalars.firstIndex(where: { $0 != " " && $0 != "\t" }) {
          return SourceLocation(
            line: line, column: content.unicodeScalars.distance(from: content.unicodeScalars.startIndex, to: offset) + 1
          )
        }
        line += 1
      }
      return start
    default:
      return start
    }
  }

  /// The compiler places expression syntax errors at `scalar start + column - 1`, which is one column early
  /// for a quoted scalar; this finds the scalar each such error came from and moves the error inside it.
  package static func repositionSyntaxErrors(_ diagnostics: [Diagnostic], in root: Node, text: SourceText)
    -> [Diagnostic]
  {
    guard diagnostics.contains(where: { $0.ruleID == "expression-syntax" }) else { return diagnostics }
    var scalarsByLine: [Int: [(SourceLocation, String)]] = [:]
    collectStrings(root, into: &scalarsByLine)
    return diagnostics.map { diagnostic in
      guard diagnostic.ruleID == "expression-syntax" else { return diagnostic }
      for (start, source) in scalarsByLine[diagnostic.location.line] ?? [] where start <= diagnostic.location {
        do throws(ExpressionError) {
          _ = try FlowExpression(source)
        } catch {
          guard start.advanced(by: error.column - 1) == diagnostic.location, error.message == diagnostic.message
          else { continue }
          var moved = diagnostic
          moved.location = location(ofColumn: error.column, scalarAt: start, in: text)
          return moved
        }
      }
      return diagnostic
    }
  }

  private static func collectStrings(_ node: Node, into found: inout [Int: [(SourceLocation, String)]]) {
    switch node.content {
    case .string(let s): found[node.location.line, default: []].append((node.location, s))
    case .sequence(let items): for item in items { collectStrings(item, into: &found) }
    case .mapping(let entries): for entry in entries { collectStrings(entry.value, into: &found) }
    default: break
    }
  }
}
