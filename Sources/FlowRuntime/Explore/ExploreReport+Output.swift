package import FlowCore

// MARK: - Text

extension ExploreReport {
  package var text: String {
    var lines: [String] = []
    let completeness =
      stoppedAt.map {
        "explored \(states) states, stopped at the limit (\($0)): the results below are partial; raise the limit "
          + "to see everything"
      } ?? "explored completely"
    lines.append("\(flow) \(version): \(states) states, \(edges) moves from \(setups) launch setups (\(completeness))")
    lines.append("reachable steps (\(reachable.count)): \(reachable.joined(separator: ", "))")
    let notReached = unreachable.isEmpty ? "none" : unreachable.joined(separator: ", ")
    lines.append(
      hitLimit
        ? "steps not reached before the limit stopped the run: \(notReached)"
        : "steps reachable under no environment: \(notReached)")
    if !notReachedWithInputsTried.isEmpty {
      lines.append("steps not reached with the inputs tried: \(notReachedWithInputsTried.joined(separator: ", "))")
    }
    if !retiredUnreached.isEmpty {
      lines.append("retired steps (entered only by resuming old progress): \(retiredUnreached.joined(separator: ", "))")
    }
    lines += variantLines
    lines.append("terminals:")
    for terminal in terminals {
      let paths = terminal.paths == Int.max ? "more than \(Int.max)" : String(terminal.paths)
      let note = terminal.paths == 0 ? " (reached only after a restart or reset)" : ""
      lines.append(
        "  \(terminal.step) (\(terminal.outcome)): \(paths) distinct paths\(note), \(terminal.states) states")
    }
    if terminals.isEmpty { lines.append("  none: no run ends") }
    lines.append("states with no way forward: \(deadEnds.isEmpty ? "none" : "")")
    for deadEnd in deadEnds {
      lines.append(
        "  \(deadEnd.step): \(deadEnd.states) state(s)\(deadEnd.canGoBack ? " (only back)" : ""); e.g. \(deadEnd.example.line)"
      )
    }
    if !inputLimited.isEmpty {
      lines.append("states explore did not get past with the inputs tried (not stuck: a text that passes may go on):")
      for state in inputLimited { lines += state.lines }
    }
    if hitLimit {
      lines.append(
        "unexplored (the limit stopped the run before their moves were tried):\(unexplored.isEmpty ? " none" : "")")
      for state in unexplored { lines.append("  \(state.step): \(state.states) state(s); e.g. \(state.example.line)") }
    }
    lines.append("loops (forward moves that come back): \(loops.isEmpty ? "none" : "")")
    for loop in loops { lines.append("  \(loop.steps.joined(separator: ", ")) (\(loop.states) states)") }
    lines.append("flow failures: \(failures.isEmpty ? "none" : "")")
    for failure in failures {
      lines.append("  \(failure.message) (\(failure.count)x); e.g. \(failure.example.line)")
    }
    lines.append(
      "declared transitions taken: \(declaredTransitions - untakenTransitions.count) of \(declaredTransitions)")
    for transition in untakenTransitions { lines.append("  never taken: \(transition)") }
    if !permissionOutcomes.isEmpty {
      lines.append("permission outcomes: \(permissionOutcomes.map(\.description).joined(separator: "; "))")
    }
    lines.append("shortest path to every step:")
    for path in shortest { lines.append("  \(path.step): \(path.line)") }
    lines.append(
      "memory: \(Int(bytesPerState.rounded())) bytes per state stored"
        + (compact
          ? " (--compact: each state kept as a 64-bit fingerprint; two states with the same fingerprint would count "
            + "as one)" : ""))
    return lines.joined(separator: "\n")
  }
}

extension ExploreReport.InputLimited {
  /// The step with its count and example path, each input that refused every text tried (with the texts and one
  /// refusal), and what to declare so explore gets past it.
  var lines: [String] {
    var lines = ["  \(step): \(states) state(s); e.g. \(example.line)"]
    for input in inputs {
      let name = input.field.map { "field '\($0)'" } ?? "the text input"
      lines.append(
        "    \(name) accepted no text tried (\(input.tried.count): \(Self.list(input.tried))); e.g. \(input.refusal)")
      lines.append(
        "    fix: declare `values:` on \(input.field.map { "field '\($0)' of " } ?? "")step '\(step)' with a text it accepts"
      )
    }
    if inputs.isEmpty {
      lines.append("    no \(isForm ? "filling" : "text") tried was accepted (\(tried) tried); e.g. \(refusal)")
      lines.append(
        isForm
          ? "    fix: declare `values:` on the fields of step '\(step)' with texts that are accepted together"
          : "    fix: declare `values:` on step '\(step)' with a text it accepts")
    }
    return lines
  }

