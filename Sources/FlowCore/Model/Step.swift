/// One step of a flow: a screen, a question, a permission request, a system action or a terminal.
public struct Step: Sendable, Hashable {
  /// What the step is, as written in `kind:`.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Texts and buttons.
    case screen
    /// One option of several.
    case singleChoice = "single-choice"
    /// Several options of several.
    case multiChoice = "multi-choice"
    /// A line of text.
    case textInput = "text-input"
    /// Named fields.
    case form
    /// A permission request.
    case permission
    /// A system action performed on entry.
    case action
    /// The end of the flow.
    case terminal
  }

  /// The step's fields, behind one reference: the engine reads a step on every event, and copying a `Step` by
  /// value would retain each of its fields.
  private let storage: Storage

  /// An immutable box for a ``Step``'s fields.
  private final class Storage: Sendable {
    let kind: Kind
    let id: String
    let content: Content
    let title: LocalizedText?
    let body: LocalizedText?
    let rawValue: Int?
    let isRetired: Bool
    let skipIf: Expr?
    let back: Bool?
    let enter: [Effect]
    let next: Transition?
    let skip: Transition?
    let buttons: [StepButton]
    let autoAdvance: AutoAdvance?
    let location: SourceLocation

    init(
      id: String, content: Content, title: LocalizedText?, body: LocalizedText?, rawValue: Int?,
      isRetired: Bool, skipIf: Expr?, back: Bool?, enter: [Effect], next: Transition?, skip: Transition?,
      buttons: [StepButton], autoAdvance: AutoAdvance?, location: SourceLocation
    ) {
      kind = Step.kind(of: content)
      self.id = id
      self.content = content
      self.title = title
      self.body = body
      self.rawValue = rawValue
      self.isRetired = isRetired
      self.skipIf = skipIf
      self.back = back
      self.enter = enter
      self.next = next
      self.skip = skip
      self.buttons = buttons
      self.autoAdvance = autoAdvance
      self.location = location
    }

    /// Whether the two boxes hold equal fields.
    func holdsSameFields(as other: Storage) -> Bool {
      id == other.id && content == other.content && title == other.title && body == other.body
        && rawValue == other.rawValue && isRetired == other.isRetired && skipIf == other.skipIf && back == other.back
        && enter == other.enter && next == other.next && skip == other.skip && buttons == other.buttons
        && autoAdvance == other.autoAdvance && location == other.location
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(id)
      hasher.combine(content)
      hasher.combine(title)
      hasher.combine(body)
      hasher.combine(rawValue)
      hasher.combine(isRetired)
      hasher.combine(skipIf)
      hasher.combine(back)
      hasher.combine(enter)
      hasher.combine(next)
      hasher.combine(skip)
      hasher.combine(buttons)
      hasher.combine(autoAdvance)
      hasher.combine(location)
    }
  }

  /// The step's id, unique in the flow.
  package var id: String { storage.id }
  /// What the step shows or does, with what its kind needs.
  package var content: Content { storage.content }
  /// The title, if any.
  package var title: LocalizedText? { storage.title }
  /// The body text, if any.
  package var body: LocalizedText? { storage.body }
  /// The number the step is stored as (`rawValue:`), for resuming a flow from a stored step number.
  package var rawValue: Int? { storage.rawValue }
  /// A retired step is kept so that stored runs resume, but nothing should route to it.
  package var isRetired: Bool { storage.isRetired }
  /// When it holds, the step is skipped on entry.
  package var skipIf: Expr? { storage.skipIf }
  /// Overrides the flow's `back` for this step.
  package var back: Bool? { storage.back }
  /// Effects run when the step is entered.
  package var enter: [Effect] { storage.enter }
  /// Where `next` goes.
  package var next: Transition? { storage.next }
  /// Where `skip` goes.
  package var skip: Transition? { storage.skip }
  /// The step's own named buttons.
  package var buttons: [StepButton] { storage.buttons }
  /// Follows `next` by itself after a delay.
  package var autoAdvance: AutoAdvance? { storage.autoAdvance }
  /// Where `id:` is, for diagnostics.
  package var location: SourceLocation { storage.location }

  public static func == (lhs: Step, rhs: Step) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.holdsSameFields(as: rhs.storage)
  }

  public func hash(into hasher: inout Hasher) { storage.hash(into: &hasher) }

  /// What a step is, with what its kind needs: a choice's options, a text field, form fields, a permission
  /// request, an action call or a terminal outcome.
  package enum Content: Sendable, Hashable {
    /// Shows texts and buttons.
    case screen
    /// One option of several.
    case singleChoice(Choice)
    /// Several options of several.
    case multiChoice(Choice)
    /// A line of text.
    case textInput(TextInput)
    /// Named fields.
    case form([Field])
    /// A permission request with a button (`tap request`).
    case permission(PermissionRequest)
    /// A system action performed on entry.
    case action(ActionCall)
    /// The end of the flow, with its outcome.
    case terminal(TerminalOutcome)
  }

  package init(
    id: String, content: Content, title: LocalizedText? = nil, body: LocalizedText? = nil, rawValue: Int? = nil,
    isRetired: Bool = false, skipIf: Expr? = nil, back: Bool? = nil, enter: [Effect] = [], next: Transition? = nil,
    skip: Transition? = nil, buttons: [StepButton] = [], autoAdvance: AutoAdvance? = nil, location: SourceLocation
  ) {
    storage = Storage(
      id: id, content: content, title: title, body: body, rawValue: rawValue, isRetired: isRetired, skipIf: skipIf,
      back: back, enter: enter, next: next, skip: skip, buttons: buttons, autoAdvance: autoAdvance, location: location)
  }
}

