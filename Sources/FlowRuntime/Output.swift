package import FlowCore
import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Prints a session: steps as text (with colour on a terminal) or the trace as JSON Lines.
package struct Output: Sendable {
  package var json: Bool
  package var color: Bool

  package init(json: Bool, color: Bool) {
    self.json = json
    self.color = color
  }

  package func line(_ text: String) {
    StandardStream.output.write(text + "\n")
  }

  package func error(_ text: String) {
    StandardStream.error.write(text + "\n")
  }

  func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

  // MARK: - Trace

  package func show(_ trace: [TraceEntry]) {
    for entry in trace {
      if json { line(Self.json(entry)) } else if let text = text(entry) { line(text) }
    }
  }

  func text(_ entry: TraceEntry) -> String? {
    switch entry {
    case .record(let record):
      switch record {
      case .entered, .moved: return nil  // the screen follows; JSON lines carry the move
      case .skipped(let step, let why): return paint("  ↷ skipped \(step): \(why)", "2")
      case .routed(let from, let to, let why): return paint("  ⤷ \(from) → \(to): \(why)", "2")
      case .wentBack(let from, let to): return paint("  ← back from \(from) to \(to)", "2")
      case .effect(let effect):
        if case .perform = effect { return nil }
        return paint("  • \(effect.summary)", "36")
      case .stale(let event, let step):
        return paint("  ⊘ ignored '\(event)' meant for '\(step)', which is no longer current", "33")
      case .warning(let text): return paint("  ! warning: \(text)", "33")
      case .ended(let step, let outcome): return paint("■ the flow ended at '\(step)' (\(outcome))", "1")
      case .assigned(let experiment, let variant, let why):
        return paint("  ⚑ experiment \(experiment): \(variant) (\(why))", "2")
      }
    case .dialog(let action, let answer):
      let shown = answer.dialogShown ? "system dialog" : "no dialog"
      let values = answer.result.isEmpty ? "" : " \(Value.map(answer.result).description)"
      return paint("  ◆ \(action): \(answer.outcome)\(values) (\(shown))", "35")
    case .storeFailed(let text): return paint("  ! the store could not be written: \(text)", "31")
    }
  }

  package func show(_ screen: Screen) {
    guard !json else { return }
    var lines: [String] = []
    lines.append(paint("┌ \(screen.step) · \(screen.kind.rawValue) · \(screen.language)", "1"))
    if let title = screen.title { lines.append("│ " + paint(title, "1")) }
    if let body = screen.body {
      for part in body.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("│ \(part)") }
    }
    for (number, option) in screen.options.enumerated() {
      let mark =
        option.isSelected ? (screen.isMultipleChoice ? "[x]" : "(•)") : (screen.isMultipleChoice ? "[ ]" : "( )")
      lines.append("│  \(number + 1). \(mark) \(option.label)  \(paint("[\(option.id)]", "2"))")
    }
    if let placeholder = screen.inputPlaceholder { lines.append("│  ✎ \(paint(placeholder, "2"))") }
    if let text = screen.inputText {
      lines.append("│  ✎ holds: " + (text.isEmpty ? paint("(empty)", "2") : Value.string(text).description))
    }
    for field in screen.fields {
      let label = field.label ?? field.name
      var facts = [field.type] + (field.isRequired ? ["required"] : []) + (field.isSecure ? ["secure"] : [])
      switch (field.minimum, field.maximum) {
      case (let low?, let high?): facts.append("\(low)...\(high)")
      case (let low?, nil): facts.append("≥ \(low)")
      case (nil, let high?): facts.append("≤ \(high)")
      case (nil, nil): break
      }
      if field.minLength != nil || field.maxLength != nil {
        facts.append("\(field.minLength ?? 0)...\(field.maxLength.map(String.init) ?? "") characters")
      }
      if let pattern = field.pattern { facts.append("pattern \(pattern)") }
      lines.append("│  ✎ \(field.name) (\(facts.joined(separator: ", "))): \(label)")
      if let placeholder = field.placeholder { lines.append("│      \(paint(placeholder, "2"))") }
      if let prefill = field.prefill, !prefill.isEmpty {
        lines.append("│      prefilled: \(field.isSecure ? String(repeating: "•", count: prefill.count) : prefill)")
      }
      for option in field.options {
        let mark =
          option.isSelected
          ? (field.type == "multi-choice" ? "[x]" : "(•)") : (field.type == "multi-choice" ? "[ ]" : "( )")
        lines.append("│      \(mark) \(option.label)  \(paint("[\(option.id)]", "2"))")
      }
    }
    for button in screen.buttons {
      let state = button.isEnabled ? "" : paint("  (disabled)", "2")
      let command = Command(sending: button.event)?.description ?? button.name
      lines.append("│  ▸ \(button.label)  " + paint("[\(command)]", "2") + state)
    }
    if let waiting = screen.waitingFor { lines.append("│  … waiting for \(waiting)") }
    lines.append("└ " + paint(screen.canGoBack ? "back: available" : "back: not available", "2"))
    line(lines.joined(separator: "\n"))
  }

  // MARK: - JSON Lines

  static func json(_ entry: TraceEntry) -> String {
    var object: [String: Value]
    switch entry {
    case .record(let record):
      switch record {
      case .entered(let step): object = ["type": "enter", "step": .string(step)]
      case .skipped(let step, let why): object = ["type": "skip", "step": .string(step), "why": .string(why)]
      case .routed(let from, let to, let why):
        object = ["type": "route", "from": .string(from), "to": .string(to), "why": .string(why)]
      case .wentBack(let from, let to): object = ["type": "back", "from": .string(from), "to": .string(to)]
      case .moved(let from, let to, let route, let name):
        object = ["type": "move", "from": .string(from), "to": .string(to), "route": .string(route.rawValue)]
        if let name { object["name"] = .string(name) }
      case .effect(let effect): object = json(effect)
      case .stale(let event, let step): object = ["type": "stale", "event": .string(event), "step": .string(step)]
      case .warning(let text): object = ["type": "warning", "message": .string(text)]
      case .ended(let step, let outcome):
        object = ["type": "terminal", "step": .string(step), "outcome": .string(outcome.rawValue)]
      case .assigned(let experiment, let variant, let why):
        object = [
          "type": "variant", "experiment": .string(experiment), "variant": .string(variant), "why": .string(why),
        ]
      }
    case .dialog(let action, let answer):
      object = [
        "type": "dialog", "action": .string(action.description), "outcome": .string(answer.outcome),
        "shown": .bool(answer.dialogShown), "result": .map(answer.result),
      ]
    case .storeFailed(let text): object = ["type": "warning", "message": .string(text)]
    }
    var node = Value.map(object).node
    // A track's properties keep the order the flow writes them in (the line's own keys are sorted).
    if case .record(.effect(.track(_, let properties))) = entry, case .mapping(var entries) = node.content,
      let index = entries.firstIndex(where: { $0.key == "properties" })
    {
      entries[index].value = properties.node
      node = Node(.mapping(entries))
    }
    return JSONWriter.write(node, pretty: false)
  }

  static func json(_ effect: RuntimeEffect) -> [String: Value] {
    var object: [String: Value] = [
      "type": "effect", "effect": .string(effect.typeName), "summary": .string(effect.summary),
    ]
    switch effect {
    case .set(let variable, let value): object["variable"] = .string(variable); object["value"] = value
    case .persist(let key, let value): object["key"] = .string(key); object["value"] = value
    case .remove(let key): object["key"] = .string(key)
    case .track(let event, let properties):
      object["event"] = .string(event); object["properties"] = .map(properties.dictionary)
    case .userProperty(let name, let value): object["name"] = .string(name); object["value"] = value
    case .syncProfile(let userID): object["userId"] = userID
    case .placement(let name): object["placement"] = .string(name)
    case .log(let text): object["message"] = .string(text)
    case .perform(let action, let permission, let arguments):
      object["action"] = .string(action.rawValue)
      if let permission { object["permission"] = .string(permission.rawValue) }
      if !arguments.isEmpty { object["arguments"] = .map(arguments) }
    case .custom(_, let arguments): object["arguments"] = .map(arguments)
    case .requestReview, .completeOnboarding: break
    }
    return object
  }

  package func end(step: String?, outcome: String) {
    if json {
      line(Value.map(["type": "end", "step": step.map(Value.string) ?? .null, "outcome": .string(outcome)]).jsonText)
    }
  }

  package func rejected(_ command: Command, _ rejection: Rejection) {
    if json {
      line(
        Value.map([
          "type": "rejected", "command": .string(command.description), "message": .string(rejection.message),
          "allowed": .list(rejection.allowed.map(Value.string)),
        ]).jsonText)
    } else {
      line(paint("  ✗ refused: \(rejection.message)", "31"))
      if !rejection.allowed.isEmpty {
        line(paint("    allowed here: \(rejection.allowed.joined(separator: ", "))", "2"))
      }
    }
  }
}

/// `value` with `fractionDigits` digits after the point, rounded as `printf("%.*f")` rounds it.
package func fixedPoint(_ value: Double, fractionDigits: Int) -> String {
  var buffer = [CChar](repeating: 0, count: 64)
  let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(fractionDigits)f", $0) }
  guard count > 0, count < buffer.count else { return "\(value)" }
  return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
