package import FlowCore
import FlowLoading
internal import FlowYAML
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// How `flowrun` was asked to set up the world.
package struct SessionSetup: Sendable {
  package var environment: [String]
  package var permissionAnswers: [String]
  package var permissionStatuses: [String]
  /// Scripted action answers in the order given, each with the flag that gave it (`--answer`, or `--auth`,
  /// `--restore` and `--review`, which name their action).
  package var actionAnswers: [ActionFlag]
  package var clock: Double?
  /// The `--state` store, opened for the session; nil keeps the store in memory.
  package var store: FileStore?
  package var interactive: Bool
  /// The first system dialog that nothing answered (no scripted answer, no terminal to ask on).
  package let unanswered = UnansweredDialog()

  package init(
    environment: [String], permissionAnswers: [String], permissionStatuses: [String], actionAnswers: [ActionFlag],
    clock: Double?, store: FileStore?, interactive: Bool
  ) {
    self.environment = environment
    self.permissionAnswers = permissionAnswers
    self.permissionStatuses = permissionStatuses
    self.actionAnswers = actionAnswers
    self.clock = clock
    self.store = store
    self.interactive = interactive
  }

  package var facts: [String: Value] {
    var facts: [String: Value] = [:]
    for (key, value) in pairs(environment) { facts[key] = Self.parseValue(value) }
    return facts
  }

  /// The permission statuses at launch; statuses that are not ``PermissionStatus/onDevice`` were refused by
  /// `validate()` and are left out.
  package var statuses: [PermissionKind: PermissionStatus] {
    var statuses: [PermissionKind: PermissionStatus] = [:]
    for (kind, text) in pairs(permissionStatuses) {
      statuses[PermissionKind(rawValue: kind)] = try? PermissionStatus.parse(text)
    }
    return statuses
  }

  /// What in the flags does not fit `flow` (a permission, fact or locale it does not declare, an outcome its
  /// action does not have, a number out of range), one message per problem, in the order of the flags.
  package func problems(with flow: Flow, lang: String?) -> [String] {
    let names = FlowNames(flow)
    var problems: [String] = []
    if let lang, let problem = names.checkLocale(lang, in: "--lang") { problems.append(problem) }
    for (name, text) in pairs(environment) {
      if let problem = names.checkFact(name, value: Self.parseValue(text), text: text, in: "--env") {
        problems.append(problem)
      }
    }
    for (kind, outcome) in pairs(permissionAnswers) {
      if let problem = names.checkPermission(kind, in: "--permission") {
        problems.append(problem)
      } else if let problem = names.checkOutcome(outcome, of: .requestPermission, in: "--permission \(kind)") {
        problems.append(problem)
      }
    }
    for (kind, _) in pairs(permissionStatuses) {
      if let problem = names.checkPermission(kind, in: "--permission-status") { problems.append(problem) }
    }
    for answer in actionAnswers {
      let parts = answer.text.split(separator: ":", maxSplits: 1)
      let outcome = String(parts.first ?? "")
      if let problem = names.checkOutcome(outcome, of: answer.action, in: answer.flag) {
        problems.append(problem)
        continue
      }
      let fields = names.declarations.action(answer.action)?.outcome(outcome)?.result.map(\.name) ?? []
      for pair in parts.dropFirst().first?.split(separator: ",") ?? [] {
        let kv = pair.split(separator: "=", maxSplits: 1)
        let field = String(kv[0])
        if !fields.contains(field) {
          let returns =
            fields.isEmpty ? "it returns no result" : "it returns \(Suggestion.list(fields))"
          problems.append(
            "unknown result field '\(field)' in \(answer.flag): outcome '\(outcome)' of '\(answer.action)' does not "
              + "return it\(Suggestion.didYouMean(field, in: fields)) (\(returns))")
        } else if kv.count == 2, let problem = FlowNames.checkNumber(String(kv[1]), in: "\(answer.flag) \(field)") {
          problems.append(problem)
        }
      }
    }
    return problems
  }

  /// `success:name=Akira,userId=u1` -> an answer.
  package static func answer(_ text: String) -> ActionAnswer {
    let parts = text.split(separator: ":", maxSplits: 1)
    var result: [String: Value] = [:]
    if parts.count > 1 {
      for pair in parts[1].split(separator: ",") {
        let kv = pair.split(separator: "=", maxSplits: 1)
        if kv.count == 2 { result[String(kv[0])] = parseValue(String(kv[1])) }
      }
    }
    return ActionAnswer(String(parts.first ?? ""), result: result)
  }

  package static func parseValue(_ text: String) -> Value { Value(plainText: text) }

  func pairs(_ list: [String]) -> [(String, String)] {
    list.map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1)
      return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
    }
  }

  /// Providers scripted from the flags; when interactive, unscripted dialogs are asked at the prompt. The store is
  /// the `--state` file, or memory.
  package func providers(output: Output) -> Providers {
    let unscripted: Unscripted =
      interactive
      ? .ask { @Sendable question, choices in
        output.line("  ◆ \(question) [\(choices.joined(separator: "/"))]")
        while true {
          StandardStream.output.write("  answer› ")
          guard let line = readLine() else { return nil }
          let answer = line.trimmingWhitespace
          if choices.contains(answer) { return answer }
          output.line("    please type one of: \(choices.joined(separator: ", "))")
        }
      }
      // No terminal to ask on: the session stops and names the flag that scripts the answer.
      : .refuse(note: unanswered.note)
    var answers: [String: [ActionAnswer]] = [:]
    for answer in actionAnswers { answers[answer.action.rawValue, default: []].append(Self.answer(answer.text)) }
    for (kind, outcome) in pairs(permissionAnswers) { answers[kind, default: []].append(ActionAnswer(outcome)) }
    let store: any KeyValueStore = self.store ?? MemoryStore()
    return Providers.scripted(
      facts: facts, clock: clock ?? 9 * 3600, permissionStatuses: statuses, answers: answers, store: store,
      unscripted: unscripted)
  }
}

