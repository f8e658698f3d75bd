/// Why a document could not be read: bad bytes, bad syntax, or a limit exceeded.
package struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure (stable, for tests and exit codes).
  package struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    package var description: String { name }

    package static let syntax = Code(name: "syntax")
    package static let duplicateKey = Code(name: "duplicate-key")
    package static let notUTF8 = Code(name: "not-utf8")
    package static let binary = Code(name: "binary")
    package static let empty = Code(name: "empty")
    package static let multipleDocuments = Code(name: "multiple-documents")
    package static let tooLarge = Code(name: "too-large")
    package static let tooDeep = Code(name: "too-deep")
    package static let aliasLimit = Code(name: "alias-limit")
    package static let unsupported = Code(name: "unsupported")
  }

  package var code: Code
  package var message: String
  package var file: String
  package var location: SourceLocation

  package init(_ code: Code, _ message: String, file: String, at location: SourceLocation) {
    self.code = code
    self.message = message
    self.file = file
    self.location = location
  }

  package var diagnostic: Diagnostic {
    Diagnostic(.error, message, file: file, at: location, rule: "load")
  }

  package var description: String { diagnostic.description }
}

/// Bounds every reader enforces, so hostile input fails fast with a clear error instead of eating memory.
package struct LoadLimits: Hashable, Sendable {
  /// Largest accepted input, in bytes.
  package var maxBytes: Int = 8 << 20
  /// Deepest nesting of lists and mappings.
  package var maxDepth: Int = 128
  /// Most nodes an alias may expand to in total (counts every node copied through `*alias`).
  package var maxAliasExpansion: Int = 10_000
  /// Most nodes in one document.
  package var maxNodes: Int = 2_000_000

  package init() {}
  package static let `default` = LoadLimits()
}
