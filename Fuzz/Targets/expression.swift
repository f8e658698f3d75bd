// libFuzzer target: the expression parser, type checker, evaluator and explainer, in a fixed scope shaped
// like a real flow's. Any text must parse or throw an ExpressionError; a parsed expression must check,
// evaluate and explain without crashing.
import FlowCore

let bindings = Bindings(
  [
    "env": .map(["osVersion": .int(18), "alarmKitAvailable": .bool(false), "locale": .string("en-US")]),
    "permission": .map(["notifications": .string("granted"), "alarmKit": .string("notDetermined")]),
    "store": .map(["SelectedLanguage": .string("ja"), "count": .int(3)]),
    "onboardingStep": .int(11),
    "onboardingCompleted": .bool(false),
    "displayName": .string("User"),
    "language": .string("ja"),
    "habitTimes": .map(["wake": .string("06:00"), "training": .string("19:00")]),
    "ideals": .list([.string("calm"), .string("focus")]),
    "result": .map(["userId": .string("u-1")]),
    "step": .map(["id": .string("welcome"), "kind": .string("screen"), "rawValue": .int(0)]),
    "big": .int(Int.max),
    "small": .int(Int.min),
    "anything": .null,
    "counts": .map(["a": .int(1)]),
  ],
  minutesSinceMidnight: 20 * 60 + 10)

let scope = TypeScope([
  "env": .record(["osVersion": .int, "alarmKitAvailable": .bool, "locale": .string]),
  "permission": .record(["notifications": .string, "alarmKit": .string]),
  "store": .map(.any),
  "onboardingStep": .int,
  "onboardingCompleted": .bool,
  "displayName": .string,
  "language": .string,
  "habitTimes": .map(.string),
  "ideals": .list(.string),
  "result": .record(["name": .optional(.string), "userId": .optional(.string), "habits": .optional(.map(.string))]),
  "step": .record(["id": .string, "kind": .string, "rawValue": .optional(.int)]),
  "big": .int,
  "small": .int,
  "anything": .any,
  "counts": .map(.int),
])

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