/// One scripted action answer from the command line: `--answer purchase=purchased:product=pro` is the action
/// `purchase` with the text `purchased:product=pro`; `--auth success` is `sign-in-with-apple` with `success`.
package struct ActionFlag: Sendable, Hashable {
  /// The flag as messages name it: `--answer purchase`, `--auth`.
  package var flag: String
  package var action: ActionName
  /// `OUTCOME[:FIELD=VALUE,...]`.
  package var text: String

  package init(flag: String, action: ActionName, text: String) {
    self.flag = flag
    self.action = action
    self.text = text
  }

  /// `ACTION=OUTCOME[:FIELD=VALUE,...]` as `--answer` takes it; nil when there is no `=`.
  package init?(answer: String) {
    let parts = answer.split(separator: "=", maxSplits: 1)
    guard parts.count == 2, !parts[0].isEmpty else { return nil }
    self.init(flag: "--answer \(parts[0])", action: ActionName(rawValue: String(parts[0])), text: String(parts[1]))
  }

  /// The flags that name their action: `--auth`, `--restore`, `--review`.
  package static let spellings: [(flag: String, action: ActionName)] = [
    ("--auth", "sign-in-with-apple"), ("--restore", "restore-profile"), ("--review", "request-review"),
  ]
}

/// A system dialog that nothing answered (``Unscripted/refuse(note:)``): `flowrun` without a terminal stops
/// with exit status 2 and a message naming the flag that scripts the answer; a scenario row fails, naming the
/// `answers:` key.
package final class UnansweredDialog: Sendable {
  /// The dialog, the step it was shown on and the outcomes a person may answer it with.
  package struct Record: Sendable {
    package var dialog: DialogName
    package var step: String?
    package var choices: [String]
  }

  private let first = Mutex<Record?>(nil)

  package init() {}

  /// Notes the first unanswered dialog, the step it was shown on and its choices.
  package func note(_ dialog: DialogName, step: String?, choices: [String]) {
    first.withLock { if $0 == nil { $0 = Record(dialog: dialog, step: step, choices: choices) } }
  }

  /// The first dialog nothing answered.
  package var record: Record? { first.withLock { $0 } }

  /// `flowrun`'s message for the unanswered dialog, if there was one: what was asked and the flag that answers it.
  package var message: String? {
    guard let record else { return nil }
    let outcomes = "OUTCOME (one of \(record.choices.joined(separator: ", ")))"
    let (question, script): (String, String)
    switch record.dialog {
    case .permission(let kind): (question, script) = ("Allow \(kind)?", "--permission \(kind)=\(outcomes)")
    case .action(let name):
      // The prelude's sign-in, restore and review keep their short flags; any other action is `--answer`'s.
      let spelling = ActionFlag.spellings.first { $0.action == name }?.flag
      (question, script) = ("\(name)?", spelling.map { "\($0) \(outcomes)" } ?? "--answer \(name)=\(outcomes)")
    }
    return "the flow shows a system dialog ('\(question)') that no flag answers, and standard input is not a "
      + "terminal to ask on; script the answer with \(script)"
  }
}

