package import FlowCore

/// Why a schema could not be compiled: a keyword this validator does not support, a malformed keyword value,
/// a `$ref` that does not resolve, or a reference cycle that would never terminate. Its location is the offending
/// keyword's (its key's) in the schema document.
package typealias SchemaError = PositionedError<SchemaCompiling>

/// The kind of ``SchemaError``: compiling a JSON Schema; reported with no rule id.
package enum SchemaCompiling: PositionedErrorKind {
  package static var rule: String? { nil }
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
