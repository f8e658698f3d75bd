/// A position in a source file. Lines and columns are 1-based; columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The 1-based line.
  public let line: Int
  /// The 1-based column, in Unicode scalars.
  public let column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// The location used for values that have no source, such as defaults filled in by the engine.
  package static let unknown = SourceLocation(line: 0, column: 0)

  /// Orders by line, then column.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  /// Moves `offset` columns to the right on the same line (for positions inside a scalar).
  package func advanced(by offset: Int) -> SourceLocation {
    SourceLocation(line: line, column: column + offset)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}
