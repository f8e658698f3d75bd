package import ArgumentParser
import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// What `flowlint` and every `flowrun` command exit with. The "Exit codes" table in README.md says what each
/// status means per command; this is the one place the numbers are written.
package enum ExitStatus: Int32, Sendable {
  /// Clean: no findings, every row passed, nothing wrong found.
  case success = 0
  /// Findings or failures: lint errors (warnings too under `--strict`), a refused scripted command or a run
  /// that failed, a failed scenario row or coverage below `--min-coverage`, a state with no way forward, an
  /// exploration left partial (a limit, or an input that refused every text tried), saved progress that resumes
  /// at a different step.
  case findings = 1
  /// Nothing to check: a usage mistake, a file that cannot be read, a flow with errors (for the commands that
  /// run it), a table that does not load, a schema that does not compile.
  case unusable = 2

  /// The status as ArgumentParser throws it.
  package var exitCode: ExitCode { ExitCode(rawValue) }

  /// `flowlint`'s status: unusable when a path could not be read, findings when there are errors (or, with
  /// `strict`, warnings), success otherwise.
  package init(errors: Int, warnings: Int, strict: Bool, unreadable: Int) {
    if unreadable > 0 {
      self = .unusable
    } else if errors > 0 || (strict && warnings > 0) {
      self = .findings
    } else {
      self = .success
    }
  }

  /// Ends the process for an error thrown while parsing or running `command` with `arguments`: help, version
  /// and a thrown ``ExitCode`` exit as ArgumentParser does; every other error is a usage mistake, printed and
  /// ended with ``unusable`` (ArgumentParser alone would exit with 64). An unknown option is reported as such
  /// even when an argument is missing too (``unknownOption(behind:of:arguments:)``).
  package static func exit<Command: ParsableCommand>(
    for error: any Error, of command: Command.Type, arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) -> Never {
    if command.exitCode(for: error) == .success || error is ExitCode { command.exit(withError: error) }
    printError(command.fullMessage(for: unknownOption(behind: error, of: command, arguments: arguments) ?? error))
    terminate(unusable.rawValue)
  }

  /// ArgumentParser reports a missing argument before an unknown option: `flowrun --bogus` would say the flow
  /// is missing. Parsed again with stand-ins for the missing arguments, `arguments` give the unknown option's
  /// error (`Unknown option '--reviw'. Did you mean '--review'?`), which is returned; nil when `error` is not
  /// a missing argument or no option is unknown.
  package static func unknownOption<Command: ParsableCommand>(
    behind error: any Error, of command: Command.Type, arguments: [String]
  ) -> (any Error)? {
    var standIns: [String] = []
    var message = command.message(for: error)
    // One stand-in per missing argument; no command takes more than a few.
    while message.hasPrefix("Missing expected argument"), standIns.count < 4 {
      standIns.append("argument")
      do {
        _ = try command.parseAsRoot(arguments + standIns)
        return nil
      } catch {
        message = command.message(for: error)
        if message.hasPrefix("Unknown option") { return error }
      }
    }
    return nil
  }
}

/// Writes `text` and a line break to standard error.
package func printError(_ text: String) {
  StandardStream.error.write(text.hasSuffix("\n") ? text : text + "\n")
}

/// Whether output to `fileDescriptor` is coloured: it is a terminal and `NO_COLOR` is not set.
package func wantsColor(_ fileDescriptor: Int32) -> Bool {
  isatty(fileDescriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
}

/// Ends the process with `status`: the C library's `exit`, which `ExitStatus.exit(for:of:arguments:)` shadows inside
/// the type.
package func terminate(_ status: Int32) -> Never { exit(status) }
