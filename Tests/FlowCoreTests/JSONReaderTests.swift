import FlowCore
import Testing

struct JSONReaderTests {
  @Test func readsValuesWithPositions() throws {
    let text = """
      {
        "name": "ü",
        "steps": [1, -2, 3.5, 1e2, true, false, null],
        "nested": {"a": {}}
      }
      """
    let root = try JSONReader.read(bytes: Array(text.utf8), file: "f.json")
    #expect(root.location == SourceLocation(line: 1, column: 1))
    #expect(root.entry("name")?.keyLocation == SourceLocation(line: 2, column: 3))
    #expect(root["name"]?.string == "ü")
    #expect(root["name"]?.location == SourceLocation(line: 2, column: 11))
    let steps = try #require(root["steps"]?.sequence)
    #expect(steps.map(\.content) == [.int(1), .int(-2), .double(3.5), .double(100), .bool(true), .bool(false), .null])
    #expect(steps[2].location == SourceLocation(line: 3, column: 20))
    #expect(root["nested"]?["a"]?.entries?.isEmpty == true)
    #expect(root.entries?.map(\.key) == ["name", "steps", "nested"])
  }

  @Test func columnsCountUnicodeScalarsOnLongLines() throws {
    let root = try JSONReader.read(bytes: Array("[\"ééé\", \"😀\", 7]".utf8), file: "f.json")
    #expect(root.sequence?.map(\.location.column) == [2, 9, 14])
  }

