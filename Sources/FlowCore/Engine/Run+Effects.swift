// Effects and expressions: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  /// Runs `effects` (`step` names the step they belong to); `tables`, one per effect, holds what of each reads
  /// only `step` (``StepTable``), for a hook's effects.
  mutating func apply(
    _ effects: [Effect], step: StepIndex?, bindings: [String: Value]? = nil, tables: [StepTable]? = nil
  ) throws(RunError) {
    guard !effects.isEmpty else { return }
    let outer = effectStep
    defer { effectStep = outer }
    effectStep = step
    // The effects and their tables are read in place: copying an effect (or a table) per run retains
    // everything it holds.
    for index in effects.indices {
      if let when = effects[index].when {
        if let step, let holds = tables?[index].holds?[step] {
          if !holds { continue }
        } else if !(try holds(when, bindings: bindings)) {
          continue
        }
      }
      switch effects[index].kind {
      case .set(let target, let expr):
        if let step, let value = tables?[index].value?[step] {
          try assign(target, value)
        } else {
          try assign(target, try evaluate(expr, bindings: bindings))
        }
      case .track(let event, let properties):
        guard !engine.recordsOnlyMoves else {
          // Evaluated only for the error one may throw.
          if tables?[index].trackCannotFail != true {
            for property in properties { _ = try evaluate(property.value, bindings: bindings) }
          }
          continue
        }
        var values = TrackProperties()
        for property in properties { values[property.name] = try evaluate(property.value, bindings: bindings) }
        addVariants(to: &values)
        emit(.track(event: event, properties: values))
      case .userProperty(let name, let expr):
        let value = try evaluate(expr, bindings: bindings)
        emit(.userProperty(name: name, value: value))
      case .requestReview: emit(.requestReview)
      case .syncProfile(let userID):
        var id = Value.null
        if let userID { id = try evaluate(userID, bindings: bindings) }
        emit(.syncProfile(userID: id))
      case .placement(let name): emit(.placement(name))
      case .completeOnboarding: emit(.completeOnboarding)
      case .log(let expr):
        let value = try evaluate(expr, bindings: bindings)
        if case .string(let text) = value { emit(.log(text)) } else { emit(.log(value.description)) }
      case .custom(let name, let arguments, _):
        guard !engine.recordsOnlyMoves else {
          for argument in arguments { _ = try evaluate(argument.value, bindings: bindings) }
          continue
        }
        var values: [String: Value] = [:]
        for argument in arguments { values[argument.name] = try evaluate(argument.value, bindings: bindings) }
        emit(.custom(name: name, arguments: values))
      }
    }
  }

  /// The value of variable `index`, noted as read (``log``).
  func readVariable(_ index: Int) -> Value {
    log?.read(variable: index)
    return state.variables[index]
  }

  mutating func assign(_ target: AssignmentTarget, _ value: Value) throws(RunError) {
    guard let index = flow.variableIndexByName[target.variable] else {
      throw RunError(message: "unknown variable '\(target.variable)'")
    }
    // The declaration is read in place (`flow.variables[index].…`): a copy of it would retain all it holds.
    var newValue = value
    if let key = target.key {
      guard case .map(var entries) = readVariable(index) else {
        throw RunError(message: "'\(flow.variables[index].name)' is not a map; cannot set '\(target)'")
      }
      entries[key] = value == .null ? nil : value
      newValue = .map(entries)
    }
    if newValue == .null { newValue = flow.variables[index].defaultValue }
    guard let typed = flow.variables[index].coerce(newValue) else {
      let variable = flow.variables[index]
      let allowed = variable.allowedValues.map { " (one of \(Suggestion.list($0)))" } ?? ""
      throw RunError(
        message: "cannot set '\(variable.name)' (a \(variable.type.rawValue)\(allowed)) to \(newValue.description)")
    }
    newValue = typed
    state.variables[index] = newValue
    log?.wrote(variable: index)
    if !engine.recordsOnlyMoves {
      emit(.set(variable: target.description, value: target.key == nil ? newValue : value))
    }
    if let key = flow.variables[index].persistKey {
      let stored = newValue.stored
      state.store[key] = stored
      log?.wroteStore(of: index)
      if !engine.recordsOnlyMoves { emit(.persist(key: key, value: stored)) }
    }
  }

  /// Records an effect, unless the engine records only moves (``Engine/recordsOnlyMoves``).
  mutating func emit(_ effect: RuntimeEffect) {
    if !engine.recordsOnlyMoves { records.append(.effect(effect)) }
  }

  /// Records what is not a move (a step entered, a warning), unless the engine records only moves
  /// (``Engine/recordsOnlyMoves``). A record that costs work to build (a route's `why`) is built only when
  /// `engine.recordsOnlyMoves` is off.
  mutating func note(_ record: Record) {
    if !engine.recordsOnlyMoves { records.append(record) }
  }

  // MARK: Expressions

  /// `body` given the scope an expression is evaluated in, which reads the state in place (``Scope``).
  func withScope<Result, Failure: Error>(
    _ bindings: [String: Value]?, _ body: (Scope) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withUnsafePointer(to: state) { state throws(Failure) in
      try body(Scope(storage: engine.storage, state: state, bindings: bindings, effectStep: effectStep, log: log))
    }
  }

  func evaluate(_ expr: Expr, bindings: [String: Value]? = nil) throws(RunError) -> Value {
    do {
      return try withScope(bindings) { scope throws(ExpressionError) in try expr.expression.evaluate(in: scope) }
    } catch {
      throw RunError(message: "\(expr.location): cannot evaluate '\(expr.expression.source)': \(error.message)")
    }
  }

  func holds(_ expr: Expr, bindings: [String: Value]? = nil) throws(RunError) -> Bool {
    let value = try evaluate(expr, bindings: bindings)
    guard case .bool(let result) = value else {
      throw RunError(
        message: "\(expr.location): '\(expr.expression.source)' gave \(value.description); expected true or false")
    }
    return result
  }

  func explain(_ expr: Expr, bindings: [String: Value]? = nil) -> String {
    let (substituted, result) = withScope(bindings) { scope in
      (expr.expression.explain(in: scope), (try? expr.expression.evaluate(in: scope))?.description ?? "error")
    }
    if substituted == expr.expression.source { return "\(expr.expression.source) → \(result)" }
    return "\(expr.expression.source) → \(substituted) → \(result)"
  }
}
