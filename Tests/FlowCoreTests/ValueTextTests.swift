import Testing

@testable import FlowCore

/// Values read from documents and text, and written back, each in one place.
struct ValueTextTests {
  /// A number with a fraction where a fact is an int is a compiler error at the number, not a silent 0.
  @Test func fractionalValueIsAnError() throws {
    let json = #"""
      {"flow": "a", "version": "1", "locales": ["en"], "start": "x",
       "environment": {"osVersion": {"type": "int", "values": [18, 26.5]}},
       "steps": {"x": {"kind": "terminal"}}}
      """#
    let root = try JSONReader.read(bytes: Array(json.utf8), file: "f.json")
    let diagnostics = FlowCompiler.compile(root, file: "f.json").diagnostics
    #expect(
      diagnostics.map(\.description) == [
        "f.json:2:62: error: a value of 'osVersion' must be an int; found 26.5 [flow-shape]"
      ])
  }

  @Test(arguments: [
    ("07:05", 425), ("7:05", 425), ("23:59", 1439), ("24:00", nil), ("7:5", nil), ("+7:05", nil), ("07:05:00", nil),
  ])
  func timesOfDay(_ text: String, _ minutes: Int?) {
    #expect(TimeOfDay.minutes(text) == minutes)
    if let minutes { #expect(TimeOfDay.text(minutes: minutes) == (text.count == 4 ? "0" + text : text)) }
  }

  @Test(arguments: [("12", Value.int(12)), ("-3", .int(-3)), ("+3", .string("+3")), ("true", .bool(true)), ("x", "x")])
  func plainText(_ text: String, _ value: Value) {
    #expect(Value(plainText: text) == value)
  }

  @Test func oneTextFormForValues() {
    let value = Value.map(["b": .list(["x\"y", 1]), "a key": .null, "a": true])
    #expect(value.description == #"{a: true, "a key": null, b: ["x\"y", 1]}"#)
    #expect(value.jsonText == #"{"a":true,"a key":null,"b":["x\"y",1]}"#)
  }

  /// A text is written whole when it escapes nothing and scalar by scalar when it does: both give the literal.
  @Test(arguments: [
    ("plain", #""plain""#), ("", #""""#), ("caf\u{E9} \u{1F600} e\u{301}", "\"caf\u{E9} \u{1F600} e\u{301}\""),
    ("say \"hi\"", #""say \"hi\"""#), (#"a\b"#, #""a\\b""#), ("1\n2\t3\r", #""1\n2\t3\r""#),
    ("nul\u{0}", #""nul\0""#), ("bell\u{7}", #""bell\u{7}""#), ("del\u{7F}", #""del\u{7F}""#),
    ("\u{E9}\"", #""\#u{E9}\"""#),
  ])
  func quotedText(_ text: String, _ literal: String) {
    #expect(Value.string(text).description == literal)
    #expect(Value.list([.string(text), .string(text)]).description == "[\(literal), \(literal)]")
  }
}
