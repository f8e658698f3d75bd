#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output or standard error, written with `write(2)` itself: unbuffered, so a prompt shows before the
/// line is read and a progress line is redrawn at once, and without building a `Data` for it.
package enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  /// Writes all of `text`, again after an interrupted write; stops quietly when the stream is closed.
  package func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = writeBytes(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}

/// The C library's `write`, which `StandardStream.write(_:)` shadows inside the type.
private func writeBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