  @Test(
    "string escapes",
    arguments: [
      (#""a\"b\\c\/d""#, "a\"b\\c/d"),
      (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
      (#""\u00e9\u0041""#, "éA"),
      (#""\ud83d\ude00""#, "😀"),
      (#""x\u0000y""#, "x\u{0}y"),
    ])
  func escapes(_ json: String, _ expected: String) throws {
    #expect(try JSONReader.read(bytes: Array(json.utf8), file: "f.json").string == expected)
  }

  @Test func numbers() throws {
    let root = try JSONReader.read(
      bytes: Array("[0, -0, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 2E-3]".utf8),
      file: "f.json")
    #expect(
      root.sequence?.map(\.content) == [
        .int(0), .int(0), .int(.max), .int(.min), .double(9_223_372_036_854_775_808), .double(1), .double(0.002),
      ])
  }

  @Test(
    "strict RFC 8259",
    arguments: [
      ("[1, 2,]", "f.json:1:7: error: invalid JSON: expected a value after ',', found ']' [load]"),
      ("{\"a\": 1,}", "f.json:1:9: error: invalid JSON: expected a string key after ',', found '}' [load]"),
      ("[1] // c", "f.json:1:5: error: invalid JSON: unexpected '/' after the end of the value [load]"),
      ("[01]", "f.json:1:3: error: invalid JSON: numbers must not have leading zeros [load]"),
      ("[1.]", "f.json:1:4: error: invalid JSON: expected a digit after '.', found ']' [load]"),
      ("{'a': 1}", "f.json:1:2: error: invalid JSON: expected a string key or '}', found ''' [load]"),
      ("[tru]", "f.json:1:2: error: invalid JSON: expected a value, found 't' [load]"),
      ("[NaN]", "f.json:1:2: error: invalid JSON: expected a value, found 'N' [load]"),
      ("{\"a\" 1}", "f.json:1:6: error: invalid JSON: expected ':' after the key, found '1' [load]"),
      ("[1\n2]", "f.json:2:1: error: invalid JSON: expected ',' or ']', found '2' [load]"),
      ("\"abc", "f.json:1:5: error: invalid JSON: unterminated string [load]"),
      ("\"a\nb\"", "f.json:1:3: error: invalid JSON: unterminated string (a line break must be written '\\n') [load]"),
      ("\"a\tb\"", "f.json:1:3: error: invalid JSON: control character U+0009 in a string must be escaped [load]"),
      ("\"\\x\"", "f.json:1:2: error: invalid JSON: unknown escape '\\x' in a string [load]"),
      ("\"\\ud800\"", "f.json:1:8: error: invalid JSON: unpaired surrogate \\uD800 in a string [load]"),
      ("\"\\udc00\"", "f.json:1:8: error: invalid JSON: unpaired surrogate \\uDC00 in a string [load]"),
      ("\"\\u12\"", "f.json:1:6: error: invalid JSON: '\\u' must be followed by four hex digits [load]"),
      ("{\"a\": 1, \"a\": 2}", "f.json:1:10: error: duplicate key 'a' (first defined at 1:2) [load]"),
    ])
  func rejects(_ json: String, _ expected: String) {
    let error = #expect(throws: LoadError.self) { try JSONReader.read(bytes: Array(json.utf8), file: "f.json") }
    #expect(error?.description == expected)
  }

  @Test func errorCodes() {
    func code(_ bytes: [UInt8], limits: LoadLimits = .default) -> LoadError.Code? {
      do {
        _ = try JSONReader.read(bytes: bytes, file: "f.json", limits: limits)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code([]) == .empty)
    #expect(code(Array("  \n ".utf8)) == .empty)
    #expect(code(Array("{\"a\": 1, \"a\": 2}".utf8)) == .duplicateKey)
    #expect(code([0x22, 0xE9, 0x22]) == .notUTF8)
    #expect(code([0x22, 0xED, 0xA0, 0x80, 0x22]) == .notUTF8)
    #expect(code([0x5B, 0x00, 0x5D]) == .binary)
    #expect(code([0x22, 0x00, 0x22]) == .binary)
    #expect(code(Array((String(repeating: "[", count: 129) + String(repeating: "]", count: 129)).utf8)) == .tooDeep)
    #expect(code(Array((String(repeating: "[", count: 128) + String(repeating: "]", count: 128)).utf8)) == nil)
    var small = LoadLimits()
    small.maxBytes = 4
    #expect(code(Array("[1, 2]".utf8), limits: small) == .tooLarge)
    small = LoadLimits()
    small.maxNodes = 2
    #expect(code(Array("[1, 2]".utf8), limits: small) == .tooLarge)
  }

  @Test func duplicateKeyInALargeObject() {
    let body = (0..<30).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    let error = #expect(throws: LoadError.self) {
      try JSONReader.read(bytes: Array("{\(body), \"k20\": 0}".utf8), file: "f.json")
    }
    #expect(error?.code == .duplicateKey)
    #expect(error?.message == "duplicate key 'k20' (first defined at 1:202)")
  }

  @Test func byteOrderMarkIsSkipped() throws {
    let root = try JSONReader.read(bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8), file: "f.json")
    #expect(root.location == SourceLocation(line: 1, column: 1))
    #expect(root.sequence?.first?.int == 1)
  }

  @Test func readStreamReadsConcatenatedValues() throws {
    let values = try JSONReader.readStream(bytes: Array("{\"a\": 1}\n[2]\n\"x\" 4\n".utf8), file: "f.json")
    #expect(values.count == 4)
    #expect(values[1].location == SourceLocation(line: 2, column: 1))
    #expect(values[3].int == 4)
    #expect(try JSONReader.readStream(bytes: [], file: "f.json").isEmpty)
  }

  // MARK: - Writer

  @Test func writerIsDeterministicAndRoundTrips() throws {
    let text = #"{"b":[1,2.5,true,null,"q\"\n\u0001é"],"a":{},"c":[]}"#
    let node = try JSONReader.read(bytes: Array(text.utf8), file: "f.json")
    #expect(JSONWriter.write(node, pretty: false) == text)
    #expect(
      JSONWriter.write(node, pretty: true) == """
        {
          "b": [
            1,
            2.5,
            true,
            null,
            "q\\"\\n\\u0001é"
          ],
          "a": {},
          "c": []
        }
        """)
    let again = try JSONReader.read(bytes: Array(JSONWriter.write(node, pretty: true).utf8), file: "f.json")
    #expect(again.jsonEquals(node))
  }

  @Test func writerDoubles() {
    let node = Node(.sequence([Node(.double(1)), Node(.double(1e300)), Node(.double(.infinity)), Node(.double(.nan))]))
    #expect(JSONWriter.write(node, pretty: false) == "[1.0,1e+300,null,null]")
  }
}
