import Testing

@testable import FlowYAML

/// The input check reads eight printable ASCII bytes at a time: every byte that is not one must still be found,
/// at its offset, whichever of a word's eight places it is in.
@Suite struct InputCheckTests {
  @Test func everyByteValueIsJudgedAtEveryPlaceOfAWord() {
    for value in 0...255 {
      let byte = UInt8(value)
      for place in 0..<17 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
        bytes[place] = byte
        var isASCII = true
        let problem = bytes.withUnsafeBufferPointer { InputCheck.firstProblem($0, isASCII: &isASCII) }
        let expected: InputCheck.Problem? =
          switch byte {
          case 0x20...0x7E, 0x09, 0x0A, 0x0D: nil
          case 0: .init(offset: place, kind: .nul)
          case ..<0x80: .init(offset: place, kind: .control(UInt32(byte)))
          default: .init(offset: place, kind: .invalidUTF8(byte))
          }
        #expect(problem == expected, "byte 0x\(String(value, radix: 16)) at \(place)")
        #expect(isASCII == (byte < 0x80))
      }
    }
  }

  /// Every word over the bytes at the edges of the printable range, where a borrow or a carry between bytes would
  /// show (5^8 words).
  @Test func aWordIsPrintableExactlyWhenEachOfItsBytesIs() {
    let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x7E, 0x7F]
    var wrong: [UInt64] = []
    for number in 0..<390_625 {
      var word: UInt64 = 0
      var rest = number
      var printable = true
      for place in 0..<8 {
        let byte = edges[rest % 5]
        rest /= 5
        word |= UInt64(byte) << (8 * UInt64(place))
        printable = printable && (0x20...0x7E).contains(byte)
      }
      if InputCheck.isPrintableASCII(word) != printable { wrong.append(word) }
    }
    #expect(wrong.isEmpty, "judged wrongly: \(wrong.prefix(5).map { String($0, radix: 16) })")
  }
}
