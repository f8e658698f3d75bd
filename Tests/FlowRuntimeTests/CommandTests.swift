import FlowCore
import FlowRuntime
import Testing

@Suite struct CommandTests {
  static let flow = """
    flow: c
    version: "1"
    locales: [en]
    start: pick
    variables:
      kind: { type: string, default: "" }
    steps:
      pick:
        kind: single-choice
        variable: kind
        options: { a: label_a, b: label_b, c: label_c }
        next: done
      done:
        kind: terminal
        outcome: completed
    """

  @Test(arguments: [
    ("next", "next"), ("  NEXT  ", "next"), ("choose a, b", "choose a,b"), ("input hello world", "input hello world"),
    ("input \"two words\"", "input \"two words\""), ("input ''", "input \"\""),
    ("input \"say \\\"hi\\\" \\\\o/\"", "input \"say \\\"hi\\\" \\\\o/\""), ("input \"@home\"", "input \"@home\""),
    ("tap request @ask", "tap request @ask"), ("wait 3", "wait 3"), ("wait 0.5", "wait 0.5"), ("wait 1e3", "wait 1000"),
    ("wait 31536000", "wait 31536000"), ("settings healthKit=granted", "settings healthKit=granted"),
  ])
  func printsWhatItParses(_ line: String, _ printed: String) throws {
    let command = try #require(try Command.parse(line))
    #expect(command.description == printed)
    #expect(try Command.parse(command.description) == command)
  }

  @Test func quotedTextKeepsItsCharacters() throws {
    #expect(try Command.parse("input \"say \\\"hi\\\" C:\\\\x \\n\"")?.action == .input(["say \"hi\" C:\\x \\n"]))
    #expect(try Command.parse("input \"@home\"")?.step == nil)
    #expect(try Command.parse("input x @home")?.step == "home")
  }

  @Test(arguments: [
    ("wait 1e19", "wait: 1e19 is out of range; seconds must be a number from 0 to 31536000 (one year)"),
    ("wait -1", "wait: -1 is out of range; seconds must be a number from 0 to 31536000 (one year)"),
    ("wait 31536000.5", "wait: 31536000.5 is out of range; seconds must be a number from 0 to 31536000 (one year)"),
    ("wait 1e309", "wait: '1e309' is not a number; seconds must be a number from 0 to 31536000 (one year): wait 0.5"),
    ("wait nan", "wait: 'nan' is not a number; seconds must be a number from 0 to 31536000 (one year): wait 0.5"),
    ("wait inf", "wait: 'inf' is not a number; seconds must be a number from 0 to 31536000 (one year): wait 0.5"),
    ("wait 0x10", "wait: '0x10' is not a number; seconds must be a number from 0 to 31536000 (one year): wait 0.5"),
    ("wait", "wait needs a number of seconds: wait 0.5"),
    ("wait 1 2", "wait needs a number of seconds: wait 0.5"),
    ("next now", "next takes no arguments; found 'now'"),
    ("tap", "tap needs one button name: tap BUTTON"),
    ("settings =granted", "settings needs KIND=STATUS pairs: settings healthKit=granted"),
    ("input \"open", "unterminated quote in 'input \"open'"),
    ("nxt", "unknown command 'nxt'; did you mean 'next'? (type 'help' for the list)"),
  ])
  func refuses(_ line: String, _ message: String) {
    #expect(throws: CommandError(message: message)) { try Command.parse(line) }
  }

  @Test func extremeOptionNumbersAreUnknownOptionsNotOverflows() throws {
    let step = try compileFlow(Self.flow).steps[0]
    for number in ["-9223372036854775808", "9223372036854775807", "0", "4", "99999999999999999999999"] {
      let command = try #require(try Command.parse("choose \(number)"))
      #expect(command.event(on: step) == .choose([number]))
    }
    let picked = try Command.parse("choose 3,1")?.event(on: step)
    #expect(picked == .choose(["c", "a"]), "\(String(describing: picked))")
  }

  @Test func everyEventACommandSendsComesBackFromItsText() throws {
    let flow = try compileFlow(Self.flow)
    let events: [FlowEvent] = [
      .next, .back, .skip, .reset, .choose(["a", "b"]), .input(""), .input("Akira Mori"), .input("say \"hi\""),
      .tap("signIn"), .elapse(seconds: 0.25), .elapse(seconds: 30),
    ]
    for event in events {
      let command = try #require(Command(sending: event))
      let parsed = try #require(try Command.parse(command.description))
      #expect(parsed.event(on: flow.steps[1]) == event, "\(command)")
    }
    #expect(Command(sending: .outcome("granted", result: [:])) == nil)
  }
}

@Suite struct EngineClockTests {
  @Test func noClockTrapsTheEngine() throws {
    let engine = Engine(flow: try compileFlow(CommandTests.flow))
    for clock in [1e19, -1e19, 9.3e18, .greatestFiniteMagnitude] {
      var (state, _) = try engine.launch(Launch(clock: clock))
      #expect(throws: FlowError.self) { try engine.handle(.elapse(seconds: .infinity), in: &state) }
      #expect(throws: FlowError.self) { try engine.handle(.elapse(seconds: .nan), in: &state) }
      _ = try engine.screen(for: state)
      #expect(TimeOfDay.text(seconds: state.clock).count == 5)
    }
    #expect(TimeOfDay.text(seconds: 9 * 3600 + 59) == "09:00")
    #expect(TimeOfDay.text(seconds: 3 * 86_400 + 60) == "00:01")
    #expect(TimeOfDay.text(seconds: .nan) == "00:00")
  }
}
