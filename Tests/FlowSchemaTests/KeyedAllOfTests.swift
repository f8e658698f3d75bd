import FlowCore
import Testing

@testable import FlowSchema

/// An `allOf` whose members are `if`s on one property's value with a `then` each (the flow schema's step
/// `kind`) is applied by that value directly (``KeyedMembers``), and finds exactly what applying every member
/// finds: the same diagnostics, in the same order, for matching, repeated, numeric, missing and unknown values
/// and for instances that are not mappings.
struct KeyedAllOfTests {
  /// With `else: true` on the first member, which changes nothing a validation finds, `allOf` is applied
  /// member by member.
  static func schema(elseOnFirst: Bool) -> String {
    let otherwise = elseOnFirst ? #", "else": true"# : ""
    return ##"""
      {
        "type": ["object", "array"],
        "allOf": [
          {"if": {"properties": {"kind": {"const": "screen"}}, "required": ["kind"]},
           "then": {"required": ["title"], "properties": {"title": {"type": "string"}}}\##(otherwise)},
          {"if": {"properties": {"kind": {"const": "choice"}}, "required": ["kind"]},
           "then": {"required": ["options"]}},
          {"if": {"properties": {"kind": {"enum": ["choice"]}}, "required": ["kind"]},
           "then": {"properties": {"options": {"minItems": 1}}}},
          {"if": {"properties": {"kind": {"const": 1}}, "required": ["kind"]}, "then": false},
          {"if": {"properties": {"kind": {"const": "\u00e9"}}, "required": ["kind"]}, "then": false}
        ]
      }
      """##
  }

  static let instances: [(String, Bool)] = [
    (##"{"kind": "screen", "title": "Hi"}"##, true),
    (##"{"kind": "screen"}"##, false),
    (##"{"title": 3, "kind": "screen"}"##, false),
    (##"{"kind": "choice"}"##, false),
    (##"{"kind": "choice", "options": []}"##, false),
    (##"{"kind": "choice", "options": [1]}"##, true),
    (##"{"kind": "other"}"##, true),
    (##"{"title": 1}"##, true),
    (##"{}"##, true),
    (##"{"kind": 1}"##, false),
    (##"{"kind": 1.0}"##, false),
    (##"{"kind": "e\u0301"}"##, true),
    (##"{"kind": "\u00e9"}"##, false),
    (##"{"kind": ["screen"]}"##, true),
    (##"[]"##, false),
    (##""screen""##, false),
  ]

  @Test func choosesWhatApplyingEveryMemberChooses() throws {
    let keyed = try compile(Self.schema(elseOnFirst: false))
    let plain = try compile(Self.schema(elseOnFirst: true))
    #expect(keyed.program.schemas[0].k.allOfByKey?.key == "kind")
    #expect(keyed.program.schemas[0].k.allOfByKey?.thens.count == 5)
    #expect(plain.program.schemas[0].k.allOfByKey == nil)
    for (instance, valid) in Self.instances {
      let node = try JSONReader.read(bytes: Array(instance.utf8), file: "i.json")
      let found = keyed.validate(node, file: "i.json").map(\.description)
      #expect(found == plain.validate(node, file: "i.json").map(\.description), "\(instance)")
      #expect(found.isEmpty == valid, "\(instance): \(found)")
      #expect(keyed.isValid(node) == valid, "\(instance)")
      #expect(plain.isValid(node) == valid, "\(instance)")
    }
  }

  /// The flow schema's steps are chosen by `kind`, facts and variables by `type`.
  @Test func theFlowSchemaChoosesStepsByKind() throws {
    let node = try JSONReader.read(bytes: Array(EmbeddedSchemas.flow.utf8), file: "flow.schema.json")
    let schema = try JSONSchema(node, file: "flow.schema.json")
    let keys = (0..<schema.program.schemas.count).compactMap { schema.program.schemas[$0].k.allOfByKey?.key }
    #expect(keys.sorted() == ["kind", "type", "type"])
  }
}
