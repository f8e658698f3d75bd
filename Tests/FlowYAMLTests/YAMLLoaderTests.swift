import FlowCore
import FlowYAML
import Testing

struct YAMLLoaderTests {
  // MARK: - Core schema

  @Test(
    "plain scalars resolve by the YAML 1.2 core schema",
    arguments: [
      ("no", Node.Content.string("no")),
      ("yes", .string("yes")),
      ("on", .string("on")),
      ("off", .string("off")),
      ("y", .string("y")),
      ("~", .null),
      ("null", .null),
      ("Null", .null),
      ("NULL", .null),
      ("nULL", .string("nULL")),
      ("true", .bool(true)),
      ("True", .bool(true)),
      ("TRUE", .bool(true)),
      ("false", .bool(false)),
      ("FALSE", .bool(false)),
      ("tRUE", .string("tRUE")),
      ("0x1F", .int(31)),
      ("0o17", .int(15)),
      ("017", .int(17)),
      ("-12", .int(-12)),
      ("+12", .int(12)),
      ("1e3", .double(1000)),
      ("1.5", .double(1.5)),
      ("-.5", .double(-0.5)),
      ("1.", .double(1)),
      (".inf", .double(.infinity)),
      ("-.Inf", .double(-.infinity)),
      ("0b101", .string("0b101")),
      ("1_000", .string("1_000")),
      ("12:30", .string("12:30")),
      ("1e", .string("1e")),
      ("-1x", .string("-1x")),
      ("--", .string("--")),
      ("\"true\"", .string("true")),
      ("'12'", .string("12")),
      ("\"\"", .string("")),
      ("!!str 12", .string("12")),
      ("!!str true", .string("true")),
      ("!!int \"12\"", .int(12)),
      ("!!float 1", .double(1)),
      ("!!bool 'true'", .bool(true)),
      ("!!null ''", .null),
      ("! 12", .string("12")),
    ])
  func coreSchema(_ source: String, _ expected: Node.Content) throws {
    let root = try YAMLLoader.load(bytes: Array("value: \(source)\n".utf8), file: "t.yaml")
    #expect(root["value"]?.content == expected)
  }

  @Test(arguments: [
    ("9223372036854775808", "1:8", "9223372036854775808"), ("-9223372036854775809", "1:8", "-9223372036854775809"),
    ("0x10000000000000000", "1:8", "0x10000000000000000"),
    ("!!int 99999999999999999999", "1:8", "99999999999999999999"),
    ("[1, 0o7777777777777777777777]", "1:12", "0o7777777777777777777777"),
  ])
  func integersOutOfRangeAreErrorsNamingTheValueAndTheRange(_ source: String, _ position: String, _ literal: String) {
    expectLoadError(
      "value: \(source)\n", .unsupported,
      "t.yaml:\(position): error: the integer \(literal) is out of range; integers must be between "
        + "-9223372036854775808 and 9223372036854775807 [load]")
  }

  @Test func theLimitsOfIntAreIntegers() throws {
    let root = try YAMLLoader.load(
      bytes: Array("max: 9223372036854775807\nmin: -9223372036854775808\nbig: 1e30\n".utf8), file: "t.yaml")
    #expect(root["max"]?.content == .int(.max))
    #expect(root["min"]?.content == .int(.min))
    #expect(root["big"]?.content == .double(1e30))
  }

  @Test(arguments: [
    ("value: !custom 12\n", "1:8", "!custom"), ("value: !!binary MQ==\n", "1:8", "!!binary"),
    ("value: !!set {a}\n", "1:8", "!!set"), ("!foo\nvalue: 1\n", "1:1", "!foo"), ("!!binary a: 1\n", "1:1", "!!binary"),
    ("value: !<tag:example.com,2000:x> 1\n", "1:8", "tag:example.com,2000:x"),
  ])
  func explicitTagsTheLoaderDoesNotUnderstandAreErrors(_ text: String, _ position: String, _ tag: String) {
    expectLoadError(
      text, .unsupported,
      "t.yaml:\(position): error: the tag '\(tag)' is not supported; only !!str, !!int, !!float, !!bool, !!null, "
        + "!!seq and !!map are (remove the tag, or quote the value to make it a string) [load]")
  }

