import FlowCore
import FlowLoading
import FlowRuntime
import Foundation
import PropertyBased
import Testing

/// The crash search (issue 11, deliverable 9): random `flowrun` sessions on every flow in `flows/`, with extreme
/// numbers, unicode, long inputs, `restart`, `reset`, `settings` and stale `@STEP` commands, on a device whose
/// facts are declared, default or extreme values (`Int.min`, 10,000 characters). After every command
/// nothing has trapped (the command was applied, refused with a message, or failed with one), the store loads,
/// and the run is still inside the flow; each session is run twice and must give the same trace, and its store
/// must read back from a file as it was written.
///
/// A session is a list of random integers, each picking a command from what the current step offers and from
/// hostile texts, so PropertyBased's seed reproduces it and shrinking gives the shortest failing list. It runs
/// `FLOWKIT_CRASH_SEARCH_COUNT` sessions per flow (default 25: a few seconds in a debug build; CI runs more).
@Suite struct CrashSearchTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let flowFiles: [String] = {
    let directory = root.appendingPathComponent("flows").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
  }()

  static let count = ProcessInfo.processInfo.environment["FLOWKIT_CRASH_SEARCH_COUNT"].flatMap { Int($0) } ?? 25

  @Test func everyFlowIsSearched() {
    #expect(Self.flowFiles.count >= 5)
  }

  @Test(arguments: flowFiles)
  func randomSessionsNeverTrapAndAreDeterministic(_ path: String) async throws {
    let flow = try #require(try FlowLoader.load(path: path).flow, "\(path) does not load")
    await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int.max).array(of: 1...60)) { picks in
      let first = await Session.run(picks, flow: flow)
      let second = await Session.run(picks, flow: flow)
      #expect(first.problems.isEmpty, "\(path): \(first.problems)")
      #expect(first.log == second.log, "\(path): the same commands gave different traces")
      #expect(first.state == second.state)
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let file = directory.appendingPathComponent("store.json").path
      try FileStore.write(first.store, to: file)
      #expect(try FileStore.read(path: file) == first.store, "\(path): the store does not read back")
    }
  }
}

/// One random session: the commands typed, what each did, and what went wrong.
struct Session {
  /// Per command: its text and what happened (`applied`, `refused: …`, `failed: …`, `info`), with the trace.
  var log: [Entry] = []
  var problems: [String] = []
  var state: RunState
  var store: [String: Value]

  struct Entry: Equatable {
    var command: String
    var outcome: String
    var trace: [TraceEntry]
  }

  static func run(_ picks: [Int], flow: Flow) async -> Session {
    let store = MemoryStore()
    let kinds = flow.permissions.map(\.value)
    var statuses: [PermissionKind: PermissionStatus] = [:]
    for (index, kind) in kinds.enumerated() {
      statuses[kind] = PermissionStatus.onDevice[(picks.first ?? 0 &+ index) % PermissionStatus.onDevice.count]
    }
    // Every declared action gets answers picked by the session too, so sign-in and restores lead somewhere.
    var answers: [String: [ActionAnswer]] = [:]
    for (name, declaration) in flow.declarations.actions {
      let outcomes = declaration.outcomeNames
      answers[name.rawValue] = picks.prefix(24).map { pick in
        ActionScript.answer(outcomes[(pick / 7) % outcomes.count], of: declaration)
      }
    }
    for kind in kinds {
      let outcomes = PermissionStatus.requestOutcomes
      answers[kind.rawValue] = picks.prefix(24).map { ActionAnswer(outcomes[($0 / 5) % outcomes.count].rawValue) }
    }
    // The device's facts: a declared value, the default, or an extreme one of the fact's type.
    var facts: [String: Value] = [:]
    for (index, fact) in flow.facts.enumerated() {
      let extremes: [Value]
      switch fact.type {
      case .int: extremes = [.int(.min), .int(.max), .int(0), .int(-1)]
      case .bool: extremes = [.bool(true), .bool(false)]
      case .string: extremes = [.string(""), .string("日本語🎌"), .string(String(repeating: "x", count: 10_000))]
      case .decimal:
        extremes = [.decimal(-.greatestFiniteMagnitude), .decimal(.greatestFiniteMagnitude), .decimal(0.5)]
      case .date: extremes = [.date(CalendarDate.earliest), .date(CalendarDate.latest), .null]
      case .duration: extremes = [.duration(.min), .duration(.max), .duration(0)]
      case .list, .map: extremes = [fact.defaultValue]
      }
      let choices = fact.values + [fact.defaultValue] + extremes
      facts[fact.name] = choices[((picks.last ?? 0) / 3 &+ index) % choices.count]
    }
    var runner = Runner(
      flow: flow,
      providers: .scripted(facts: facts, permissionStatuses: statuses, answers: answers, store: store))
    var session = Session(state: runner.state, store: [:])
    session.record("(launch)", await runner.start())
    for pick in picks {
      let text = Vocabulary(flow: flow, current: runner.state.current).command(pick)
      let command: Command
      do {
        guard let parsed = try Command.parse(text) else {
          session.log.append(Entry(command: text, outcome: "blank", trace: []))
          continue
        }
        command = parsed
      } catch {
        if error.message.isEmpty { session.problems.append("'\(text.prefix(80))' was refused with no message") }
        session.log.append(Entry(command: text, outcome: "unreadable: \(error.message)", trace: []))
        continue
      }
      let wasRunning = runner.state.current != nil && runner.state.ended == nil
      let result = await runner.execute(command)
      session.record(text, result)
      if let current = runner.state.current, !flow.steps.indices.contains(current) {
        session.problems.append("after '\(text.prefix(80))' the run is at step index \(current), outside the flow")
      }
      if command.verb == .back, wasRunning, runner.state.current == nil {
        session.problems.append("'\(text.prefix(80))' left the flow")
      }
      do {
        _ = try await store.load()
      } catch {
        session.problems.append("after '\(text.prefix(80))' the store does not load: \(error.message)")
      }
    }
    session.state = runner.state
    session.store = store.values
    return session
  }

