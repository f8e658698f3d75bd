extension Engine {
  /// Why the current step of `state` refuses `text` by the input's own checks, or nil when they accept it: for a
  /// text input (`field` nil), its `valid` condition (or, when required, emptiness) and the written variable's
  /// allowed values; for the form field named `field`, its type, options, bounds, lengths, pattern and the
  /// variable's allowed values. Whether `next` is enabled is not asked. `flowrun explore` uses it to name the
  /// input that accepted none of the texts it tried.
  package func inputProblem(_ text: String, field: String? = nil, in state: RunState) -> String? {
    guard let current = state.current else { return nil }
    let run = Run(engine: self, state: state)
    do {
      guard let name = field else { return try run.textProblem(text, on: current) }
      guard let field = flow.steps[current].fields.first(where: { $0.name == name }) else { return nil }
      _ = try run.checkedValue(text, for: field, on: current)
      return nil
    } catch let rejection as Rejection {
      return rejection.message
    } catch {
      return "\(error)"
    }
  }

  /// Whether the `enabled` condition of the current step's `next` holds in `state`, whether `next` is shown or
  /// not (an input still follows a hidden `next`); nil when it has none or it cannot be evaluated.
  package func nextEnabledHolds(in state: RunState) -> Bool? {
    guard let current = state.current, let enabled = flow.steps[current].next?.enabled else { return nil }
    return try? Run(engine: self, state: state).holds(enabled)
  }
}
