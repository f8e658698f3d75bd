internal import FlowCore

/// An action call or custom effect whose arguments do not match its declaration: one missing, or one it does
/// not declare. (An argument of the wrong type is `expression-type`'s.)
struct ActionArgumentsRule: LintRule {
  static let description = RuleDescription(
    id: "action-arguments",
    summary:
      "an action call's 'arguments' and a custom effect's must be exactly those its declaration lists",
    severity: .error,
    triggering: [
      .flow(
        start: "buy",
        steps: """
          buy:
            kind: action
            action: ↓purchase
            on: {purchased: end, else: end}
          """),
      .flow(
        header: "effects: {followUser: {arguments: {userId: string}}}",
        start: "welcome",
        steps: """
          welcome:
            kind: screen
            next: {to: end, effects: [{followUser: {userId: "'u1'", ↓notify: "true"}}]}
          """),
    ],
    nonTriggering: [
      .flow(
        start: "buy",
        steps: """
          buy:
            kind: action
            action: purchase
            arguments: {product: "'pro.yearly'"}
            on: {purchased: end, else: end}
          """),
      .flow(
        header: "effects: {followUser: {arguments: {userId: string}}}",
        start: "welcome",
        steps: """
          welcome:
            kind: screen
            next: {to: end, effects: [{followUser: {userId: "'u1'"}}]}
          """),
    ])

  func check(_ context: LintContext) {
    for call in context.walk.calls {
      guard let declared = call.declared else { continue }
      let given = Set(call.arguments.map(\.name))
      let missing = declared.map(\.name).filter { !given.contains($0) }
      if !missing.isEmpty {
        context.report(
          Self.description,
          "\(call.what) needs \(missing.count == 1 ? "the argument" : "the arguments") \(Suggestion.list(missing)) "
            + "under 'arguments'", at: call.location,
          notes: ["it declares: " + declared.map { "\($0.name): \($0.value)" }.joined(separator: ", ")])
      }
      let names = declared.map(\.name)
      for argument in call.arguments where !names.contains(argument.name) {
        let expected = names.isEmpty ? "it takes no arguments" : "expected one of \(Suggestion.list(names))"
        context.report(
          Self.description,
          "unknown argument '\(argument.name)' of \(call.what); \(expected)"
            + Suggestion.didYouMean(argument.name, in: names), at: argument.location)
      }
    }
  }
}
