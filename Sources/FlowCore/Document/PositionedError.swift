/// What a ``PositionedError`` is about: a type with no values that names one kind of document failure
/// (`LoadError`'s reading, `SchemaError`'s compiling) and how it is reported.
package protocol PositionedErrorKind: Sendable {
  /// The rule id the failure's ``PositionedError/diagnostic`` carries, or nil for none.
  static var rule: String? { get }
}

/// A failure at a position in a document: what kind (`code`, stable, for tests and exit codes), why (`message`)
/// and where (`file`, `location`). `LoadError` and `SchemaError` are its two kinds; each declares its codes as
/// `extension ErrorCode where Domain == LoadError`.
package struct PositionedError<Kind: PositionedErrorKind>: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure (stable, for tests and exit codes).
  package typealias Code = ErrorCode<Self>

  package var code: Code
  package var message: String
  package var file: String
  /// 1-based position of what failed in the document.
  package var location: SourceLocation

  package init(_ code: Code, _ message: String, file: String, at location: SourceLocation) {
    self.code = code
    self.message = message
    self.file = file
    self.location = location
  }

  /// The failure as an error diagnostic, with the kind's rule id.
  package var diagnostic: Diagnostic {
    Diagnostic(.error, message, file: file, at: location, rule: Kind.rule)
  }

  /// `file:line:col: error: message`, with ` [rule]` when the kind has one.
  package var description: String { diagnostic.description }
}
