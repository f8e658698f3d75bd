// libFuzzer target: the JSON reader (one value, and a stream of values).
import FlowCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let node = try JSONReader.read(bytes: bytes, file: "fuzz.json")
    _ = node.location
  } catch {
    _ = error.description
  }
  _ = try? JSONReader.readStream(bytes: bytes, file: "fuzz.json")
  return 0
}
