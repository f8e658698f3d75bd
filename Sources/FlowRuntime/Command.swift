package import FlowCore

/// One `flowrun` command: a line typed at the prompt or read from a `--script`, an entry of a scenario's
/// `commands`, and what `--record` and `explore --emit-scenarios` write.
///
/// This is the one codec between the text of a command and the engine: ``parse(_:)`` reads the text (and
/// range-checks its numbers), ``description`` writes it back so that `parse` gives the same command,
/// ``init(sending:)`` turns an engine event into a command, and ``event(on:)`` a command into the event it sends.
package struct Command: Hashable, Sendable, CustomStringConvertible {
  /// What the command does, with its arguments.
  package enum Action: Hashable, Sendable {
    case next, back, skip, reset
    /// Option ids or 1-based option numbers (`choose 2`), as typed.
    case choose([String])
    /// The words after `input`, quotes removed: a text for a text input, or `FIELD=VALUE` pairs for a form
    /// (which one the current step decides).
    case input([String])
    case tap(String)
    case wait(seconds: Double)
    /// The app is killed and launched again.
    case restart
    /// `KIND=STATUS` pairs: the user changes permissions in the Settings app.
    case settings([Setting])
    /// The app goes to the background.
    case background
    /// The app returns from the background; the permission statuses are read again.
    case foreground
    /// A deep link (`open anicca://referral?code=A1`).
    case open(String)
    case state, help, quit
  }

  /// One `KIND=STATUS` pair of `settings`.
  package struct Setting: Hashable, Sendable {
    package var kind: String
    package var status: String
  }

  /// The words that start a command.
  package enum Verb: String, CaseIterable, Sendable {
    case next, back, skip, choose, input, tap, wait, restart, reset, settings, background, foreground, open, state
    case help, quit
  }

  package var action: Action
  /// `@STEP`: the step the command was meant for; ignored as stale when another step is current.
  package var step: String?

  package init(_ action: Action, step: String? = nil) {
    self.action = action
    self.step = step
  }

  /// The longest `wait`: one year of virtual time.
  package static let maxWaitSeconds: Double = 365 * 24 * 3600

  package var verb: Verb {
    switch action {
    case .next: .next
    case .back: .back
    case .skip: .skip
    case .reset: .reset
    case .choose: .choose
    case .input: .input
    case .tap: .tap
    case .wait: .wait
    case .restart: .restart
    case .settings: .settings
    case .background: .background
    case .foreground: .foreground
    case .open: .open
    case .state: .state
    case .help: .help
    case .quit: .quit
    }
  }
}

// MARK: - Events

