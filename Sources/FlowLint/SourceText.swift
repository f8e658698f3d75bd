package import FlowCore

/// The lines of a source file, for carets under a finding and for reading the text at a position.
package struct SourceText: Sendable, Hashable {
  /// The file's lines without their line breaks; empty when the file is not UTF-8 text.
  package let lines: [Substring]

  package init(bytes: [UInt8]) {
    guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
      self.init(lines: [])
      return
    }
    self.init(text)
  }

  private init(lines: [Substring]) { self.lines = lines }

  package init(_ text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasSuffix("\r") ? line.dropLast() : line
    }
  }

  /// The 1-based line `number`, or nil.
  package func line(_ number: Int) -> Substring? {
    guard number >= 1, number <= lines.count else { return nil }
    return lines[number - 1]
  }

  /// The Unicode scalar at a 1-based line and column, or nil.
  package func scalar(at location: SourceLocation) -> Unicode.Scalar? {
    guard let line = line(location.line), location.column >= 1 else { return nil }
    let scalars = line.unicodeScalars
    guard let index = scalars.index(scalars.startIndex, offsetBy: location.column - 1, limitedBy: scalars.endIndex),
      index < scalars.endIndex
    else { return nil }
    return scalars[index]
  }
}
