import FlowCore
import FlowYAML
import Testing

/// The compiler places an expression's errors inside its text, whatever the scalar style: plain, quoted, or a
/// block scalar whose text starts on the next line.
struct ExpressionColumnTests {
  @Test(arguments: [
    ("    skipIf: a && && b\n", "5:18"),
    ("    skipIf: 'a && && b'\n", "5:19"),
    ("    skipIf: \"a && && b\"\n", "5:19"),
    ("    skipIf: |\n      a && && b\n", "6:12"),
    ("    skipIf: >-  # a comment\n\n      a && && b\n", "7:12"),
  ])
  func syntaxErrorIsInsideTheText(_ line: String, _ position: String) throws {
    let yaml = "flow: a\nstart: x\nsteps:\n  x:\n" + line + "    kind: terminal\n"
    let root = try YAMLLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")
    let diagnostics = FlowCompiler.compile(root, file: "f.yaml").diagnostics.filter { $0.ruleID == "expression-syntax" }
    #expect(diagnostics.map { "\($0.location)" } == [position], "\(diagnostics)")
  }
}
