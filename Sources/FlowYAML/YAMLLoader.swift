package import FlowCore

/// Reads YAML text into a positioned `Node` tree, using libyaml and the YAML 1.2 core schema.
///
/// Plain scalars resolve to null (`~`, `null`, `Null`, `NULL`, empty), booleans (`true`/`false` in three
/// spellings only, so `no` and `on` stay strings), integers (decimal, `0o` octal, `0x` hex) and floats
/// (including `.inf` and `.nan`); everything else, and every quoted or block scalar, is a string. The standard
/// tags `!!str`, `!!int`, `!!float`, `!!bool` and `!!null` are honoured. Mapping keys are the scalars' text
/// as written. Positions are 1-based; columns count Unicode scalars.
package enum YAMLLoader {
  /// Loads a single YAML document.
  ///
  /// - Parameters:
  ///   - bytes: the file's contents, which must be UTF-8.
  ///   - file: the path shown in errors.
  ///   - limits: bounds on size, nesting, node count and alias expansion.
  /// - Returns: the document's root node.
  /// - Throws: `LoadError` with code `.tooLarge`, `.notUTF8`, `.binary`, `.syntax`, `.duplicateKey`,
  ///   `.unsupported` (a non-scalar key, a recursive alias), `.tooDeep`, `.aliasLimit`, `.empty` (no document)
  ///   or `.multipleDocuments` (pointing at the second document's start).
  ///
  /// A file of `SplitParse.minimumBytes` or more is read in two parts on two threads when its shape allows a
  /// cut that cannot change the result; the tree, and any error, are those of reading it whole.
  package static func load(bytes: [UInt8], file: String, limits: LoadLimits = .default) throws(LoadError) -> Node {
    if bytes.count >= SplitParse.minimumBytes, let root = SplitParse.load(bytes: bytes, file: file, limits: limits) {
      return root
    }
    let isASCII = try InputCheck.validate(bytes, file: file, limits: limits)
    return try composeWhole(bytes, file: file, limits: limits, isASCII: isASCII)
  }

  /// `load` on this thread alone, without cutting a large file in two (`SplitParse`): what a cut reading must
  /// equal.
  package static func loadOnOneThread(
    bytes: [UInt8], file: String, limits: LoadLimits = .default
  ) throws(LoadError) -> Node {
    let isASCII = try InputCheck.validate(bytes, file: file, limits: limits)
    return try composeWhole(bytes, file: file, limits: limits, isASCII: isASCII)
  }

  private static func composeWhole(
    _ bytes: [UInt8], file: String, limits: LoadLimits, isASCII: Bool
  ) throws(LoadError) -> Node {
    let composer = Composer(bytes: bytes, file: file, limits: limits, isASCII: isASCII)
    let documents = try composer.documents(single: true)
    guard let root = documents.first else {
      throw LoadError(.empty, "the document is empty", file: file, at: SourceLocation(line: 1, column: 1))
    }
    return root
  }

  /// Loads every document of a YAML stream (none for an empty stream), with the same rules and limits as
  /// `load(bytes:file:limits:)`; node and alias limits apply to the stream as a whole.
  package static func loadStream(
    bytes: [UInt8], file: String, limits: LoadLimits = .default
  ) throws(LoadError) -> [Node] {
    let isASCII = try InputCheck.validate(bytes, file: file, limits: limits)
    return try Composer(bytes: bytes, file: file, limits: limits, isASCII: isASCII).documents(single: false)
  }
}
