// User commands: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  mutating func userEvent(_ event: FlowEvent, on current: StepIndex) throws {
    let step = flow.steps[current]
    switch event {
    case .next where step.kind == .textInput:
      if let next = step.next { try requireVisible(next, named: "next", on: current) }
      try confirmText(try currentText(on: current), on: current)
    case .next where step.kind == .form && !step.fields.isEmpty:
      // Next confirms the form as it stands: each field's prefill, required fields checked.
      if let next = step.next { try requireVisible(next, named: "next", on: current) }
      try fill([:], on: current)
    case .next:
      guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
      try requireVisible(next, named: "next", on: current)
      try requireEnabled(next, named: "next", on: current)
      try moveForward(from: current, via: next)
    case .skip:
      guard let skip = step.skip else { throw reject("'\(step.id)' cannot be skipped", on: current) }
      try requireVisible(skip, named: "skip", on: current)
      try requireEnabled(skip, named: "skip", on: current)
      try moveForward(from: current, via: skip, route: .skip)
    case .back:
      guard backAllowed(on: current) else {
        throw reject("there is no way back from '\(step.id)'", on: current)
      }
      let previous = state.history.removeLast()
      state.timer = nil
      state.current = previous
      note(.wentBack(from: step.id, to: flow.steps[previous].id))
    case .choose(let ids):
      try choose(ids, on: current)
    case .input(let text):
      try input(text, on: current)
    case .inputFields(let fields):
      try fill(fields, on: current)
    case .tap(let name):
      try tap(name, on: current)
    case .outcome(let name, _):
      throw reject("nothing is waiting for an answer ('\(name)')", on: current)
    case .launch, .reset, .elapse, .background, .foreground, .open:
      break
    }
  }

  mutating func choose(_ ids: [String], on current: StepIndex) throws {
    let step = flow.steps[current]
    guard let choice = step.choice else { throw reject("'\(step.id)' has no options to choose", on: current) }
    let known = choice.options.map(\.id)
    for id in ids where !known.contains(id) {
      var message = "'\(id)' is not an option of '\(step.id)'"
      if let guess = Suggestion.closest(to: id, in: known) { message += " (did you mean '\(guess)'?)" }
      throw reject(message, on: current)
    }
    if step.kind == .singleChoice && ids.count != 1 {
      throw reject("'\(step.id)' takes exactly one option", on: current)
    }
    if ids.count < choice.min { throw reject("choose at least \(choice.min) option(s) on '\(step.id)'", on: current) }
    if let max = choice.max, ids.count > max {
      throw reject("choose at most \(max) option(s) on '\(step.id)'", on: current)
    }
    guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
    let value: Value = step.kind == .singleChoice ? .string(ids[0]) : .list(ids.map(Value.string))
    let target = AssignmentTarget(variable: choice.variable.value, key: nil, location: choice.variable.location)
    try store([(target, value)], thenFollow: next, on: current)
  }

  mutating func input(_ text: String, on current: StepIndex) throws {
    let step = flow.steps[current]
    guard step.textInput != nil else {
      if !step.fields.isEmpty, let first = step.fields.first {
        return try fill([first.name: text], on: current)
      }
      throw reject("'\(step.id)' takes no text", on: current)
    }
    try confirmText(text, on: current)
  }

  /// Stores the text of a text-input step and follows `next`, when the text is accepted and next is enabled.
  mutating func confirmText(_ text: String, on current: StepIndex) throws {
    let step = flow.steps[current]
    guard let textInput = step.textInput, let next = step.next else {
      throw reject("'\(step.id)' has no next button", on: current)
    }
    if let problem = try textProblem(text, on: current) { throw reject(problem, on: current) }
    let before = state
    let beforeRecords = records.count
    let unchanged = flow.variableIndexByName[textInput.variable.value].map { readVariable($0) == .string(text) }
    if unchanged != true {
      try assign(AssignmentTarget(variable: textInput.variable.value, key: nil, location: .unknown), .string(text))
    }
    if let reason = try disabledReason(next, named: "next", on: current, text: text) {
      state = before
      log?.restored()
      records.removeSubrange(beforeRecords...)
      throw reject(reason, on: current)
    }
    try moveForward(from: current, via: next)
  }

  /// Why `text` is not accepted on a text-input step, or nil: its `valid` condition (default: non-empty when
  /// required) and the variable's allowed values.
  func textProblem(_ text: String, on current: StepIndex) throws(RunError) -> String? {
    let step = flow.steps[current]
    guard let textInput = step.textInput else { return nil }
    if let valid = textInput.valid {
      if !(try holds(valid, bindings: ["input": .string(text)])) {
        return "'\(text)' is not accepted on '\(step.id)' (\(explain(valid, bindings: ["input": .string(text)])))"
      }
    } else if textInput.isRequired && text.allSatisfy(\.isWhitespace) {
      return "'\(step.id)' needs a non-empty text"
    }
    if let index = flow.variableIndexByName[textInput.variable.value],
      let allowed = flow.variables[index].allowedValues, !allowed.contains(text)
    {
      return "'\(text)' is not one of \(Suggestion.list(allowed)) for '\(textInput.variable.value)'"
    }
    return nil
  }

  /// The text a text-input step's field holds now: its prefill, else the variable's value.
  func currentText(on current: StepIndex) throws(RunError) -> String {
    guard let textInput = flow.steps[current].textInput else { return "" }
    if let prefill = textInput.prefill, case .string(let text) = try evaluate(prefill) { return text }
    if let index = flow.variableIndexByName[textInput.variable.value], case .string(let text) = readVariable(index) {
      return text
    }
    return ""
  }

  /// Fills the form with `values` by field name (a field left out holds its prefill, if it has one), checks each
  /// field, then follows `next`.
  mutating func fill(_ values: [String: String], on current: StepIndex) throws {
    let step = flow.steps[current]
    guard !step.fields.isEmpty else { throw reject("'\(step.id)' has no form fields", on: current) }
    let names = step.fields.map(\.name)
    for name in values.keys.sorted() where !names.contains(name) {
      var message = "'\(name)' is not a field of '\(step.id)'"
      if let guess = Suggestion.closest(to: name, in: names) { message += " (did you mean '\(guess)'?)" }
      throw reject(message, on: current)
    }
    var assignments: [(AssignmentTarget, Value)] = []
    for field in step.fields {
      let shown = try isVisible(field)
      // A field not typed in holds its prefill, as on the screen (evaluated only then).
      var typed = values[field.name]
      if typed == nil, shown, let prefill = field.prefill { typed = Step.Field.text(of: try evaluate(prefill)) }
      guard let raw = typed else {
        if field.isRequired && shown {
          throw reject(
            try fieldMessage(field, .required, "field '\(field.name)' of '\(step.id)' is required"), on: current)
        }
        continue
      }
      guard shown else { throw reject("field '\(field.name)' of '\(step.id)' is hidden", on: current) }
      assignments.append((field.target, try checkedValue(raw, for: field, on: current)))
    }
    guard let next = step.next else { throw reject("'\(step.id)' has no next button", on: current) }
    try store(assignments, thenFollow: next, on: current)
  }

  /// Whether a form field is shown (its `visible` condition holds, or it has none).
  func isVisible(_ field: Step.Field) throws(RunError) -> Bool {
    guard let visible = field.visible else { return true }
    return try holds(visible)
  }

  /// The options a choice field offers now: its `options`, or the list or map its `optionsFrom` gives.
  func options(of field: Step.Field) throws(RunError) -> [(id: String, label: String?)] {
    guard let from = field.optionsFrom else {
      return try field.options.map { (option) throws(RunError) in
        (option.id, try Presenter(run: self).render(option.label) ?? option.id)
      }
    }
    switch try evaluate(from) {
    case .null: return []
    case .list(let items): return items.compactMap { Step.Field.text(of: $0).map { ($0, $0) } }
    case .map(let entries):
      return entries.sorted { $0.key < $1.key }.map { ($0.key, Step.Field.text(of: $0.value)) }
    case let other:
      throw RunError(
        message:
          "the options of field '\(field.name)' (\(from.expression.source)) must be a list or a map; found \(other.kindName)"
      )
    }
  }

  /// The value `raw` gives `field`, or a refusal with the field's message for the first check it fails: its type,
  /// its options, `min`/`max`, `minLength`/`maxLength`, `pattern`, and the allowed values of the variable it writes.
  func checkedValue(_ raw: String, for field: Step.Field, on current: StepIndex) throws -> Value {
    func fail(_ check: Step.Field.Check, _ fallback: String) throws -> Never {
      throw reject(try fieldMessage(field, check, fallback), on: current)
    }
    guard let value = field.parse(raw) else {
      try fail(.type, "'\(raw)' is not a valid \(field.type.rawValue) for field '\(field.name)'")
    }
    if field.type.hasOptions {
      let ids = try options(of: field).map(\.id)
      let chosen: [String] =
        if case .list(let items) = value { items.compactMap { if case .string(let s) = $0 { s } else { nil } } } else {
          [raw]
        }
      for id in chosen where !ids.contains(id) {
        try fail(.options, "'\(id)' is not an option of field '\(field.name)'; expected one of \(Suggestion.list(ids))")
      }
    }
    // A multi-choice field's bounds count the options chosen.
    let measured: Value = if case .list(let items) = value { .int(items.count) } else { value }
    if let minimum = field.minimum {
      let bound = try evaluate(minimum)
      if bound != .null, let order = Value.order(measured, bound), order < 0 {
        let least = Step.Field.text(of: bound) ?? ""
        try fail(
          .min,
          field.type == .multiChoice
            ? "choose at least \(least) option(s) for field '\(field.name)'"
            : "'\(raw)' is less than the least value \(least) of field '\(field.name)'")
      }
    }
    if let maximum = field.maximum {
      let bound = try evaluate(maximum)
      if bound != .null, let order = Value.order(measured, bound), order > 0 {
        let most = Step.Field.text(of: bound) ?? ""
        try fail(
          .max,
          field.type == .multiChoice
            ? "choose at most \(most) option(s) for field '\(field.name)'"
            : "'\(raw)' is more than the greatest value \(most) of field '\(field.name)'")
      }
    }
    if let minLength = field.minLength, raw.count < minLength {
      try fail(.minLength, "'\(raw)' is shorter than \(minLength) characters (field '\(field.name)')")
    }
    if let maxLength = field.maxLength, raw.count > maxLength {
      try fail(.maxLength, "'\(raw)' is longer than \(maxLength) characters (field '\(field.name)')")
    }
    if let pattern = field.pattern, let compiled = try? LinearPattern.compiled("^(?:" + pattern + ")$"),
      !compiled.matches(raw)
    {
      try fail(.pattern, "'\(raw)' does not match the pattern \(pattern) of field '\(field.name)'")
    }
    if field.target.key == nil, let index = flow.variableIndexByName[field.target.variable],
      let allowed = flow.variables[index].allowedValues, case .string(let text) = value, !allowed.contains(text)
    {
      throw reject("'\(raw)' is not one of \(Suggestion.list(allowed)) for field '\(field.name)'", on: current)
    }
    return value
  }

  /// The field's own text for a failed check, in the current language, else FlowKit's English sentence.
  func fieldMessage(_ field: Step.Field, _ check: Step.Field.Check, _ fallback: String) throws(RunError) -> String {
    guard let text = field.messages[check] else { return fallback }
    return try Presenter(run: self).render(text) ?? fallback
  }

  /// Stores the user's answer, then follows `next` if it is enabled with that answer; otherwise refuses and
  /// leaves the state as it was.
  mutating func store(
    _ assignments: [(AssignmentTarget, Value)], thenFollow next: Transition, on current: StepIndex
  ) throws {
    let before = state
    let beforeRecords = records.count
    for (target, value) in assignments { try assign(target, value) }
    do {
      try requireEnabled(next, named: "next", on: current)
    } catch {
      state = before
      log?.restored()
      records.removeSubrange(beforeRecords...)
      throw error
    }
    try moveForward(from: current, via: next)
  }

  mutating func tap(_ name: String, on current: StepIndex) throws {
    let step = flow.steps[current]
    if name == "next" && step.buttons.allSatisfy({ $0.name != "next" }) { return try userEvent(.next, on: current) }
    if name == "skip" && step.buttons.allSatisfy({ $0.name != "skip" }) { return try userEvent(.skip, on: current) }
    if name == "back" && step.buttons.allSatisfy({ $0.name != "back" }) { return try userEvent(.back, on: current) }
    if name == "request", let request = step.permission, step.buttons.allSatisfy({ $0.name != "request" }) {
      if let visible = request.visible, !(try holds(visible)) {
        throw reject("the request button of '\(step.id)' is not shown", on: current)
      }
      if let enabled = request.enabled, !(try holds(enabled)) {
        let run = self
        throw reject({ "the request button of '\(step.id)' is disabled (\(run.explain(enabled)))" }, on: current)
      }
      state.pending = .init(action: .requestPermission, permission: request.kind.value, button: nil)
      emit(.perform(action: .requestPermission, permission: request.kind.value, arguments: [:]))
      return
    }
    guard let button = step.buttons.first(where: { $0.name == name }) else {
      var message = "'\(step.id)' has no button '\(name)'"
      if let guess = Suggestion.closest(to: name, in: step.buttons.map(\.name)) {
        message += " (did you mean '\(guess)'?)"
      }
      throw reject(message, on: current)
    }
    if let visible = button.visible, !(try holds(visible)) {
      throw reject("button '\(name)' is not shown on '\(step.id)'", on: current)
    }
    if let enabled = button.enabled, !(try holds(enabled)) {
      let run = self
      throw reject({ "button '\(name)' is disabled (\(run.explain(enabled)))" }, on: current)
    }
    switch button.move {
    case .go(let target):
      try moveForward(from: current, via: button.transition(to: target), route: .button, name: name)
    case .perform(let call):
      try apply(button.effects, step: current)
      try start(call, button: name, on: current)
    case .request(let kind, _):
      try apply(button.effects, step: current)
      state.pending = .init(action: .requestPermission, permission: kind.value, button: name)
      emit(.perform(action: .requestPermission, permission: kind.value, arguments: [:]))
    }
  }

  /// Starts a call of a declared action on `step` (its action step's, or the button `button`'s): evaluates the
  /// arguments, waits for the outcome and asks for it with a `perform` effect.
  mutating func start(_ call: Step.ActionCall, button: String?, on step: StepIndex) throws(RunError) {
    var arguments: [String: Value] = [:]
    let outer = effectStep
    defer { effectStep = outer }
    effectStep = step
    for argument in call.arguments { arguments[argument.name] = try evaluate(argument.value) }
    state.pending = .init(action: call.name.value, permission: nil, button: button)
    emit(.perform(action: call.name.value, permission: nil, arguments: arguments))
  }

  mutating func answer(_ name: String, result: [String: Value], pending: RunState.Pending, on current: StepIndex) throws
  {
    let allowed = outcomeNames(of: pending)
    guard allowed.contains(name) else {
      var message = "'\(name)' is not an outcome of '\(pending.action)'"
      if let guess = Suggestion.closest(to: name, in: allowed) { message += " (did you mean '\(guess)'?)" }
      throw Rejection(message: message, allowed: allowed.map { "answer \($0)" })
    }
    state.pending = nil
    if let kind = pending.permission, let status = PermissionStatus(rawValue: name) {
      state.permissions[kind] = status
      log?.wrotePermissions()
    }
    let step = flow.steps[current]
    let outcomes: [Outcome]
    if let buttonName = pending.button, let button = step.buttons.first(where: { $0.name == buttonName }) {
      switch button.move {
      case .perform(let call): outcomes = call.outcomes
      case .request(_, let requestOutcomes): outcomes = requestOutcomes
      case .go: outcomes = []
      }
    } else {
      outcomes = step.permission?.outcomes ?? step.action?.outcomes ?? []
    }
    // The outcome's own entry, else the `else` entry; the move is named after the entry taken.
    guard let outcome = outcomes.handling(name) else { return }
    try moveForward(
      from: current, via: outcome.transition, route: .outcome, name: outcome.name,
      bindings: ["result": .map(result)])
  }
}
