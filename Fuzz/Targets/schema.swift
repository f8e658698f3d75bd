// libFuzzer target: the JSON Schema compiler and validator.
//
// The input is read as a document (JSON, or YAML when it does not start with '{'). It is compiled as a schema
// and, when it compiles, validates itself and a few fixed instances; and the embedded flow and scenario
// schemas validate it as an instance.
import FlowCore
import FlowLoading
import FlowSchema
import FlowYAML

let instances: [Node] = [
  "null", "true", "0", "-1.5", "\"\"", "\"abc\"", "[]", "[1, \"a\", [null]]", "{}",
  "{\"a\": 1, \"b\": [true, {\"c\": \"d\"}], \"id\": \"x\", \"steps\": []}",
].map { try! JSONReader.read(bytes: Array($0.utf8), file: "instance.json") }

let flowSchema: JSONSchema = {
  let root = try! JSONReader.read(bytes: Array(EmbeddedSchemas.flow.utf8), file: "flow.schema.json")
  return try! JSONSchema(root, file: "flow.schema.json")
}()

let scenarioSchema: JSONSchema = {
  let root = try! JSONReader.read(bytes: Array(EmbeddedSchemas.scenario.utf8), file: "scenario.schema.json")
  return try! JSONSchema(root, file: "scenario.schema.json")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let node = try? FlowLoader.parse(bytes: bytes, file: "fuzz.json") else { return 0 }
  _ = flowSchema.validate(node, file: "fuzz.json")
  _ = scenarioSchema.isValid(node)
  do {
    let schema = try JSONSchema(node, file: "fuzz.schema.json")
    _ = schema.validate(node, file: "fuzz.json")
    for instance in instances {
      _ = schema.validate(instance, file: "instance.json")
      _ = schema.isValid(instance)
    }
  } catch {
    _ = error.description
  }
  return 0
}
