package import FlowCore

/// What a flow declares that the world outside it may name: the permission kinds it asks for, the environment
/// facts it reads, its locales and the system actions it performs. `flowrun`'s flags and a scenario case's
/// `env:`, `permissions:` and `answers:` are checked against it, so a typo (`--permission helthKit=denied`) is
/// an error with a suggestion instead of a setting nothing reads.
///
/// Each check returns nil when the name fits, or the whole message: `unknown permission 'helthKit' in
/// --permission; did you mean 'healthKit'? (the flow asks for: 'healthKit', 'location')`.
package struct FlowNames: Sendable {
  package let permissionKinds: [String]
  package let facts: [String: VariableType]
  package let locales: [String]
  /// Actions some step, button or `launch:` entry performs (`sign-in-with-apple`, `restore-profile`), and
  /// `request-review` when some effect (``Flow/effectLists``) requests a review.
  package let actions: Set<ActionName>
  /// The dialogs each step shows (its permission request, its action, its buttons' actions), by step id.
  package let stepDialogs: [String: [DialogName]]

  /// What an `answers:` key of a scenario case names.
  package enum AnswerKey: Sendable, Hashable {
    /// A permission kind the flow asks for: every request of it.
    case permission
    /// An action the flow performs: every call of it.
    case action
    /// A step that shows a dialog (and names no permission or action of the flow): that step's dialog only.
    case step
    case unknown
  }
  /// The actions the flow may perform, the prelude's and its own, with their outcomes and result fields.
  package let declarations: Declarations

  package init(_ flow: Flow) {
    declarations = flow.declarations
    var kinds: [String] = []
    for permission in flow.permissions where !kinds.contains(permission.value.rawValue) {
      kinds.append(permission.value.rawValue)
    }
    permissionKinds = kinds
    facts = Dictionary(flow.facts.map { ($0.name, $0.type) }) { first, _ in first }
    locales = flow.locales
    var actions = Set<ActionName>()
    var stepDialogs: [String: [DialogName]] = [:]
    for case .action(let call) in flow.launch { actions.insert(call.name.value) }
    for step in flow.steps {
      var dialogs: [DialogName] = step.permissionRequests.filter { $0.button == nil }.map { .permission($0.kind.value) }
      if let call = step.action { dialogs.append(.action(call.name.value)) }
      for button in step.buttons {
        switch button.move {
        case .perform(let call): dialogs.append(.action(call.name.value))
        case .request(let kind, _): dialogs.append(.permission(kind.value))
        case .go: break
        }
      }
      for case .action(let action) in dialogs { actions.insert(action) }
      var distinct: [DialogName] = []
      for dialog in dialogs where !distinct.contains(dialog) { distinct.append(dialog) }
      if !distinct.isEmpty { stepDialogs[step.id] = distinct }
    }
    self.stepDialogs = stepDialogs
    let requestsReview = flow.effectLists.contains { list in
      list.effects.contains { if case .requestReview = $0.kind { true } else { false } }
    }
    if requestsReview { actions.insert(.requestReview) }
    self.actions = actions
  }

  /// `kind` in `place` (`--permission`, `permissions`), checked against the kinds the flow asks for.
  package func checkPermission(_ kind: String, in place: String) -> String? {
    guard !permissionKinds.contains(kind) else { return nil }
    let declared =
      permissionKinds.isEmpty
      ? "the flow asks for no permission" : "the flow asks for: \(Suggestion.list(permissionKinds))"
    return "unknown permission '\(kind)' in \(place)\(Suggestion.didYouMean(kind, in: permissionKinds)) (\(declared))"
  }

  /// The fact `name` in `place` (`--env`, `env`), and its value when given: the flow must declare the fact and
  /// the value must have its type.
  package func checkFact(_ name: String, value: Value?, text: String? = nil, in place: String) -> String? {
    guard let type = facts[name] else {
      let names = facts.keys.sorted()
      let declared =
        names.isEmpty ? "the flow declares no environment fact" : "the flow declares: \(Suggestion.list(names))"
      return "unknown environment fact '\(name)' in \(place)\(Suggestion.didYouMean(name, in: names)) (\(declared))"
    }
    if let text, let problem = Self.checkNumber(text, in: "\(place) \(name)") { return problem }
    guard let value, !type.admits(value) else { return nil }
    return "the environment fact '\(name)' in \(place) is \(Self.article(type.rawValue)) \(type.rawValue); "
      + "found \(text.map { "'\($0)'" } ?? value.jsonText)"
  }

  /// `locale` in `place` (`--lang`), checked against the flow's locales.
  package func checkLocale(_ locale: String, in place: String) -> String? {
    guard !locales.contains(locale) else { return nil }
    return "unknown locale '\(locale)' in \(place)\(Suggestion.didYouMean(locale, in: locales)) "
      + "(the flow has: \(Suggestion.list(locales)))"
  }

  /// An answer's outcome for `action` in `place` (`--answer`, `--auth`, `--permission`), and whether the flow
  /// performs the action at all (a permission request's kind is checked by ``checkPermission(_:in:)``).
  package func checkOutcome(_ outcome: String, of action: ActionName, in place: String) -> String? {
    let outcomes =
      action == .requestPermission
      ? PermissionStatus.requestOutcomes.map(\.rawValue) : declarations.action(action)?.outcomeNames ?? []
    if action != .requestPermission, declarations.action(action) == nil {
      let names = declarations.actionNames
      return "unknown action '\(action)' in \(place)\(Suggestion.didYouMean(action.rawValue, in: names)) "
        + "(the flow declares: \(Suggestion.list(names)))"
    }
    if action != .requestPermission, !actions.contains(action) {
      return "\(place): the flow never performs '\(action)', so nothing would read this answer"
    }
    guard !outcomes.contains(outcome) else { return nil }
    return "unknown outcome '\(outcome)' in \(place)\(Suggestion.didYouMean(outcome, in: outcomes)) "
      + "('\(action)' answers one of: \(Suggestion.list(outcomes)))"
  }

  /// What the `answers:` key `key` names; a permission kind or action the flow uses wins over a step of the same
  /// name (`notifications`), which then needs no answers of its own.
  package func answerKey(_ key: String) -> AnswerKey {
    if permissionKinds.contains(key) { return .permission }
    if actions.contains(ActionName(rawValue: key)) { return .action }
    return stepDialogs[key] == nil ? .unknown : .step
  }

  /// The answers given under `key` in `place` (`answers`): the key must name a permission the flow asks for,
  /// an action it performs or a step that shows one dialog; each outcome must be one the dialog has, and each
  /// `result` value a member the outcome returns, of its type. One message per problem, with the position of
  /// what it is about (`keyAt` for the key, `answers` for each answer's outcome and result values).
  package func checkAnswers(
    _ key: String, keyAt keyLocation: SourceLocation, answers: [(ActionAnswer, AnswerPositions)], in place: String
  ) -> [(message: String, location: SourceLocation)] {
    let dialog: DialogName
    switch answerKey(key) {
    case .permission: dialog = .permission(PermissionKind(rawValue: key))
    case .action: dialog = .action(ActionName(rawValue: key))
    case .step:
      let dialogs = stepDialogs[key] ?? []
      guard dialogs.count == 1, let only = dialogs.first else {
        let shown = dialogs.map { "'\($0.answerKey)'" }.joined(separator: ", ")
        return [
          (
            "step '\(key)' in \(place) shows more than one dialog (\(shown)); key its answers by the permission or "
              + "action instead", keyLocation
          )
        ]
      }
      dialog = only
    case .unknown:
      let keys = (permissionKinds + actions.map(\.rawValue) + stepDialogs.keys).reduce(into: [String]()) {
        if !$0.contains($1) { $0.append($1) }
      }.sorted()
      let listed =
        keys.isEmpty
        ? "the flow shows no dialog to answer"
        : "answers are keyed by a permission the flow asks for, an action it performs or a step that shows a "
          + "dialog: \(Suggestion.list(keys))"
      return [("unknown key '\(key)' in \(place)\(Suggestion.didYouMean(key, in: keys)) (\(listed))", keyLocation)]
    }
    let action: ActionName
    switch dialog {
    case .permission: action = .requestPermission
    case .action(let name): action = name
    }
    var problems: [(message: String, location: SourceLocation)] = []
    let declaration = declarations.action(action)
    let outcomes =
      action == .requestPermission
      ? PermissionStatus.requestOutcomes.map(\.rawValue) : declaration?.outcomeNames ?? []
    for (answer, positions) in answers {
      if !outcomes.contains(answer.outcome) {
        problems.append(
          (
            "unknown outcome '\(answer.outcome)' in \(place) \(key)\(Suggestion.didYouMean(answer.outcome, in: outcomes)) "
              + "('\(dialog.answerKey)' answers one of: \(Suggestion.list(outcomes)))", positions.outcome
          ))
      }
      // The members the answered outcome returns (a permission request returns none); for a misspelt outcome,
      // those any outcome returns.
      let answered = declaration?.outcome(answer.outcome)
      let fields = answered.map(\.result) ?? declaration?.outcomes.flatMap(\.result) ?? []
      let types = Dictionary(fields.map { ($0.name, $0.type) }) { first, _ in first }
      let returning =
        answered == nil ? "'\(dialog.answerKey)' returns" : "'\(dialog.answerKey)' returns with '\(answer.outcome)'"
      for (name, value) in answer.result.sorted(by: { $0.key < $1.key }) {
        let location = positions.result[name] ?? positions.outcome
        guard let type = types[name] else {
          let members = types.keys.sorted()
          let returns =
            members.isEmpty
            ? "\(returning) no result" : "\(returning): \(Suggestion.list(members))"
          problems.append(
            (
              "unknown result '\(name)' in \(place) \(key)\(Suggestion.didYouMean(name, in: members)) (\(returns))",
              location
            ))
          continue
        }
        if !type.admits(value) {
          problems.append(
            (
              "the result '\(name)' in \(place) \(key) must be \(Self.describe(type)); found \(value.jsonText)",
              location
            ))
        }
      }
    }
    return problems
  }

  /// A plain-text value (`--env osVersion=26`, `success:age=30`) that writes an integer outside `Int`: the
  /// message naming it, the range and `place`; nil otherwise (other text is a string, as it says).
  package static func checkNumber(_ text: String, in place: String) -> String? {
    let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      Value.integer(text) == nil
    else { return nil }
    return "the integer \(text) in \(place) is out of range; integers must be between \(Int.min) and \(Int.max)"
  }

  /// `string or null` for an optional string, else the type as written.
  private static func describe(_ type: ValueType) -> String {
    if case .optional(let wrapped) = type { return "\(wrapped) or null" }
    return type.description
  }

  private static func article(_ word: String) -> String { word.first.map { "aeiou".contains($0) } == true ? "an" : "a" }
}

/// Where one scripted answer was written: its outcome (or the answer itself), and each `result` member.
package struct AnswerPositions: Sendable, Hashable {
  package var outcome: SourceLocation
  package var result: [String: SourceLocation] = [:]

  package init(outcome: SourceLocation, result: [String: SourceLocation] = [:]) {
    self.outcome = outcome
    self.result = result
  }
}

extension DialogName {
  /// The `answers:` key that scripts this dialog everywhere: the permission kind or the action name.
  package var answerKey: String {
    switch self {
    case .permission(let kind): kind.rawValue
    case .action(let name): name.rawValue
    }
  }
}
