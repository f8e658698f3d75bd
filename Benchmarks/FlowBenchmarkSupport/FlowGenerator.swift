package import FlowCore
import FlowYAML

/// Generates large, realistic flows for benchmarks and stress tests: a chain of steps of every common kind,
/// with strings in two locales, choices, skip conditions, effects and a permission step every so often.
package enum FlowGenerator {
  /// A flow of `steps` steps (plus a terminal) as YAML text.
  package static func yaml(steps: Int) -> String {
    var out = """
      # yaml-language-server: $schema=../schemas/flow.schema.json
      flow: generated-\(steps)
      version: 1.0.0
      description: A generated flow of \(steps) steps for benchmarks.
      locales: [en, ja]
      language: language
      start: s0
      back: true
      environment:
        osVersion: { type: int, default: 18, values: [18, 26] }
      permissions: [notifications]
      variables:
        language: { type: string, default: en, values: [en, ja], persist: language }
        answer: { type: string, default: "" }
        savedStep: { type: int, default: 0, persist: savedStep }
      resume:
        - rawValue: savedStep
      hooks:
        enter:
          - set: savedStep
            value: step.rawValue
            when: step.kind != "terminal"
      steps:

      """
    for index in 0..<steps {
      let next = index + 1 < steps ? "s\(index + 1)" : "done"
      out += "  s\(index):\n"
      switch index % 5 {
      case 1:
        out += """
              kind: single-choice
              rawValue: \(index)
              title: t\(index)
              options: { a: o_a, b: o_b, c: o_c }
              variable: answer
              skip: \(next)
              next:
                to: \(next)
                effects:
                  - userProperty: answer_\(index)
                    value: answer

          """
      case 3:
        out += """
              kind: screen
              rawValue: \(index)
              title: t\(index)
              skipIf: env.osVersion >= 26 && answer == "c"
              next: \(next)

          """
      case 4 where index % 50 == 4:
        out += """
              kind: permission
              rawValue: \(index)
              title: t\(index)
              permission: notifications
              on: { granted: \(next), denied: \(next), partial: \(next), unavailable: \(next), error: \(next), timeout: \(next) }

          """
      default:
        out += """
              kind: screen
              rawValue: \(index)
              title: t\(index)
              body: b
              next:
                to: \(next)
                effects:
                  - track: step_\(index)_completed

          """
      }
    }
    out += "  done:\n    kind: terminal\n    outcome: completed\n    enter:\n      - track: onboarding_completed\n"
    out += "strings:\n"
    for locale in ["en", "ja"] {
      out += "  \(locale):\n    o_a: A\n    o_b: B\n    o_c: C\n    b: Body text\n"
      for index in 0..<steps { out += "    t\(index): Title \(index) \(locale)\n" }
    }
    return out
  }

  /// A minimal chain of `steps` screens, each with only `next`, for measuring the engine's cost per event.
  package static func chainYAML(steps: Int) -> String {
    var out = "flow: chain\nversion: \"1\"\nlocales: [en]\nstart: s0\nsteps:\n"
    for index in 0..<steps {
      out += "  s\(index): { kind: screen, next: \(index + 1 < steps ? "s\(index + 1)" : "done") }\n"
    }
    out += "  done: { kind: terminal, outcome: completed }\n"
    return out
  }

  /// Parses and compiles generated YAML (no schema check: what the benchmarks time as "load").
  ///
  /// - Throws: the YAML loader's ``LoadError``, or a ``RunError`` listing the compiler's errors.
  package static func compile(_ yaml: String, file: String) throws -> Flow {
    let node = try YAMLLoader.load(bytes: Array(yaml.utf8), file: file)
    let (flow, diagnostics) = FlowCompiler.compile(node, file: file)
    let errors = diagnostics.filter { $0.severity == .error }
    guard let flow, errors.isEmpty else {
      throw RunError(message: errors.map(\.description).joined(separator: "\n"))
    }
    return flow
  }
}