  @Test func nanAndEmptyValue() throws {
    let root = try YAMLLoader.load(bytes: Array("a: .nan\nb:\nc: |\n  text\n".utf8), file: "t.yaml")
    guard case .double(let d)? = root["a"]?.content else {
      Issue.record("expected a double, got \(String(describing: root["a"]))")
      return
    }
    #expect(d.isNaN)
    #expect(root["b"]?.isNull == true)
    #expect(root["c"]?.string == "text\n")
  }

  @Test func invalidTaggedValueIsAnError() {
    expectLoadError("n: !!int twelve\n", .syntax, "t.yaml:1:4: error: 'twelve' is not a valid !!int value [load]")
  }

  // MARK: - Structure and positions

  @Test func positionsAreOneBasedAndCountCharacters() throws {
    let root = try YAMLLoader.load(bytes: Array("name: é\nsteps:\n  - id: ü\n    next: done\n".utf8), file: "t.yaml")
    #expect(root.location == SourceLocation(line: 1, column: 1))
    #expect(root["name"]?.location == SourceLocation(line: 1, column: 7))
    let step = try #require(root["steps"]?.sequence?.first)
    #expect(step.location == SourceLocation(line: 3, column: 5))
    #expect(step.entry("next")?.keyLocation == SourceLocation(line: 4, column: 5))
    #expect(step["next"]?.location == SourceLocation(line: 4, column: 11))
    let unicode = try YAMLLoader.load(bytes: Array("ééé: [1, x]\n".utf8), file: "t.yaml")
    #expect(unicode["ééé"]?.sequence?[1].location == SourceLocation(line: 1, column: 10))
  }

  @Test func keysAreTheScalarTextAsWritten() throws {
    let root = try YAMLLoader.load(bytes: Array("1: a\ntrue: b\n~: c\n\"q\": d\n0x1F: e\n".utf8), file: "t.yaml")
    #expect(root.entries?.map(\.key) == ["1", "true", "~", "q", "0x1F"])
  }

  @Test func mappingsKeepSourceOrder() throws {
    let root = try YAMLLoader.load(bytes: Array("z: 1\na: 2\nm: 3\n".utf8), file: "t.yaml")
    #expect(root.entries?.map(\.key) == ["z", "a", "m"])
  }

  @Test func duplicateKeyPointsAtTheSecondKey() {
    expectLoadError(
      "a: 1\nb: 2\na: 3\n", .duplicateKey, "f.yaml:3:1: error: duplicate key 'a' (first defined at 1:1) [load]",
      file: "f.yaml")
  }

  @Test func duplicateKeyInALargeMapping() {
    var text = ""
    for i in 0..<40 { text += "k\(i): \(i)\n" }
    text += "  # comment\nk17: again\n"
    expectLoadError(text, .duplicateKey, "t.yaml:42:1: error: duplicate key 'k17' (first defined at 18:1) [load]")
  }

  @Test func duplicateKeyQuotedAndPlain() {
    expectLoadError(
      "{a: 1, \"a\": 2}\n", .duplicateKey, "t.yaml:1:8: error: duplicate key 'a' (first defined at 1:2) [load]")
  }

  @Test func nonScalarKeyIsAnError() {
    expectLoadError(
      "? [a, b]\n: 1\n", .unsupported,
      "t.yaml:1:3: error: a mapping key must be a scalar; found a list used as a key [load]")
  }

  // MARK: - Aliases

  @Test func aliasesCopyTheAnchoredNode() throws {
    let root = try YAMLLoader.load(bytes: Array("a: &x [1, 2]\nb: *x\nc: &k key\n*k : v\n".utf8), file: "t.yaml")
    #expect(root["b"]?.jsonEquals(Node(.sequence([Node(.int(1)), Node(.int(2))]))) == true)
    #expect(root["b"]?.location == SourceLocation(line: 2, column: 4))
    #expect(root["key"]?.string == "v")
  }

  @Test func aliasBombFailsFast() {
    let bomb = """
      a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
      b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
      c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
      d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
      e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
      f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
      g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
      h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
      i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]

      """
    expectLoadError(
      bomb, .aliasLimit,
      "t.yaml:5:8: error: aliases expand to more than 10000 nodes in total (at alias '*d'); "
        + "the document repeats anchored content too often [load]")
  }

