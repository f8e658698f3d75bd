package import FlowCore

/// Everything observable about one run, collected from its trace.
package struct Observation: Sendable, Hashable {
  package var path: [String] = []
  /// Every effect of the run, in order.
  package var performed: [RuntimeEffect] = []
  /// Each effect as a line (``RuntimeEffect/summary``), in order: written when asked for, since most rows check no
  /// effect.
  package var effects: [String] { performed.map(\.summary) }
  /// The effects that are events the app receives (``isEvent(_:)``), as lines.
  package var events: [String] { performed.filter(Self.isEvent).map(\.summary) }
  package var dialogs: [String] = []
  package var skipped: [String] = []
  package var stale = 0
  package var warnings: [String] = []
  /// Transitions taken, for `flowrun test --coverage`: read off the trace when asked, since a row that is not
  /// measured for coverage never needs them.
  package var transitions: Set<FlowTransition> {
    var taken: Set<FlowTransition> = []
    for case .record(let record) in trace {
      if let transition = FlowTransition(taken: record) { taken.insert(transition) }
    }
    return taken
  }
  /// Permission outcomes seen, for `flowrun test --coverage`.
  package var permissionOutcomes: Set<PermissionOutcome> = []
  /// The steps entered under each variant (`paywall=late`), for coverage per variant.
  package var variantSteps: [String: Set<String>] = [:]
  /// The variant of each experiment since the last launch.
  var assigned: [String: String] = [:]
  /// Every trace entry, in order.
  package var trace: [TraceEntry] = []
  /// The step the next provider answer is for.
  var current: String?
  var awaitingAnswer = false

  static let outward: Set<String> = [
    "track", "userProperty", "requestReview", "syncProfile", "placement", "completeOnboarding", "log",
  ]

  /// Whether an effect is an event the app receives (a row's `events`): the outward built-in effects and every
  /// effect the flow declares. Scenario rows and the scenarios `flowrun explore` emits both use this.
  static func isEvent(_ effect: RuntimeEffect) -> Bool { outward.contains(effect.typeName) || effect.isCustom }

  package mutating func add(_ trace: [TraceEntry]) {
    self.trace += trace
    for entry in trace {
      if case .record(.effect(.perform)) = entry { awaitingAnswer = true }
      if case .dialog(let action, let answer) = entry, awaitingAnswer {
        awaitingAnswer = false
        if case .permission(let permission) = action, let step = current {
          permissionOutcomes.insert(.init(step: step, permission: permission.rawValue, outcome: answer.outcome))
        }
      }
      switch entry {
      case .record(.assigned(let experiment, let variant, _)):
        assigned[experiment] = variant
        let key = "\(experiment)=\(variant)"
        if variantSteps[key] == nil { variantSteps[key] = [] }
      case .record(.entered(let step)):
        path.append(step)
        current = step
        for (experiment, variant) in assigned { variantSteps["\(experiment)=\(variant)", default: []].insert(step) }
      case .record(.wentBack(_, let to)): current = to
      case .record(.skipped(let step, _)): skipped.append(step)
      case .record(.stale): stale += 1
      case .record(.warning(let text)): warnings.append(text)
      case .record(.effect(let effect)): performed.append(effect)
      case .dialog(let action, let answer) where answer.dialogShown:
        switch action {
        case .permission(let kind): dialogs.append(kind.rawValue)
        case .action(let name): dialogs.append(name.rawValue)
        }
      case .storeFailed(let text): warnings.append(text)
      default: break
      }
    }
  }
}

/// The result of one scenario case.
package struct CaseResult: Sendable {
  package var scenarioCase: ScenarioCase
  /// Why it failed, first divergence first; empty when it passed.
  package var failures: [String]
  package var observation: Observation
  package var passed: Bool { failures.isEmpty }
}

