package import FlowCore

/// One step -> step edge of a flow, as declared and as taken: coverage, exploration, diagrams and diffs all
/// speak in these.
///
/// Identity is (from, to, kind, name); guards are not part of it, so two routes of one transition to the same
/// step are one edge. `to` is the step the transition names, before skipped steps are passed over; passing over
/// a skipped step is its own `skipIf` edge from that step to its `next`.
package struct FlowTransition: Hashable, Sendable, Comparable, CustomStringConvertible {
  package typealias Kind = FlowRoute.Kind

  /// A step id, or `launch` for resume routes.
  package var from: String
  package var to: String
  package var kind: Kind
  /// The button or outcome name.
  package var name: String?

  package init(from: String, to: String, kind: Kind, name: String? = nil) {
    self.from = from
    self.to = to
    self.kind = kind
    self.name = name
  }

  /// `welcome -> signIn (button signIn)`.
  package var description: String {
    "\(from) -> \(to) (\(label))"
  }

  /// `next`, `button restore`, `outcome granted`.
  package var label: String {
    name.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue
  }

  package static func < (lhs: FlowTransition, rhs: FlowTransition) -> Bool {
    (lhs.from, lhs.to, lhs.kind.rawValue, lhs.name ?? "") < (rhs.from, rhs.to, rhs.kind.rawValue, rhs.name ?? "")
  }
}

/// A transition as the flow declares it, with what a reader needs to see: the guard and the effects.
package struct DeclaredTransition: Hashable, Sendable {
  package var transition: FlowTransition
  /// The route's condition (`otherwise` for an unconditional route after guarded ones), nil for a plain edge.
  package var guardText: String?
  /// Effects of the transition and of the route, as `type detail` lines.
  package var effects: [String]
}

// MARK: - Declared transitions

extension Flow {
  /// Every step -> step edge the flow declares (``Flow/routes`` but those by raw value), in step order; routes
  /// of one transition to the same step are one edge, their guards joined with ` | `.
  package var declaredTransitions: [DeclaredTransition] {
    var merged: [DeclaredTransition] = []
    var position: [FlowTransition: Int] = [:]
    for route in routes {
      if case .rawValue = route.condition { continue }
      let transition = FlowTransition(
        from: route.from.map { steps[$0].id } ?? "launch", to: steps[route.to].id, kind: route.kind, name: route.name)
      let guardText = route.condition.text
      if let index = position[transition] {
        let guards = [merged[index].guardText, guardText].compactMap { $0 }
        merged[index].guardText = guards.isEmpty ? nil : guards.joined(separator: " | ")
      } else {
        position[transition] = merged.count
        merged.append(.init(transition: transition, guardText: guardText, effects: route.effects.map(\.summaryText)))
      }
    }
    return merged
  }
}

extension Effect {
  /// `set onboardingStep = step.rawValue`, `track onboarding_step`, `requestReview`, with its `when`.
  package var summaryText: String {
    let body: String
    switch kind {
    case .set(let target, let value): body = "set \(target) = \(value)"
    case .track(let event, let properties):
      body =
        properties.isEmpty
        ? "track \(event)"
        : "track \(event) {" + properties.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "}"
    case .userProperty(let name, let value): body = "userProperty \(name) = \(value)"
    case .requestReview: body = "requestReview"
    case .syncProfile(let userID): body = "syncProfile" + (userID.map { " \($0)" } ?? "")
    case .placement(let name): body = "placement \(name)"
    case .completeOnboarding: body = "completeOnboarding"
    case .log(let expr): body = "log \(expr)"
    }
    return when.map { "\(body) when \($0)" } ?? body
  }
}

// MARK: - Taken transitions

/// Follows the records of a run and names the transitions taken.
///
/// Feed it the context of each user command (``begin(_:name:)``) and every record and dialog in order; it
/// remembers the current step between commands.
package struct TransitionTracker: Sendable, Hashable {
  /// The step the next arrival leaves, or `launch`.
  package private(set) var current: String?
  var kind: FlowTransition.Kind = .next
  var name: String?

  package init(at step: String? = nil) {
    current = step
  }

  /// The user's command that the following records answer.
  package mutating func begin(_ kind: FlowTransition.Kind, name: String? = nil) {
    self.kind = kind
    self.name = name
  }

  /// An action's or permission request's answer arrived.
  package mutating func answered(_ outcome: String) {
    kind = .outcome
    name = outcome
  }

  /// Consumes one record; returns the transition it completes, if any.
  package mutating func feed(_ record: Record) -> FlowTransition? {
    switch record {
    case .routed(let from, _, _) where from == "launch":
      current = "launch"
      kind = .resume
      name = nil
      return nil
    case .skipped(let step, _):
      defer {
        current = step
        kind = .skipIf
        name = nil
      }
      return current.map { FlowTransition(from: $0, to: step, kind: kind, name: name) }
    case .entered(let step):
      defer {
        current = step
        kind = .next
        name = nil
      }
      return current.map { FlowTransition(from: $0, to: step, kind: kind, name: name) }
    case .wentBack(_, let to):
      current = to
      return nil
    default:
      return nil
    }
  }
}

extension FlowTransition.Kind {
  /// The kind of transition a user event follows (before any answer arrives).
  package static func of(_ event: FlowEvent, on step: Step?) -> (FlowTransition.Kind, String?) {
    switch event {
    case .skip: return (.skip, nil)
    case .tap(let name):
      if let step, step.buttons.contains(where: { $0.name == name }) { return (.button, name) }
      if name == "skip" { return (.skip, nil) }
      return (.next, nil)
    default: return (.next, nil)
    }
  }
}

extension TransitionTracker {
  /// The kind of transition a `flowrun` command follows.
  package mutating func begin(_ command: Command) {
    switch command.action {
    case .skip: begin(.skip)
    case .tap(let name):
      switch name {
      case "next", "request": begin(.next)
      case "skip": begin(.skip)
      default: begin(.button, name: name)
      }
    default: begin(.next)
    }
  }
}
