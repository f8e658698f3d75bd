package import FlowCore

/// One step -> step edge of a flow, as declared and as taken: coverage, exploration, diagrams and diffs all
/// speak in these.
///
/// Identity is (from, to, kind, name); guards are not part of it, so two routes of one transition to the same
/// step are one edge. `to` is the step the transition names, before skipped steps are passed over; passing over
/// a skipped step is its own `skipIf` edge from that step to its `next`.
package struct FlowTransition: Hashable, Sendable, Comparable, CustomStringConvertible {
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The Next button (also choose, input and an auto-advance, which follow `next`).
    case next
    case skip
    /// A named button that goes to a step.
    case button
    /// An outcome of an action or permission request.
    case outcome
    /// A step whose `skipIf` held, passed over to its `next`.
    case skipIf
    /// A `resume` route taken on launch, restart or reset (`from` is `launch`).
    case route
  }

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
  /// Every step -> step edge the flow declares, in step order; `stay` targets are not edges.
  package var declaredTransitions: [DeclaredTransition] {
    var result: [DeclaredTransition] = []
    func add(_ from: String, _ transition: Transition, _ kind: FlowTransition.Kind, _ name: String?) {
      let own = transition.effects.map(\.summaryText)
      switch transition.target {
      case .stay: break
      case .step(let index):
        result.append(
          .init(
            transition: .init(from: from, to: steps[index].id, kind: kind, name: name), guardText: nil, effects: own))
      case .routes(let routes):
        for route in routes {
          guard let target = route.target else { continue }
          result.append(
            .init(
              transition: .init(from: from, to: steps[target].id, kind: kind, name: name),
              guardText: route.when?.description ?? "otherwise", effects: own + route.effects.map(\.summaryText)))
        }
      }
    }
    for route in resume {
      if case .step(let index) = route.destination {
        result.append(
          .init(
            transition: .init(from: "launch", to: steps[index].id, kind: .route), guardText: route.when?.description,
            effects: []))
      }
    }
    result.append(
      .init(transition: .init(from: "launch", to: steps[start].id, kind: .route), guardText: "start", effects: []))
    for step in steps {
      if let next = step.next { add(step.id, next, .next, nil) }
      if let skip = step.skip { add(step.id, skip, .skip, nil) }
      for button in step.buttons {
        switch button.move {
        case .go(let target):
          let transition = Transition(
            target: target, label: nil, enabled: nil, effects: button.effects, location: button.location)
          add(step.id, transition, .button, button.name)
        case .perform(_, let outcomes):
          for outcome in outcomes { add(step.id, outcome.transition, .outcome, outcome.name) }
        }
      }
      for outcome in step.permission?.outcomes ?? [] { add(step.id, outcome.transition, .outcome, outcome.name) }
      for outcome in step.action?.outcomes ?? [] { add(step.id, outcome.transition, .outcome, outcome.name) }
      if step.skipIf != nil, let next = step.next { add(step.id, next, .skipIf, nil) }
    }
    var seen: Set<FlowTransition> = []
    var merged: [DeclaredTransition] = []
    for item in result {
      if seen.insert(item.transition).inserted {
        merged.append(item)
      } else if let index = merged.firstIndex(where: { $0.transition == item.transition }) {
        let guards = [merged[index].guardText, item.guardText].compactMap { $0 }
        merged[index].guardText = guards.isEmpty ? nil : guards.joined(separator: " | ")
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
      kind = .route
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
    switch command.verb {
    case .skip: begin(.skip)
    case .tap:
      let name = command.arguments.first ?? ""
      switch name {
      case "next", "request": begin(.next)
      case "skip": begin(.skip)
      default: begin(.button, name: name)
      }
    default: begin(.next)
    }
  }
}
