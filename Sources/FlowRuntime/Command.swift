internal import FlowCore

/// One `flowrun` command, as typed at the prompt, read from a script or listed in a scenario.
package struct Command: Hashable, Sendable, CustomStringConvertible {
  package enum Verb: String, CaseIterable, Sendable {
    case next, back, skip, choose, input, tap, wait, restart, reset, settings, state, help, quit
  }

  package var verb: Verb
  /// Words after the verb, quotes removed.
  package var arguments: [String]
  /// Everything after the verb as typed (for `input TEXT`).
  package var rest: String
  /// `@STEP`: the step the command was meant for; ignored as stale when another step is current.
  package var step: String?

  package var description: String {
    ([verb.rawValue] + (rest.isEmpty ? [] : [rest]) + (step.map { ["@\($0)"] } ?? [])).joined(separator: " ")
  }

  /// Parses one line; nil for a blank line or a `#` comment.
  package static func parse(_ line: String) throws(CommandError) -> Command? {
    let trimmed = line.trimmingWhitespace
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    var words = try tokenize(trimmed)
    let verbWord = words.removeFirst()
    guard let verb = Verb(rawValue: verbWord.lowercased()) else {
      var message = "unknown command '\(verbWord)'"
      if let guess = Suggestion.closest(to: verbWord, in: Verb.allCases.map(\.rawValue)) {
        message += "; did you mean '\(guess)'?"
      }
      throw CommandError(message: message + " (type 'help' for the list)")
    }
    var step: String? = nil
    if let last = words.last, last.hasPrefix("@"), last.count > 1 {
      step = String(last.dropFirst())
      words.removeLast()
    }
    var rest = String(trimmed.dropFirst(verbWord.count)).trimmingWhitespace
    if let step, rest.hasSuffix("@\(step)") { rest = String(rest.dropLast(step.count + 1)).trimmingWhitespace }
    let command = Command(verb: verb, arguments: words, rest: rest, step: step)
    try command.checkArity()
    return command
  }

  private func checkArity() throws(CommandError) {
    switch verb {
    case .choose where arguments.isEmpty: throw CommandError(message: "choose needs an option: choose ID[,ID...]")
    case .input where arguments.isEmpty: throw CommandError(message: "input needs a text or FIELD=VALUE pairs")
    case .tap where arguments.count != 1: throw CommandError(message: "tap needs one button name: tap BUTTON")
    case .settings where arguments.isEmpty || !arguments.allSatisfy({ $0.contains("=") }):
      throw CommandError(message: "settings needs KIND=STATUS pairs: settings healthKit=granted")
    case .wait:
      guard arguments.count == 1, let seconds = Double(arguments[0]), seconds >= 0, seconds.isFinite else {
        throw CommandError(message: "wait needs a number of seconds: wait 0.5")
      }
    default: break
    }
  }

  /// Splits on spaces, keeping "quoted text" together.
  static func tokenize(_ line: String) throws(CommandError) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character? = nil
    var inWord = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        inWord = true
      } else if character == " " || character == "\t" {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(character)
        inWord = true
      }
    }
    if quote != nil { throw CommandError(message: "unterminated quote in '\(line)'") }
    if inWord { words.append(current) }
    return words
  }
}

package struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}

extension String {
  var trimmingWhitespace: String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view.removeFirst() }
    while let last = view.last, last.isWhitespace { view.removeLast() }
    return String(view)
  }
}
