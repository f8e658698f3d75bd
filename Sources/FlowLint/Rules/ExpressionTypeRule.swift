internal import FlowCore

/// An expression whose types do not fit, or whose result is not what its place needs.
struct ExpressionTypeRule: LintRule {
  static let description = RuleDescription(
    id: "expression-type",
    summary:
      "expressions must type-check against the declared variables, facts and permissions; conditions must be bool and 'set' values must fit the variable",
    severity: .error,
    triggering: [
      .flow(
        header: """
          variables:
            onboardingStep: {type: int, default: 0}
          """,
        steps: "welcome: {kind: screen, skipIf: '↓onboardingStep + 1', next: end}"),
      .flow(
        header: """
          variables:
            onboardingStep: {type: int, default: 0}
          """,
        start: "end",
        steps: """
          end:
            kind: terminal
            outcome: completed
            enter: [{set: onboardingStep, value: '↓"eleven"'}]
          """,
        endStep: false),
      .flow(
        header: """
          environment:
            osVersion: {type: int, default: 18}
          """,
        steps: "welcome: {kind: screen, skipIf: 'env.↓osVersoin >= 26', next: end}"),
    ],
    nonTriggering: [
      .flow(
        header: """
          environment:
            osVersion: {type: int, default: 18}
          variables:
            onboardingStep: {type: int, default: 0, persist: onboardingStep}
            habitTimes: {type: map, default: {}}
          """,
        steps: """
          welcome: {kind: screen, skipIf: 'env.osVersion >= 26 && size(habitTimes) > 0', next: end}
          end:
            kind: terminal
            outcome: completed
            enter:
              - set: onboardingStep
                value: step.rawValue ?? 0
              - set: habitTimes.wake
                value: '"07:00"'
          """,
        endStep: false)
    ])

  func check(_ context: LintContext) {
    let declaredPermissions = context.declaredPermissions
    for site in context.walk.expressions {
      let scope = context.scope(for: site)
      // Unknown names and undeclared permissions are their own rules' findings.
      let references = site.references
      guard references.allSatisfy({ scope[$0.path[0]] != nil }),
        !references.contains(where: {
          $0.path.count > 1 && $0.path[0] == "permission" && !declaredPermissions.contains($0.path[1])
        }),
        // An undeclared experiment is `unknown-variant`'s to report.
        !references.contains(where: {
          $0.path.count > 1 && $0.path[0] == "experiment" && context.flow.experiment($0.path[1]) == nil
        })
      else { continue }
      let expression = site.expr.expression
      do {
        switch site.role {
        case .condition:
          try expression.checkCondition(in: TypeScope(scope))
        case .any:
          _ = try expression.check(in: TypeScope(scope))
        case .value(let expected, let what):
          let type = try expression.check(in: TypeScope(scope))
          if !Self.fits(type, expected) {
            context.report(
              Self.description, "\(what) must be \(expected); found \(type)",
              at: context.location(of: site.expr, column: 1))
          }
        }
      } catch {
        context.report(
          Self.description, error.message, at: context.location(of: site.expr, column: error.column), notes: error.notes
        )
      }
    }
    checkVariableKinds(context)
  }

  /// Choice, input and form variables of the right type; `VAR.KEY` only on map variables. A variable whose type is
  /// unknown (reported where it is declared) is not checked.
  private func checkVariableKinds(_ context: LintContext) {
    let flow = context.flow
    for use in context.walk.variableUses {
      guard let variable = flow.variable(use.name), variable.typeIsKnown, let key = use.key else { continue }
      if variable.type != .map {
        context.report(
          Self.description,
          "'\(use.name).\(key)' needs a map variable; '\(use.name)' is a \(variable.type.rawValue)", at: use.location)
      }
    }
    for step in flow.steps {
      if let choice = step.choice, let variable = flow.variable(choice.variable.value), variable.typeIsKnown {
        let expected: VariableType = step.kind == .multiChoice ? .list : .string
        if variable.type != expected {
          context.report(
            Self.description,
            "variable '\(variable.name)' of \(step.kind.rawValue) step '\(step.id)' must be a \(expected.rawValue); found \(variable.type.rawValue)",
            at: choice.variable.location)
        }
      }
      if let input = step.textInput, let variable = flow.variable(input.variable.value), variable.typeIsKnown,
        variable.type != .string
      {
        context.report(
          Self.description,
          "variable '\(variable.name)' of text-input step '\(step.id)' must be a string; found \(variable.type.rawValue)",
          at: input.variable.location)
      }
      for field in step.fields {
        guard let variable = flow.variable(field.target.variable), variable.typeIsKnown else { continue }
        let type = field.target.key == nil ? variable.type : (variable.type == .map ? .string : nil)
        guard let type else { continue }
        let expected = field.type.valueType
        if type != expected {
          context.report(
            Self.description,
            "field '\(field.name)' of type \(field.type.rawValue) cannot write '\(field.target)', which holds a \(type.rawValue); expected a \(expected.rawValue)",
            at: field.target.location)
        }
      }
    }
  }

  /// Whether a value of type `value` may be stored where `expected` is needed (`any`, `null` and
  /// optionals are accepted, as the checker does).
  static func fits(_ value: ValueType, _ expected: ValueType) -> Bool {
    switch (value, expected) {
    case (.any, _), (_, .any), (.null, _): true
    case (.optional(let inner), _): fits(inner, expected)
    case (_, .optional(let inner)): fits(value, inner)
    case (.list(let a), .list(let b)), (.map(let a), .map(let b)): fits(a, b)
    case (.record, .map): true
    // An int is stored as a decimal where a decimal is declared.
    case (.int, .decimal): true
    default: value == expected
    }
  }
}
