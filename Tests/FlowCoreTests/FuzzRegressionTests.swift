import FlowCore
import FlowTestSupport
import Testing

/// Inputs the JSON and expression fuzz targets (Fuzz/Targets/json.swift, expression.swift) keep in
/// Tests/FuzzRegressions/{json,expression}: each must read or fail with a clear error, never crash.
struct FuzzRegressionTests {
  @Test("every JSON regression input reads or fails with a positioned error", arguments: FuzzRegressions.inputs("json"))
  func json(_ name: String) throws {
    let bytes = try FuzzRegressions.bytes(name)
    do {
      _ = try JSONReader.read(bytes: bytes, file: name)
    } catch {
      #expect(error.location.line >= 1 && error.location.column >= 1)
    }
  }

  @Test(
    "every expression regression input parses or fails; a parsed one checks, evaluates and explains",
    arguments: FuzzRegressions.inputs("expression"))
  func expression(_ name: String) throws {
    let source = String(decoding: try FuzzRegressions.bytes(name), as: UTF8.self)
    guard let expression = try? FlowExpression(source) else { return }
    _ = try? expression.check(in: ExpressionFixtures.scope)
    _ = try? expression.evaluate(in: ExpressionFixtures.bindings)
    #expect(!expression.explain(in: ExpressionFixtures.bindings).isEmpty || source.isEmpty)
  }
}

/// The limits in docs/limits.md enforced by the core, each with the message it gives.
struct CoreLimitTests {
  @Test("the documented limits are the defaults")
  func defaults() {
    let limits = LoadLimits.default
    #expect(limits.maxBytes == 8_388_608)
    #expect(limits.maxDepth == 128)
    #expect(limits.maxAliasExpansion == 10_000)
    #expect(limits.maxNodes == 2_000_000)
    #expect(FlowExpression.maxLength == 4_096)
    #expect(FlowExpression.maxDepth == 64)
  }

  func readError(_ text: String, limits: LoadLimits = .default) -> LoadError? {
    #expect(throws: LoadError.self) { try JSONReader.read(bytes: Array(text.utf8), file: "f.json", limits: limits) }
  }

  @Test("JSON over the size limit gives both sizes")
  func jsonSize() {
    let error = readError("[" + String(repeating: "1,", count: 4 << 20) + "1]")
    #expect(error?.code == .tooLarge)
    #expect(
      error?.description == "f.json:1:1: error: the input is 8388611 bytes, more than the limit of 8388608 bytes [load]"
    )
  }

  @Test("JSON nested deeper than 128 levels")
  func jsonDepth() {
    let error = readError(String(repeating: "[", count: 129) + String(repeating: "]", count: 129))
    #expect(error?.code == .tooDeep)
    #expect(error?.description == "f.json:1:129: error: arrays and objects nest deeper than 128 levels [load]")
  }

  @Test("JSON with more values than the node limit")
  func jsonNodes() {
    let error = readError("[1, 2, 3]", limits: LoadLimits(maxNodes: 3))
    #expect(error?.code == .tooLarge)
    #expect(error?.description == "f.json:1:8: error: the document has more than 3 values (the node limit) [load]")
  }

  @Test("an expression longer than 4,096 characters")
  func expressionLength() {
    let error = #expect(throws: ExpressionError.self) {
      try FlowExpression(String(repeating: "1+", count: 2_048) + "1")
    }
    #expect(error?.message == "expression is too long; at most 4096 characters")
    #expect(error?.column == 4_097)
  }

  @Test("an expression nested deeper than 64 levels")
  func expressionDepth() {
    let error = #expect(throws: ExpressionError.self) {
      try FlowExpression(String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65))
    }
    #expect(error?.message == "expression is nested too deeply; at most 64 levels")
  }
}