// MARK: - Content

extension Step {
  /// What the step is, as written in `kind:`.
  public var kind: Kind { storage.kind }
}

extension Step {
  /// The kind of step `content` makes.
  fileprivate static func kind(of content: Content) -> Kind {
    switch content {
    case .screen: .screen
    case .singleChoice: .singleChoice
    case .multiChoice: .multiChoice
    case .textInput: .textInput
    case .form: .form
    case .permission: .permission
    case .action: .action
    case .terminal: .terminal
    }
  }
}

extension Step {
  /// Whether the step ends the flow.
  package var isTerminal: Bool { kind == .terminal }

  /// The options of a single- or multi-choice step.
  package var choice: Choice? {
    switch content {
    case .singleChoice(let choice), .multiChoice(let choice): choice
    default: nil
    }
  }

  /// The field of a text-input step.
  package var textInput: TextInput? {
    if case .textInput(let input) = content { input } else { nil }
  }

  /// The fields of a form step; empty for other kinds.
  package var fields: [Field] {
    if case .form(let fields) = content { fields } else { [] }
  }

  /// The request of a permission step.
  package var permission: PermissionRequest? {
    if case .permission(let request) = content { request } else { nil }
  }

  /// Every permission request the step can make, in the order written: a permission step's own, then each
  /// button's that requests one (`permission: KIND`), with the outcomes it routes and the button's name.
  package var permissionRequests: [(kind: Located<PermissionKind>, outcomes: [Outcome], button: String?)] {
    var requests: [(kind: Located<PermissionKind>, outcomes: [Outcome], button: String?)] = []
    if let permission { requests.append((permission.kind, permission.outcomes, nil)) }
    for button in buttons {
      if case .request(let kind, let outcomes) = button.move { requests.append((kind, outcomes, button.name)) }
    }
    return requests
  }

  /// The action of an action step.
  package var action: ActionCall? {
    if case .action(let call) = content { call } else { nil }
  }

  /// The outcome of a terminal step.
  package var terminalOutcome: TerminalOutcome? {
    if case .terminal(let outcome) = content { outcome } else { nil }
  }
}

