/// The FNV-1a hash (64 bits) of a text's UTF-8. A table compiled when FlowKit is built records the length and
/// hash of the text it was compiled from (the flow schema's program, the prelude's declarations), and is used
/// only while the embedded text still has both, so a stale table is never read.
package enum TextHash {
  package static func fnv1a(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bytes in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return hash
    }
  }
}
