// libFuzzer target: the YAML loader. Any bytes must load or throw a LoadError; never crash or hang. Reading in
// two parts (SplitParse, which the loader uses on large files only) must give the tree reading whole gives, or
// nothing, and nothing when reading whole fails.
import FlowCore
import FlowYAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let whole: Node?
  do {
    let node = try YAMLLoader.load(bytes: bytes, file: "fuzz.yaml")
    _ = node.location
    whole = node
  } catch {
    _ = error.description
    whole = nil
  }
  if let parts = SplitParse.load(bytes: bytes, file: "fuzz.yaml") {
    precondition(parts == whole, "reading in two parts gave another tree than reading whole")
  }
  // Streams too (the conformance runner's entry point), under tight limits so hangs show up as limits.
  _ = try? YAMLLoader.loadStream(bytes: bytes, file: "fuzz.yaml", limits: LoadLimits(maxAliasExpansion: 1_000))
  return 0
}