extension Step {
  /// The options of a choice step and the variable the answer is stored in: `min` and `max` bound how many
  /// options one `choose` takes, and a required choice keeps `next` disabled while the variable is empty.
  package struct Choice: Sendable, Hashable {
    package let options: [Option]
    package let variable: Located<String>
    package let isRequired: Bool
    package let min: Int
    package let max: Int?
  }

  /// One option: its id (what `choose` takes and the variable stores) and its label.
  package struct Option: Sendable, Hashable {
    package let id: String
    package let label: LocalizedText
    package let location: SourceLocation
  }

  /// A text-input step's field: the variable the text is stored in, whether it may be blank (when there is
  /// no `valid` condition), a placeholder, a prefill expression and a `valid` condition over `input`.
  package struct TextInput: Sendable, Hashable {
    package let variable: Located<String>
    package let isRequired: Bool
    package let placeholder: LocalizedText?
    package let prefill: Expr?
    package let valid: Expr?
    /// The texts `flowrun explore` types (`values:`); when empty it derives them from `valid` and the conditions
    /// that read the variable.
    package var values: [String] = []
  }

  /// One field of a form step: its text is parsed by `type` and stored at `target` (by default the variable
  /// named like the field), when it passes the field's checks (options, `min`/`max`, length, `pattern`).
  ///
  /// Everything a front end or `flowrun explore` needs to choose a value is here: the type, the bounds, the
  /// options (or the expression that lists them), the length and the pattern.
  package struct Field: Sendable, Hashable {
    /// How a field's text is parsed: a `time` is `HH:MM` and is stored as that string, a `date` `YYYY-MM-DD`
    /// stored as a date, a `bool` or `toggle` `true`/`false`, a `decimal` `80.5`, a `single-choice` one option id
    /// (stored as a string), a `multi-choice` option ids separated by commas (stored as a list).
    package enum FieldType: String, Sendable, Hashable, CaseIterable {
      case string, time, bool, toggle, int, decimal, date
      case singleChoice = "single-choice"
      case multiChoice = "multi-choice"

      /// The type of value the field stores.
      package var valueType: VariableType {
        switch self {
        case .string, .time, .singleChoice: .string
        case .bool, .toggle: .bool
        case .int: .int
        case .decimal: .decimal
        case .date: .date
        case .multiChoice: .list
        }
      }

      /// Whether the field takes its value from `options`.
      package var hasOptions: Bool { self == .singleChoice || self == .multiChoice }
    }
    /// The checks a field's value must pass, as `messages:` names them.
    package enum Check: String, Sendable, Hashable, CaseIterable {
      case required, type, options, min, max, minLength, maxLength, pattern
    }
    package let name: String
    package let label: LocalizedText?
    package let type: FieldType
    /// The variable written, and for a map variable the key (`habitTimes.wake`).
    package let target: AssignmentTarget
    package let isRequired: Bool
    package let placeholder: LocalizedText?
    package let location: SourceLocation
    /// The text the field shows on entry (a value of the field's type; a date as `YYYY-MM-DD`).
    package var prefill: Expr? = nil
    /// When it does not hold, the field is hidden: not shown, not required, and `input` refuses it.
    package var visible: Expr? = nil
    /// A secure text field (a password, a code): shown masked.
    package var isSecure = false
    /// The least value (an int, decimal, date or `HH:MM` time, as the field's type), or the fewest options of a
    /// multi-choice field; inclusive.
    package var minimum: Expr? = nil
    /// The greatest value, or the most options of a multi-choice field; inclusive.
    package var maximum: Expr? = nil
    /// The fewest and most characters of a string field.
    package var minLength: Int? = nil
    package var maxLength: Int? = nil
    /// A regular expression a string field's whole text must match (run by ``LinearPattern``, anchored).
    package var pattern: String? = nil
    /// The options of a choice field, in order.
    package var options: [Option] = []
    /// An expression that lists a choice field's options instead: a list of strings (each its own label) or a
    /// map of id to label (in key order).
    package var optionsFrom: Expr? = nil
    /// The text shown when a check fails, by check; a check without one gets FlowKit's English sentence.
    package var messages: [Check: LocalizedText] = [:]
    /// The texts `flowrun explore` types into the field (`values:`); when empty it derives them from the field's
    /// type and the conditions that read its target.
    package var values: [String] = []
  }

