import FlowCore
import FlowRuntime
import Testing

/// A form's `next` is its confirm button: it takes the form as the screen shows it, each field holding its prefill
/// until the user types in it, and refuses it while a required field is empty.
@Suite struct FormConfirmTests {
  static let flow = """
    flow: reminder
    version: "1"
    locales: [en]
    start: form
    variables:
      birth: { type: date, default: null }
      time: { type: string, default: "" }
    steps:
      form:
        kind: form
        fields:
          birth: { label: birth, type: date, target: birth, required: true }
          time: { label: time, type: time, target: time, prefill: '"19:00"' }
        next: done
      done: { kind: terminal, outcome: completed }
    """

  @Test func nextRefusesTheFormWhileARequiredFieldIsEmpty() throws {
    let engine = Engine(flow: try compileFlow(Self.flow))
    var (state, _) = try engine.launch(Launch())
    let before = state
    #expect(throws: FlowError.self) { try engine.handle(.next, in: &state) }
    #expect(state == before)
  }

  @Test func aFieldLeftOutHoldsItsPrefill() throws {
    let engine = Engine(flow: try compileFlow(Self.flow))
    var (state, _) = try engine.launch(Launch())
    _ = try engine.handle(.inputFields(["birth": "2000-01-01"]), in: &state)
    #expect(state.ended?.outcome == .completed)
    #expect(state.variables == [.date(946_684_800), .string("19:00")])  // 2000-01-01 00:00 UTC
  }
}
