import FlowCore
import FlowRuntime
import FlowTestSupport
import FlowYAML
import Testing

/// Compiles a flow written inline; the test fails when it has errors.
func compileFlow(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Flow {
  let node = try YAMLLoader.load(bytes: Array(yaml.utf8), file: "test.yaml")
  let (flow, diagnostics) = FlowCompiler.compile(node, file: "test.yaml")
  let errors = diagnostics.filter { $0.severity == .error }
  #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
  return try #require(flow, sourceLocation: sourceLocation)
}

extension [TraceEntry] {
  var entered: [String] {
    compactMap { if case .record(.entered(let step)) = $0 { step } else { nil } }
  }
  var effects: [String] {
    compactMap {
      if case .record(.effect(let effect)) = $0, effect.typeName != "perform" { effect.summary } else { nil }
    }
  }
  var skips: [String] {
    compactMap { if case .record(.skipped(let step, let why)) = $0 { "\(step): \(why)" } else { nil } }
  }
}
