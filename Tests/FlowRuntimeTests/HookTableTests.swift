import FlowTestSupport
import Foundation
import Testing

@testable import FlowCore

/// The engine works out once, per step, what of a hook's effects reads only `step` (``StepTable``): each entry
/// must be what evaluating the expression at that step gives, and an expression that reads more, or fails on some
/// step, must be left to the move.
@Suite struct HookTableTests {
  /// Every hook effect of `flow` with its table, and the step-only entries it checked.
  static func check(_ flow: Flow) throws -> Int {
    let storage = FlowStorage(flow, workingOutHooks: true)
    var checked = 0
    let hooks = [
      (flow.hooks.launch, storage.launchHook), (flow.hooks.advance, storage.advanceHook),
      (flow.hooks.enter, storage.enterHook),
    ]
    for (effects, worked) in hooks {
      let tables = try #require(worked)
      #expect(effects.count == tables.count)
      for (effect, table) in zip(effects, tables) {
        for step in flow.steps.indices {
          if let holds = table.holds, let when = effect.when {
            #expect(try value(of: when, storage: storage, step: step) == .bool(holds[step]), "\(when.expression)")
            checked += 1
          }
          if let values = table.value, case .set(_, let expr) = effect.kind {
            #expect(try value(of: expr, storage: storage, step: step) == values[step], "\(expr.expression)")
            checked += 1
          }
        }
        if let when = effect.when, table.holds == nil {
          #expect(
            !when.expression.readsOnlyStep
              || flow.steps.indices.contains { step in
                guard case .bool = try? value(of: when, storage: storage, step: step) else { return true }
                return false
              })
        }
      }
    }
    return checked
  }

  /// `expr` evaluated as the effects of `step` see it, in a state fresh from `RunState()`.
  static func value(of expr: Expr, storage: FlowStorage, step: Int) throws -> Value {
    try withUnsafePointer(to: RunState()) { state in
      try expr.expression.evaluate(in: Scope(storage: storage, state: state, bindings: nil, effectStep: step, log: nil))
    }
  }

  @Test(arguments: PlainMoveTests.flowFiles)
  func everyEntryIsTheExpressionsValueAtThatStep(_ name: String) throws {
    let file = PlainMoveTests.root.appendingPathComponent("flows/\(name)").path
    let flow = try compileFlow(String(contentsOfFile: file, encoding: .utf8))
    _ = try Self.check(flow)
  }

  @Test func theAniccaFlowsHooksAreWorkedOutPerStep() throws {
    let file = PlainMoveTests.root.appendingPathComponent("flows/anicca-v04.yaml").path
    let flow = try compileFlow(String(contentsOfFile: file, encoding: .utf8))
    // `step.id == "value"` and the like on six advance effects, `step.rawValue` on the enter hook's set.
    #expect(try Self.check(flow) >= 7 * flow.steps.count)
  }

  @Test func whatReadsMoreOrFailsIsLeftToTheMove() throws {
    let flow = try compileFlow(
      """
      flow: hooks
      version: "1"
      locales: [en]
      start: a
      variables:
        n: { type: int, default: 0 }
      hooks:
        advance:
          - set: n
            value: step.rawValue
            when: step.kind == "screen"
          - set: n
            value: n + 1
            when: step.id in ["a", "b"]
          - log: '"late"'
            when: minutes(now()) > 600
          - log: '"raw"'
            when: step.rawValue > 0
      steps:
        a: { kind: screen, rawValue: 1, next: b }
        b: { kind: screen, next: done }
        done: { kind: terminal, outcome: completed }
      """)
    let tables = try #require(FlowStorage(flow, workingOutHooks: true).advanceHook)
    #expect(tables[0].holds == [true, true, false])
    #expect(tables[0].value == [.int(1), .null, .null])
    #expect(tables[1].holds == [true, true, false])
    #expect(tables[1].value == nil)  // reads n
    #expect(tables[2].holds == nil)  // calls now()
    #expect(tables[3].holds == nil)  // null > 0 fails on b: the move reports it
    _ = try Self.check(flow)
  }

  @Test func anEngineNotMadeForExploringWorksOutNothing() throws {
    let file = PlainMoveTests.root.appendingPathComponent("flows/anicca-v04.yaml").path
    let storage = FlowStorage(try compileFlow(String(contentsOfFile: file, encoding: .utf8)))
    #expect(storage.launchHook == nil && storage.advanceHook == nil && storage.enterHook == nil)
  }

  @Test func readsOnlyStep() throws {
    for (source, expected) in [
      (#"step.id == "value""#, true), (#"step.kind in ["screen", "form"]"#, true), ("step.rawValue", true),
      (#"step.id == "a" ? 1 : 2"#, true), ("-step.rawValue", true), (#"{ "k": step.id }"#, true),
      (#"userId != """#, false), (#"step.id == env.locale"#, false), ("minutes(now()) > 0", false),
      (#"size(step.id) > 0"#, false),
    ] {
      #expect(try FlowExpression(source).readsOnlyStep == expected, "\(source)")
    }
  }
}
