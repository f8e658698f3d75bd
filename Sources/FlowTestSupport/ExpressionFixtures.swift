package import FlowCore

/// Values and types shaped like a real flow's (facts, permissions, variables, an action result), plus the
/// extremes (`big`, `small`, `anything`), for this package's expression tests and the expression fuzz target
/// (Fuzz/Targets/expression.swift).
package enum ExpressionFixtures {
  package static let bindings = Bindings(
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

  package static let scope = TypeScope([
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
}
