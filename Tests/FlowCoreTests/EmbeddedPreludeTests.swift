import Foundation
import Testing

@testable import FlowCore

/// The prelude compiled when FlowKit is built (`Sources/FlowCore/Model/EmbeddedPreludeDeclarations.swift`, which
/// every process uses instead of parsing and compiling `schemas/prelude.json`) is what compiling the embedded
/// prelude gives, and is used only for the text it was compiled from.
struct EmbeddedPreludeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func embeddedDeclarationsAreThePreludeCompiled() {
    let (compiled, diagnostics) = Prelude.compile()
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(EmbeddedPreludeDeclarations.declarations() == compiled, "run scripts/embed-schemas.sh")
    #expect(Prelude.declarations == compiled)
    #expect(Prelude.diagnostics.isEmpty)
  }

  @Test func embeddedFileIsUpToDate() throws {
    let onDisk = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/FlowCore/Model/EmbeddedPreludeDeclarations.swift"),
      encoding: .utf8)
    #expect(onDisk == Prelude.embeddedDeclarationsFile(), "run scripts/embed-schemas.sh")
  }

  /// The embedded declarations are used for the embedded text only: another text of the same length (one name
  /// changed), or a longer one, is compiled.
  @Test func anotherTextIsCompiled() {
    let json = EmbeddedPrelude.json
    #expect(Prelude.compiled(from: json).declarations == EmbeddedPreludeDeclarations.declarations())
    let renamed = json.replacingOccurrences(of: "\"paywall\"", with: "\"paywaLL\"")
    #expect(renamed.utf8.count == json.utf8.count && renamed != json)
    #expect(Prelude.compiled(from: renamed).declarations.outcomes == ["completed", "paywaLL", "home"])
    let longer = json.replacingOccurrences(of: "\"paywall\"", with: "\"paywall2\"")
    #expect(Prelude.compiled(from: longer).declarations.outcomes == ["completed", "paywall2", "home"])
  }
}
