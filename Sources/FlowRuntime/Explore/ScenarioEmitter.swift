package import FlowCore
import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Writes a scenario table with one case per declared transition the exploration took (edge coverage) and per
/// permission outcome seen on a permission step, each the
/// shortest way to take it, with its expectations (steps entered, outward events, where it ends) computed by
/// replaying the case on the engine as `flowrun test` will run it.
package struct ScenarioEmitter {
  package let exploration: Exploration
  package let flowPath: String

  package init(exploration: Exploration, flowPath: String) {
    self.exploration = exploration
    self.flowPath = flowPath
  }

  /// One generated case.
  package struct GeneratedCase: Sendable {
    package var name: String
    package var setup: ExploreSetup
    package var commands: [String]
    package var answers: [String: [Value]]
    package var path: [String]
    package var events: [String]
    package var ended: Value
    package var at: String
  }

  /// The cases, in the order of the flow's declared transitions.
  package func cases() -> [GeneratedCase] {
    var result: [GeneratedCase] = []
    var byCommands: [String: Int] = [:]
    var targets: [(String, (state: Int32, move: Int32))] = exploration.flow.declaredTransitions.compactMap { declared in
      exploration.transitionWitness[declared.transition].map { (declared.transition.description, $0) }
    }
    targets += exploration.permissionOutcomeWitness.sorted { $0.key < $1.key }.map { ($0.key.description, $0.value) }
    for (title, witness) in targets {
      let (setup, moves) = exploration.path(to: witness.state, then: witness.move)
      guard var generated = replay(setup: exploration.setups[setup], moves: moves) else { continue }
      let key = exploration.setups[setup].description + "|" + moves.map(\.command).joined(separator: "|")
      if let index = byCommands[key] {
        result[index].name += "; " + title
        continue
      }
      generated.name = title
      byCommands[key] = result.count
      result.append(generated)
    }
    return result
  }

  /// Runs the moves on the engine the way a scenario runs them (real clock, full history, the fakes' statuses).
  func replay(setup: ExploreSetup, moves: [ExploreMove]) -> GeneratedCase? {
    let engine = Engine(flow: exploration.flow)
    let explorer = Explorer(flow: exploration.flow, options: exploration.options)
    var deviceStatuses = setup.permissions
    var generated = GeneratedCase(
      name: "", setup: setup, commands: [], answers: [:], path: [], events: [], ended: .bool(false), at: "")
    func observe(_ records: [Record]) {
      for record in records {
        switch record {
        case .entered(let step): generated.path.append(step)
        case .effect(let effect):
          if Observation.isEvent(effect) { generated.events.append(effect.summary) }
          if case .requestReview = effect {
            generated.answers[ActionName.requestReview.rawValue, default: []].append(.string("shown"))
          }
        default: break
        }
      }
    }
    do {
      var (state, records) = try engine.launch(setup.launch(clock: exploration.options.clock))
      observe(records)
      // A scenario answers a pending action in the same command: end with an answer when the path stops at one.
      var moves = moves
      var probe = state
      for move in moves { probe = (try? explorer.apply(move, to: probe))??.0 ?? probe }
      var guardCount = 0
      while probe.pending != nil, guardCount < 8, let answer = explorer.moves(from: probe).first {
        moves.append(answer)
        probe = (try? explorer.apply(answer, to: probe))??.0 ?? probe
        guardCount += 1
      }
      for move in moves {
        switch move {
        case .event(let event):
          records = try engine.handle(event, in: &state)
          generated.commands.append(move.command)
        case .restart:
          let launch = Launch(
            environment: setup.environment, permissions: deviceStatuses, store: state.store, clock: state.clock,
            variants: setup.variants)
          (state, records) = try engine.launch(launch)
          generated.commands.append("restart")
        case .returnFromBackground(let changes):
          deviceStatuses.merge(changes) { $1 }
          records = try engine.handle(.background, in: &state)
          records += try engine.handle(.foreground(permissions: deviceStatuses), in: &state)
          generated.commands += ExploreMove.backgroundCommands(changes)
        case .answer(let action, let permission, let outcome, let result):
          if let permission {
            if (deviceStatuses[permission] ?? .notDetermined).requestShowsDialog(for: permission) {
              generated.answers[permission.rawValue, default: []].append(.string(outcome))
              if let status = PermissionStatus(rawValue: outcome) { deviceStatuses[permission] = status.remembered }
            }
          } else {
            generated.answers[action.rawValue, default: []].append(
              result.isEmpty ? .string(outcome) : .map(["outcome": .string(outcome), "result": .map(result)]))
          }
          records = try engine.handle(.outcome(outcome, result: result), in: &state)
        }
        observe(records)
      }
      generated.ended = state.ended.map { .string($0.outcome.rawValue) } ?? .bool(false)
      generated.at = state.current.map { exploration.flow.steps[$0].id } ?? "-"
      return generated
    } catch {
      return nil
    }
  }

  // MARK: - Writing

  /// The scenario table as YAML, with `flow:` relative to `directory`.
  package func yaml(directory: String) -> String {
    var out = "# Generated by `flowrun explore --emit-scenarios`: one case per transition the exploration took (edge\n"
    out += "# coverage), each the shortest way to take it. Expectations were filled in by replaying it on the engine.\n"
    out += "flow: \(quoted(Self.relativePath(from: directory, to: flowPath)))\n"
    out += "description: \(quoted("Edge coverage of \(exploration.flow.id) \(exploration.flow.version), generated"))\n"
    out += "cases:\n"
    for generated in cases() {
      out += "  - name: \(quoted(generated.name))\n"
      out += "    source: \"flowrun explore\"\n"
      if !generated.setup.environment.isEmpty { out += "    env: \(Value.map(generated.setup.environment).jsonText)\n" }
      if !generated.setup.variants.isEmpty {
        out += "    variants: \(Value.map(generated.setup.variants.mapValues(Value.string)).jsonText)\n"
      }
      if !generated.setup.permissions.isEmpty {
        let statuses = generated.setup.permissions.map { ($0.key.rawValue, Value.string($0.value.rawValue)) }
        out += "    permissions: \(Value.map(Dictionary(uniqueKeysWithValues: statuses)).jsonText)\n"
      }
      if exploration.options.clock != 9 * 3600 {
        out += "    clock: \(quoted(TimeOfDay.clockText(seconds: exploration.options.clock)))\n"
      }
      if !generated.answers.isEmpty {
        out += "    answers: \(Value.map(generated.answers.mapValues(Value.list)).jsonText)\n"
      }
      out += "    commands: \(Value.list(generated.commands.map(Value.string)).jsonText)\n"
      out += "    expect:\n"
      out += "      path: \(Value.list(generated.path.map(Value.string)).jsonText)\n"
      out += "      events: \(Value.list(generated.events.map(Value.string)).jsonText)\n"
      out += "      ended: \(generated.ended.jsonText)\n"
      out += "      at: \(quoted(generated.at))\n"
    }
    return out
  }

  /// Writes `DIR/NAME.explore.yaml`; returns its path.
  package func write(to directory: String, replacing: Bool) throws -> String {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = Self.path(forFlow: flowPath, in: directory)
    try TextFile.write(yaml(directory: directory), to: path, replacing: replacing)
    return path
  }

  /// The file ``write(to:replacing:)`` writes for the flow at `flowPath`: `NAME.explore.yaml` in `directory`.
  package static func path(forFlow flowPath: String, in directory: String) -> String {
    FilePaths.appending("\(FilePaths.removingExtension(FilePaths.name(of: flowPath))).explore.yaml", to: directory)
  }

  func quoted(_ text: String) -> String {
    var out = ""
    Value.writeJSONString(text, to: &out)
    return out
  }

  static func relativePath(from directory: String, to file: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func absolute(_ path: String) -> [String] {
      let full = path.hasPrefix("/") ? path : FilePaths.appending(path, to: cwd)
      return FilePaths.standardized(full).split(separator: "/").map(String.init)
    }
    let from = absolute(directory)
    let to = absolute(file)
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    return (ups + to[common...]).joined(separator: "/")
  }
}
