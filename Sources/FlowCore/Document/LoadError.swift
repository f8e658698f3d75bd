/// Why a document could not be read: bad bytes, bad syntax, or a limit exceeded.
public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure (stable, for tests and exit codes).
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    public var description: String { name }

    public static let syntax = Code(name: "syntax")
    public static let duplicateKey = Code(name: "duplicate-key")
    public static let notUTF8 = Code(name: "not-utf8")
    public static let binary = Code(name: "binary")
    public static let empty = Code(name: "empty")
    public static let multipleDocuments = Code(name: "multiple-documents")
    public static let tooLarge = Code(name: "too-large")
    public static let tooDeep = Code(name: "too-deep")
    public static let aliasLimit = Code(name: "alias-limit")
    public static let unsupported = Code(name: "unsupported")
  }

  public var code: Code
  public var message: String
  public var file: String
  public var location: SourceLocation

  public init(_ code: Code, _ message: String, file: String, at location: SourceLocation) {
    self.code = code
    self.message = message
    self.file = file
    self.location = location
  }

  public var diagnostic: Diagnostic {
    Diagnostic(.error, message, file: file, at: location, rule: "load")
  }

  public var description: String { diagnostic.description }
}

/// Bounds every reader enforces, so hostile input fails fast with a clear error instead of eating memory.
public struct LoadLimits: Hashable, Sendable {
  /// Largest accepted input, in bytes.
  public var maxBytes: Int = 8 << 20
  /// Deepest nesting of lists and mappings.
  public var maxDepth: Int = 128
  /// Most nodes an alias may expand to in total (counts every node copied through `*alias`).
  public var maxAliasExpansion: Int = 10_000
  /// Most nodes in one document.
  public var maxNodes: Int = 2_000_000

  public init() {}
  public static let `default` = LoadLimits()
}
