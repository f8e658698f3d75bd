/// What a flow declares about the world outside it, on top of the standard prelude (`schemas/prelude.json`,
/// implied for every flow): the actions the app performs, the effects it carries out and the terminal outcomes
/// the flow may end with. The engine, the linter, `flowrun`, explore and coverage read actions from here, so an
/// action the flow declares needs no code of its own.
package struct Declarations: Sendable, Hashable {
  /// The actions by name: the prelude's, then the flow's (a flow's declaration replaces the prelude's).
  package var actions: [ActionName: ActionDeclaration] = [:]
  /// The custom effects by name (`followUser: {userId: ...}`).
  package var effects: [String: EffectDeclaration] = [:]
  /// The terminal outcomes a `terminal` step may name: the prelude's, then the flow's, in order.
  package var outcomes: [TerminalOutcome] = []
  /// The permission kinds known by name: the prelude's catalogue and those the flow declares as its own.
  package var permissions: [PermissionKind: PermissionDeclaration] = [:]

  package init() {}

  /// The declaration of `name`, nil when neither the prelude nor the flow declares it.
  package func action(_ name: ActionName) -> ActionDeclaration? { actions[name] }

  /// The declared action names, sorted (for messages).
  package var actionNames: [String] { actions.keys.map(\.rawValue).sorted() }

  /// The declared custom effect names, sorted (for messages).
  package var effectNames: [String] { effects.keys.sorted() }

  /// `other`'s declarations added to these; where both declare a name, `other`'s wins.
  package func adding(_ other: Declarations) -> Declarations {
    var result = self
    result.actions.merge(other.actions) { _, new in new }
    result.effects.merge(other.effects) { _, new in new }
    for outcome in other.outcomes where !result.outcomes.contains(outcome) { result.outcomes.append(outcome) }
    result.permissions.merge(other.permissions) { _, new in new }
    return result
  }
}

/// An action the app performs (`purchase`, `sign-in-with-apple`): its typed arguments, the outcomes it can
/// answer with and the typed `result` fields of each.
package struct ActionDeclaration: Sendable, Hashable {
  package let name: ActionName
  /// The arguments a call passes (`arguments: {product: "'pro.yearly'"}`), each with its type; all required.
  package let arguments: [Named<ValueType>]
  /// The outcomes, in the order declared.
  package let outcomes: [OutcomeDeclaration]
  /// How long the session waits for an answer, in seconds; nil waits as long as `FlowSession.actionTimeout`.
  package let timeout: Double?
  /// The outcome a scripted provider answers when nothing is scripted and nobody is asked (the first outcome
  /// when the declaration names none).
  package let defaultOutcome: String
  /// Where the declaration is written; `isPrelude` says in which document.
  package let location: SourceLocation
  /// Whether the standard prelude declares it (and no flow replaced it).
  package let isPrelude: Bool

  /// The outcome names, in the order declared.
  package var outcomeNames: [String] { outcomes.map(\.name) }

  /// The declaration of the outcome `name`.
  package func outcome(_ name: String) -> OutcomeDeclaration? { outcomes.first { $0.name == name } }

  /// The type of `result` in the transition of the outcomes `names`: a record of the fields they all return
  /// (a field two of them return with different types is `any`).
  package func resultType(of names: [String]) -> ValueType {
    let declared = names.compactMap(outcome)
    guard let first = declared.first else { return .record([:]) }
    var fields: [String: ValueType] = [:]
    for field in first.result { fields[field.name] = field.type }
    for other in declared.dropFirst() {
      for (name, type) in fields {
        guard let field = other.result.first(where: { $0.name == name }) else {
          fields[name] = nil
          continue
        }
        if field.type != type { fields[name] = .any }
      }
    }
    return .record(fields)
  }
}

/// One outcome of an action: its name, the `result` fields it returns, and whether answering it shows a
/// system dialog.
package struct OutcomeDeclaration: Sendable, Hashable {
  package let name: String
  package let result: [ResultField]
  /// Whether the answer comes from a system dialog (`false` for a server call, or the review prompt the
  /// system suppressed).
  package let dialog: Bool
  package let location: SourceLocation
}

/// A field of an outcome's `result`, with its type and the value explore and `flowrun` answer with.
package struct ResultField: Sendable, Hashable {
  package let name: String
  package let type: ValueType
  /// The value explore gives the field (`example:`), or a value of its type.
  package let example: Value
  package let location: SourceLocation
}

/// A permission kind of the catalogue (the prelude's) or of the flow's own: the platform API that asks for it
/// and the platform status each outcome stands for.
package struct PermissionDeclaration: Sendable, Hashable {
  package let kind: PermissionKind
  /// The platform call that shows the dialog (`UNUserNotificationCenter.requestAuthorization(options:)`).
  package let api: String?
  /// Outcome (or `notDetermined`) → the platform status it stands for, in the order written.
  package let statuses: [Named<String>]
  /// What else a reader should know.
  package let note: String?
  package let location: SourceLocation
}

/// A custom effect the app performs (`openSettings`, `followUser: {userId: ...}`), with typed arguments.
package struct EffectDeclaration: Sendable, Hashable {
  package let name: String
  package let arguments: [Named<ValueType>]
  package let location: SourceLocation
}

extension Flow {
  /// The declaration of the action `name`.
  package func action(_ name: ActionName) -> ActionDeclaration? { declarations.actions[name] }
}
