import FlowCore
import FlowSchema
import Testing

/// Wording and positions of validation diagnostics. Instances are JSON, so positions are easy to read off:
/// line 1 is the first line of the literal.
struct DiagnosticsTests {
  static let steps = """
    {
      "$defs": {
        "screen": {
          "properties": {"kind": {"const": "screen"}, "title": {"type": "string"}},
          "required": ["kind", "title"], "additionalProperties": false
        },
        "choice": {
          "properties": {"kind": {"const": "choice"}, "options": {"type": "array", "minItems": 1}},
          "required": ["kind", "options"], "additionalProperties": false
        },
        "terminal": {
          "properties": {"kind": {"const": "terminal"}}, "required": ["kind"], "additionalProperties": false
        }
      },
      "type": "object",
      "oneOf": [{"$ref": "#/$defs/screen"}, {"$ref": "#/$defs/choice"}, {"$ref": "#/$defs/terminal"}]
    }
    """

  static let effects = """
    {
      "oneOf": [
        {"properties": {"set": {"type": "string"}, "value": {}}, "required": ["set", "value"], "additionalProperties": false},
        {"properties": {"track": {"type": "string"}}, "required": ["track"], "additionalProperties": false}
      ]
    }
    """

  @Test(arguments: [
    (##"{"const": true}"##, "false", "expected true, found false"),
    (##"{"enum": [1, 2]}"##, "3", "unknown value 3; expected one of 1, 2"),
    (##"{"minLength": 2}"##, ##""a""##, "expected at least 2 characters, found 1"),
    (##"{"maxLength": 1}"##, ##""ab""##, "expected at most 1 character, found 2"),
    (##"{"pattern": "^[a-z]+$"}"##, ##""Abc""##, "expected a string matching '^[a-z]+$', found 'Abc'"),
    (##"{"minimum": 0}"##, "-1", "expected a number >= 0, found -1"),
    (##"{"exclusiveMaximum": 10}"##, "10", "expected a number < 10, found 10"),
    (##"{"multipleOf": 5}"##, "7", "expected a multiple of 5, found 7"),
    (##"{"minProperties": 1}"##, "{}", "expected at least 1 property, found 0"),
    (##"{"type": ["string", "null"]}"##, "1.5", "expected null or a string, found a number"),
    (##"{"not": {"type": "string"}}"##, ##""x""##, "'x' must not match the schema at '#/not'"),
    (##"false"##, "1", "no value is allowed here, found an integer"),
  ])
  func messageFor(_ schema: String, _ instance: String, _ message: String) throws {
    #expect(try validate(schema: schema, instance: instance) == ["i.json:1:1: error: \(message) [schema]"])
  }

  @Test func arrayViolationsPointAtTheItems() throws {
    let found = try validate(
      schema: ##"{"uniqueItems": true, "maxItems": 3, "prefixItems": [{}], "items": {"type": "string"}}"##,
      instance: """
        [
          "a",
          "b",
          "a",
          4
        ]
        """)
    #expect(
      found == [
        "i.json:4:3: error: duplicate item 'a' (first at 2:3) [schema]",
        "i.json:5:3: error: expected at most 3 items, found 4 [schema]",
        "i.json:5:3: error: expected a string, found an integer [schema]",
      ])
  }

  @Test func propertyNamesAreCheckedAtTheKey() throws {
    let found = try validate(
      schema: ##"{"propertyNames": {"pattern": "^[a-z]+$", "not": {"const": "stay"}}}"##,
      instance: """
        {
          "ok": 1,
          "Bad": 2,
          "stay": 3
        }
        """)
    #expect(
      found == [
        "i.json:3:3: error: expected a string matching '^[a-z]+$', found 'Bad' [schema]",
        "i.json:4:3: error: property name 'stay' is not allowed here [schema]",
      ])
  }

  @Test func diagnosticsAreSortedByPosition() throws {
    let found = try validate(
      schema: ##"{"properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["c"]}"##,
      instance: """
        {
          "b": 1,
          "a": 2
        }
        """)
    #expect(
      found == [
        "i.json:1:1: error: missing required property 'c' [schema]",
        "i.json:2:8: error: expected a string, found an integer [schema]",
        "i.json:3:8: error: expected a string, found an integer [schema]",
      ])
  }

  @Test func deepRecursiveSchemaOverDeepInstanceFinishes() throws {
    let schema = try compile(##"{"properties": {"a": {"$ref": "#"}}, "additionalProperties": false}"##)
    var instance = Node(.mapping([]))
    for _ in 0..<100 {
      instance = Node(.mapping([Node.Entry(key: "a", keyLocation: .unknown, value: instance)]))
    }
    #expect(schema.isValid(instance))
    var broken = Node(.mapping([Node.Entry(key: "b", keyLocation: .unknown, value: Node(.null))]))
    for _ in 0..<100 {
      broken = Node(.mapping([Node.Entry(key: "a", keyLocation: .unknown, value: broken)]))
    }
    #expect(
      schema.validate(broken, file: "i.json").map(\.message) == [
        "unknown property 'b'; did you mean 'a'?"
      ])
  }

  @Test func pathologicallyDeepInstanceStopsAtTheEvaluationLimit() throws {
    let schema = try compile(##"{"properties": {"a": {"$ref": "#"}}}"##)
    var instance = Node(.null)
    for _ in 0..<1_000 {
      instance = Node(.mapping([Node.Entry(key: "a", keyLocation: .unknown, value: instance)]))
    }
    let valid = schema.isValid(instance)
    let messages = schema.validate(instance, file: "i.json").map(\.message)
    #expect(!valid)
    #expect(messages == ["schema evaluation nested deeper than 500 levels"])
  }

  /// A schema and an instance on which validation reports exactly one diagnostic.
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let schema: String
    let instance: String
    let expected: String
    init(_ name: String, schema: String, instance: String, expected: String) {
      (self.name, self.schema, self.instance, self.expected) = (name, schema, instance, expected)
    }
    var testDescription: String { name }
  }

  static let oneDiagnostic: [Case] = [
    Case(
      "type mismatch is reported at the value", schema: ##"{"properties": {"count": {"type": "integer"}}}"##,
      instance: """
        {
          "count": "three"
        }
        """,
      expected: "i.json:2:12: error: expected an integer, found a string [schema]"),
    Case(
      "missing required property is reported at the mapping naming the property",
      schema: ##"{"properties": {"a": {}, "b": {}}, "required": ["a", "b"]}"##,
      instance: """
        {
          "a": 1
        }
        """,
      expected: "i.json:1:1: error: missing required property 'b' [schema]"),
    Case(
      "unknown property is reported at its key with a suggestion",
      schema: ##"{"properties": {"next": {}, "skip": {}, "title": {}}, "additionalProperties": false}"##,
      instance: """
        {
          "title": "x",
          "nxt": "end"
        }
        """,
      expected:
        "i.json:3:3: error: unknown property 'nxt'; expected one of 'next', 'skip', 'title'; did you mean 'next'? [schema]"
    ),
    Case(
      "misspelt required property is reported once as an unknown property",
      schema:
        ##"{"properties": {"userId": {"type": "string"}}, "required": ["userId"], "additionalProperties": false}"##,
      instance: ##"{"userID": "u1"}"##,
      expected: "i.json:1:2: error: unknown property 'userID'; did you mean 'userId'? [schema]"),
    Case(
      "discriminator value selects the branch whose errors are reported", schema: steps,
      instance: """
        {
          "kind": "choice",
          "options": []
        }
        """,
      expected: "i.json:3:14: error: expected at least 1 item, found 0 [schema]"),
    Case(
      "unknown discriminator value is reported at the value with a suggestion", schema: steps,
      instance: ##"{"kind": "scren", "title": "x"}"##,
      expected:
        "i.json:1:10: error: unknown kind 'scren'; expected one of 'choice', 'screen', 'terminal'; did you mean 'screen'? [schema]"
    ),
    Case(
      "missing discriminator is reported at the mapping", schema: steps, instance: ##"{"title": "x"}"##,
      expected:
        "i.json:1:1: error: missing required property 'kind'; expected one of 'choice', 'screen', 'terminal' [schema]"),
    Case(
      "wrong type for every branch is one line", schema: steps, instance: ##"["screen"]"##,
      expected: "i.json:1:1: error: expected a mapping, found a list [schema]"),
    Case(
      "identifying key selects the branch", schema: effects, instance: ##"{"set": "count"}"##,
      expected: "i.json:1:1: error: missing required property 'value' [schema]"),
    Case(
      "misspelt identifying key gets a suggestion", schema: effects, instance: ##"{"trak": "started"}"##,
      expected:
        "i.json:1:2: error: unknown property 'trak'; expected one of 'set', 'track'; did you mean 'track'? [schema]"),
    Case(
      "two identifying keys clash", schema: effects, instance: ##"{"set": "a", "value": 1, "track": "b"}"##,
      expected: "i.json:1:26: error: properties 'set' and 'track' cannot be used together; use only one [schema]"),
    Case(
      "branches without discriminator get a one line summary",
      schema:
        ##"{"anyOf": [{"title": "a short code", "maxLength": 3}, {"title": "a number", "pattern": "^[0-9]+$"}]}"##,
      instance: ##""abcdef""##,
      expected: "i.json:1:1: error: a string matches none of the allowed forms ('a short code', 'a number') [schema]"),
    Case(
      "one of matching two branches says so", schema: ##"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"##,
      instance: "5",
      expected:
        "i.json:1:1: error: an integer matches more than one allowed form (form 1: an integer and form 2); expected exactly one [schema]"
    ),
    Case(
      "enum value is named by its property",
      schema: ##"{"properties": {"outcome": {"enum": ["completed", "paywall", "home"]}}}"##,
      instance: ##"{"outcome": "complete"}"##,
      expected:
        "i.json:1:13: error: unknown outcome 'complete'; expected one of 'completed', 'home', 'paywall'; did you mean 'completed'? [schema]"
    ),
    Case(
      "items false after prefix items counts the items", schema: ##"{"prefixItems": [{}, {}], "items": false}"##,
      instance: "[1, 2, 3]",
      expected: "i.json:1:8: error: expected at most 2 items, found 3 [schema]"),
    Case(
      "false property schema is reported at the key", schema: ##"{"properties": {"values": false}}"##,
      instance: ##"{"values": [1]}"##,
      expected: "i.json:1:2: error: property 'values' is not allowed here [schema]"),
    Case(
      "unevaluated property gets a suggestion from every in place schema",
      schema: """
        {"allOf": [{"properties": {"label": {}}}], "properties": {"enabled": {}}, "unevaluatedProperties": false}
        """,
      instance: ##"{"lable": "Go"}"##,
      expected:
        "i.json:1:2: error: unknown property 'lable'; expected one of 'enabled', 'label'; did you mean 'label'? [schema]"
    ),
    Case(
      "dependent required names both properties", schema: ##"{"dependentRequired": {"on": ["action"]}}"##,
      instance: ##"{"on": {}}"##,
      expected: "i.json:1:1: error: missing property 'action', required when 'on' is present [schema]"),
  ]

  @Test(arguments: oneDiagnostic) func reportsOneDiagnostic(_ c: Case) throws {
    #expect(try validate(schema: c.schema, instance: c.instance) == [c.expected])
  }

}

// MARK: - Helpers

func compile(_ schema: String, file: String = "s.json") throws -> JSONSchema {
  try JSONSchema(try JSONReader.read(bytes: Array(schema.utf8), file: file), file: file)
}

func validate(schema: String, instance: String) throws -> [String] {
  let compiled = try compile(schema)
  let node = try JSONReader.read(bytes: Array(instance.utf8), file: "i.json")
  let diagnostics = compiled.validate(node, file: "i.json")
  #expect(compiled.isValid(node) == diagnostics.isEmpty)
  return diagnostics.map(\.description)
}
