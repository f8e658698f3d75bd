package import FlowCore

/// One place an expression is used, with what it must produce and which extra names it may read.
package struct ExpressionSite: Sendable {
  package enum Role: Sendable, Hashable {
    /// `skipIf`, `when`, `enabled`, `visible`, `valid`, `autoAdvance.when`: must be bool.
    case condition
    /// A value that must fit the type (`set`, `initial`, `rawValue` routes, `language`, `prefill`).
    case value(ValueType, what: String)
    /// Any value (`track` properties, text `args`, `log`).
    case any
  }

  package var expr: Expr
  package var role: Role
  /// `result` in an action's outcomes, `input` in `valid`.
  package var extraRoots: [String: ValueType]
  /// The names the expression reads, computed once.
  package var references: [FlowExpression.Reference]

  package init(expr: Expr, role: Role, extraRoots: [String: ValueType]) {
    self.expr = expr
    self.role = role
    self.extraRoots = extraRoots
    self.references = expr.expression.references
  }
}

/// A name written where a variable is expected, outside expressions.
package struct VariableUse: Sendable {
  package enum Kind: Sendable { case set, choice, input, field, clear }
  package var name: String
  /// The key after the dot in `VAR.KEY`.
  package var key: String?
  package var kind: Kind
  package var location: SourceLocation
}

/// The outcomes a step or button routes with `on:`.
package struct OutcomeTable: Sendable {
  /// The step, or nil for an action of the flow's `launch:` list.
  package var step: StepIndex?
  /// `request-permission` for permission steps, else the action's name.
  package var action: Located<ActionName>
  package var isPermission: Bool
  /// The button's name, nil for the step's own action or request.
  package var button: String?
  package var outcomes: [Outcome]
}

