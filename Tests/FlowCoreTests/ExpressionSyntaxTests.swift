import Testing

@testable import FlowCore

struct ExpressionSyntaxTests {
  @Test(
    arguments: [
      ("", 1, "unexpected end of expression; expected an expression"),
      ("   ", 4, "unexpected end of expression; expected an expression"),
      ("(1 + )", 6, "unexpected ')'; expected an expression"),
      ("1 +", 4, "unexpected end of expression; expected an expression"),
      ("1 2", 3, "unexpected '2'; expected an operator or the end of the expression"),
      ("a b", 3, "unexpected 'b'; expected an operator or the end of the expression"),
      ("a and b", 3, "unexpected 'and'; did you mean '&&'?"),
      ("a or b", 3, "unexpected 'or'; did you mean '||'?"),
      ("not a", 1, "unknown operator 'not'; did you mean '!'?"),
      ("'abc", 1, "unterminated string"),
      ("x == \"abc", 6, "unterminated string"),
      ("'ab\\", 1, "unterminated string"),
      ("'a\nb'", 1, "unterminated string"),
      ("'\\q'", 2, "unknown escape '\\q'; expected one of \\n \\t \\r \\0 \\\\ \\\" \\' \\u{...}"),
      ("'\\u{zz}'", 2, "invalid unicode escape; expected \\u{XXXX} with 1 to 8 hex digits"),
      ("'\\u{D800}'", 2, "invalid unicode scalar in \\u{...}"),
      ("a ? b", 6, "unexpected end of expression; expected ':' of '?:'"),
      ("a ? b c", 7, "unexpected 'c'; expected ':' of '?:'"),
      ("(a + b", 7, "unexpected end of expression; expected ')' to close '(' at column 1"),
      ("[1, 2", 6, "unexpected end of expression; expected ',' or ']' to close '[' at column 1"),
      ("ideals[0", 9, "unexpected end of expression; expected ']' to close '[' at column 7"),
      ("size(a b)", 8, "unexpected 'b'; expected ',' or ')' to close '(' at column 5"),
      ("a.", 3, "unexpected end of expression; expected a member name after '.'"),
      ("a.1", 3, "unexpected '1'; expected a member name after '.'"),
      ("a = 1", 3, "unexpected character '='; did you mean '=='?"),
      ("a & b", 3, "unexpected character '&'; did you mean '&&'?"),
      ("a | b", 3, "unexpected character '|'; did you mean '||'?"),
      ("a # b", 3, "unexpected character '#'"),
      ("12ab", 3, "unexpected 'a' after a number"),
      ("99999999999999999999", 1, "integer literal '99999999999999999999' is too large; at most 9223372036854775807"),
      ("9223372036854775808", 1, "integer literal '9223372036854775808' is too large; at most 9223372036854775807"),
      ("in", 1, "unexpected 'in'; expected an expression"),
      ("sise(ideals)", 1, "unknown function 'sise'; did you mean 'size'?"),
      ("1 + frobnicate()", 5, "unknown function 'frobnicate'"),
      ("size()", 1, "size(x) takes 1 argument, found 0"),
      ("now(1)", 1, "now() takes 0 arguments, found 1"),
      ("x == contains('a')", 6, "contains(haystack, needle) takes 2 arguments, found 1"),
      ("a.b(1)", 4, "unexpected '('; only the built-in functions can be called"),
      ("x == 'é' é", 10, "unexpected character 'é'"),
    ] as [(String, Int, String)])
  func rejects(_ source: String, _ column: Int, _ message: String) {
    let error = #expect(throws: ExpressionError.self) { try FlowExpression(source) }
    #expect(error?.code == .syntax)
    #expect(error?.message == message)
    #expect(error?.column == column)
  }

  /// The parser finds an operator by its symbol's bytes: each symbol spells its operator, and no other symbol
  /// the lexer makes spells one (`in` is a name, not a symbol).
  @Test func eachOperatorSymbolSpellsItsOperator() {
    for op in FlowExpression.BinaryOperator.allCases {
      #expect(FlowExpression.BinaryOperator(symbol: op.rawValue) == (op == .in ? nil : op), "\(op)")
    }
    for other in ["(", ")", "[", "]", "{", "}", ",", ".", "?", ":", "!", "=", "&", "|", "<<", "===", "**", ""] {
      #expect(FlowExpression.BinaryOperator(symbol: other) == nil, "\(other)")
    }
  }

