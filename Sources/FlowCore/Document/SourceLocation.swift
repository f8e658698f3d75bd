/// A position in a source file. Lines and columns are 1-based; columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int { Int(storedLine) }
  /// The 1-based column, in Unicode scalars.
  public var column: Int { Int(storedColumn) }

  // Stored in 32 bits: every node of a document tree keeps one or two locations, and a tree of half the size is
  // built, copied and validated in less time. A file within `LoadLimits.maxBytes` has far fewer lines and
  // columns; a larger value is clamped rather than trapping.
  private let storedLine: Int32
  private let storedColumn: Int32

  package init(line: Int, column: Int) {
    storedLine = Int32(clamping: line)
    storedColumn = Int32(clamping: column)
  }

  /// The location used for values that have no source, such as defaults filled in by the engine.
  package static let unknown = SourceLocation(line: 0, column: 0)

  /// Orders by line, then column.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
  }

  /// Moves `offset` columns to the right on the same line (for positions inside a scalar).
  package func advanced(by offset: Int) -> SourceLocation {
    SourceLocation(line: line, column: column + offset)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