  mutating func record(_ text: String, _ result: Runner.Result) {
    switch result {
    case .trace(let trace): log.append(Entry(command: text, outcome: "applied", trace: trace))
    case .rejected(let rejection):
      let message = "\(rejection)"
      if message.isEmpty { problems.append("'\(text.prefix(80))' was refused with no message") }
      log.append(Entry(command: text, outcome: "refused: \(message)", trace: []))
    case .failed(let error):
      if error.message.isEmpty { problems.append("'\(text.prefix(80))' failed with no message") }
      log.append(Entry(command: text, outcome: "failed: \(error.message)", trace: []))
    case .info: log.append(Entry(command: text, outcome: "info", trace: []))
    case .quit: log.append(Entry(command: text, outcome: "quit", trace: []))
    }
  }
}

/// Turns a random integer into a command: what the current step offers (its options, buttons, fields), the
/// other commands, and hostile arguments.
struct Vocabulary {
  let flow: Flow
  let current: StepIndex?

  static let numbers = [
    "0", "1", "2", "3", "59", "-1", "0.5", "1e19", "-1e19", "1e309", "nan", "inf", "-inf", "0x10",
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999", "31536000",
    "31536001", "",
  ]
  static let texts = [
    "", "Akira", "User", "日本語の名前", "🎌👩‍👩‍👧‍👦", "e\u{301}", "\u{202E}evil", "\u{0}", "\"quoted words\"", "a=b c=d",
    "wake=06:00", "wake=25:99", "name=", "=x", String(repeating: "x", count: 10_000),
    String(repeating: "名", count: 5_000), "\"", "\\", "@", "#comment",
  ]

  func pick<T>(_ list: [T], _ n: Int) -> T { list[n % list.count] }

  /// What moves the run on from the current step, as a person would: an option, a filled form, a text, the
  /// permission request, a button, or `next`.
  func progress(_ n: Int) -> String {
    guard let step = current.map({ flow.steps[$0] }) else { return "restart" }
    if let choice = step.choice, !choice.options.isEmpty, n % 3 != 0 { return "choose " + pick(choice.options, n).id }
    if !step.fields.isEmpty {
      let values = step.fields.map { field -> String in
        switch field.type {
        case .string: "\(field.name)=Akira"
        case .time: "\(field.name)=07:00"
        case .bool, .toggle: "\(field.name)=true"
        case .int: "\(field.name)=1"
        case .decimal: "\(field.name)=1.5"
        case .date: "\(field.name)=2000-02-29"
        case .singleChoice, .multiChoice: "\(field.name)=\(field.options.first?.id ?? "")"
        }
      }
      return "input " + values.joined(separator: " ")
    }
    if step.textInput != nil, n % 2 == 0 { return "input Akira" }
    if step.permission != nil, n % 2 == 0 { return "tap request" }
    if !step.buttons.isEmpty, step.next == nil || n % 2 == 0 { return "tap " + pick(step.buttons, n / 2).name }
    return "next"
  }

  func command(_ n: Int) -> String {
    let step = current.map { flow.steps[$0] }
    let rest = n / 64
    switch n % 64 {
    case 0...23: return progress(rest)
    case 24...27: return "next"
    case 28...30: return "back"
    case 31: return "skip"
    case 32...34:
      let options = step?.choice?.options.map(\.id) ?? []
      let choices = options + Self.numbers + [options.joined(separator: ","), "1,1,1", ",", "a,,b"]
      return "choose " + pick(choices, rest)
    case 35...37:
      let fields = (step?.fields ?? []).map { "\($0.name)=\(pick(Self.texts + Self.numbers, rest / 7))" }
      return "input " + pick(Self.texts + [fields.joined(separator: " ")], rest)
    case 38...41:
      let buttons = (step?.buttons ?? []).map(\.name) + ["request", "nonexistent", "🎌"]
      return "tap " + pick(buttons, rest)
    case 42...44: return "wait " + pick(Self.numbers, rest)
    case 45: return "restart"
    case 46: return "reset"
    case 47, 48:
      let kinds = flow.permissions.map(\.value.rawValue) + ["camera", ""]
      let statuses = PermissionStatus.requestOutcomes.map(\.rawValue) + ["notDetermined", "bogus", ""]
      return "settings \(pick(kinds, rest))=\(pick(statuses, rest / 11))"
    case 49: return "state"
    case 50...55:
      // A stale or current `@STEP`: the command was meant for some step.
      let ids = flow.steps.map(\.id) + ["nowhere", "日本"]
      return command(rest / 64) + " @" + pick(ids, rest)
    case 56: return "help"
    case 57, 58: return pick(Self.texts, rest)
    case 59, 60:
      return pick(
        ["next next", "back 1", "skip @", "choose", "tap", "wait", "input", "settings", "@x", "quit now"], rest)
    default: return pick(["choose ", "wait ", "tap ", "input "], rest) + pick(Self.numbers + Self.texts, rest / 5)
    }
  }
}
