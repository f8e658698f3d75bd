// libFuzzer target: the YAML loader. Any bytes must load or throw a LoadError; never crash or hang.
import FlowCore
import FlowYAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let node = try YAMLLoader.load(bytes: bytes, file: "fuzz.yaml")
    _ = node.location
  } catch {
    _ = error.description
  }
  // Streams too (the conformance runner's entry point), under tight limits so hangs show up as limits.
  _ = try? YAMLLoader.loadStream(bytes: bytes, file: "fuzz.yaml", limits: LoadLimits(maxAliasExpansion: 1_000))
  return 0
}
