@testable import FlowCore

/// Parses `source`, failing the test (not crashing) when it does not parse.
func parse(_ source: String) throws -> FlowExpression {
  try FlowExpression(source)
}
