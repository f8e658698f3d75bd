// libFuzzer target: the scenario-table loader (YAML → scenario schema → cases and commands).
import FlowCore
import FlowRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let file = try ScenarioLoader.load(bytes: bytes, path: "Tests/Scenarios/fuzz.yaml")
    _ = file.cases.count
  } catch {
    _ = error.description
  }
  return 0
}
