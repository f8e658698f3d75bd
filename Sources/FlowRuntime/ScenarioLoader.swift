package import FlowCore
import FlowLoading
import FlowSchema
import FlowYAML

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Reads scenario tables: YAML checked against `schemas/scenario.schema.json`, then turned into cases.
package enum ScenarioLoader {
  /// The scenario files under `path` (a file, or every *.yaml and *.yml in a directory tree, walked as
  /// ``FileInput/files(under:extensions:)`` does), sorted.
  package static func files(at path: String) throws(ScenarioLoadError) -> [String] {
    guard let isDirectory = FileInput.isDirectory(path) else {
      let reason = FileInput.kindOfNonRegularFile(at: path) ?? "no such file or directory"
      throw ScenarioLoadError(diagnostics: [], ioProblem: "\(path): \(reason)")
    }
    guard isDirectory else { return [path] }
    do {
      return try FileInput.files(under: path, extensions: [".yaml", ".yml"])
    } catch {
      throw ScenarioLoadError(diagnostics: [], ioProblem: error.description)
    }
  }

  /// Reads and loads the scenario file at `path` (a regular file, at most the document size limit).
  package static func load(path: String) throws(ScenarioLoadError) -> ScenarioFile {
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(path)
    } catch {
      if error.isTooLarge {
        throw ScenarioLoadError(diagnostics: [error.loadError.diagnostic], ioProblem: nil)
      }
      throw ScenarioLoadError(diagnostics: [], ioProblem: error.description)
    }
    return try load(bytes: bytes, path: path)
  }

  /// Loads a scenario file from its bytes; `path` names it in diagnostics and locates its flow.
  package static func load(bytes: [UInt8], path: String) throws(ScenarioLoadError) -> ScenarioFile {
    let node: Node
    do {
      node = try YAMLLoader.load(bytes: bytes, file: path)
    } catch {
      throw ScenarioLoadError(diagnostics: [error.diagnostic], ioProblem: nil)
    }
    if DocumentKind.of(text: SourceText(bytes: bytes), node: node) == .flow {
      let message =
        "this is a flow file, not a scenario table: 'flowrun test' runs tables (a mapping with 'flow' and "
        + "'cases'); run the flow with 'flowrun \(path)'"
      throw ScenarioLoadError(
        diagnostics: [Diagnostic(.error, message, file: path, at: node.location, rule: "scenario")], ioProblem: nil,
        isFlowFile: true)
    }
    let problems = schema.validate(node, file: path)
    if !problems.isEmpty { throw ScenarioLoadError(diagnostics: problems, ioProblem: nil) }
    var reader = Reader(file: path)
    let file = reader.file(node, path: path)
    if !reader.diagnostics.isEmpty { throw ScenarioLoadError(diagnostics: reader.diagnostics, ioProblem: nil) }
    return file
  }

  static let schema: JSONSchema = {
    do {
      let bytes = Array(EmbeddedSchemas.scenario.utf8)
      return try JSONSchema(
        try JSONReader.read(bytes: bytes, file: "scenario.schema.json"), file: "scenario.schema.json")
    } catch {
      fatalError("the embedded scenario schema does not compile: \(error)")
    }
  }()

  /// Turns the (schema-valid) tree into cases.
  struct Reader {
    let file: String
    var diagnostics: [Diagnostic] = []

    mutating func file(_ node: Node, path: String) -> ScenarioFile {
      let flow = node["flow"]?.string ?? ""
      let directory = FilePaths.directory(of: path)
      let flowPath =
        flow.hasPrefix("/") ? flow : FilePaths.appending(flow, to: directory)
      let defaults = node["defaults"]
      var cases: [ScenarioCase] = []
      for item in node["cases"]?.sequence ?? [] {
        cases.append(scenarioCase(item, defaults: defaults))
      }
      return ScenarioFile(
        path: path, flowPath: FilePaths.standardized(flowPath),
        flowLocation: node["flow"]?.location ?? node.location, cases: cases)
    }

    mutating func scenarioCase(_ node: Node, defaults: Node?) -> ScenarioCase {
      var result = ScenarioCase(
        name: node["name"]?.string ?? "unnamed", source: node["source"]?.string, location: node.location)
      for layer in [defaults, node].compactMap({ $0 }) {
        for entry in layer["env"]?.entries ?? [] {
          result.environment[entry.key] = Value(node: entry.value) ?? .null
          result.settingLocations[.fact(entry.key)] = entry.keyLocation
        }
        if let clock = layer["clock"] { result.clock = parseClock(clock) }
        for entry in layer["permissions"]?.entries ?? [] {
          result.settingLocations[.permission(entry.key)] = entry.keyLocation
          do {
            result.permissions[PermissionKind(rawValue: entry.key)] = try PermissionStatus.parse(
              entry.value.string ?? "")
          } catch {
            diagnostics.append(
              Diagnostic(.error, error.message, file: file, at: entry.value.location, rule: "scenario"))
          }
        }
        for entry in layer["answers"]?.entries ?? [] {
          let items = entry.value.sequence ?? [entry.value]
          result.answers[entry.key] = items.map(answer)
          result.answerPositions[entry.key] = items.map { item in
            AnswerPositions(
              outcome: item["outcome"]?.location ?? item.location,
              result: Dictionary(
                (item["result"]?.entries ?? []).map { ($0.key, $0.value.location) }, uniquingKeysWith: { a, _ in a }))
          }
          result.settingLocations[.answers(entry.key)] = entry.keyLocation
        }
        for entry in layer["variants"]?.entries ?? [] {
          result.variants[entry.key] = entry.value.string ?? ""
          result.settingLocations[.variant(entry.key)] = entry.keyLocation
        }
        if let store = layer["store"] {
          if store.string == "corrupted" {
            result.storeCorrupted = true
          } else {
            for entry in store.entries ?? [] { result.store[entry.key] = Value(node: entry.value) ?? .null }
          }
        }
      }
      for item in node["commands"]?.sequence ?? [] {
        if let line = item.string {
          if let command = parseCommand(line, at: item.location) {
            result.steps.append(.command(command, mustBeRejected: false, location: item.location))
          }
        } else if let check = item["expect"] {
          result.steps.append(.check(screenCheck(check), location: item.location))
          noteReferences(in: check, of: &result)
        } else if let line = item["command"]?.string {
          if let command = parseCommand(line, at: item.location) {
            result.steps.append(
              .command(
                command, mustBeRejected: item["rejected"]?.bool ?? false, message: item["message"]?.string,
                location: item.location))
          }
        }
      }
      if let expect = node["expect"] {
        result.expect = expectations(expect)
        noteReferences(in: expect, of: &result)
      }
      return result
    }

    /// Notes the steps (`at`, `path`, `skipped`) and variables (`variables`) an `expect:` names, where each is
    /// written.
    func noteReferences(in expect: Node, of scenarioCase: inout ScenarioCase) {
      for node in [expect["at"]].compactMap({ $0 }) + (expect["path"]?.sequence ?? [])
        + (expect["skipped"]?.sequence ?? [])
      {
        if let step = node.string { scenarioCase.references[node.location] = .step(step) }
      }
      for entry in expect["variables"]?.entries ?? [] {
        scenarioCase.references[entry.keyLocation] = .variable(entry.key)
      }
    }

    mutating func parseCommand(_ line: String, at location: SourceLocation) -> Command? {
      do {
        return try Command.parse(line)
      } catch {
        diagnostics.append(Diagnostic(.error, error.message, file: file, at: location, rule: "scenario"))
        return nil
      }
    }

    mutating func parseClock(_ node: Node) -> Double? {
      guard let text = node.string else { return node.number }
      guard let seconds = TimeOfDay.clock(text) else {
        diagnostics.append(
          Diagnostic(
            .error, "clock must be HH:MM or a date and time (2026-11-25T23:55); found '\(text)'", file: file,
            at: node.location, rule: "scenario"))
        return nil
      }
      return seconds
    }

    func answer(_ node: Node) -> ActionAnswer {
      if let outcome = node.string { return ActionAnswer(outcome) }
      var result: [String: Value] = [:]
      for entry in node["result"]?.entries ?? [] { result[entry.key] = Value(node: entry.value) ?? .null }
      return ActionAnswer(node["outcome"]?.string ?? "", result: result, dialogShown: node["dialog"]?.bool ?? true)
    }

    func screenCheck(_ node: Node) -> ScreenCheck {
      var check = ScreenCheck()
      check.at = node["at"]?.string
      check.title = node["title"]?.string
      check.body = node["body"]?.string
      check.language = node["language"]?.string
      check.canGoBack = node["canGoBack"]?.bool
      check.hidden = (node["hidden"]?.sequence ?? []).compactMap(\.string)
      for entry in node["buttons"]?.entries ?? [] {
        if let label = entry.value.string {
          check.buttons[entry.key] = .init(label: label, enabled: nil)
        } else {
          check.buttons[entry.key] = .init(label: entry.value["label"]?.string, enabled: entry.value["enabled"]?.bool)
        }
      }
      for entry in node["variables"]?.entries ?? [] { check.variables[entry.key] = Value(node: entry.value) ?? .null }
      check.options = node["options"]?.sequence?.compactMap(\.string)
      check.placeholder = node["placeholder"]?.string
      check.prefill = node["prefill"]?.string
      if let waiting = node["waiting"] { check.waiting = waiting.string ?? "" }
      for entry in node["fields"]?.entries ?? [] {
        guard entry.value.string != "hidden" else {
          check.fields[entry.key] = .some(nil)
          continue
        }
        let field = entry.value
        check.fields[entry.key] = ScreenCheck.FieldCheck(
          label: field["label"]?.string, placeholder: field["placeholder"]?.string, prefill: field["prefill"]?.string,
          options: field["options"]?.sequence?.compactMap(\.string), minimum: field["min"]?.string,
          maximum: field["max"]?.string, isSecure: field["secure"]?.bool)
      }
      return check
    }

    func expectations(_ node: Node) -> Expectations {
      var expect = Expectations()
      expect.path = node["path"]?.sequence?.compactMap(\.string)
      expect.events = node["events"]?.sequence?.compactMap(\.string)
      expect.includes = node["includes"]?.sequence?.compactMap(\.string) ?? []
      expect.excludes = node["excludes"]?.sequence?.compactMap(\.string) ?? []
      for entry in node["store"]?.entries ?? [] { expect.store[entry.key] = Value(node: entry.value) ?? .null }
      for entry in node["variables"]?.entries ?? [] { expect.variables[entry.key] = Value(node: entry.value) ?? .null }
      expect.at = node["at"]?.string
      if let ended = node["ended"] { expect.ended = Value(node: ended) }
      expect.dialogs = node["dialogs"]?.sequence?.compactMap(\.string)
      expect.skipped = node["skipped"]?.sequence?.compactMap(\.string)
      expect.stale = node["stale"]?.int
      expect.warnings = node["warnings"]?.sequence?.compactMap(\.string) ?? []
      return expect
    }
  }
}

package struct ScenarioLoadError: Error, Sendable, CustomStringConvertible {
  package var diagnostics: [Diagnostic]
  package var ioProblem: String?
  /// The file is a flow (``DocumentKind/of(text:node:)``), not a table.
  package var isFlowFile = false
  package var description: String {
    ioProblem ?? diagnostics.map(\.description).joined(separator: "\n")
  }
}
