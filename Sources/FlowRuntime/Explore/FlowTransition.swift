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
      // A `resume` route by raw value is one route to whichever step has the stored number, not an edge per
      // step; a step's `rawValue` route (after a server's answer) is an edge to each step it may name.
      if case .rawValue = route.condition, route.from == nil { continue }
      let transition = FlowTransition(
        from: route.from.map { steps[$0].id } ?? (route.kind == .resume ? "launch" : route.kind.rawValue),
        to: steps[route.to].id, kind: route.kind, name: route.name)
      var guardText = route.condition.text
      if case .rawValue(let expr) = route.condition, let raw = steps[route.to].rawValue {
        guardText = "\(expr) == \(raw)"
      }
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
    case .custom(let name, let arguments, _):
      body =
        arguments.isEmpty
        ? name : "\(name) {" + arguments.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "}"
    }
    return when.map { "\(body) when \($0)" } ?? body
  }
}

// MARK: - Taken transitions

extension FlowTransition {
  /// The transition a ``Record/moved(from:to:route:name:)`` record says the engine took; nil for other records.
  package init?(taken record: Record) {
    guard case .moved(let from, let to, let route, let name) = record else { return nil }
    self.init(from: from, to: to, kind: route, name: name)
  }
}
