/// A 64-bit hash of a text's UTF-8: FNV-1a's step (xor, then multiply by its prime) taken on eight bytes at a
/// time, the last few bytes one by one, so a 90 kB text takes about a quarter of the instructions a byte at a time
/// would. A table compiled when FlowKit is built records the length and hash of the text it was compiled from
/// (the flow schema's program, the prelude's declarations), and is used only while the embedded text still has
/// both, so a stale table is never read. Each step is invertible, so any change confined to one eight-byte word
/// changes the hash.
package enum TextHash {
  package static func of(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bytes in
      let prime: UInt64 = 0x100_0000_01b3
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      let words = bytes.count / 8
      let raw = UnsafeRawBufferPointer(bytes)
      for word in 0..<words {
        hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self))) &* prime
      }
      for byte in bytes[(words * 8)...] { hash = (hash ^ UInt64(byte)) &* prime }
      return hash
    }
  }
}
