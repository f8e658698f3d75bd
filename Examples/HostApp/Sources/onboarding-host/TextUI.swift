import FlowCore

/// Prints a screen, then reads the user's next line (echoed, so a piped script reads like a session); nil when
/// the flow has ended or the input has.
func show(_ screen: Screen) -> String? {
  print("[\(screen.step)]" + (screen.title.map { " \($0)" } ?? ""))
  if let body = screen.body { print("  \(body)") }
  for option in screen.options { print("  \(option.isSelected ? "[x]" : "[ ]") \(option.id): \(option.label)") }
  for button in screen.buttons { print("  <\(button.name): \(button.label)>\(button.isEnabled ? "" : " (disabled)")") }
  if let outcome = screen.endedWith {
    print("  ended: \(outcome)")
    return nil
  }
  print("> ", terminator: "")
  let line = readLine()
  print(line ?? "")
  return line
}

/// The event a line sends: a button's name presses it; `choose ID...`, `type TEXT` and `back`.
func event(for line: String, on screen: Screen) -> FlowEvent? {
  let words = line.split(separator: " ").map(String.init)
  switch words.first {
  case "choose": return .choose(Array(words.dropFirst()))
  case "type": return .input(words.dropFirst().joined(separator: " "))
  case "back": return .back
  default:
    guard let button = screen.buttons.first(where: { $0.name == line }) else {
      print("  not on this screen: \(line)")
      return nil
    }
    return button.event
  }
}

/// A system dialog: the user's answer (`granted`, `denied`, `success`, `cancelled`) is the next line.
@Sendable func askUser(_ dialog: String) async -> ActionAnswer {
  print("system dialog \(dialog)? ", terminator: "")
  let answer = readLine() ?? "cancelled"
  print(answer)
  return answer == "success"
    ? ActionAnswer(answer, result: ["userId": "host-1", "name": "Host"]) : ActionAnswer(answer)
}
