// libFuzzer target: flow loading (YAML/JSON → embedded schema → compiler) and every lint rule.
import FlowCore
import FlowLint
import FlowLoading

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFlow(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let loaded = FlowLoader.load(bytes: bytes, file: "fuzz.yaml")
  let findings = Linter.lint(loaded)
  for finding in findings { _ = finding.description }
  return 0
}