extension Command {
  /// The command that sends `event`; nil for events no command sends (a launch, a provider's answer).
  package init?(sending event: FlowEvent) {
    switch event {
    case .next: self.init(.next)
    case .skip: self.init(.skip)
    case .back: self.init(.back)
    case .reset: self.init(.reset)
    case .choose(let ids): self.init(.choose(ids))
    case .input(let text): self.init(.input([text]))
    case .inputFields(let fields):
      self.init(.input(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }))
    case .tap(let name): self.init(.tap(name))
    case .elapse(let seconds): self.init(.wait(seconds: seconds))
    case .background: self.init(.background)
    case .foreground: self.init(.foreground)
    case .open(let url): self.init(.open(url))
    case .launch, .outcome: return nil
    }
  }

  /// The event the command sends on `step` (the current step, which decides what `choose 2` and
  /// `input F=V` mean); nil for commands that act on the session (restart, settings, foreground, which reads the
  /// permission statuses first, state, help, quit).
  package func event(on step: Step?) -> FlowEvent? {
    switch action {
    case .next: return .next
    case .back: return .back
    case .skip: return .skip
    case .reset: return .reset
    case .choose(let ids): return .choose(Self.optionIDs(ids, on: step))
    case .input(let words):
      if let step, !step.fields.isEmpty, words.allSatisfy({ $0.contains("=") }) {
        var fields: [String: String] = [:]
        for word in words {
          let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
          fields[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return .inputFields(fields)
      }
      return .input(words.joined(separator: " "))
    case .tap(let name): return .tap(name)
    case .wait(let seconds): return .elapse(seconds: seconds)
    case .background: return .background
    case .open(let url): return .open(url)
    case .restart, .settings, .foreground, .state, .help, .quit: return nil
    }
  }

  /// `choose 2` picks the second option when no option is called "2".
  static func optionIDs(_ ids: [String], on step: Step?) -> [String] {
    guard let options = step?.choice?.options else { return ids }
    return ids.map { id in
      if options.contains(where: { $0.id == id }) { return id }
      // Compared before any arithmetic: `choose -9223372036854775808` is an unknown option, not an overflow.
      if let number = Int(id), number >= 1, number <= options.count { return options[number - 1].id }
      return id
    }
  }
}

// MARK: - Text

extension Command {
  /// The command as `parse` reads it: `choose a,b`, `input "two words"`, `wait 0.5 @welcome`.
  package var description: String {
    var words = [verb.rawValue]
    switch action {
    case .next, .back, .skip, .reset, .restart, .background, .foreground, .state, .help, .quit: break
    case .open(let url): words.append(Self.quoted(url))
    case .choose(let ids): words.append(Self.quoted(ids.joined(separator: ",")))
    case .input(let texts): words += texts.map(Self.quoted)
    case .tap(let name): words.append(Self.quoted(name))
    case .wait(let seconds):
      words.append(seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds))
    case .settings(let pairs): words += pairs.map { Self.quoted("\($0.kind)=\($0.status)") }
    }
    if let step { words.append("@" + step) }
    return words.joined(separator: " ")
  }

  /// Parses one line; nil for a blank line or a `#` comment.
  ///
  /// - Throws: ``CommandError`` for an unknown verb, missing or extra arguments, an unterminated quote, or a
  ///   number out of range (`wait` takes 0 to ``maxWaitSeconds`` seconds).
  package static func parse(_ line: String) throws(CommandError) -> Command? {
    let trimmed = line.trimmingWhitespace
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    var words = try tokenize(trimmed)
    let verbWord = words.removeFirst().text
    guard let verb = Verb(rawValue: verbWord.lowercased()) else {
      var message = "unknown command '\(verbWord)'"
      if let guess = Suggestion.closest(to: verbWord, in: Verb.allCases.map(\.rawValue)) {
        message += "; did you mean '\(guess)'?"
      }
      throw CommandError(message: message + " (type 'help' for the list)")
    }
    var step: String? = nil
    if let last = words.last, !last.quoted, last.text.hasPrefix("@"), last.text.count > 1 {
      step = String(last.text.dropFirst())
      words.removeLast()
    }
    return Command(try action(verb, words.map(\.text)), step: step)
  }

  private static func action(_ verb: Verb, _ arguments: [String]) throws(CommandError) -> Action {
    func none(_ action: Action) throws(CommandError) -> Action {
      guard arguments.isEmpty else {
        throw CommandError(message: "\(verb.rawValue) takes no arguments; found '\(arguments.joined(separator: " "))'")
      }
      return action
    }
    switch verb {
    case .next: return try none(.next)
    case .back: return try none(.back)
    case .skip: return try none(.skip)
    case .reset: return try none(.reset)
    case .restart: return try none(.restart)
    case .background: return try none(.background)
    case .foreground: return try none(.foreground)
    case .open:
      guard arguments.count == 1 else {
        throw CommandError(message: "open needs one URL: open anicca://referral?code=A1")
      }
      return .open(arguments[0])
    case .state: return try none(.state)
    case .help: return try none(.help)
    case .quit: return try none(.quit)
    case .choose:
      guard !arguments.isEmpty else { throw CommandError(message: "choose needs an option: choose ID[,ID...]") }
      return .choose(arguments.joined(separator: " ").split(separator: ",").map { String($0).trimmingWhitespace })
    case .input:
      guard !arguments.isEmpty else { throw CommandError(message: "input needs a text or FIELD=VALUE pairs") }
      return .input(arguments)
    case .tap:
      guard arguments.count == 1 else { throw CommandError(message: "tap needs one button name: tap BUTTON") }
      return .tap(arguments[0])
    case .wait:
      guard arguments.count == 1 else { throw CommandError(message: "wait needs a number of seconds: wait 0.5") }
      return .wait(seconds: try seconds(arguments[0]))
    case .settings:
      let pairs = arguments.map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) }
      guard !pairs.isEmpty, pairs.allSatisfy({ $0.count == 2 && !$0[0].isEmpty }) else {
        throw CommandError(message: "settings needs KIND=STATUS pairs: settings healthKit=granted")
      }
      return .settings(pairs.map { Setting(kind: String($0[0]), status: String($0[1])) })
    }
  }

  /// The seconds of `wait`: a decimal number from 0 to ``maxWaitSeconds``.
  static func seconds(_ text: String) throws(CommandError) -> Double {
    let range = "seconds must be a number from 0 to \(Int(maxWaitSeconds)) (one year)"
    let decimal = text.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
    guard decimal, let seconds = Double(text), seconds.isFinite else {
      throw CommandError(message: "wait: '\(text)' is not a number; \(range): wait 0.5")
    }
    guard seconds >= 0, seconds <= maxWaitSeconds else {
      throw CommandError(message: "wait: \(text) is out of range; \(range)")
    }
    return seconds
  }

  /// Splits on spaces and tabs, keeping "quoted text" or 'quoted text' together; in double quotes `\"` is a
  /// quote and `\\` a backslash.
  static func tokenize(_ line: String) throws(CommandError) -> [(text: String, quoted: Bool)] {
    var words: [(text: String, quoted: Bool)] = []
    var current = ""
    var quote: Character? = nil
    var quoted = false
    var inWord = false
    var escaped = false
    for character in line {
      if let open = quote {
        if escaped {
          if character != "\"" && character != "\\" { current.append("\\") }
          current.append(character)
          escaped = false
        } else if open == "\"" && character == "\\" {
          escaped = true
        } else if character == open {
          quote = nil
        } else {
          current.append(character)
        }
      } else if character == "\"" || character == "'" {
        quote = character
        quoted = true
        inWord = true
      } else if character == " " || character == "\t" {
        if inWord { words.append((current, quoted)) }
        current = ""
        inWord = false
        quoted = false
      } else {
        current.append(character)
        inWord = true
      }
    }
    if quote != nil { throw CommandError(message: "unterminated quote in '\(line)'") }
    if escaped { current.append("\\") }
    if inWord { words.append((current, quoted)) }
    return words
  }

  /// A word as `tokenize` reads it back: bare when it can be, else in double quotes.
  static func quoted(_ word: String) -> String {
    let bare =
      !word.isEmpty && !word.hasPrefix("@") && !word.hasPrefix("#")
      && !word.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" })
    if bare { return word }
    var out = "\""
    for character in word {
      if character == "\"" || character == "\\" { out.append("\\") }
      out.append(character)
    }
    return out + "\""
  }
}

/// Why a line is not a command.
package struct CommandError: Error, Hashable, Sendable, CustomStringConvertible {
  package var message: String
  package init(message: String) { self.message = message }
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
