import FlowCore
import FlowRuntime
import Synchronization
import Testing

/// A terminal session reads each command through the reader it is given (flowrun's is libedit's), with the
/// prompt; piped standard input and scripts are read plainly and are covered end to end.
@Suite struct TerminalSourceTests {
  @Test func eachCommandIsReadWithThePromptUntilTheEndOfInput() async throws {
    // One terminal step: `next` is refused at the prompt and the session goes on to the end of input.
    let flow = try compileFlow(FlowNamesTests.bare)
    let setup = SessionSetup(
      environment: [], permissionAnswers: [], permissionStatuses: [], actionAnswers: [], clock: nil, store: nil,
      interactive: false)
    let output = Output(json: true, color: false)
    var session = InteractiveSession(
      runner: Runner(flow: flow, providers: setup.providers(output: output)), output: output, setup: setup)
    let read = Mutex<(lines: [String], prompts: [String])>((["next"], []))
    let status = await session.run(
      .terminal(read: { prompt in
        read.withLock { state in
          state.prompts.append(prompt)
          return state.lines.isEmpty ? nil : state.lines.removeFirst()
        }
      }))
    #expect(status == 0)
    #expect(read.withLock { $0.prompts } == ["› ", "› "])
  }
}
