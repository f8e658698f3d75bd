import ArgumentParser
import Dispatch
import FlowCommandLine

@main
struct FlowRun: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Step through an onboarding flow in the terminal, or run its scenario tables.",
    discussion: """
      flowrun FLOW.yaml starts the flow and shows each step as text in the current language: title, body, \
      numbered options and every button with its label and whether it is enabled. Type commands at the \
      prompt (help lists them). System dialogs (permissions, Sign in with Apple, profile restore) are answered \
      by scripted fakes (--permission, --auth, --restore, --review) or asked of you when nothing is scripted; \
      with no terminal on standard input, an unscripted dialog stops the run (exit 2) naming the flag to \
      script it. Flags are checked against the flow: a permission, environment fact or locale it does not \
      declare is an error with a suggestion.

      flowrun export FLOW --json writes the flow as canonical JSON that an app loads with FlowCore alone; \
      flowrun strings export FLOW --xcstrings writes its texts as an Xcode String Catalog.

      Exit codes (only these): 0 success; 1 a scripted command was refused, a scenario failed or the flow \
      failed while running, or explore found a problem or reached a limit; 2 bad usage (including a flag the \
      flow does not declare), a file that cannot be read, a flow with errors (see flowlint), a --state store \
      refused or not written, a file to write that exists (without --force), a test run that ran no case, or \
      an unscripted dialog with no terminal to ask on.
      """,
    version: flowKitVersion,
    subcommands: [
      RunFlow.self, TestScenarios.self, ExploreFlow.self, GraphFlow.self, DiffFlows.self, ExportFlow.self,
      StringsFlow.self,
    ],
    defaultSubcommand: RunFlow.self)

  /// Runs the command as a task while the main thread waits for it. Not an `async` main: that parks the main
  /// thread in `dispatch_main()`, whose `pthread_exit` unwinds the main thread's stack, and in the static build
  /// the first unwind sorts the unwind tables of the whole binary: about 200 million instructions (40 ms here)
  /// at every start, on a second core.
  static func main() {
    let done = DispatchSemaphore(value: 0)
    // Detached: a task made here would run on the main actor, whose thread is the one waiting.
    Task.detached {
      await run()
      done.signal()
    }
    done.wait()
  }

  /// Parses and runs the command; a usage mistake exits with status 2, as README's exit-code table says.
  static func run() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      ExitStatus.exit(for: error, of: Self.self)
    }
  }
}
