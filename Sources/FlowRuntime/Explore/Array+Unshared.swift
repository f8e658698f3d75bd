extension Array {
  /// A copy in a buffer of its own. Copies of an array share its buffer until one is written, and reading one
  /// often retains and releases that buffer: a thread that reads a copy while another thread reads the original
  /// (``PackedRows/Packer/unshared()``) changes a reference count the other changes too, and the two cores pass
  /// it back and forth.
  func unshared() -> [Element] { withUnsafeBufferPointer(Array.init) }
}