/// Everything a flow uses, collected in one pass: expressions, text keys, variable names, routes, outcome tables.
package struct FlowWalk: Sendable {
  package private(set) var expressions: [ExpressionSite] = []
  package private(set) var texts: [LocalizedText.Alternative] = []
  package private(set) var variableUses: [VariableUse] = []
  /// Every route of the flow (``Flow/routes``).
  package let routes: [FlowRoute]
  package private(set) var outcomeTables: [OutcomeTable] = []

  package init(_ flow: Flow) {
    routes = flow.routes
    if let language = flow.language {
      expressions.append(.init(expr: language, role: .value(.string, what: "language"), extraRoots: [:]))
    }
    for variable in flow.variables {
      if let initial = variable.initial {
        expressions.append(
          .init(
            expr: initial, role: .value(variable.type.valueType, what: "the initial value of '\(variable.name)'"),
            extraRoots: [:]))
      }
    }
    for route in flow.resume {
      condition(route.when)
      if case .rawValue(let expr) = route.destination {
        expressions.append(.init(expr: expr, role: .value(.int, what: "a 'rawValue' route"), extraRoots: [:]))
      }
    }
    for case .action(let call) in flow.launch {
      condition(call.when)
      outcomeTables.append(
        OutcomeTable(step: nil, action: call.name, isPermission: false, button: nil, outcomes: call.outcomes))
    }
    if let foreground = flow.foreground { transition(foreground, flow: flow, extraRoots: [:]) }
    for entry in flow.openEntries { transition(entry.transition, flow: flow, extraRoots: Self.paramRoots(entry)) }
    for clear in flow.reset.clear {
      variableUses.append(VariableUse(name: clear.value, key: nil, kind: .clear, location: clear.location))
    }
    for (index, step) in flow.steps.enumerated() { walkStep(step, index: index, flow: flow) }
    for list in flow.effectLists {
      let roots = list.openEntry.map(Self.paramRoots) ?? list.resultOf.map(resultRoots) ?? [:]
      effects(list.effects, flow: flow, extraRoots: roots)
    }
  }

  private mutating func walkStep(_ step: Step, index: StepIndex, flow: Flow) {
    text(step.title)
    text(step.body)
    condition(step.skipIf)
    for exit in flow.exits(of: index) {
      transition(exit.transition, flow: flow, extraRoots: exit.resultOf.map(resultRoots) ?? [:])
    }
    if let auto = step.autoAdvance { condition(auto.when) }
    for button in step.buttons {
      text(button.label)
      condition(button.enabled)
      condition(button.visible)
      if case .perform(let action, let outcomes) = button.move {
        outcomeTables.append(
          OutcomeTable(step: index, action: action, isPermission: false, button: button.name, outcomes: outcomes))
      }
    }
    if let choice = step.choice {
      for option in choice.options { text(option.label) }
      variableUses.append(
        VariableUse(name: choice.variable.value, key: nil, kind: .choice, location: choice.variable.location))
    }
    if let input = step.textInput {
      variableUses.append(
        VariableUse(name: input.variable.value, key: nil, kind: .input, location: input.variable.location))
      text(input.placeholder)
      if let prefill = input.prefill {
        expressions.append(.init(expr: prefill, role: .value(.string, what: "'prefill'"), extraRoots: [:]))
      }
      if let valid = input.valid {
        expressions.append(.init(expr: valid, role: .condition, extraRoots: ["input": .string]))
      }
    }
    for field in step.fields {
      text(field.label)
      text(field.placeholder)
      for option in field.options { text(option.label) }
      for message in field.messages.values { text(message) }
      condition(field.visible)
      let what = "field '\(field.name)'"
      if let prefill = field.prefill {
        expressions.append(.init(expr: prefill, role: .any, extraRoots: [:]))
      }
      // A multi-choice field's bounds count options; the others' are values of the field's type.
      let bound: ValueType = field.type == .multiChoice ? .int : field.type.valueType.valueType
      for (expr, name) in [(field.minimum, "min"), (field.maximum, "max")] {
        guard let expr else { continue }
        expressions.append(.init(expr: expr, role: .value(bound, what: "the \(name) of \(what)"), extraRoots: [:]))
      }
      if let from = field.optionsFrom {
        expressions.append(.init(expr: from, role: .any, extraRoots: [:]))
      }
      variableUses.append(
        VariableUse(name: field.target.variable, key: field.target.key, kind: .field, location: field.target.location))
    }
    if let permission = step.permission {
      text(permission.label)
      condition(permission.enabled)
      condition(permission.visible)
      outcomeTables.append(
        OutcomeTable(
          step: index, action: Located(.requestPermission, at: permission.kind.location), isPermission: true,
          button: nil, outcomes: permission.outcomes))
    }
    if let action = step.action {
      outcomeTables.append(
        OutcomeTable(step: index, action: action.name, isPermission: false, button: nil, outcomes: action.outcomes))
    }
  }

  /// `params` of an `open:` entry: its declared parameters, null when an optional one is missing.
  static func paramRoots(_ entry: OpenEntry) -> [String: ValueType] {
    var fields: [String: ValueType] = [:]
    for parameter in entry.params {
      fields[parameter.name] = parameter.isRequired ? parameter.type.valueType : .optional(parameter.type.valueType)
    }
    return ["params": .record(fields)]
  }

  private func resultRoots(_ action: ActionName) -> [String: ValueType] {
    guard let fields = action.resultTypes else { return ["result": .any] }
    return ["result": .record(fields)]
  }

  private mutating func transition(_ transition: Transition, flow: Flow, extraRoots: [String: ValueType]) {
    text(transition.label)
    condition(transition.enabled, extraRoots: extraRoots)
    for route in transition.guardedRoutes { condition(route.when, extraRoots: extraRoots) }
  }

  private mutating func effects(_ effects: [Effect], flow: Flow, extraRoots: [String: ValueType] = [:]) {
    for effect in effects {
      condition(effect.when, extraRoots: extraRoots)
      switch effect.kind {
      case .set(let target, let value):
        variableUses.append(VariableUse(name: target.variable, key: target.key, kind: .set, location: target.location))
        let role: ExpressionSite.Role
        if let variable = flow.variable(target.variable) {
          let type: ValueType = target.key == nil ? variable.type.valueType : .string
          role = .value(type, what: "'set: \(target)'")
        } else {
          role = .any
        }
        expressions.append(.init(expr: value, role: role, extraRoots: extraRoots))
      case .track(_, let properties):
        for property in properties {
          expressions.append(.init(expr: property.value, role: .any, extraRoots: extraRoots))
        }
      case .userProperty(_, let value), .log(let value):
        expressions.append(.init(expr: value, role: .any, extraRoots: extraRoots))
      case .syncProfile(let userID):
        if let userID {
          expressions.append(
            .init(expr: userID, role: .value(.string, what: "'syncProfile.userId'"), extraRoots: extraRoots))
        }
      case .requestReview, .placement, .completeOnboarding: break
      }
    }
  }

  private mutating func condition(_ expr: Expr?, extraRoots: [String: ValueType] = [:]) {
    if let expr { expressions.append(.init(expr: expr, role: .condition, extraRoots: extraRoots)) }
  }

  private mutating func text(_ text: LocalizedText?) {
    for alternative in text?.alternatives ?? [] {
      texts.append(alternative)
      condition(alternative.when)
      for arg in alternative.args { expressions.append(.init(expr: arg.value, role: .any, extraRoots: [:])) }
    }
  }
}
