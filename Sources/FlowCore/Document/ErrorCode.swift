/// The kind of an error, by a stable name (for tests and exit codes). `Domain` is the error type the code
/// belongs to, so the codes of one error type cannot be given to another: `LoadError.Code` is
/// `ErrorCode<LoadError>`, with its codes (`.syntax`, `.tooLarge`, ...) declared next to `LoadError`.
package struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
  let name: String

  package init(_ name: String) { self.name = name }

  package var description: String { name }
}
