package import FlowCore

/// A compiled JSON Schema (draft 2020-12) that validates positioned `Node` trees and reports each violation
/// at the offending node's 1-based line and column.
///
/// Compile once, validate many times: `$ref`s are resolved and keywords parsed at `init`. Keywords this
/// validator does not support are refused at `init`, never ignored; members that are not keywords at all
/// (vendor extensions such as `x-order`, or typos) are ignored and listed in `warnings`.
/// See `docs/conformance-jsonschema.md` for the supported vocabulary.
package struct JSONSchema: Sendable {
  let program: SchemaProgram
  /// Where the schema came from, for messages about the schema itself.
  package let file: String
  /// Unknown members of schema objects that were ignored, as warnings at their keys (rule `schema`).
  package let warnings: [Diagnostic]

  /// Compiles a schema document.
  ///
  /// - Parameters:
  ///   - root: The schema document (a mapping or a boolean).
  ///   - file: The schema's path, used in error messages.
  ///   - checkingPatterns: Whether a `pattern` or `patternProperties` key that does not compile (invalid, or
  ///     using a backreference or lookaround, which the linear-time matcher refuses) is an `invalidPattern`
  ///     error. With false, such a pattern matches nothing; only a schema whose patterns are known to be
  ///     valid, such as an embedded one that a test compiles with checking on, should pass false.
  /// - Throws: `SchemaError` naming the keyword and its 1-based location when the schema uses an unsupported
  ///   keyword, a malformed keyword value, an unresolvable (or remote) `$ref`, or a `$ref` cycle that never
  ///   descends into the instance.
  package init(_ root: Node, file: String, checkingPatterns: Bool = true) throws(SchemaError) {
    var compiler = SchemaCompiler(root: root, file: file, checkingPatterns: checkingPatterns)
    program = try compiler.compile()
    warnings = compiler.warnings
    self.file = file
  }
}

// MARK: - Validation

extension JSONSchema {
  /// Validates an instance document.
  ///
  /// - Parameters:
  ///   - instance: The document to check.
  ///   - file: The instance's path, used in the diagnostics.
  /// - Returns: One error per violation with rule id `schema`, sorted by position; empty when valid.
  package func validate(_ instance: Node, file: String) -> [Diagnostic] {
    var validator = Validator(program: program, file: file)
    _ = validator.run(instance, report: true)
    return Diagnostic.merging([], validator.diagnostics).enumerated().sorted {
      ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
    }.map(\.element)
  }

  /// Whether the instance is valid, without building diagnostics (stops at the first violation).
  package func isValid(_ instance: Node) -> Bool {
    var validator = Validator(program: program, file: "")
    return validator.run(instance, report: false)
  }
}
