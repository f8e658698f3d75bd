// libFuzzer target: the `--state` store reader. The input is written to a file and read back with
// FileStore.read(path:), as flowrun does.
import FlowCore
import FlowRuntime
import Glibc

let path: String = {
  let directory = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
  return "\(directory)/fuzz-store-\(getpid()).json"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  guard fd >= 0 else { fatalError("cannot write \(path)") }
  var offset = 0
  while offset < size {
    let written = write(fd, data + offset, size - offset)
    guard written > 0 else { fatalError("cannot write \(path)") }
    offset += written
  }
  close(fd)
  do {
    let values = try FileStore.read(path: path)
    // What was read must write back and read again to the same values.
    let copy = path + ".copy"
    try FileStore.write(values, to: copy)
    let again = try FileStore.read(path: copy)
    if again != values { fatalError("store round trip changed the values: \(values) → \(again)") }
  } catch {
    _ = error.description
  }
  return 0
}
