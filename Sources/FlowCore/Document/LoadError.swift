/// Why a document could not be read: bad bytes, bad syntax, or a limit exceeded.
package typealias LoadError = PositionedError<DocumentReading>

/// The kind of ``LoadError``: reading a document (JSON or YAML); reported under the rule `load`.
package enum DocumentReading: PositionedErrorKind {
  package static var rule: String? { "load" }
}

extension ErrorCode where Domain == LoadError {
  package static var syntax: Self { Self("syntax") }
  package static var duplicateKey: Self { Self("duplicate-key") }
  package static var notUTF8: Self { Self("not-utf8") }
  package static var binary: Self { Self("binary") }
  package static var empty: Self { Self("empty") }
  package static var multipleDocuments: Self { Self("multiple-documents") }
  package static var tooLarge: Self { Self("too-large") }
  package static var tooDeep: Self { Self("too-deep") }
  package static var aliasLimit: Self { Self("alias-limit") }
  package static var unsupported: Self { Self("unsupported") }
}

/// Bounds every reader enforces, so hostile input fails fast with a clear error instead of eating memory.
package struct LoadLimits: Hashable, Sendable {
  /// Largest accepted input, in bytes.
  package var maxBytes: Int
  /// Deepest nesting of lists and mappings.
  package var maxDepth: Int
  /// Most nodes an alias may expand to in total (counts every node copied through `*alias`).
  package var maxAliasExpansion: Int
  /// Most nodes in one document.
  package var maxNodes: Int

  /// The documented limits (docs/limits.md), with the ones given changed.
  package init(
    maxBytes: Int = 8 << 20, maxDepth: Int = 128, maxAliasExpansion: Int = 10_000, maxNodes: Int = 2_000_000
  ) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxAliasExpansion = maxAliasExpansion
    self.maxNodes = maxNodes
  }
  package static let `default` = LoadLimits()
}
