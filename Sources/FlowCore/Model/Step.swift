/// One step of a flow: a screen, a question, a permission request, a system action or a terminal.
public struct Step: Sendable, Hashable {
  /// What the step is, as written in `kind:`.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case screen
    case singleChoice = "single-choice"
    case multiChoice = "multi-choice"
    case textInput = "text-input"
    case form
    case permission
    case action
    case terminal
  }

  public var id: String
  public var kind: Kind
  public var title: Text?
  public var body: Text?
  public var rawValue: Int?
  public var isRetired: Bool
  public var skipIf: Expr?
  /// Overrides the flow's `back` for this step.
  public var back: Bool?
  public var enter: [Effect]
  public var next: Transition?
  public var skip: Transition?
  public var buttons: [Button]
  public var autoAdvance: AutoAdvance?

  /// single-choice / multi-choice
  public var choice: Choice?
  /// text-input
  public var textInput: TextInput?
  /// form
  public var fields: [Field]
  /// permission
  public var permission: PermissionRequest?
  /// action
  public var action: ActionCall?
  /// terminal: completed, paywall or home
  public var terminalOutcome: TerminalOutcome?

  public var location: SourceLocation

  public var isTerminal: Bool { kind == .terminal }
}

extension Step {
  /// The options of a choice step and the variable the answer is stored in: `min` and `max` bound how many
  /// options one `choose` takes, and a required choice keeps `next` disabled while the variable is empty.
  public struct Choice: Sendable, Hashable {
    public var options: [Option]
    public var variable: Located<String>
    public var isRequired: Bool
    public var min: Int
    public var max: Int?
  }

  /// One option: its id (what `choose` takes and the variable stores) and its label.
  public struct Option: Sendable, Hashable {
    public var id: String
    public var label: Text
    public var location: SourceLocation
  }

  /// A text-input step's field: the variable the text is stored in, whether it may be blank (when there is
  /// no `valid` condition), a placeholder, a prefill expression and a `valid` condition over `input`.
  public struct TextInput: Sendable, Hashable {
    public var variable: Located<String>
    public var isRequired: Bool
    public var placeholder: Text?
    public var prefill: Expr?
    public var valid: Expr?
  }

  /// One field of a form step: its text is parsed by `type` and stored at `target` (by default the variable
  /// named like the field).
  public struct Field: Sendable, Hashable {
    /// How a field's text is parsed; a `time` is `HH:MM` and is stored as that string.
    public enum FieldType: String, Sendable, Hashable, CaseIterable { case string, time, bool, int }
    public var name: String
    public var label: Text?
    public var type: FieldType
    /// The variable written, and for a map variable the key (`habitTimes.wake`).
    public var target: AssignmentTarget
    public var isRequired: Bool
    public var placeholder: Text?
    public var location: SourceLocation
  }

  /// A permission step's request button (`tap request`): the permission kind, the button's label and
  /// conditions, and where each outcome goes.
  public struct PermissionRequest: Sendable, Hashable {
    public var kind: Located<PermissionKind>
    public var label: Text?
    public var enabled: Expr?
    public var visible: Expr?
    public var outcomes: [Outcome]
  }

  /// An action step's system action, performed when the step is entered, and where each outcome goes.
  public struct ActionCall: Sendable, Hashable {
    public var name: Located<ActionName>
    public var outcomes: [Outcome]
  }

  /// Follows `next` by itself: `seconds` after the first event after which `when` holds (at once when
  /// `seconds` is 0).
  public struct AutoAdvance: Sendable, Hashable {
    public var seconds: Double
    public var when: Expr?
    public var location: SourceLocation
  }
}

/// What happens on one outcome of an action or permission request.
public struct Outcome: Sendable, Hashable {
  public var name: String
  public var transition: Transition
  public var location: SourceLocation
}

/// A way out of a step: a target, its label and effects.
public struct Transition: Sendable, Hashable {
  public var target: Target
  public var label: Text?
  public var enabled: Expr?
  public var effects: [Effect]
  public var location: SourceLocation

  package init(
    target: Target, label: Text? = nil, enabled: Expr? = nil, effects: [Effect] = [], location: SourceLocation
  ) {
    self.target = target
    self.label = label
    self.enabled = enabled
    self.effects = effects
    self.location = location
  }
}

/// Where a transition goes.
public enum Target: Sendable, Hashable {
  case step(StepIndex)
  /// Stay on the current step without re-entering it.
  case stay
  /// The first route whose condition holds.
  case routes([Route])
}

/// One guarded route of a transition: taken when `when` holds or is absent; its effects run before the move.
public struct Route: Sendable, Hashable {
  public var when: Expr?
  public var target: StepIndex?  // nil means `stay`
  public var effects: [Effect]
  public var location: SourceLocation
}

/// A named button (`tap NAME`).
public struct Button: Sendable, Hashable {
  /// Where the button leads: a transition target, or a system action whose outcome decides.
  public enum Move: Sendable, Hashable {
    case go(Target)
    case perform(action: Located<ActionName>, outcomes: [Outcome])
  }
  public var name: String
  public var label: Text?
  public var enabled: Expr?
  public var visible: Expr?
  public var effects: [Effect]
  public var move: Move
  public var location: SourceLocation
}

/// A localized text: guarded alternatives, the first whose condition holds is shown.
public struct Text: Sendable, Hashable {
  /// A string key with the condition under which it is shown and the arguments for its `{name}` placeholders.
  public struct Alternative: Sendable, Hashable {
    public var when: Expr?
    public var key: String
    public var args: [Named<Expr>]
    public var location: SourceLocation
  }
  public var alternatives: [Alternative]
}

/// `VAR` or `VAR.KEY` (one key of a map variable).
public struct AssignmentTarget: Sendable, Hashable, CustomStringConvertible {
  public var variable: String
  public var key: String?
  public var location: SourceLocation
  public var description: String { key.map { "\(variable).\($0)" } ?? variable }
}

/// An effect as data: the engine emits it in order, pluggable handlers perform it.
public struct Effect: Sendable, Hashable {
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
  }
  public var kind: Kind
  public var when: Expr?
  public var location: SourceLocation

  /// The effect's type key as written (`set`, `track`, ...).
  public var typeName: String {
    switch kind {
    case .set: "set"
    case .track: "track"
    case .userProperty: "userProperty"
    case .requestReview: "requestReview"
    case .syncProfile: "syncProfile"
    case .placement: "placement"
    case .completeOnboarding: "completeOnboarding"
    case .log: "log"
    }
  }

  public static let typeNames = [
    "set", "track", "userProperty", "requestReview", "syncProfile", "placement", "completeOnboarding", "log",
  ]
}