  /// Tokens keep their text as written, non-ASCII text in strings included.
  @Test func tokensKeepTheirText() throws {
    let tokens = try FlowExpression.Lexer.tokens(of: "x.y_2 ?? 'café ☕' + 12.5e3 >= 7")
    #expect(tokens.map(\.text) == ["x", ".", "y_2", "??", "'café ☕'", "+", "12.5e3", ">=", "7", ""])
    #expect(tokens[4].kind == .string("café ☕"))
  }

  @Test func unknownFunctionsListTheFunctions() {
    let error = #expect(throws: ExpressionError.self) { try FlowExpression("lenght(x)") }
    #expect(
      error?.notes == [
        "functions: 'addMonths', 'addYears', 'bucket', 'contains', 'date', 'decimal', 'duration', 'int', "
          + "'isLaterToday', 'keys', 'lower', 'matches', 'minutes', 'nextHabit', 'now', 'size', 'startsWith', "
          + "'string', 'timestamp', 'today', 'trim', 'upper', 'yearsBetween'"
      ])
  }

  @Test func errorsRenderWithColumnAndNotes() {
    let error = ExpressionError(.type, "unknown name 'x'", column: 4, notes: ["names in scope: 'y'"])
    #expect(error.description == "column 4: unknown name 'x'\nnote: names in scope: 'y'")
    let diagnostic = error.diagnostic(file: "flow.yaml", expressionAt: SourceLocation(line: 12, column: 11))
    #expect(diagnostic.description == "flow.yaml:12:14: error: unknown name 'x' [expression]")
    #expect(diagnostic.notes == ["names in scope: 'y'"])
  }

  // MARK: - Limits

  @Test(arguments: [
    String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
    String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65),
    String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    String(repeating: "!", count: 65) + "true",
    String(repeating: "-", count: 65) + "a",
    String(repeating: "size(", count: 65) + "a" + String(repeating: ")", count: 65),
    "a" + String(repeating: " ?? a", count: 65),
    "a" + String(repeating: " ? a : a", count: 65),
    "a" + String(repeating: ".b", count: 65),
    "a" + String(repeating: "[0]", count: 65),
    Array(repeating: "1", count: 66).joined(separator: " + "),
  ])
  func rejectsDeepNesting(_ source: String) {
    let error = #expect(throws: ExpressionError.self) { try FlowExpression(source) }
    #expect(error?.code == .limit)
    #expect(
      error?.message == "expression is nested too deeply; at most 64 levels"
        || error?.message == "expression is too long; at most 4096 characters")
  }

  @Test func rejectsHugeInput() {
    let source = Array(repeating: "a", count: 3000).joined(separator: " && ")
    let error = #expect(throws: ExpressionError.self) { try FlowExpression(source) }
    #expect(error?.code == .limit)
    #expect(error?.message == "expression is too long; at most 4096 characters")
    #expect(error?.column == 4097)
  }

  @Test func acceptsNestingUpToTheLimit() throws {
    let parenthesized = String(repeating: "(", count: 60) + "1" + String(repeating: ")", count: 60)
    #expect(try FlowExpression(parenthesized).evaluate(in: Bindings.empty) == .int(1))
    let chain = Array(repeating: "1", count: 60).joined(separator: " + ")
    #expect(try FlowExpression(chain).evaluate(in: Bindings.empty) == .int(60))
    let long = "'" + String(repeating: "x", count: 4094) + "'"
    #expect(try FlowExpression(long).evaluate(in: Bindings.empty) == .string(String(repeating: "x", count: 4094)))
  }

  @Test func deepNestingErrorPointsAtTheLevelOverTheLimit() {
    let error = #expect(throws: ExpressionError.self) {
      try FlowExpression(String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70))
    }
    #expect(error?.column == 65)
  }
}
