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
  /// Actions some step or button performs (`sign-in-with-apple`, `restore-profile`), and `request-review` when
  /// some effect (``Flow/effectLists``) requests a review.
  package let actions: Set<ActionName>

  package init(_ flow: Flow) {
    var kinds: [String] = []
    for permission in flow.permissions where !kinds.contains(permission.value.rawValue) {
      kinds.append(permission.value.rawValue)
    }
    permissionKinds = kinds
    facts = Dictionary(flow.facts.map { ($0.name, $0.type) }) { first, _ in first }
    locales = flow.locales
    var actions = Set<ActionName>()
    for step in flow.steps {
      if let call = step.action { actions.insert(call.name.value) }
      for button in step.buttons {
        if case .perform(let action, _) = button.move { actions.insert(action.value) }
      }
    }
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

  /// An answer's outcome for `action` in `place` (`--auth`, `--review`, `--permission`), and whether the flow
  /// performs the action at all (a permission request's kind is checked by ``checkPermission(_:in:)``).
  package func checkOutcome(_ outcome: String, of action: ActionName, in place: String) -> String? {
    let outcomes = action.outcomes ?? []
    if action != .requestPermission, !actions.contains(action) {
      return "\(place): the flow never performs '\(action)', so nothing would read this answer"
    }
    guard !outcomes.contains(outcome) else { return nil }
    return "unknown outcome '\(outcome)' in \(place)\(Suggestion.didYouMean(outcome, in: outcomes)) "
      + "('\(action)' answers one of: \(Suggestion.list(outcomes)))"
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

  private static func article(_ word: String) -> String { word.first.map { "aeiou".contains($0) } == true ? "an" : "a" }
}
