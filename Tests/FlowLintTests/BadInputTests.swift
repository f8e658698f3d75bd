import FlowCore
import FlowLint
import FlowLoading
import Testing

/// Hostile or broken input gives positioned error diagnostics, never a crash or a hang.
struct BadInputTests {
  struct Input: CustomTestStringConvertible, Sendable {
    let name: String
    let file: String
    let bytes: [UInt8]
    /// The rule of the first diagnostic.
    let rule: String
    var testDescription: String { name }
  }

  static let billionLaughs = """
    a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: [*f, *f, *f, *f, *f, *f, *f, *f, *f]
    """

  static let inputs: [Input] = [
    Input(name: "empty", file: "empty.yaml", bytes: [], rule: "load"),
    Input(name: "only a comment", file: "comment.yaml", bytes: Array("# nothing here\n".utf8), rule: "load"),
    Input(
      name: "not YAML", file: "broken.yaml", bytes: Array("flow: demo\nsteps: [unclosed\n  - a: b: c\n".utf8),
      rule: "load"),
    Input(name: "binary", file: "binary.yaml", bytes: [0x89, 0x50, 0x4E, 0x47, 0x00, 0x01, 0xFF, 0xFE], rule: "load"),
    Input(name: "not UTF-8", file: "latin1.yaml", bytes: Array("flow: caf".utf8) + [0xE9], rule: "load"),
    Input(
      name: "50 MB", file: "huge.yaml",
      bytes: Array(String(repeating: "key_with_padding: value\n", count: (50 << 20) / 24).utf8), rule: "load"),
    Input(
      name: "deeply nested", file: "deep.yaml",
      bytes: Array((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8), rule: "load"),
    Input(
      name: "deeply nested JSON", file: "deep.json", bytes: Array(String(repeating: "{\"a\":", count: 5000).utf8),
      rule: "load"),
    Input(name: "alias bomb", file: "bomb.yaml", bytes: Array(billionLaughs.utf8), rule: "load"),
    Input(name: "two documents", file: "two.yaml", bytes: Array("flow: a\n---\nflow: b\n".utf8), rule: "load"),
    Input(name: "a list, not a flow", file: "list.yaml", bytes: Array("- just\n- a list\n".utf8), rule: "schema"),
    Input(name: "a scalar", file: "scalar.yaml", bytes: Array("hello\n".utf8), rule: "schema"),
    Input(
      name: "wrong shape", file: "shape.yaml",
      bytes: Array("flow: 3\nversion: [1]\nlocales: en\nstart: {}\nsteps: []\n".utf8), rule: "schema"),
    Input(
      name: "wrong shape JSON", file: "shape.json",
      bytes: Array("{\"flow\": true, \"steps\": {\"a\": {\"kind\": 7}}}".utf8), rule: "schema"),
  ]

  @Test(arguments: inputs)
  func givesPositionedErrors(_ input: Input) {
    let loaded = FlowLoader.load(bytes: input.bytes, file: input.file)
    let findings = Linter.lint(loaded)
    #expect(!findings.isEmpty)
    #expect(findings.first?.ruleID == input.rule, "\(findings.map(\.description))")
    #expect(findings.contains { $0.severity == .error })
    for finding in findings {
      #expect(finding.location.line >= 1 && finding.location.column >= 1, "\(finding)")
      #expect(finding.file == input.file)
    }
    #expect(!loaded.isRunnable)
  }

  @Test func aWrongShapeIsReportedOncePerProblem() {
    let loaded = FlowLoader.load(bytes: Array("- just\n- a list\n".utf8), file: "list.yaml")
    let findings = Linter.lint(loaded)
    #expect(findings.map(\.description) == ["list.yaml:1:1: error: expected a mapping, found a list [schema]"])
  }

  @Test func aValidJSONFlowLoadsAndLints() {
    let json = """
      {"flow": "j", "version": "1", "locales": ["en"], "start": "a",
       "steps": {"a": {"kind": "screen", "next": "b"}, "b": {"kind": "terminal", "outcome": "completed"}}}
      """
    let loaded = FlowLoader.load(bytes: Array(json.utf8), file: "flow.txt")
    #expect(loaded.flow?.steps.count == 2)
    #expect(loaded.diagnostics.isEmpty)
    #expect(Linter.lint(loaded).isEmpty)
    #expect(loaded.isRunnable)
  }
  /// The findings of a small flow whose step `welcome` is written as given, after an optional comment line.
  static func findings(welcome: String, comment: String = "") -> [String] {
    let text = """
      flow: demo
      version: "1"
      locales: [en]
      variables:
        n: {type: int, default: 0}
      start: welcome
      steps:\(comment.isEmpty ? "" : "\n  " + comment)
        welcome: \(welcome)
        end: {kind: terminal, outcome: completed}
      """
    return Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "f.yaml")).map(\.description)
  }

  /// A suppression whose rule never ran, because the flow did not load, is not called unused.
  @Test func aFlowThatDoesNotLoadReportsNoUnusedSuppression() {
    #expect(
      Self.findings(welcome: "{kind: screen, next: end", comment: "# flowlint-disable-next-line unused-variable") == [
        "f.yaml:10:6: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 9:12) [load]"
      ])
  }

  /// An expression error inside `set` is reported once, not followed by a shape error about the `set`.
  @Test func anExpressionErrorInSetIsReportedOnce() {
    #expect(
      Self.findings(welcome: #"{kind: screen, next: {to: end, effects: [{set: n, value: "n +"}]}}"#) == [
        "f.yaml:8:73: error: unexpected end of expression; expected an expression [expression-syntax]"
      ])
  }
}

/// A variable's type written wrong is reported where it is written, once: the variable's uses (an expression, a
/// `set`, a choice, a text input, a form field, its default) are not checked against a type the flow did not say.
struct UnknownVariableTypeTests {
  static func findings(type: String) -> [String] {
    let text = """
      flow: demo
      version: "1"
      locales: [en]
      variables:
        d: {type: \(type), default: 9.0e18}
        picks: {type: \(type), default: []}
      start: welcome
      steps:
        welcome:
          kind: multi-choice
          title: t
          options: {a: t}
          variable: picks
          skipIf: d * 10 > 3 && d.key == 1
          next: {to: name, effects: [{set: d, value: "d * 10"}]}
        name: {kind: text-input, title: t, variable: d, next: end}
        end: {kind: terminal, outcome: completed}
      strings:
        en: {t: T}
      """
    return Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "f.yaml")).map(\.description)
  }

  @Test func anUnknownTypeIsReportedOnce() {
    #expect(
      Self.findings(type: "double") == [
        "f.yaml:5:13: error: unknown type 'double'; expected one of 'bool', 'date', 'decimal', 'duration', 'int', "
          + "'list', 'map', 'string' [schema]",
        "f.yaml:6:17: error: unknown type 'double'; expected one of 'bool', 'date', 'decimal', 'duration', 'int', "
          + "'list', 'map', 'string' [schema]",
      ])
  }

  /// The same uses with a type that does not fit them are each reported (the check the unknown type skips).
  @Test func aKnownTypeIsCheckedAtEveryUse() {
    #expect(
      Self.findings(type: "string") == [
        "f.yaml:5:30: error: expected a string, found a number [schema]",
        "f.yaml:6:34: error: expected a string, found a list [schema]",
        "f.yaml:13:15: error: variable 'picks' of multi-choice step 'welcome' must be a list; found string "
          + "[expression-type]",
        "f.yaml:14:15: error: operator '*' cannot be applied to string and int [expression-type]",
        "f.yaml:15:51: error: operator '*' cannot be applied to string and int [expression-type]",
      ])
  }
}
