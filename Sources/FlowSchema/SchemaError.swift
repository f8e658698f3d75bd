package import FlowCore

/// Why a schema could not be compiled: a keyword this validator does not support, a malformed keyword value,
/// a `$ref` that does not resolve, or a reference cycle that would never terminate.
package struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure (stable, for tests).
  package typealias Code = ErrorCode<SchemaError>

  package var code: Code
  package var message: String
  package var file: String
  /// 1-based position of the offending keyword (its key) in the schema document.
  package var location: SourceLocation

  package init(_ code: Code, _ message: String, file: String, at location: SourceLocation) {
    self.code = code
    self.message = message
    self.file = file
    self.location = location
  }

  /// `file:line:col: error: message`
  package var description: String { "\(file):\(location.line):\(location.column): error: \(message)" }
}

extension ErrorCode where Domain == SchemaError {
  /// A keyword this validator refuses, such as `$dynamicRef`.
  package static var unsupportedKeyword: Self { Self("unsupported-keyword") }
  /// A keyword whose value has the wrong shape (`"minLength": "3"`).
  package static var invalidKeyword: Self { Self("invalid-keyword") }
  /// A `pattern` or `patternProperties` key that is not a valid regular expression.
  package static var invalidPattern: Self { Self("invalid-pattern") }
  /// A `$ref` to something outside the document, or to nothing.
  package static var unresolvedReference: Self { Self("unresolved-reference") }
  /// A `$ref` cycle that returns to a schema without descending into the instance.
  package static var referenceCycle: Self { Self("reference-cycle") }
}