/// Where commands come from.
package enum CommandSource: Sendable {
  /// A terminal: each command is read after showing the prompt, by `read` (flowrun's is libedit's, with line
  /// editing and history; ``plainReading`` reads a plain line).
  case terminal(read: @Sendable (_ prompt: String) -> String?)
  case standardInput
  case lines([String], name: String)
}

/// The `flowrun` loop: read a command, run it, show what happened and the new screen.
package struct InteractiveSession {
  package var runner: Runner
  let output: Output
  let setup: SessionSetup
  var observation = Observation()
  var commands: [(Command, rejected: Bool)] = []
  var answers: [String: [ActionAnswer]] = [:]
  var initialStore: [String: Value] = [:]
  /// Whether a store write failed: the session then ends with exit status 2.
  var storeWriteFailed = false
  /// The flow file, named in runtime errors with the position of what failed.
  package var flowPath: String?

  package init(runner: Runner, output: Output, setup: SessionSetup) {
    self.runner = runner
    self.output = output
    self.setup = setup
  }

  /// Runs until the commands end or `quit`; returns the exit status.
  package mutating func run(_ source: CommandSource) async -> Int32 {
    if let store = setup.store, let stored = try? await store.load() { initialStore = stored }
    let started = await runner.start()
    if let unanswered = setup.unanswered.message {
      output.error("flowrun: \(unanswered)")
      return finish(2)
    }
    guard handle(started, command: nil, lineNumber: nil, isScript: false) else { return 1 }
    showScreen()
    var lines: [String] = []
    var lineIndex = 0
    if case .lines(let all, _) = source { lines = all }
    let isScript = source.isScript
    while true {
      let text: String
      switch source {
      case .terminal(let read):
        // \u{1}…\u{2} mark the colour codes as taking no room on the line (libedit's readline convention).
        guard let line = read(output.color ? "\u{1}\u{1B}[1m\u{2}›\u{1}\u{1B}[0m\u{2} " : "› ") else {
          return finish(0)
        }
        text = line
      case .standardInput:
        guard let line = readLine() else { return finish(0) }
        // Commands piped from a file saved with a byte order mark: the mark is not part of the first command.
        text = lineIndex == 0 && line.hasPrefix("\u{FEFF}") ? String(line.dropFirst()) : line
        lineIndex += 1
      case .lines:
        guard lineIndex < lines.count else { return finish(0) }
        text = lines[lineIndex]
        lineIndex += 1
      }
      let command: Command
      do {
        guard let parsed = try Command.parse(text) else { continue }
        command = parsed
      } catch {
        if isScript {
          output.error("\(source.name):\(lineIndex): \(error.message)")
          return finish(1)
        }
        output.line("  ✗ \(error.message)")
        continue
      }
      if !output.json && isScript { output.line("› \(command)") }
      let result = await runner.execute(command)
      if let unanswered = setup.unanswered.message {
        output.error("flowrun: \(source.name):\(lineIndex): \(unanswered)")
        return finish(2)
      }
      if case .quit = result { return finish(0) }
      if case .rejected(let rejection) = result {
        commands.append((command, true))
        output.rejected(command, rejection)
        if isScript {
          output.error(
            "\(source.name):\(lineIndex): '\(command)' was refused on step '\(currentStep ?? "-")': \(rejection)")
          return finish(1)
        }
        continue
      }
      if case .trace = result { commands.append((command, false)) }
      guard handle(result, command: command, lineNumber: lineIndex, isScript: isScript) else {
        if isScript { return finish(1) }
        continue
      }
      if case .trace = result { showScreen() }
    }
  }

  var currentStep: String? { runner.state.current.map { runner.flow.steps[$0].id } }

  /// Shows a result; false when the flow failed.
  mutating func handle(_ result: Runner.Result, command: Command?, lineNumber: Int?, isScript: Bool) -> Bool {
    switch result {
    case .trace(let trace):
      observation.add(trace)
      for entry in trace {
        if case .storeFailed(let message) = entry {
          storeWriteFailed = true
          output.error("flowrun: \(message)")
        }
        // Every action's answer is part of the recording; permission answers are read from the script when
        // recording (`recordedCase`), which knows those answered from a status (the recorded `permissions:`
        // statuses reproduce them) from those a replay must script.
        if case .dialog(.action(let action), let answer) = entry {
          answers[action.rawValue, default: []].append(answer)
        }
      }
      output.show(trace)
      return true
    case .failed(let error):
      output.error(failureMessage(error.message, lineNumber: lineNumber))
      return false
    case .info(let text):
      output.line(text)
      return true
    case .rejected, .quit:
      return true
    }
  }

  /// `FLOW:LINE:COL: error: MESSAGE (the flow failed on step 'S', at line N of the commands)`: the position
  /// is the one the error carries (an expression), else the current step's.
  func failureMessage(_ message: String, lineNumber: Int?) -> String {
    var text = message
    var position = currentStep.flatMap { id in runner.flow.steps.first { $0.id == id }?.location }
    let parts = message.split(separator: ": ", maxSplits: 1)
    if parts.count == 2 {
      let numbers = parts[0].split(separator: ":")
      if numbers.count == 2, let line = Int(numbers[0]), let column = Int(numbers[1]) {
        position = SourceLocation(line: line, column: column)
        text = String(parts[1])
      }
    }
    let prefix: String
    if let flowPath {
      prefix = flowPath + (position.map { ":\($0.line):\($0.column)" } ?? "") + ": error: "
    } else {
      prefix = "flowrun: error: "
    }
    var context = "the flow failed" + (currentStep.map { " on step '\($0)'" } ?? "")
    if let lineNumber { context += ", at line \(lineNumber) of the commands" }
    return prefix + text + " (\(context))"
  }

  /// Shows the current step, or why it cannot be shown (a text argument that cannot be evaluated, say).
  func showScreen() {
    do {
      if let screen = try runner.session.engine.screen(for: runner.state) { output.show(screen) }
    } catch {
      output.error("flowrun: cannot show step '\(currentStep ?? "-")': \(error)")
    }
  }

  /// Ends the session; a failed store write makes the status 2 whatever else happened.
  func finish(_ status: Int32) -> Int32 {
    output.end(step: currentStep, outcome: runner.state.ended?.outcome.rawValue ?? "incomplete")
    return storeWriteFailed ? 2 : status
  }

  /// The session as a scenario table of one case, to be written in `directory`: its `flow:` is the flow's
  /// path relative to that folder, as `flowrun test` reads it, so the table can move with its flow.
  package func recordedCase(flowPath: String, directory: String) -> String {
    let flowPath = ScenarioEmitter.relativePath(from: directory, to: flowPath)
    var y = "# Recorded by flowrun \(flowPath). Paste the case into a table whose `flow:` names this flow.\n"
    y += "flow: \(yamlString(flowPath))\ncases:\n"
    y += "  - name: recorded session\n    source: \"recorded with flowrun --record\"\n"
    let facts = setup.facts
    if !facts.isEmpty {
      y +=
        "    env: {"
        + facts.sorted { $0.key < $1.key }.map { "\($0.key): \(yamlValue($0.value))" }.joined(separator: ", ") + "}\n"
    }
    if let clock = setup.clock { y += "    clock: \"\(TimeOfDay.clockText(seconds: clock))\"\n" }
    if !runner.variantPins.isEmpty {
      y +=
        "    variants: {"
        + runner.variantPins.sorted { $0.key < $1.key }.map { "\($0.key): \(yamlString($0.value))" }
        .joined(separator: ", ") + "}\n"
    }
    let statuses = setup.statuses
    if !statuses.isEmpty {
      y +=
        "    permissions: {"
        + statuses.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        + "}\n"
    }
    var answers = answers
    if let permissions = runner.session.providers.permissions as? ScriptedPermissions {
      for (kind, list) in permissions.withScript({ $0.dialogAnswers }) { answers[kind.rawValue] = list }
    }
    if !answers.isEmpty {
      y += "    answers:\n"
      for (key, list) in answers.sorted(by: { $0.key < $1.key }) {
        let items = list.map { answer in
          answer.result.isEmpty
            ? answer.outcome
            : "{outcome: \(answer.outcome), result: \(yamlValue(.map(answer.result)))}"
        }
        y += "      \(key): [\(items.joined(separator: ", "))]\n"
      }
    }
    if !initialStore.isEmpty { y += "    store: \(yamlValue(.map(initialStore)))\n" }
    y += "    commands:\n"
    for (command, rejected) in commands {
      y +=
        rejected
        ? "      - {command: \(yamlString(command.description)), rejected: true}\n"
        : "      - \(yamlString(command.description))\n"
    }
    y += "    expect:\n"
    y += "      path: [\(observation.path.map(yamlString).joined(separator: ", "))]\n"
    let events = observation.events
    y +=
      events.isEmpty
      ? "      events: []\n" : "      events:\n" + events.map { "        - \(yamlString($0))\n" }.joined()
    if !observation.dialogs.isEmpty {
      y += "      dialogs: [\(observation.dialogs.map(yamlString).joined(separator: ", "))]\n"
    }
    if let current = currentStep { y += "      at: \(yamlString(current))\n" }
    if let ended = runner.state.ended { y += "      ended: \(ended.outcome)\n" } else { y += "      ended: false\n" }
    return y
  }

  func yamlString(_ text: String) -> String { Value.string(text).jsonText }

  func yamlValue(_ value: Value) -> String { value.jsonText }
}

extension CommandSource {
  /// The commands of the script file at `path`, one per line. A UTF-8 byte order mark and CRLF line ends are
  /// accepted; the file must be a regular UTF-8 text file of at most the document size limit, or
  /// `/dev/null`, an empty script.
  ///
  /// - Throws: an error whose description names the path and the problem.
  package static func script(path: String) throws -> CommandSource {
    if path == "/dev/null" { return .lines([], name: path) }
    let text = try FileInput.text(of: FileInput.read(path), path: path)
    // "\r\n" is one Character in Swift, so it is a separator of its own.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
    return .lines(lines, name: path)
  }

  var isScript: Bool { if case .terminal = self { false } else { true } }

  /// Writes the prompt (without libedit's \u{1}…\u{2} marks) and reads a line from standard input, without
  /// editing.
  package static let plainReading: @Sendable (String) -> String? = { prompt in
    StandardStream.output.write(prompt.filter { $0 != "\u{1}" && $0 != "\u{2}" })
    return readLine()
  }
  var name: String {
    switch self {
    case .terminal: "terminal"
    case .standardInput: "<stdin>"
    case .lines(_, let name): name
    }
  }
}
