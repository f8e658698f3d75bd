import Foundation
import Testing

/// Help texts are written as paragraphs that the argument parser wraps to the terminal's width: a line break
/// inside a paragraph would be wrapped again into ragged lines. Read through `--experimental-dump-help`, the
/// parser's own description of every command, so each subcommand added later is checked too.
struct HelpTextTests {
  @Test(arguments: ["flowlint", "flowrun"])
  func noHardLineBreaksInsideParagraphs(_ tool: String) throws {
    let result = try Tool.run(tool, ["--experimental-dump-help"])
    #expect(result.status == 0, "\(result.stderr)")
    let dump = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let root = try #require(dump["command"] as? [String: Any])
    var texts: [(place: String, text: String)] = []
    Self.collect(root, path: tool, into: &texts)
    #expect(texts.contains { $0.place == "\(tool) discussion" })
    let broken = texts.flatMap { place, text in Self.breaksInsideParagraphs(text).map { "\(place): \($0)" } }
    #expect(broken == [])
  }

  /// Only a line of its own that the paragraph sets off by indenting it (an example command) may end a line.
  @Test func aBreakBesideAnIndentedLineIsKept() {
    #expect(Self.breaksInsideParagraphs("Silence it:\n  # flowlint-disable\nThen go on.\n\nExit codes: 0.") == [])
    #expect(Self.breaksInsideParagraphs("Exit codes: 0 fine;\n1 not.") == ["Exit codes: 0 fine;"])
  }

  /// Every abstract and discussion of a command, its subcommands and their arguments.
  static func collect(_ command: [String: Any], path: String, into texts: inout [(place: String, text: String)]) {
    for key in ["abstract", "discussion"] {
      if let text = command[key] as? String { texts.append(("\(path) \(key)", text)) }
    }
    for argument in command["arguments"] as? [[String: Any]] ?? [] {
      let name = (argument["preferredName"] as? [String: Any])?["name"] as? String ?? "?"
      for key in ["abstract", "discussion"] {
        if let text = argument[key] as? String { texts.append(("\(path) \(name) \(key)", text)) }
      }
    }
    for sub in command["subcommands"] as? [[String: Any]] ?? [] {
      Self.collect(sub, path: "\(path) \(sub["commandName"] as? String ?? "?")", into: &texts)
    }
  }

  /// The lines of `text` that end inside a paragraph: followed by another line of the same paragraph with
  /// neither indented.
  static func breaksInsideParagraphs(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return zip(lines, lines.dropFirst()).compactMap { line, next in
      let bothText = !line.isEmpty && !next.isEmpty && line.first != " " && next.first != " "
      return bothText ? String(line) : nil
    }
  }
}