  @Test func aliasLimitIsConfigurable() throws {
    var limits = LoadLimits()
    limits.maxAliasExpansion = 2
    let text = Array("a: &x [1, 2]\nb: *x\n".utf8)
    #expect(throws: LoadError.self) { try YAMLLoader.load(bytes: text, file: "t.yaml", limits: limits) }
    limits.maxAliasExpansion = 3
    #expect(try YAMLLoader.load(bytes: text, file: "t.yaml", limits: limits)["b"]?.sequence?.count == 2)
  }

  @Test func unknownAndRecursiveAliases() {
    expectLoadError(
      "a: *nope\n", .syntax, "t.yaml:1:4: error: unknown alias '*nope'; no anchor '&nope' is defined before it [load]")
    expectLoadError(
      "a: &r [1, *r]\n", .unsupported,
      "t.yaml:1:11: error: alias '*r' refers to a node that contains it; recursive data is not supported [load]")
  }

  // MARK: - Limits

  @Test func deepNestingIsRejected() {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    expectLoadError(deep, .tooDeep, "t.yaml:1:129: error: lists and mappings nest deeper than 128 levels [load]")
    var block = ""
    for level in 0..<130 { block += String(repeating: " ", count: level) + "k:\n" }
    expectLoadError(block, .tooDeep, "t.yaml:129:129: error: lists and mappings nest deeper than 128 levels [load]")
  }

  @Test func nestingAtTheLimitLoads() throws {
    let text = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(try YAMLLoader.load(bytes: Array(text.utf8), file: "t.yaml").sequence != nil)
  }

