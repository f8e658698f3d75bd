/// What the current step shows: texts in the current language, options, fields and buttons with their state.
/// `flowrun` renders it as text; an app could drive its views from it.
public struct Screen: Sendable, Hashable {
  /// An option of a choice step, with its label rendered and whether the variable holds it.
  public struct Option: Sendable, Hashable {
    /// The option's id: what `choose` takes and the variable stores.
    public package(set) var id: String
    /// The label in the current language (the id when it has no text).
    public package(set) var label: String
    /// Whether the choice variable holds this option.
    public package(set) var isSelected: Bool
  }
  /// A visible form field; `type` is the field type's name (`string`, `time`, `date`, `int`, `decimal`, `bool`,
  /// `toggle`, `single-choice`, `multi-choice`).
  public struct Field: Sendable, Hashable {
    /// The field's name: what `input NAME=VALUE` sets.
    public package(set) var name: String
    /// The label in the current language.
    public package(set) var label: String?
    /// The field type's name: `string`, `time` (`HH:MM`), `date` (`YYYY-MM-DD`), `int`, `decimal`, `bool`,
    /// `toggle`, `single-choice` or `multi-choice`.
    public package(set) var type: String
    /// The placeholder in the current language.
    public package(set) var placeholder: String?
    /// Whether `next` refuses the form without this field.
    public package(set) var isRequired: Bool
    /// The text the field starts with (its `prefill`), as `input` would take it.
    public package(set) var prefill: String? = nil
    /// Whether the field is a secure text field (a password, a code), shown masked.
    public package(set) var isSecure = false
    /// A choice field's options in order, with their labels in the current language.
    public package(set) var options: [Option] = []
    /// The least and greatest value accepted (inclusive), as text; for a multi-choice field, the fewest and most
    /// options.
    public package(set) var minimum: String? = nil
    public package(set) var maximum: String? = nil
    /// The fewest and most characters a string field accepts.
    public package(set) var minLength: Int? = nil
    public package(set) var maxLength: Int? = nil
    /// The regular expression the whole text must match.
    public package(set) var pattern: String? = nil
  }
  /// A visible button; a disabled one is shown but refuses the tap.
  public struct Button: Sendable, Hashable {
    /// The button's name: `next`, `skip`, `request` (a permission step's request) or a name from `buttons`.
    public package(set) var name: String
    /// The event a press sends: ``FlowEvent/next``, ``FlowEvent/skip`` or ``FlowEvent/tap(_:)``.
    public package(set) var event: FlowEvent
    /// The label in the current language.
    public package(set) var label: String
    /// Whether a tap is accepted now.
    public package(set) var isEnabled: Bool
  }

  /// The current step's id.
  public package(set) var step: String
  /// The current step's kind.
  public package(set) var kind: Step.Kind
  /// The locale the texts are rendered in.
  public package(set) var language: String
  /// The title in the current language.
  public package(set) var title: String?
  /// The body text in the current language.
  public package(set) var body: String?
  /// The options of a choice step, in order.
  public package(set) var options: [Option] = []
  /// Whether several options may be chosen at once.
  public package(set) var isMultipleChoice = false
  /// The fields of a form step, in order.
  public package(set) var fields: [Field] = []
  /// A text-input step's placeholder in the current language.
  public package(set) var inputPlaceholder: String?
  /// The text a text-input step's field starts with.
  public package(set) var inputPrefill: String?
  /// The text a text-input step's field holds now (its prefill, else the variable's value): what `next`
  /// confirms, and what its enabled state is checked with.
  public package(set) var inputText: String?
  /// The visible buttons, `next` and `skip` first.
  public package(set) var buttons: [Button] = []
  /// Whether `back` is accepted now.
  public package(set) var canGoBack = false
  /// The action or permission request waiting for an answer.
  public package(set) var waitingFor: DialogName?
  /// The terminal outcome, once the flow has ended.
  public package(set) var endedWith: TerminalOutcome?
}

extension Engine {
  /// What the current step shows, or nil before the run has started.
  ///
  /// - Throws: ``RunError`` when a text argument or a button condition cannot be evaluated.
  package func screen(for state: RunState) throws(RunError) -> Screen? {
    guard let current = state.current else { return nil }
    return try Presenter(run: Run(engine: self, state: state)).screen(on: current)
  }

