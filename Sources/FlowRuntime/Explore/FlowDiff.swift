package import FlowCore

/// What changed between two versions of a flow, and what the change does to users mid-flow.
package struct FlowDiffReport: Sendable {
  package struct Change: Sendable, Hashable {
    package var subject: String
    package var before: String
    package var after: String
  }
  /// What NEW does with progress OLD saved at one step.
  package struct Resume: Sendable, Hashable {
    package var rawValue: Int
    package var savedAt: String
    package var resumesAt: String
    package var problem: Severity?
    package var message: String
  }
  package enum Severity: String, Sendable { case error, warning }

  package var old: String
  package var new: String
  package var added: [String] = []
  package var removed: [String] = []
  package var retired: [String] = []
  package var reordered: [String] = []
  package var kindChanges: [Change] = []
  package var transitionsAdded: [String] = []
  package var transitionsRemoved: [String] = []
  package var guardChanges: [Change] = []
  package var effectChanges: [Change] = []
  /// Experiments added, removed or changed; listed only when either version has experiments.
  package var experimentChanges: [Change] = []
  package var hasExperiments = false
  package var funnelBefore: [String] = []
  package var funnelAfter: [String] = []
  package var resumes: [Resume] = []

  package var errors: [Resume] { resumes.filter { $0.problem == .error } }
  package var hasErrors: Bool { !errors.isEmpty }
}

