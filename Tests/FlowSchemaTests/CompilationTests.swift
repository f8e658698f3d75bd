import FlowCore
import FlowSchema
import Testing

/// What the compiler refuses, and how it says so.
struct CompilationTests {
  @Test(arguments: [
    (
      ##"{"properties": {"a": {"$dynamicRef": "#x"}}}"##,
      "s.json:1:23: error: unsupported keyword '$dynamicRef': dynamic references are not supported"
    ),
    (
      ##"{"items": [{}, {}]}"##,
      "s.json:1:2: error: 'items' must be a single schema in draft 2020-12; use 'prefixItems' for a list of schemas"
    ),
    (
      ##"{"dependencies": {"a": ["b"]}}"##,
      "s.json:1:2: error: unsupported keyword 'dependencies': 'dependencies' is not a draft 2020-12 keyword; use 'dependentRequired' or 'dependentSchemas'"
    ),
    (
      ##"{"$schema": "http://json-schema.org/draft-07/schema#"}"##,
      "s.json:1:13: error: unsupported '$schema' 'http://json-schema.org/draft-07/schema#'; expected 'https://json-schema.org/draft/2020-12/schema'"
    ),
    (
      ##"{"$ref": "http://example.com/other.json"}"##,
      "s.json:1:10: error: cannot resolve '$ref' 'http://example.com/other.json': 'http://example.com/other.json' is not in this document (remote references are not supported)"
    ),
    (
      ##"{"$ref": "#/$defs/missing"}"##,
      "s.json:1:10: error: cannot resolve '$ref' '#/$defs/missing': nothing at '#/$defs/missing'"
    ),
    (
      ##"{"$ref": "#nowhere"}"##,
      "s.json:1:10: error: cannot resolve '$ref' '#nowhere': no '$anchor' named 'nowhere'"
    ),
    (
      ##"{"minLength": "3"}"##,
      "s.json:1:15: error: 'minLength' must be a non-negative integer, found '3'"
    ),
    (
      ##"{"type": "float"}"##,
      "s.json:1:10: error: unknown type 'float'; expected one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'"
    ),
  ])
  func refuses(_ schema: String, _ expected: String) {
    let error = #expect(throws: SchemaError.self) { try compile(schema) }
    #expect(error?.description == expected)
  }

  @Test func invalidPatternIsRefusedAtThePattern() {
    let error = #expect(throws: SchemaError.self) { try compile(##"{"pattern": "a("}"##) }
    #expect(error?.code == .invalidPattern)
    #expect(error?.location == SourceLocation(line: 1, column: 13))
  }

  @Test(arguments: [
    ##"{"$ref": "#"}"##,
    ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "anyOf": [{"$ref": "#/$defs/a"}]}"##,
    ##"{"$defs": {"a": {"not": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"}"##,
  ])
  func referenceCycleWithoutProgressIsRefused(_ schema: String) {
    let error = #expect(throws: SchemaError.self) { try compile(schema) }
    #expect(error?.code == .referenceCycle)
    #expect(error?.message.contains("never descends into the instance") == true)
  }

  @Test func recursionThroughPropertiesIsAccepted() throws {
    let schema = try compile(
      ##"{"$defs": {"tree": {"properties": {"children": {"items": {"$ref": "#/$defs/tree"}}}}}, "$ref": "#/$defs/tree"}"##
    )
    let node = try JSONReader.read(bytes: Array(##"{"children": [{"children": []}]}"##.utf8), file: "i.json")
    #expect(schema.isValid(node))
  }

  @Test func unknownMembersAreIgnoredWithAWarning() throws {
    let schema = try compile(##"{"requird": ["a"], "x-order": 1, "markdownDescription": "m"}"##)
    #expect(
      schema.warnings.map(\.description) == [
        "s.json:1:2: warning: unknown keyword 'requird' is ignored; did you mean 'required'? [schema]"
      ])
    #expect(schema.isValid(Node(.mapping([]))))
  }

  @Test func formatIsAnAnnotationOnly() throws {
    let schema = try compile(##"{"format": "email"}"##)
    #expect(schema.isValid(Node(.string("not an email"))))
  }

  @Test func anchorsAndEmbeddedResourcesResolve() throws {
    let schema = try compile(
      """
      {"$id": "https://example.com/root.json",
       "$defs": {"name": {"$anchor": "name", "type": "string"},
                 "other": {"$id": "nested/other.json", "$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}},
       "properties": {"a": {"$ref": "#name"}, "b": {"$ref": "nested/other.json"}}}
      """)
    let good = try JSONReader.read(bytes: Array(##"{"a": "x", "b": 1}"##.utf8), file: "i.json")
    let bad = try JSONReader.read(bytes: Array(##"{"a": 1, "b": "x"}"##.utf8), file: "i.json")
    #expect(schema.isValid(good))
    #expect(
      schema.validate(bad, file: "i.json").map(\.message) == [
        "expected a string, found an integer", "expected an integer, found a string",
      ])
  }
}