  /// The commands the current step accepts (`next`, `choose a|b`, `tap restore`, `back`, ...); empty when a
  /// button condition cannot be evaluated (``screen(for:)`` then throws the reason).
  package func commands(for state: RunState) -> [String] {
    if state.inBackground { return ["foreground"] }
    guard let current = state.current else {
      // An action run at launch, before the first step: its answers.
      if let pending = state.pending {
        return Run(engine: self, state: state).outcomeNames(of: pending).map { "answer \($0)" }
      }
      return ["restart"]
    }
    return (try? Presenter(run: Run(engine: self, state: state)).commands(on: current)) ?? []
  }

  /// A text in the current language with its arguments filled in; nil when no alternative applies.
  ///
  /// - Throws: ``RunError`` when a condition or an argument cannot be evaluated.
  package func render(_ text: LocalizedText?, in state: RunState) throws(RunError) -> String? {
    try Presenter(run: Run(engine: self, state: state)).render(text)
  }

  /// The locale texts are shown in.
  package func language(in state: RunState) -> String {
    Presenter(run: Run(engine: self, state: state)).language
  }
}

struct Presenter {
  let run: Run
  var flow: Flow { run.flow }
  var state: RunState { run.state }

  var language: String {
    let fallback = flow.locales.first ?? "en"
    if let forced = run.engine.languageOverride { return forced }
    guard let expr = flow.language, case .string(let value)? = try? run.evaluate(expr) else { return fallback }
    if flow.locales.contains(value) { return value }
    if let prefix = value.split(separator: "-").first, flow.locales.contains(String(prefix)) { return String(prefix) }
    return fallback
  }

  func render(_ text: LocalizedText?) throws(RunError) -> String? {
    guard let text else { return nil }
    for alternative in text.alternatives {
      if let when = alternative.when, !(try run.holds(when)) { continue }
      return try render(alternative)
    }
    return nil
  }

  func render(_ alternative: LocalizedText.Alternative) throws(RunError) -> String {
    let table = flow.strings[language] ?? [:]
    var text =
      table[alternative.key]?.value ?? flow.strings[flow.locales.first ?? ""]?[alternative.key]?.value
      ?? alternative.key
    // A text with plural forms takes the form its `count` argument's number calls for in the current language.
    if let forms = flow.plurals[language]?[alternative.key],
      let count = alternative.args.first(where: { $0.name == "count" })
    {
      let category = PluralRules.category(of: try run.evaluate(count.value), locale: language)
      text = forms[category] ?? forms[.other] ?? text
    }
    for arg in alternative.args {
      let value = try run.evaluate(arg.value)
      let replacement: String =
        switch value {
        case .string(let s): s
        case .date, .duration: Step.Field.text(of: value) ?? ""
        default: value.description
        }
      text = text.replacing("{\(arg.name)}", with: replacement)
    }
    return text
  }

  func screen(on current: StepIndex) throws(RunError) -> Screen {
    let step = flow.steps[current]
    var screen = Screen(
      step: step.id, kind: step.kind, language: language, title: try render(step.title), body: try render(step.body))
    if let choice = step.choice {
      // An undeclared variable (FlowLint reports it; the compiler does not) selects nothing.
      let value = flow.variableIndexByName[choice.variable.value].map { state.variables[$0] } ?? .null
      screen.isMultipleChoice = step.kind == .multiChoice
      screen.options = try choice.options.map { (option) throws(RunError) in
        let selected: Bool =
          switch value {
          case .string(let s): s == option.id
          case .list(let l): l.contains(.string(option.id))
          default: false
          }
        return Screen.Option(id: option.id, label: try render(option.label) ?? option.id, isSelected: selected)
      }
    }
    if let input = step.textInput {
      screen.inputPlaceholder = try render(input.placeholder)
      if let prefill = input.prefill, case .string(let s) = try run.evaluate(prefill) { screen.inputPrefill = s }
      screen.inputText = try run.currentText(on: current)
    }
    for field in step.fields {
      if let shown = try self.field(field) { screen.fields.append(shown) }
    }
    screen.buttons = try buttons(on: current)
    screen.canGoBack = run.backAllowed(on: current)
    if let pending = state.pending {
      screen.waitingFor = pending.permission.map(DialogName.permission) ?? .action(pending.action)
    }
    if let ended = state.ended { screen.endedWith = ended.outcome }
    return screen
  }

