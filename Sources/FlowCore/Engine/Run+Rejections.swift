// Rejections: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  func requireEnabled(_ transition: Transition, named name: String, on current: StepIndex) throws {
    if let reason = try disabledReason(transition, named: name, on: current) { throw reject(reason, on: current) }
  }

  /// A hidden `next` or `skip` (its `visible` does not hold) cannot be tapped; a choice, an input or a timer
  /// still follows it.
  func requireVisible(_ transition: Transition, named name: String, on current: StepIndex) throws {
    guard let visible = transition.visible, !(try holds(visible)) else { return }
    throw reject("\(name) is not shown on '\(flow.steps[current].id)' (\(explain(visible)))", on: current)
  }

  /// Why a transition's button cannot be pressed now, or nil when it can.
  /// - Parameter text: for a text-input step, the text being confirmed (default: what the field holds now).
  func disabledReason(
    _ transition: Transition, named name: String, on current: StepIndex, text: String? = nil
  ) throws(RunError) -> String? {
    let step = flow.steps[current]
    if let enabled = transition.enabled {
      return try holds(enabled) ? nil : "\(name) is disabled on '\(step.id)' (\(explain(enabled)))"
    }
    if name == "next", step.textInput != nil {
      let confirmed: String
      if let text { confirmed = text } else { confirmed = try currentText(on: current) }
      if let problem = try textProblem(confirmed, on: current) { return problem }
    }
    if name == "next", let choice = step.choice, choice.isRequired,
      let index = flow.variableIndexByName[choice.variable.value], state.variables[index].isEmptyValue
    {
      return "next is disabled until an option is chosen on '\(step.id)'"
    }
    return nil
  }

  func reject(_ message: String, on current: StepIndex) -> Rejection {
    Rejection(message: message, allowed: (try? Presenter(run: self).commands(on: current)) ?? [])
  }

  func outcomeNames(of pending: RunState.Pending) -> [String] {
    if pending.permission != nil { return PermissionStatus.requestOutcomes.map(\.rawValue) }
    return flow.action(pending.action)?.outcomeNames ?? []
  }
}
