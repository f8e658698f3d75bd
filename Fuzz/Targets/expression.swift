// libFuzzer target: the expression parser, type checker, evaluator and explainer, in the fixed scope of
// FlowTestSupport's ExpressionFixtures, shaped like a real flow's. Any text must parse or throw an
// ExpressionError; a parsed expression must check, evaluate and explain without crashing.
import FlowCore
import FlowTestSupport

let bindings = ExpressionFixtures.bindings
let scope = ExpressionFixtures.scope

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let expression: FlowExpression
  do {
    expression = try FlowExpression(source)
  } catch {
    _ = error.description
    return 0
  }
  _ = expression.references
  _ = try? expression.check(in: scope)
  _ = try? expression.checkCondition(in: scope)
  _ = try? expression.evaluate(in: bindings)
  _ = try? expression.evaluateCondition(in: bindings)
  _ = expression.explain(in: bindings)
  _ = expression.explain(in: Bindings.empty)
  return 0
}