  /// The texts quoted as `input` takes them, the first 8 and how many more.
  static func list(_ texts: [String]) -> String {
    let shown = texts.prefix(8).map { Command.quoted($0) }.joined(separator: ", ")
    return texts.count > 8 ? "\(shown) and \(texts.count - 8) more" : shown
  }
}

extension ExploreReport.StepPath {
  /// `[osVersion=26 ...] next ×3, tap signIn, [sign-in-with-apple: success]`: a command repeated is written
  /// once with its count. A long path starts from an earlier step's: `[(defaults)] (the path to s64), next`.
  /// (The JSON report keeps every command in `commands`, one string each.)
  package var line: String {
    let moves = (after.map { ["(the path to \($0))"] } ?? []) + Self.runs(of: commands)
    return "[\(setup)] " + (moves.isEmpty ? "(launch)" : moves.joined(separator: ", "))
  }

  /// `commands` with each run of one command repeated written as `next ×9,999`.
  package static func runs(of commands: [String]) -> [String] {
    var runs: [(command: String, count: Int)] = []
    for command in commands {
      if runs.last?.command == command { runs[runs.count - 1].count += 1 } else { runs.append((command, 1)) }
    }
    return runs.map { $0.count == 1 ? $0.command : "\($0.command) ×\(groupedDigits($0.count))" }
  }

  /// `9999` as `9,999`.
  static func groupedDigits(_ number: Int) -> String {
    var digits = String(number)
    var index = digits.endIndex
    while digits.distance(from: digits.startIndex, to: index) > 3 {
      index = digits.index(index, offsetBy: -3)
      digits.insert(",", at: index)
    }
    return digits
  }
}

// MARK: - JSON

extension ExploreReport {
  package var json: Value {
    func path(_ path: StepPath) -> Value {
      var fields: [String: Value] = [
        "step": .string(path.step), "setup": .string(path.setup), "commands": .list(path.commands.map(Value.string)),
      ]
      if let after = path.after { fields["after"] = .string(after) }
      return .map(fields)
    }
    return .map([
      "flow": .string(flow), "version": .string(version), "states": .int(states), "moves": .int(edges),
      "setups": .int(setups), "complete": .bool(!hitLimit), "maxStates": .int(maxStates),
      "stoppedAt": stoppedAt.map(Value.string) ?? .null,
      "reachable": .list(reachable.map(Value.string)), "unreachable": .list(unreachable.map(Value.string)),
      "notReachedWithInputsTried": .list(notReachedWithInputsTried.map(Value.string)),
      "retiredUnreached": .list(retiredUnreached.map(Value.string)),
      "terminals": .list(
        terminals.map {
          .map([
            "step": .string($0.step), "outcome": .string($0.outcome), "states": .int($0.states),
            "paths": .int($0.paths),
          ])
        }),
      "deadEnds": .list(
        deadEnds.map {
          .map([
            "step": .string($0.step), "states": .int($0.states), "canGoBack": .bool($0.canGoBack),
            "example": path($0.example),
          ])
        }),
      "inputLimited": .list(
        inputLimited.map {
          .map([
            "step": .string($0.step), "states": .int($0.states), "example": path($0.example), "form": .bool($0.isForm),
            "tried": .int($0.tried), "refusal": .string($0.refusal),
            "inputs": .list(
              $0.inputs.map {
                .map([
                  "field": $0.field.map(Value.string) ?? .null, "tried": .list($0.tried.map(Value.string)),
                  "refusal": .string($0.refusal),
                ])
              }),
          ])
        }),
      "unexplored": .list(
        unexplored.map {
          .map(["step": .string($0.step), "states": .int($0.states), "example": path($0.example)])
        }),
      "loops": .list(loops.map { .map(["steps": .list($0.steps.map(Value.string)), "states": .int($0.states)]) }),
      "failures": .list(
        failures.map {
          .map(["message": .string($0.message), "count": .int($0.count), "example": path($0.example)])
        }),
      "declaredTransitions": .int(declaredTransitions),
      "untakenTransitions": .list(untakenTransitions.map { .string($0.description) }),
      "permissionOutcomes": .list(permissionOutcomes.map { .string($0.description) }),
      "shortestPaths": .list(shortest.map(path)),
      "bytesPerState": .int(Int(bytesPerState.rounded())),
      "compact": .bool(compact),
      "variants": variantsJSON,
    ])
  }
}