  /// A permission step's request button (`tap request`): the permission kind, the button's label and
  /// conditions, and where each outcome goes.
  package struct PermissionRequest: Sendable, Hashable {
    package let kind: Located<PermissionKind>
    package let label: LocalizedText?
    package let enabled: Expr?
    package let visible: Expr?
    package let outcomes: [Outcome]
  }

  /// A call of a declared action (an action step's, performed when the step is entered, or a button's): the
  /// action, its argument expressions, and where each outcome goes (`else` for every outcome not named).
  package struct ActionCall: Sendable, Hashable {
    package let name: Located<ActionName>
    package let arguments: [Named<Expr>]
    package let outcomes: [Outcome]

    /// Where the outcome `name` goes: its own entry, else the `else` entry.
    package func outcome(_ name: String) -> Outcome? { outcomes.handling(name) }
  }

  /// Follows `next` by itself: `seconds` after the first event after which `when` holds (at once when
  /// `seconds` is 0).
  package struct AutoAdvance: Sendable, Hashable {
    package let seconds: Double
    package let when: Expr?
    package let location: SourceLocation
  }
}

/// What happens on one outcome of an action or permission request; the name `else` handles every outcome the
/// table does not name.
package struct Outcome: Sendable, Hashable {
  package let name: String
  package let transition: Transition
  package let location: SourceLocation

  /// The catch-all key of an `on:` table.
  package static let catchAll = "else"

  /// Whether this is the `else` entry.
  package var isCatchAll: Bool { name == Self.catchAll }
}

extension [Outcome] {
  /// The entry that handles the outcome `name`: its own, else the `else` entry, else nil (the step stays).
  package func handling(_ name: String) -> Outcome? {
    first { $0.name == name } ?? first { $0.isCatchAll }
  }

  /// The outcomes of `all` that the `else` entry handles (none when there is no `else`).
  package func coveredByElse(of all: [String]) -> [String] {
    guard contains(where: \.isCatchAll) else { return [] }
    let named = Set(map(\.name))
    return all.filter { !named.contains($0) }
  }
}

/// A way out of a step: a target, its label and effects.
package struct Transition: Sendable, Hashable {
  /// The fields, behind one reference: the engine passes a transition along on every move.
  private let storage: Storage

  private final class Storage: Sendable {
    let target: Target
    let label: LocalizedText?
    let enabled: Expr?
    let visible: Expr?
    let effects: [Effect]
    let location: SourceLocation

    init(
      target: Target, label: LocalizedText?, enabled: Expr?, visible: Expr?, effects: [Effect],
      location: SourceLocation
    ) {
      self.target = target
      self.label = label
      self.enabled = enabled
      self.visible = visible
      self.effects = effects
      self.location = location
    }
  }

  package var target: Target { storage.target }
  package var label: LocalizedText? { storage.label }
  package var enabled: Expr? { storage.enabled }
  /// Whether the button is shown (`next`, `skip`); a hidden one cannot be tapped, while a choice, an input or a
  /// timer still follows it.
  package var visible: Expr? { storage.visible }
  package var effects: [Effect] { storage.effects }
  package var location: SourceLocation { storage.location }

  package static func == (lhs: Transition, rhs: Transition) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.target == rhs.target && lhs.label == rhs.label && lhs.enabled == rhs.enabled
        && lhs.visible == rhs.visible && lhs.effects == rhs.effects && lhs.location == rhs.location)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(target)
    hasher.combine(label)
    hasher.combine(enabled)
    hasher.combine(visible)
    hasher.combine(effects)
    hasher.combine(location)
  }

  package init(
    target: Target, label: LocalizedText? = nil, enabled: Expr? = nil, visible: Expr? = nil, effects: [Effect] = [],
    location: SourceLocation
  ) {
    storage = Storage(
      target: target, label: label, enabled: enabled, visible: visible, effects: effects, location: location)
  }
}

