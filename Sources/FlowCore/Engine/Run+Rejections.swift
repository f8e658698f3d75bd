// Rejections: part of ``Run``, the handling of one event (see Engine.swift).

extension Run {

  func requireEnabled(_ transition: Transition, named name: String, on current: StepIndex) throws {
    if let reason = try disabledReason(transition, named: name, on: current) { throw reject(reason, on: current) }
  }

  /// A hidden `next` or `skip` (its `visible` does not hold) cannot be tapped; a choice, an input or a timer
  /// still follows it.
  func requireVisible(_ transition: Transition, named name: String, on current: StepIndex) throws {
    guard let visible = transition.visible, !(try holds(visible)) else { return }
    throw reject({ [self] in "\(name) is not shown on '\(flow.steps[current].id)' (\(explain(visible)))" }, on: current)
  }

  /// Why a transition's button cannot be pressed now (composed when called), or nil when it can.
  /// - Parameter text: for a text-input step, the text being confirmed (default: what the field holds now).
  func disabledReason(
    _ transition: Transition, named name: String, on current: StepIndex, text: String? = nil
  ) throws(RunError) -> (@Sendable () -> String)? {
    let step = flow.steps[current]
    if let enabled = transition.enabled {
      if try holds(enabled) { return nil }
      let stepID = step.id
      return { [self] in "\(name) is disabled on '\(stepID)' (\(explain(enabled)))" }
    }
    guard name == "next" else { return nil }
    if step.kind == .textInput {
      let confirmed: String
      if let text { confirmed = text } else { confirmed = try currentText(on: current) }
      if let problem = try textProblem(confirmed, on: current) { return { problem } }
    }
    if step.kind == .singleChoice || step.kind == .multiChoice, let choice = step.choice, choice.isRequired,
      let index = flow.variableIndexByName[choice.variable.value], readVariable(index).isEmptyValue
    {
      return { "next is disabled until an option is chosen on '\(step.id)'" }
    }
    return nil
  }

  /// A refusal on `current`, listing the commands the step accepts (composed when read).
  func reject(_ message: String, on current: StepIndex) -> Rejection {
    reject({ message }, on: current)
  }

  /// A refusal on `current` whose message is composed when read.
  func reject(_ message: @escaping @Sendable () -> String, on current: StepIndex) -> Rejection {
    Rejection(message: message, allowed: { [self] in (try? Presenter(run: self).commands(on: current)) ?? [] })
  }

  func outcomeNames(of pending: RunState.Pending) -> [String] {
    if pending.permission != nil { return PermissionStatus.requestOutcomes.map(\.rawValue) }
    return flow.action(pending.action)?.outcomeNames ?? []
  }
}