/// Runs scenario cases against a flow with scripted fakes.
package enum ScenarioRunner {
  /// The fakes a case scripts: its answers keyed by a step of `flow` (and by no permission kind it asks for or
  /// action it performs) are the step's; a dialog nothing scripts is noted in `unanswered` and left unanswered.
  /// `names` are `flow`'s (made from it when not given; a table's rows share them).
  package static func providers(
    for scenarioCase: ScenarioCase, flow: Flow, names: FlowNames? = nil,
    unanswered: UnansweredDialog = UnansweredDialog()
  ) -> (Providers, MemoryStore) {
    let store = MemoryStore(scenarioCase.store, corrupted: scenarioCase.storeCorrupted)
    let names = names ?? FlowNames(flow)
    var answers: [String: [ActionAnswer]] = [:]
    var stepAnswers: [String: [ActionAnswer]] = [:]
    for (key, scripted) in scenarioCase.answers {
      if names.answerKey(key) == .step { stepAnswers[key] = scripted } else { answers[key] = scripted }
    }
    let providers = Providers.scripted(
      facts: scenarioCase.environment, clock: scenarioCase.clock ?? 9 * 3600,
      permissionStatuses: scenarioCase.permissions, answers: answers, stepAnswers: stepAnswers, store: store,
      unscripted: .refuse(note: unanswered.note))
    return (providers, store)
  }

  /// The `env:`, `permissions:` and `answers:` keys of `scenarioCase` that `flow` does not declare, `env:`
  /// values of the wrong type, answers whose outcome or `result` the dialog cannot give, and steps and
  /// variables its `expect:` checks name that the flow does not have, with where they were written (sorted by
  /// position).
  package static func problems(of scenarioCase: ScenarioCase, with flow: Flow, names: FlowNames? = nil) -> [(
    message: String, location: SourceLocation
  )] {
    let names = names ?? FlowNames(flow)
    var problems: [(message: String, location: SourceLocation)] = []
    for (setting, location) in scenarioCase.settingLocations {
      let problem: String?
      switch setting {
      case .fact(let name): problem = names.checkFact(name, value: scenarioCase.environment[name], in: "env")
      case .permission(let kind): problem = names.checkPermission(kind, in: "permissions")
      case .variant(let name): problem = flow.checkVariantPin(name, scenarioCase.variants[name] ?? "", in: "variants")
      case .answers(let key):
        let answers = scenarioCase.answers[key] ?? []
        let positions = scenarioCase.answerPositions[key] ?? []
        problems += names.checkAnswers(
          key, keyAt: location, answers: Array(zip(answers, positions)), in: "answers")
        problem = nil
      }
      if let problem { problems.append((problem, location)) }
    }
    for (location, reference) in scenarioCase.references {
      switch reference {
      case .step(let id) where flow.index(of: id) == nil:
        let ids = flow.steps.map(\.id)
        problems.append(
          (
            "unknown step '\(id)' in expect\(Suggestion.didYouMean(id, in: ids)) (the flow's steps: "
              + "\(Suggestion.list(ids.sorted())))", location
          ))
      case .variable(let name) where flow.variable(name) == nil:
        let names = flow.variables.map(\.name).sorted()
        let declared =
          names.isEmpty ? "the flow declares no variable" : "the flow declares: \(Suggestion.list(names))"
        problems.append(
          ("unknown variable '\(name)' in expect\(Suggestion.didYouMean(name, in: names)) (\(declared))", location))
      default: break
      }
    }
    return problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
  }

  /// Runs `scenarioCase` of the table at `file` (named in failures that point at the row) against `flow`, whose
  /// names are `names` and whose engine is `engine` (each made from it when not given; a table's rows share them).
  package static func run(
    _ scenarioCase: ScenarioCase, flow: Flow, names: FlowNames? = nil, engine: Engine? = nil, file: String? = nil
  ) async -> CaseResult {
    let unanswered = UnansweredDialog()
    let (providers, store) = providers(for: scenarioCase, flow: flow, names: names, unanswered: unanswered)
    var runner = Runner(engine: engine ?? Engine(flow: flow), providers: providers)
    runner.variantPins = scenarioCase.variants
    var observation = Observation()
    var failures: [String] = []
    var row: String { "\(file.map { "\($0):" } ?? "line ")\(scenarioCase.location)" }

    let started = await runner.start()
    if let record = unanswered.record {
      failures.append(unansweredFailure(record, row: row, after: "at launch"))
    } else {
      switch started {
      case .trace(let trace): observation.add(trace)
      case .failed(let error): failures.append("launch failed: \(error.message)")
      default: break
      }
    }
    steps: for step in scenarioCase.steps where failures.isEmpty {
      switch step {
      case .command(let command, let mustBeRejected, let message, let location):
        let before = runner.state
        // Written only for a failure: most commands of most rows pass.
        let stepBefore = runner.state.current
        var where_: String {
          "line \(location.line) '\(command)' on step '\(stepBefore.map { flow.steps[$0].id } ?? "-")'"
        }
        let result = await runner.execute(command)
        if let record = unanswered.record {
          failures.append(unansweredFailure(record, row: row, after: "after line \(location.line) '\(command)'"))
          break steps
        }
        switch result {
        case .trace(let trace):
          observation.add(trace)
          if mustBeRejected { failures.append("\(where_): expected the command to be refused, but it was accepted") }
        case .rejected(let rejection):
          if !mustBeRejected {
            failures.append("\(where_): refused: \(rejection)")
          } else if runner.state != before {
            failures.append("\(where_): refused, but the state changed")
          } else if let message, message != rejection.message {
            failures.append("\(where_): refused with \"\(rejection.message)\", expected \"\(message)\"")
          }
        case .failed(let error): failures.append("\(where_): the flow failed: \(error.message)")
        case .info: break
        case .quit: break steps
        }
      case .check(let check, let location):
        failures += verify(check, runner: runner).map { "line \(location.line): \($0)" }
      }
    }
    if failures.isEmpty {
      failures += verify(scenarioCase.expect, observation: observation, runner: runner, store: store.values)
    }
    return CaseResult(scenarioCase: scenarioCase, failures: failures, observation: observation)
  }

  /// Why a row fails when `dialog` was shown on `step` and the row scripts no answer for it: the row's
  /// position and the `answers:` keys that would script it.
  static func unansweredFailure(_ record: UnansweredDialog.Record, row: String, after: String) -> String {
    let (dialog, step) = (record.dialog, record.step)
    let key: String
    let what: String
    switch dialog {
    case .permission(let kind): (key, what) = (kind.rawValue, "the permission request for \(kind)")
    case .action(let name): (key, what) = (name.rawValue, "\(name)")
    }
    let place = step.map { " on step '\($0)'" } ?? ""
    let byStep = step.flatMap { $0 == key ? nil : ", or '\($0): [OUTCOME]' for this step only" } ?? ""
    return "\(row): the row does not answer \(what)\(place) (\(after)); nothing is answered silently: add "
      + "'\(key): [OUTCOME]' to its answers\(byStep) (OUTCOME one of "
      + "\(record.choices.joined(separator: ", ")))"
  }

  /// Options, placeholder, prefill, the dialog in flight and the form's fields.
  static func verifyContents(_ check: ScreenCheck, _ screen: Screen) -> [String] {
    var failures: [String] = []
    func compare(_ what: String, _ expected: String?, _ actual: String?) {
      if let expected, expected != actual {
        failures.append("\(what): expected \"\(expected)\", got \(actual.map { "\"\($0)\"" } ?? "none")")
      }
    }
    func compare(_ what: String, _ expected: [String]?, _ actual: [String]) {
      if let expected, expected != actual {
        failures.append("\(what): expected \(expected), got \(actual)")
      }
    }
    compare("options", check.options, screen.options.map(\.label))
    compare("placeholder", check.placeholder, screen.inputPlaceholder)
    compare("prefill", check.prefill, screen.inputPrefill)
    if let waiting = check.waiting {
      let actual = screen.waitingFor.map(\.description) ?? ""
      if waiting != actual {
        failures.append(
          "waiting: expected \(waiting.isEmpty ? "nothing in flight" : "'\(waiting)'"), got \(actual.isEmpty ? "nothing in flight" : "'\(actual)'")"
        )
      }
    }
    for (name, expected) in check.fields.sorted(by: { $0.key < $1.key }) {
      let field = screen.fields.first { $0.name == name }
      guard let expected else {
        if field != nil { failures.append("field '\(name)' should be hidden on '\(screen.step)'") }
        continue
      }
      guard let field else {
        failures.append(
          "field '\(name)' is not shown on '\(screen.step)' (shown: \(screen.fields.map(\.name).joined(separator: ", ")))"
        )
        continue
      }
      compare("field '\(name)' label", expected.label, field.label)
      compare("field '\(name)' placeholder", expected.placeholder, field.placeholder)
      compare("field '\(name)' prefill", expected.prefill, field.prefill)
      compare("field '\(name)' options", expected.options, field.options.map(\.label))
      compare("field '\(name)' min", expected.minimum, field.minimum)
      compare("field '\(name)' max", expected.maximum, field.maximum)
      if let secure = expected.isSecure, secure != field.isSecure {
        failures.append("field '\(name)': expected \(secure ? "a secure" : "a plain") text field")
      }
    }
    return failures
  }

  static func verify(_ check: ScreenCheck, runner: Runner) -> [String] {
    let screen: Screen
    do {
      guard let current = try runner.session.engine.screen(for: runner.state) else {
        return ["cannot render the current step: the flow has not started"]
      }
      screen = current
    } catch {
      return ["cannot render the current step: \(error)"]
    }
    var failures: [String] = []
    if let at = check.at, at != screen.step {
      failures.append("expected to be at '\(at)', but the current step is '\(screen.step)'")
    }
    if let title = check.title, title != screen.title {
      failures.append("title: expected \"\(title)\", got \"\(screen.title ?? "")\"")
    }
    if let body = check.body, body != screen.body {
      failures.append("body: expected \"\(body)\", got \"\(screen.body ?? "")\"")
    }
    if let language = check.language, language != screen.language {
      failures.append("language: expected '\(language)', got '\(screen.language)'")
    }
    if let canGoBack = check.canGoBack, canGoBack != screen.canGoBack {
      failures.append(
        "back: expected \(canGoBack ? "allowed" : "not allowed"), but it is \(screen.canGoBack ? "allowed" : "not allowed")"
      )
    }
    failures += verifyContents(check, screen)
    for (name, expected) in check.buttons.sorted(by: { $0.key < $1.key }) {
      guard let button = screen.buttons.first(where: { $0.name == name }) else {
        failures.append(
          "button '\(name)' is not shown on '\(screen.step)' (shown: \(screen.buttons.map(\.name).joined(separator: ", ")))"
        )
        continue
      }
      if let label = expected.label, label != button.label {
        failures.append("button '\(name)': expected label \"\(label)\", got \"\(button.label)\"")
      }
      if let enabled = expected.enabled, enabled != button.isEnabled {
        failures.append(
          "button '\(name)': expected \(enabled ? "enabled" : "disabled"), but it is \(button.isEnabled ? "enabled" : "disabled")"
        )
      }
    }
    for name in check.hidden where screen.buttons.contains(where: { $0.name == name }) {
      failures.append("button '\(name)' should not be shown on '\(screen.step)'")
    }
    failures += compareVariables(check.variables, runner: runner)
    return failures
  }

  static func compareVariables(_ expected: [String: Value], runner: Runner) -> [String] {
    var failures: [String] = []
    for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
      guard let index = runner.flow.variableIndexByName[name] else {
        failures.append("unknown variable '\(name)'")
        continue
      }
      let actual = runner.state.variables[index]
      // A date or a duration is written as its text in a table (`"2026-11-25"`), a decimal variable's value may be
      // written as a whole number.
      let wanted = runner.flow.variables[index].coerce(value) ?? value
      if actual != wanted {
        failures.append("variable '\(name)': expected \(wanted.description), got \(actual.description)")
      }
    }
    return failures
  }

  static func verify(_ expect: Expectations, observation: Observation, runner: Runner, store: [String: Value])
    -> [String]
  {
    var failures: [String] = []
    if let path = expect.path, let problem = firstDivergence(expected: path, actual: observation.path) {
      failures.append("path \(problem)")
    }
    if let events = expect.events, let problem = firstDivergence(expected: events, actual: observation.events) {
      failures.append("events \(problem)")
    }
    let effects = expect.includes.isEmpty && expect.excludes.isEmpty ? [] : observation.effects
    var cursor = effects.startIndex
    for wanted in expect.includes {
      guard let found = effects[cursor...].firstIndex(of: wanted) else {
        let exists = effects.contains(wanted)
        failures.append(
          "effect '\(wanted)' \(exists ? "appears, but not in the expected order" : "never happened"); effects were:\n      "
            + effects.joined(separator: "\n      "))
        break
      }
      cursor = effects.index(after: found)
    }
    for unwanted in expect.excludes {
      if let found = effects.first(where: { $0 == unwanted || $0.hasPrefix(unwanted + " ") }) {
        failures.append("effect '\(found)' happened, but must not")
      }
    }
    for (key, value) in expect.store.sorted(by: { $0.key < $1.key }) {
      let actual = store[key]
      // The store is compared as it is kept, in JSON: a stored date is its text.
      if value == .null ? actual != nil : actual?.jsonText != value.jsonText {
        failures.append(
          "store '\(key)': expected \(value == .null ? "absent" : value.description), got \(actual?.description ?? "absent")"
        )
      }
    }
    failures += compareVariables(expect.variables, runner: runner)
    let current = runner.state.current.map { runner.flow.steps[$0].id }
    if let at = expect.at, at != current {
      failures.append("expected to end at '\(at)', but the current step is '\(current ?? "-")'")
    }
    if let ended = expect.ended {
      let actual = runner.state.ended?.outcome.rawValue
      switch ended {
      case .bool(false):
        if let actual { failures.append("expected the flow not to have ended, but it ended (\(actual))") }
      case .string(let outcome):
        if actual != outcome {
          failures.append("expected the flow to end with '\(outcome)', got \(actual.map { "'\($0)'" } ?? "no end")")
        }
      default: failures.append("'ended' must be an outcome name or false")
      }
    }
    if let dialogs = expect.dialogs, let problem = firstDivergence(expected: dialogs, actual: observation.dialogs) {
      failures.append("dialogs \(problem)")
    }
    if let skipped = expect.skipped, let problem = firstDivergence(expected: skipped, actual: observation.skipped) {
      failures.append("skipped steps \(problem)")
    }
    if let stale = expect.stale, stale != observation.stale {
      failures.append("expected \(stale) stale event(s), got \(observation.stale)")
    }
    for warning in expect.warnings where !observation.warnings.contains(where: { $0.contains(warning) }) {
      failures.append("no warning mentions \"\(warning)\"; warnings were: \(observation.warnings)")
    }
    return failures
  }

  /// "diverged at #3: expected 'x', got 'y'" — or nil when equal.
  static func firstDivergence(expected: [String], actual: [String]) -> String? {
    for index in 0..<max(expected.count, actual.count) {
      let want = index < expected.count ? expected[index] : nil
      let got = index < actual.count ? actual[index] : nil
      if want != got {
        return
          "diverged at #\(index + 1): expected \(want.map { "'\($0)'" } ?? "nothing more"), got \(got.map { "'\($0)'" } ?? "nothing more")\n      expected: \(expected)\n      actual:   \(actual)"
      }
    }
    return nil
  }
}