  @Test func tooLargeInputGivesBothSizes() {
    let error = #expect(throws: LoadError.self) {
      try YAMLLoader.load(bytes: Array("a: 12345678901\n".utf8), file: "t.yaml", limits: LoadLimits(maxBytes: 10))
    }
    #expect(error?.code == .tooLarge)
    #expect(error?.message == "the input is 15 bytes, more than the limit of 10 bytes")
  }

  // MARK: - Bad bytes

  @Test func nulByteMeansBinary() {
    expectLoadError(
      Array("a: 1\nb: \u{0}x\n".utf8), .binary,
      "t.yaml:2:4: error: the input contains a NUL byte at byte offset 8; it looks like a binary file, not text [load]")
  }

  @Test func controlCharacterMeansBinary() {
    expectLoadError(
      Array("a: \u{7}\n".utf8), .binary,
      "t.yaml:1:4: error: the input contains the control character U+0007 at byte offset 3; "
        + "only tab, line feed and carriage return are allowed [load]")
  }

  @Test func invalidUTF8GivesThePositionOfTheFirstBadByte() {
    expectLoadError(
      Array("a: é\nb: ".utf8) + [0xE9, 0x74, 0xE9] + Array("\n".utf8), .notUTF8,
      "t.yaml:2:4: error: the input is not valid UTF-8: byte 0xE9 at byte offset 9 does not start a valid "
        + "UTF-8 sequence; save the file as UTF-8 [load]")
    expectLoadError([0x61, 0x3A, 0x20, 0xC0, 0xAF], .notUTF8, nil)  // overlong '/'
    expectLoadError([0x61, 0x3A, 0x20, 0xED, 0xA0, 0x80], .notUTF8, nil)  // surrogate
  }

  @Test(
    arguments: [
      ([0xFF, 0xFE, 0x61, 0x00], "UTF-16 (little-endian)"), ([0xFE, 0xFF, 0x00, 0x61], "UTF-16 (big-endian)"),
      ([0xFF, 0xFE, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00], "UTF-32 (little-endian)"),
      ([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x61], "UTF-32 (big-endian)"),
    ] as [([UInt8], String)])
  func otherUnicodeEncodingsAreRefusedByName(_ bytes: [UInt8], _ encoding: String) {
    expectLoadError(
      bytes, .notUTF8,
      "t.yaml:1:1: error: the input is \(encoding) (it starts with its byte order mark); save it as UTF-8 [load]")
  }

  @Test func byteOrderMarkIsSkipped() throws {
    let root = try YAMLLoader.load(bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8), file: "t.yaml")
    #expect(root["a"]?.int == 1)
    #expect(root.location == SourceLocation(line: 1, column: 1))
  }

  /// libyaml counts the mark as a column, which put the first key out of line with the next one.
  @Test func aByteOrderMarkBeforeSeveralKeysKeepsTheirPositions() throws {
    let root = try YAMLLoader.load(bytes: [0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: [x, é, 2]\r\n".utf8), file: "t.yaml")
    #expect(root["a"]?.int == 1)
    #expect(
      root.entries?.map(\.keyLocation) == [SourceLocation(line: 1, column: 1), SourceLocation(line: 2, column: 1)])
    #expect(root["b"]?.sequence?.last?.location == SourceLocation(line: 2, column: 11))
  }

  // MARK: - Documents

  @Test(arguments: ["", "   \n\n", "# only a comment\n  # another\n"])
  func emptyInputIsAnError(_ text: String) {
    expectLoadError(text, .empty, "t.yaml:1:1: error: the document is empty [load]")
  }

  @Test func explicitEmptyDocumentIsNull() throws {
    #expect(try YAMLLoader.load(bytes: Array("---\n".utf8), file: "t.yaml").isNull)
  }

  @Test func secondDocumentIsAnError() {
    expectLoadError(
      "a: 1\n---\nb: 2\n", .multipleDocuments,
      "t.yaml:2:1: error: a second YAML document starts here; the file must hold exactly one document [load]")
    expectLoadError(
      "--- 1\n...\n--- 2\n", .multipleDocuments,
      "t.yaml:3:1: error: a second YAML document starts here; the file must hold exactly one document [load]")
  }

  @Test func documentEndMarkerAloneIsFine() throws {
    #expect(try YAMLLoader.load(bytes: Array("a: 1\n...\n".utf8), file: "t.yaml")["a"]?.int == 1)
  }

  @Test func loadStreamReturnsEveryDocument() throws {
    let documents = try YAMLLoader.loadStream(
      bytes: Array("--- 1\n--- [a]\n...\n%YAML 1.2\n--- x\n".utf8), file: "t.yaml")
    #expect(
      documents.map(\.content) == [
        .int(1), .sequence([Node(.string("a"), at: SourceLocation(line: 2, column: 6))]), .string("x"),
      ])
    #expect(try YAMLLoader.loadStream(bytes: [], file: "t.yaml").isEmpty)
  }

  // MARK: - Syntax

  @Test func libyamlErrorsAreSyntaxErrorsWithPosition() {
    expectLoadError(
      "a: [1, 2\nb: 3\n", .syntax,
      "t.yaml:2:2: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 1:4) [load]")
    expectLoadError(
      "a: b: c\n", .syntax, "t.yaml:1:5: error: invalid YAML: mapping values are not allowed in this context [load]")
  }

  @Test(
    "inputs libyaml accepts but YAML 1.2 rejects",
    arguments: [
      ("key: \"value\"# comment\n", "t.yaml:1:13: error: invalid YAML: a comment needs whitespace before '#' [load]"),
      ("[a, b]#c\n", "t.yaml:1:7: error: invalid YAML: a comment needs whitespace before '#' [load]"),
      ("a: ># c\n  x\n", "t.yaml:1:5: error: invalid YAML: a comment needs whitespace before '#' [load]"),
      // Positions after runs of two- and three-byte characters (libyaml counts characters, the checks read bytes).
      (
        "k: \"日本語のテキストとさらに長い文字列です、とても長い\"# c\n",
        "t.yaml:1:31: error: invalid YAML: a comment needs whitespace before '#' [load]"
      ),
      (
        "a: ünïcödé ünïcödé ünïcödé ünïcödé\nb: [ü, é]#c\n",
        "t.yaml:2:10: error: invalid YAML: a comment needs whitespace before '#' [load]"
      ),
      (
        "[-]\n",
        "t.yaml:1:2: error: invalid YAML: '-' cannot start a plain value inside '[...]' or '{...}'; quote the value [load]"
      ),
      (
        "flow: [a,\nb]\n",
        "t.yaml:2:1: error: invalid YAML: this line of a flow collection must be indented by more than 0 spaces, "
          + "the indentation of the enclosing block; found 0 [load]"
      ),
      (
        "q: \"a\nb\"\n",
        "t.yaml:2:1: error: invalid YAML: this line of a quoted string must be indented by more than 0 spaces, "
          + "the indentation of the enclosing block; found 0 [load]"
      ),
      (
        "%YAML 1.2#x\n--- a\n",
        "t.yaml:1:7: error: invalid YAML: malformed %YAML directive; expected '%YAML 1.2' followed by a space or the line end [load]"
      ),
    ])
  func strictness(_ text: String, _ expected: String) {
    expectLoadError(text, .syntax, expected)
  }

  @Test func reservedDirectiveIsIgnored() throws {
    #expect(try YAMLLoader.load(bytes: Array("%FOO bar\n--- \"foo\"\n".utf8), file: "t.yaml").string == "foo")
  }

  @Test func directiveAfterAnOpenDocumentIsRejectedInStreams() {
    let error = #expect(throws: LoadError.self) {
      try YAMLLoader.loadStream(bytes: Array("a: 1\n%YAML 1.2\n--- b\n".utf8), file: "t.yaml")
    }
    #expect(error?.code == .syntax)
    #expect(error?.message == "invalid YAML: a directive must follow '...', the end marker of the previous document")
  }

  // MARK: - Same data as JSON

  @Test func yamlAndJSONFormsAreEqual() throws {
    let yaml = """
      flow: onboarding
      version: 2
      ratio: 0.5
      enabled: true
      missing: ~
      steps:
        - id: welcome
          next: "no"
          options: [yes, on, "off"]
        - id: done
          message: |
            Thanks!

      """
    let json = """
      {"flow": "onboarding", "version": 2, "ratio": 0.5, "enabled": true, "missing": null,
       "steps": [{"id": "welcome", "next": "no", "options": ["yes", "on", "off"]},
                 {"id": "done", "message": "Thanks!\\n"}]}
      """
    let fromYAML = try YAMLLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")
    let fromJSON = try JSONReader.read(bytes: Array(json.utf8), file: "f.json")
    #expect(fromYAML.jsonEquals(fromJSON))
    #expect(fromJSON.jsonEquals(fromYAML))
  }

  @Test func largeDocumentLoads() throws {
    var text = "flow: big\nsteps:\n"
    for i in 0..<10_000 {
      text += "  - id: step\(i)\n    type: screen\n    title: \"Step \(i)\"\n    next: step\(i + 1)\n"
    }
    let root = try YAMLLoader.load(bytes: Array(text.utf8), file: "big.yaml")
    let steps = try #require(root["steps"]?.sequence)
    #expect(steps.count == 10_000)
    #expect(steps[9_999]["next"]?.string == "step10000")
    #expect(steps[9_999].location == SourceLocation(line: 3 + 4 * 9_999, column: 5))
  }

  /// A block scalar's text starts on its first line of content, at its indentation, also after text that is not
  /// ASCII: libyaml counts characters where the text is bytes (it was taken for the line before, column 1).
  @Test func aBlockScalarsTextStartIsRightAfterTextThatIsNotASCII() throws {
    for body in ["|", ">-", "|2"] {
      let root = try YAMLLoader.load(
        bytes: Array("title: タイトル\nbody: \(body)\n    first line\n    second\n".utf8), file: "t.yaml")
      #expect(root["body"]?.textStart == SourceLocation(line: 3, column: 5), "\(body)")
    }
  }
}

// MARK: - Helpers

private func expectLoadError(
  _ text: String, _ code: LoadError.Code, _ description: String?, file: String = "t.yaml",
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  expectLoadError(Array(text.utf8), code, description, file: file, sourceLocation: sourceLocation)
}

private func expectLoadError(
  _ bytes: [UInt8], _ code: LoadError.Code, _ description: String?, file: String = "t.yaml",
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let error = #expect(throws: LoadError.self, sourceLocation: sourceLocation) {
    try YAMLLoader.load(bytes: bytes, file: file)
  }
  #expect(error?.code == code, sourceLocation: sourceLocation)
  if let description {
    #expect(error?.description == description, sourceLocation: sourceLocation)
  }
}
