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
  /// The action outcomes whose `result` the expression reads, in an action's `on:` entry.
  package var resultOf: ResultSource?
  /// The names the expression reads, computed once.
  package var references: [FlowExpression.Reference]

  package init(expr: Expr, role: Role, extraRoots: [String: ValueType], resultOf: ResultSource? = nil) {
    self.expr = expr
    self.role = role
    self.extraRoots = extraRoots
    self.resultOf = resultOf
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
  /// The action call (its arguments), nil for a permission request.
  package var call: Step.ActionCall?
}

/// A call of a declared action or custom effect, with the arguments it passes.
package struct CallSite: Sendable {
  /// `action 'purchase'`, `effect 'followUser'`.
  package var what: String
  /// The declared arguments, nil when the action or effect is not declared.
  package var declared: [Named<ValueType>]?
  package var arguments: [Named<Expr>]
  package var location: SourceLocation
}

/// Everything a flow uses, collected in one pass: expressions, text keys, variable names, routes, outcome tables.
package struct FlowWalk: Sendable {
  package private(set) var expressions: [ExpressionSite] = []
  package private(set) var texts: [LocalizedText.Alternative] = []
  package private(set) var variableUses: [VariableUse] = []
  /// Every step's exits (``Flow/exitsByStep``), found once for the routes, the effects and the steps.
  package let exits: [[FlowExit]]
  /// Every route of the flow (``Flow/routes``).
  package let routes: [FlowRoute]
  package private(set) var outcomeTables: [OutcomeTable] = []
  /// Every action call and custom effect, with its arguments.
  package private(set) var calls: [CallSite] = []
  /// ``extraRoots(params:resultOf:flow:)``'s `result` roots by action, while the walk runs (emptied after).
  private var resultRootsByAction: [ActionName: [String: ValueType]] = [:]

  package init(_ flow: Flow) {
    exits = flow.exitsByStep
    routes = flow.routes(exits: exits)
    if let language = flow.language {
      expressions.append(.init(expr: language, role: .value(.string, what: "language"), extraRoots: [:]))
    }
    for variable in flow.variables {
      if let initial = variable.initial {
        expressions.append(
          .init(
            expr: initial, role: .value(variable.checkedType, what: "the initial value of '\(variable.name)'"),
            extraRoots: [:]))
      }
    }
    for experiment in flow.experiments {
      if let id = experiment.id {
        expressions.append(
          .init(expr: id, role: .value(.string, what: "the id of experiment '\(experiment.name)'"), extraRoots: [:]))
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
        OutcomeTable(
          step: nil, action: call.name, isPermission: false, button: nil, outcomes: call.outcomes, call: call.call))
      self.call(call.call, flow: flow)
    }
    if let foreground = flow.foreground { transition(foreground, flow: flow, resultOf: nil) }
    for entry in flow.openEntries {
      transition(entry.transition, flow: flow, params: Self.paramRoots(entry), resultOf: nil)
    }
    for clear in flow.reset.clear {
      variableUses.append(VariableUse(name: clear.value, key: nil, kind: .clear, location: clear.location))
    }
    for (index, step) in flow.steps.enumerated() { walkStep(step, index: index, flow: flow) }
    for list in flow.effectLists(exits: exits) {
      let params = list.openEntry.map(Self.paramRoots) ?? [:]
      effects(list.effects, flow: flow, params: params, resultOf: list.resultOf)
    }
    resultRootsByAction = [:]
  }

  private mutating func walkStep(_ step: Step, index: StepIndex, flow: Flow) {
    text(step.title)
    text(step.body)
    condition(step.skipIf)
    for exit in exits[index] {
      transition(exit.transition, flow: flow, resultOf: exit.resultOf)
    }
    if let auto = step.autoAdvance { condition(auto.when) }
    for button in step.buttons {
      text(button.label)
      condition(button.enabled)
      condition(button.visible)
      switch button.move {
      case .perform(let call):
        outcomeTables.append(
          OutcomeTable(
            step: index, action: call.name, isPermission: false, button: button.name, outcomes: call.outcomes,
            call: call))
        self.call(call, flow: flow)
      case .request(let kind, let outcomes):
        outcomeTables.append(
          OutcomeTable(
            step: index, action: Located(.requestPermission, at: kind.location), isPermission: true,
            button: button.name, outcomes: outcomes))
      case .go: break
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
        OutcomeTable(
          step: index, action: action.name, isPermission: false, button: nil, outcomes: action.outcomes,
          call: action))
      call(action, flow: flow)
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

  /// An action call's arguments: each must fit its declared type.
  private mutating func call(_ call: Step.ActionCall, flow: Flow) {
    let declared = flow.action(call.name.value)?.arguments
    calls.append(
      CallSite(
        what: "action '\(call.name.value)'", declared: declared, arguments: call.arguments,
        location: call.name.location))
    arguments(call.arguments, declared: declared, of: "'\(call.name.value)'", extraRoots: [:], resultOf: nil)
  }

  private mutating func arguments(
    _ arguments: [Named<Expr>], declared: [Named<ValueType>]?, of what: String, extraRoots: [String: ValueType],
    resultOf: ResultSource?
  ) {
    for argument in arguments {
      let role: ExpressionSite.Role =
        declared?.first { $0.name == argument.name }
        .map { .value($0.value, what: "argument '\(argument.name)' of \(what)") } ?? .any
      expressions.append(.init(expr: argument.value, role: role, extraRoots: extraRoots, resultOf: resultOf))
    }
  }

  /// The names an expression may read besides the flow's: `params` (an `open:` entry's) and `result` in the `on:`
  /// entry of `source` (``resultRoots(of:flow:)``, worked out once per action while the walk runs: a flow routes
  /// the same action's outcomes in many places).
  private mutating func extraRoots(
    params: [String: ValueType], resultOf source: ResultSource?, flow: Flow
  ) -> [String: ValueType] {
    guard let source else { return params }
    let roots: [String: ValueType]
    if let known = resultRootsByAction[source.action] {
      roots = known
    } else {
      roots = Self.resultRoots(of: source.action, flow: flow)
      resultRootsByAction[source.action] = roots
    }
    return params.isEmpty ? roots : params.merging(roots) { $1 }
  }

  /// `result` in the `on:` entry of an action: every field any outcome of the action returns (reading one the
  /// entry's outcomes do not return is the `result-field` rule's), `any` for an undeclared action.
  private static func resultRoots(of action: ActionName, flow: Flow) -> [String: ValueType] {
    guard let declaration = flow.action(action) else { return ["result": .any] }
    var fields: [String: ValueType] = [:]
    for outcome in declaration.outcomes {
      for field in outcome.result {
        if let known = fields[field.name], known != field.type {
          fields[field.name] = .any
        } else {
          fields[field.name] = field.type
        }
      }
    }
    return ["result": .record(fields)]
  }

  /// `params` are an `open:` entry's parameter roots, `resultOf` the outcomes whose `result` may be read.
  private mutating func transition(
    _ transition: Transition, flow: Flow, params: [String: ValueType] = [:], resultOf: ResultSource?
  ) {
    let extraRoots = extraRoots(params: params, resultOf: resultOf, flow: flow)
    text(transition.label)
    condition(transition.enabled, extraRoots: extraRoots, resultOf: resultOf)
    condition(transition.visible, extraRoots: extraRoots, resultOf: resultOf)
    for route in transition.guardedRoutes {
      condition(route.when, extraRoots: extraRoots, resultOf: resultOf)
      if let rawValue = route.rawValue {
        expressions.append(
          .init(
            expr: rawValue, role: .value(.int, what: "a 'rawValue' route"), extraRoots: extraRoots, resultOf: resultOf))
      }
    }
  }

  private mutating func effects(
    _ effects: [Effect], flow: Flow, params: [String: ValueType] = [:], resultOf: ResultSource? = nil
  ) {
    let extraRoots = extraRoots(params: params, resultOf: resultOf, flow: flow)
    for effect in effects {
      condition(effect.when, extraRoots: extraRoots, resultOf: resultOf)
      switch effect.kind {
      case .set(let target, let value):
        variableUses.append(VariableUse(name: target.variable, key: target.key, kind: .set, location: target.location))
        let role: ExpressionSite.Role
        if let variable = flow.variable(target.variable) {
          let type: ValueType = target.key == nil ? variable.checkedType : .string
          role = .value(type, what: "'set: \(target)'")
        } else {
          role = .any
        }
        expressions.append(.init(expr: value, role: role, extraRoots: extraRoots, resultOf: resultOf))
      case .track(_, let properties):
        for property in properties {
          expressions.append(.init(expr: property.value, role: .any, extraRoots: extraRoots, resultOf: resultOf))
        }
      case .userProperty(_, let value), .log(let value):
        expressions.append(.init(expr: value, role: .any, extraRoots: extraRoots, resultOf: resultOf))
      case .syncProfile(let userID):
        if let userID {
          expressions.append(
            .init(
              expr: userID, role: .value(.string, what: "'syncProfile.userId'"), extraRoots: extraRoots,
              resultOf: resultOf))
        }
      case .custom(let name, let arguments, let location):
        let declared = flow.declarations.effects[name]?.arguments
        calls.append(
          CallSite(what: "effect '\(name)'", declared: declared, arguments: arguments, location: location))
        self.arguments(arguments, declared: declared, of: "'\(name)'", extraRoots: extraRoots, resultOf: resultOf)
      case .requestReview, .placement, .completeOnboarding: break
      }
    }
  }

  private mutating func condition(
    _ expr: Expr?, extraRoots: [String: ValueType] = [:], resultOf: ResultSource? = nil
  ) {
    if let expr {
      expressions.append(.init(expr: expr, role: .condition, extraRoots: extraRoots, resultOf: resultOf))
    }
  }

  private mutating func text(_ text: LocalizedText?) {
    for alternative in text?.alternatives ?? [] {
      texts.append(alternative)
      condition(alternative.when)
      for arg in alternative.args { expressions.append(.init(expr: arg.value, role: .any, extraRoots: [:])) }
    }
  }
}