  /// A form field as it is shown, or nil when it is hidden.
  func field(_ field: Step.Field) throws(RunError) -> Screen.Field? {
    guard try run.isVisible(field) else { return nil }
    var shown = Screen.Field(
      name: field.name, label: try render(field.label), type: field.type.rawValue,
      placeholder: try render(field.placeholder), isRequired: field.isRequired)
    if let prefill = field.prefill { shown.prefill = Step.Field.text(of: try run.evaluate(prefill)) }
    shown.isSecure = field.isSecure
    if field.type.hasOptions {
      let current: Value =
        field.target.key == nil
        ? flow.variableIndexByName[field.target.variable].map { state.variables[$0] } ?? .null : .null
      shown.options = try run.options(of: field).map { option in
        let selected: Bool =
          switch current {
          case .string(let s): s == option.id
          case .list(let l): l.contains(.string(option.id))
          default: false
          }
        return Screen.Option(id: option.id, label: option.label ?? option.id, isSelected: selected)
      }
    }
    if let minimum = field.minimum { shown.minimum = Step.Field.text(of: try run.evaluate(minimum)) }
    if let maximum = field.maximum { shown.maximum = Step.Field.text(of: try run.evaluate(maximum)) }
    shown.minLength = field.minLength
    shown.maxLength = field.maxLength
    shown.pattern = field.pattern
    return shown
  }

  /// Whether an optional condition holds; an absent one does.
  private func holds(_ condition: Expr?) throws(RunError) -> Bool {
    guard let condition else { return true }
    return try run.holds(condition)
  }

  func buttons(on current: StepIndex) throws(RunError) -> [Screen.Button] {
    let step = flow.steps[current]
    var buttons: [Screen.Button] = []
    if let request = step.permission {
      let visible = try holds(request.visible)
      if visible {
        let enabled = try holds(request.enabled)
        buttons.append(
          .init(
            name: "request", event: .tap("request"), label: try render(request.label) ?? "Allow \(request.kind.value)",
            isEnabled: enabled))
      }
    }
    for button in step.buttons {
      if let visible = button.visible, !(try run.holds(visible)) { continue }
      let enabled = try holds(button.enabled)
      buttons.append(
        .init(
          name: button.name, event: .tap(button.name), label: try render(button.label) ?? button.name,
          isEnabled: enabled))
    }
    if let next = step.next, try holds(next.visible) {
      let enabled = try run.disabledReason(next, named: "next", on: current) == nil
      buttons.append(
        .init(
          name: "next", event: .next, label: try render(next.label) ?? defaultLabel("common_next", "Next"),
          isEnabled: enabled))
    }
    if let skip = step.skip, try holds(skip.visible) {
      let enabled = try holds(skip.enabled)
      buttons.append(
        .init(
          name: "skip", event: .skip, label: try render(skip.label) ?? defaultLabel("common_skip", "Skip"),
          isEnabled: enabled))
    }
    return buttons
  }

  func defaultLabel(_ key: String, _ fallback: String) -> String {
    flow.strings[language]?[key]?.value ?? fallback
  }

  func commands(on current: StepIndex) throws(RunError) -> [String] {
    if state.ended != nil { return ["restart", "reset"] }
    if let pending = state.pending { return run.outcomeNames(of: pending).map { "answer \($0)" } }
    let step = flow.steps[current]
    var commands: [String] = []
    if let choice = step.choice, step.next != nil {
      commands.append("choose " + choice.options.map(\.id).joined(separator: step.kind == .multiChoice ? "," : "|"))
    }
    if step.textInput != nil, step.next != nil { commands.append("input TEXT") }
    if !step.fields.isEmpty, step.next != nil {
      var shown: [String] = []
      for field in step.fields {
        guard try run.isVisible(field) else { continue }
        let form: String =
          switch field.type {
          case .time: "HH:MM"
          case .date: "YYYY-MM-DD"
          case .bool, .toggle: "true|false"
          case .singleChoice: "ID"
          case .multiChoice: "ID,ID"
          case .string, .int, .decimal: "VALUE"
          }
        shown.append("\(field.name)=\(form)")
      }
      commands.append("input " + shown.joined(separator: " "))
    }
    for button in try buttons(on: current) where button.isEnabled { commands.append(button.event.name) }
    if run.backAllowed(on: current) { commands.append("back") }
    return commands
  }
}
