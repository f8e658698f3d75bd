#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes all of `bytes` to `fd`, again after an interrupted or partial write. Returns 0, or the `errno` of the
/// write that failed (`EIO` for one that wrote nothing).
package func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
  var offset = 0
  while offset < bytes.count {
    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return written < 0 ? errno : EIO }
    offset += written
  }
  return 0
}
