/// Standard output or standard error, written with `write(2)` itself: unbuffered, so a prompt shows before the
/// line is read and a progress line is redrawn at once, and without building a `Data` for it.
package enum StandardStream: Int32, Sendable {
  case output = 1
  case error = 2

  /// Writes all of `text` (``writeAll(_:_:)``); stops quietly when the stream is closed.
  package func write(_ text: String) {
    var text = text
    _ = text.withUTF8 { writeAll(rawValue, UnsafeRawBufferPointer($0)) }
  }
}