/// Compares two versions of a flow.
package enum FlowDiff {
  package static func compare(old: Flow, new: Flow) -> FlowDiffReport {
    var report = FlowDiffReport(old: "\(old.id) \(old.version)", new: "\(new.id) \(new.version)")
    let oldIDs = old.steps.map(\.id)
    let newIDs = new.steps.map(\.id)
    report.added = newIDs.filter { old.step($0) == nil }
    report.removed = oldIDs.filter { new.step($0) == nil }
    report.retired = new.steps.filter { $0.isRetired && old.step($0.id).map { !$0.isRetired } ?? false }.map(\.id)
    let commonOld = old.steps.filter { !$0.isRetired && new.step($0.id).map { !$0.isRetired } == true }.map(\.id)
    let commonNew = new.steps.filter { !$0.isRetired && old.step($0.id).map { !$0.isRetired } == true }.map(\.id)
    report.reordered = reordered(commonOld, commonNew)
    for step in new.steps {
      guard let before = old.step(step.id) else { continue }
      if before.kind != step.kind {
        report.kindChanges.append(.init(subject: step.id, before: before.kind.rawValue, after: step.kind.rawValue))
      }
      let beforeEnter = before.enter.map(\.summaryText)
      let afterEnter = step.enter.map(\.summaryText)
      if beforeEnter != afterEnter {
        report.effectChanges.append(
          .init(
            subject: "\(step.id) (enter)", before: list(beforeEnter), after: list(afterEnter)))
      }
    }
    for (name, before, after) in [
      ("hooks.launch", old.hooks.launch, new.hooks.launch), ("hooks.advance", old.hooks.advance, new.hooks.advance),
      ("hooks.enter", old.hooks.enter, new.hooks.enter), ("reset", old.reset.effects, new.reset.effects),
    ] {
      let a = before.map(\.summaryText)
      let b = after.map(\.summaryText)
      if a != b { report.effectChanges.append(.init(subject: name, before: list(a), after: list(b))) }
    }
    let (oldLifecycle, newLifecycle) = (lifecycle(old), lifecycle(new))
    for name in (oldLifecycle + newLifecycle).map(\.name).reduce(
      into: [String](), { if !$0.contains($1) { $0.append($1) } })
    {
      let a = oldLifecycle.first { $0.name == name }?.items
      let b = newLifecycle.first { $0.name == name }?.items
      if a != b {
        report.effectChanges.append(
          .init(subject: name, before: a.map(list) ?? "(absent)", after: b.map(list) ?? "(absent)"))
      }
    }
    let oldTransitions = Dictionary(old.declaredTransitions.map { ($0.transition, $0) }) { a, _ in a }
    let newTransitions = Dictionary(new.declaredTransitions.map { ($0.transition, $0) }) { a, _ in a }
    report.transitionsAdded = new.declaredTransitions.map(\.transition).filter { oldTransitions[$0] == nil }.map(
      \.description)
    report.transitionsRemoved = old.declaredTransitions.map(\.transition).filter { newTransitions[$0] == nil }.map(
      \.description)
    for declared in new.declaredTransitions {
      guard let before = oldTransitions[declared.transition] else { continue }
      if before.guardText != declared.guardText {
        report.guardChanges.append(
          .init(
            subject: declared.transition.description, before: before.guardText ?? "(none)",
            after: declared.guardText ?? "(none)"))
      }
      if before.effects != declared.effects {
        report.effectChanges.append(
          .init(
            subject: declared.transition.description, before: list(before.effects), after: list(declared.effects)))
      }
    }
    report.experimentChanges = experimentChanges(old: old, new: new)
    report.hasExperiments = !old.experiments.isEmpty || !new.experiments.isEmpty
    report.funnelBefore = funnel(old)
    report.funnelAfter = funnel(new)
    report.resumes = resumes(old: old, new: new)
    return report
  }

  static func list(_ items: [String]) -> String { items.isEmpty ? "(none)" : items.joined(separator: "; ") }

  /// What the app's lifecycle runs, by name: the `launch:` list (its effects and actions, each with its `when`,
  /// arguments and outcomes' effects), `foreground:`'s effects and each `open:` entry's parameters and effects.
  /// Their routes to steps are declared transitions, compared with the others.
  static func lifecycle(_ flow: Flow) -> [(name: String, items: [String])] {
    var result: [(name: String, items: [String])] = []
    if !flow.launch.isEmpty {
      result.append(
        (
          "launch",
          flow.launch.map { item in
            switch item {
            case .effect(let effect): return effect.summaryText
            case .action(let action):
              let arguments = action.arguments.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
              let outcomes = action.outcomes.map { "\($0.name) → \(list($0.transition.effects.map(\.summaryText)))" }
              return "action \(action.name.value)" + (arguments.isEmpty ? "" : "(\(arguments))")
                + (action.when.map { " when \($0)" } ?? "")
                + (outcomes.isEmpty ? "" : " on \(outcomes.joined(separator: ", "))")
            }
          }
        ))
    }
    if let foreground = flow.foreground { result.append(("foreground", foreground.effects.map(\.summaryText))) }
    for entry in flow.openEntries {
      let params = entry.params.map { "param \($0.name): \($0.type.rawValue)\($0.isRequired ? "" : "?")" }
      result.append(("open \(entry.name)", params + entry.transition.effects.map(\.summaryText)))
    }
    return result
  }

  /// Steps whose place among the steps both versions keep has changed.
  static func reordered(_ before: [String], _ after: [String]) -> [String] {
    // Steps outside a longest common subsequence moved.
    let n = before.count
    let m = after.count
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        table[i][j] = before[i] == after[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var kept: Set<String> = []
    var i = 0
    var j = 0
    while i < n && j < m {
      if before[i] == after[j] {
        kept.insert(before[i])
        i += 1
        j += 1
      } else if table[i + 1][j] >= table[i][j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return after.filter { !kept.contains($0) }
  }

  /// The analytics events along the main path (default launch; always the first move that leads on: next, the
  /// first option, the first sample input, the first button; permissions granted, actions their first outcome).
  package static func funnel(_ flow: Flow) -> [String] {
    let explorer = Explorer(flow: flow)
    let engine = Engine(flow: flow)
    var events: [String] = []
    func collect(_ records: [Record]) {
      for case .effect(.track(let event, let properties)) in records {
        events.append(properties.isEmpty ? event : "\(event) \(properties.description)")
      }
    }
    guard let (launched, records) = try? engine.launch(Launch()) else { return events }
    var state = launched
    collect(records)
    var seen: Set<RunState> = [state]
    for _ in 0..<200 where state.ended == nil {
      var moved = false
      for move in explorer.moves(from: state) where move.isForward {
        if case .answer(_, let permission?, let outcome, _) = move, outcome != PermissionStatus.granted.rawValue,
          explorer.moves(from: state).contains(where: {
            if case .answer(_, permission, PermissionStatus.granted.rawValue, _) = $0 { true } else { false }
          })
        {
          continue
        }
        var next = state
        guard let produced = try? engine.handle(Self.event(move), in: &next), next != state, !seen.contains(next) else {
          continue
        }
        collect(produced)
        seen.insert(next)
        state = next
        moved = true
        break
      }
      if !moved { break }
    }
    return events
  }

  static func event(_ move: ExploreMove) -> FlowEvent {
    switch move {
    case .event(let event): event
    case .answer(_, _, let outcome, let result): .outcome(outcome, result: result)
    case .restart, .returnFromBackground: .reset  // not forward moves: the funnel never takes them
    }
  }

  /// For every raw value OLD persists, where NEW resumes a user saved there.
  static func resumes(old: Flow, new: Flow) -> [FlowDiffReport.Resume] {
    // The store key OLD writes the raw value to: the persisted variable its rawValue resume rule reads.
    var keys: [String] = []
    for route in old.resume {
      guard case .rawValue(let expr) = route.destination else { continue }
      for reference in expr.expression.references {
        if let key = reference.path.first.flatMap(old.variable)?.persistKey { keys.append(key) }
      }
    }
    guard !keys.isEmpty else { return [] }
    let engine = Engine(flow: new)
    var result: [FlowDiffReport.Resume] = []
    for step in old.steps {
      guard let raw = step.rawValue else { continue }
      let store = Dictionary(keys.map { ($0, Value.int(raw)) }) { a, _ in a }
      let landed: String
      do {
        let (state, _) = try engine.launch(Launch(store: store))
        landed = state.current.map { new.steps[$0].id } ?? "-"
      } catch {
        result.append(
          .init(
            rawValue: raw, savedAt: step.id, resumesAt: "-", problem: .error,
            message: "a user saved at '\(step.id)' (\(raw)) cannot be resumed: \(error)"))
        continue
      }
      let meaning = new.steps.first { $0.rawValue == raw }
      if let meaning, meaning.id != step.id {
        result.append(
          .init(
            rawValue: raw, savedAt: step.id, resumesAt: landed, problem: .error,
            message: "raw value \(raw) meant '\(step.id)' and now means '\(meaning.id)': a user saved at '\(step.id)' "
              + "resumes at '\(landed)'"))
      } else if landed != step.id {
        let why = new.step(step.id) == nil ? "'\(step.id)' was removed" : "resume routes or skips send it on"
        result.append(
          .init(
            rawValue: raw, savedAt: step.id, resumesAt: landed, problem: .warning,
            message: "a user saved at '\(step.id)' (\(raw)) resumes at '\(landed)' (\(why))"))
      } else {
        result.append(
          .init(
            rawValue: raw, savedAt: step.id, resumesAt: landed, problem: nil,
            message: "a user saved at '\(step.id)' (\(raw)) resumes there"))
      }
    }
    return result
  }
}

// MARK: - Output

extension FlowDiffReport {
  package var text: String {
    var lines = ["\(old) -> \(new)"]
    func section(_ title: String, _ items: [String]) {
      lines.append("\(title): \(items.isEmpty ? "none" : "")")
      for item in items { lines.append("  \(item)") }
    }
    section("steps added", added)
    section("steps removed", removed)
    section("steps retired", retired)
    section("steps reordered", reordered)
    section("step kinds changed", kindChanges.map { "\($0.subject): \($0.before) -> \($0.after)" })
    section("transitions added", transitionsAdded)
    section("transitions removed", transitionsRemoved)
    section("guards changed", guardChanges.map { "\($0.subject): \($0.before) -> \($0.after)" })
    section(
      "effects changed", effectChanges.map { "\($0.subject):\n    before: \($0.before)\n    after:  \($0.after)" })
    if hasExperiments {
      section(
        "experiments changed",
        experimentChanges.map { "\($0.subject):\n    before: \($0.before)\n    after:  \($0.after)" })
    }
    lines.append("analytics funnel (main path):")
    lines.append("  before: \(funnelBefore.joined(separator: " > "))")
    lines.append("  after:  \(funnelAfter.joined(separator: " > "))")
    lines.append("saved progress (\(old) saved, \(new) resumes):")
    for resume in resumes {
      lines.append("  \(resume.problem.map { "\($0.rawValue): " } ?? "ok: ")\(resume.message)")
    }
    let errors = self.errors.count
    let warnings = resumes.filter { $0.problem == .warning }.count
    lines.append("\(errors) error(s), \(warnings) warning(s)")
    return lines.joined(separator: "\n")
  }

  package var json: Value {
    func strings(_ items: [String]) -> Value { .list(items.map(Value.string)) }
    func changes(_ items: [Change]) -> Value {
      .list(
        items.map { .map(["subject": .string($0.subject), "before": .string($0.before), "after": .string($0.after)]) })
    }
    return .map([
      "old": .string(old), "new": .string(new), "added": strings(added), "removed": strings(removed),
      "retired": strings(retired), "reordered": strings(reordered), "kindChanges": changes(kindChanges),
      "transitionsAdded": strings(transitionsAdded), "transitionsRemoved": strings(transitionsRemoved),
      "guardChanges": changes(guardChanges), "effectChanges": changes(effectChanges),
      "experimentChanges": changes(experimentChanges),
      "funnelBefore": strings(funnelBefore), "funnelAfter": strings(funnelAfter),
      "resumes": .list(
        resumes.map {
          .map([
            "rawValue": .int($0.rawValue), "savedAt": .string($0.savedAt), "resumesAt": .string($0.resumesAt),
            "severity": $0.problem.map { .string($0.rawValue) } ?? .null, "message": .string($0.message),
          ])
        }),
      "errors": .int(errors.count),
    ])
  }
}