/// Where a transition goes.
package enum Target: Sendable, Hashable {
  case step(StepIndex)
  /// Stay on the current step without re-entering it.
  case stay
  /// The first route whose condition holds.
  case routes([Route])
}

/// One guarded route of a transition: taken when `when` holds or is absent; its effects run before the move.
package struct Route: Sendable, Hashable {
  package let when: Expr?
  /// The step it goes to; nil with no `rawValue` means `stay`.
  package let target: StepIndex?
  package let effects: [Effect]
  package let location: SourceLocation
  /// `{when, rawValue: EXPR}`: goes to the step whose `rawValue` is the expression's value, and is passed over
  /// (as a `when` that does not hold) when no step has it.
  package var rawValue: Expr? = nil

  /// Whether the route keeps the user on the step.
  package var isStay: Bool { target == nil && rawValue == nil }
}

/// A named button of a step (`tap NAME`). (Not `Button`, which SwiftUI declares.)
package struct StepButton: Sendable, Hashable {
  /// Where the button leads: a transition target, a declared action whose outcome decides, or a permission
  /// request whose outcome decides (a priming screen's "Turn on notifications").
  package enum Move: Sendable, Hashable {
    case go(Target)
    case perform(Step.ActionCall)
    case request(Located<PermissionKind>, outcomes: [Outcome])
  }
  package let name: String
  package let label: LocalizedText?
  package let enabled: Expr?
  package let visible: Expr?
  package let effects: [Effect]
  package let move: Move
  package let location: SourceLocation
}

/// A localized text: guarded alternatives, the first whose condition holds is shown. (Not `Text`, which SwiftUI
/// declares.)
package struct LocalizedText: Sendable, Hashable {
  /// A string key with the condition under which it is shown and the arguments for its `{name}` placeholders.
  package struct Alternative: Sendable, Hashable {
    package let when: Expr?
    package let key: String
    package let args: [Named<Expr>]
    package let location: SourceLocation
  }
  package let alternatives: [Alternative]
}

/// `VAR` or `VAR.KEY` (one key of a map variable).
package struct AssignmentTarget: Sendable, Hashable, CustomStringConvertible {
  package let variable: String
  package let key: String?
  package let location: SourceLocation
  package var description: String { key.map { "\(variable).\($0)" } ?? variable }
}

/// An effect as data: the engine emits it in order, pluggable handlers perform it.
package struct Effect: Sendable, Hashable {
  /// What the effect does; expressions are evaluated when it runs.
  public enum Kind: Sendable, Hashable {
    case set(AssignmentTarget, Expr)
    case track(event: String, properties: [Named<Expr>])
    case userProperty(name: String, value: Expr)
    case requestReview
    case syncProfile(userID: Expr?)
    case placement(String)
    case completeOnboarding
    case log(Expr)
    /// A custom effect the flow declares under `effects:`, with its argument expressions.
    case custom(name: String, arguments: [Named<Expr>], location: SourceLocation)
  }
  package let kind: Kind
  package let when: Expr?
  package let location: SourceLocation

  /// The effect's type key as written (`set`, `track`, ...).
  package var typeName: String {
    switch kind {
    case .set: "set"
    case .track: "track"
    case .userProperty: "userProperty"
    case .requestReview: "requestReview"
    case .syncProfile: "syncProfile"
    case .placement: "placement"
    case .completeOnboarding: "completeOnboarding"
    case .log: "log"
    case .custom(let name, _, _): name
    }
  }

  package static let typeNames = [
    "set", "track", "userProperty", "requestReview", "syncProfile", "placement", "completeOnboarding", "log",
  ]
}
