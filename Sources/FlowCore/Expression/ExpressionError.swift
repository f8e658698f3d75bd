/// Why an expression could not be parsed, type-checked or evaluated, and where.
///
/// `column` is 1-based and counts Unicode scalars inside ``FlowExpression/source`` (the same unit as
/// ``SourceLocation/column``), so a front end places the error in the file with
/// `location.advanced(by: error.column - 1)`, or with ``diagnostic(file:expressionAt:rule:)``.
package struct ExpressionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The stage that failed (stable, for tests and for choosing a rule id).
  package typealias Code = ErrorCode<ExpressionError>

  package var code: Code
  /// What was wrong, lowercase, names in single quotes: `unknown name 'onboardingStpe'; did you mean ...?`.
  package var message: String
  /// 1-based column inside the expression's source (in Unicode scalars) where the problem is.
  package var column: Int
  /// Further lines shown under the message (the names that were available, ...).
  package var notes: [String]

  package init(_ code: Code, _ message: String, column: Int, notes: [String] = []) {
    self.code = code
    self.message = message
    self.column = column
    self.notes = notes
  }

  /// `column N: message`, then one `note: ...` line per note.
  package var description: String {
    (["column \(column): \(message)"] + notes.map { "note: \($0)" }).joined(separator: "\n")
  }

  /// The error as a file diagnostic, given where the expression's first character is in the file.
  ///
  /// - Parameters:
  ///   - file: The path shown in the diagnostic.
  ///   - start: The 1-based line and column of the expression's first character in `file`.
  ///   - rule: The diagnostic's rule id.
  /// - Returns: An error diagnostic at the file position of ``column``, with the same message and notes.
  package func diagnostic(file: String, expressionAt start: SourceLocation, rule: String? = "expression")
    -> Diagnostic
  {
    Diagnostic(.error, message, file: file, at: start.advanced(by: column - 1), rule: rule, notes: notes)
  }
}

extension ErrorCode where Domain == ExpressionError {
  /// The text is not an expression (bad token, missing operand, unbalanced bracket).
  package static var syntax: Self { Self("syntax") }
  /// The expression is longer or nested deeper than ``FlowExpression/maxLength`` / ``FlowExpression/maxDepth``.
  package static var limit: Self { Self("limit") }
  /// `check` found a name, member, function or operand type that does not fit.
  package static var type: Self { Self("type") }
  /// `evaluate` failed on the actual values (division by zero, overflow, a mistyped operand, a bad time).
  package static var evaluation: Self { Self("evaluation") }
}
