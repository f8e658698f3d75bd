import FlowCore
import Testing

@Suite struct FlowExitTests {
  /// Only an exit with a `rawValue` route carries the steps with a raw value, and it still goes to each of them:
  /// finding those steps for every exit made walking a flow quadratic in its steps (linting 10,000 steps took
  /// 1.2 s; scripts/perf-guard.py's `lint generated 10,000 steps` counts its instructions).
  @Test func onlyAnExitWithARawValueRouteCarriesTheRawValueSteps() throws {
    let json = """
      {"flow": "f", "version": "1", "locales": ["en"], "start": "a",
       "variables": {"saved": {"type": "int", "default": 0}},
       "steps": {
         "a": {"kind": "screen", "rawValue": 1, "next": {"to": [{"rawValue": "saved"}, {"to": "b"}]}},
         "b": {"kind": "screen", "rawValue": 2, "next": "end"},
         "end": {"kind": "terminal", "outcome": "completed", "rawValue": 3}}}
      """
    let (compiled, diagnostics) = FlowCompiler.compile(json: Array(json.utf8), file: "f.json")
    #expect(diagnostics.isEmpty)
    let flow = try #require(compiled)
    #expect(flow.exits(of: 0).map(\.rawValueSteps) == [[0, 1, 2]])
    #expect(flow.exits(of: 0).flatMap(\.routes).map(\.to) == [0, 1, 2, 1])
    #expect(flow.exits(of: 1).map(\.rawValueSteps) == [[]])
    #expect(flow.exits(of: 1).flatMap(\.routes).map(\.to) == [2])
  }
}
