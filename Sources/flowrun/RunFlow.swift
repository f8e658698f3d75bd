import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLoading
import FlowRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

struct RunFlow: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Step through a flow (the default: `flowrun FLOW.yaml`).",
    discussion: """
      Commands come from the terminal, from --script FILE (or -), or from standard input when it is not a \
      terminal, one per line. In a script, a command that does not fit the current step stops the run with the \
      script's line number and the step (exit 1).

      Examples:
        flowrun flows/anicca-v04.yaml
        flowrun flows/tempoai.yaml --permission healthKit=partial --permission-status location=denied
        printf 'next\\nnext\\n' | flowrun flows/anicca-v04.yaml --trace json
        flowrun flows/anicca-v03.yaml --env osVersion=26 --env alarmKitAvailable=true --state /tmp/anicca.json

      --record FILE writes the session as a scenario case when it ends (atomically: a temporary file beside it, \
      then renamed); an existing file is replaced only with --force, and that is checked before the session.
      """)

  @Argument(help: "The flow file (YAML or JSON).")
  var flow: String

  @Option(help: "Show texts in this locale, whatever the flow's language says.")
  var lang: String?

  @Option(
    name: .customLong("env"),
    help: ArgumentHelp("An environment fact, e.g. osVersion=26 (repeatable).", valueName: "KEY=VALUE"))
  var environment: [String] = []

  @Option(
    name: .customLong("permission"),
    help: ArgumentHelp(
      "Answer to a permission request, e.g. healthKit=partial (repeatable; several for one kind are used in order).",
      valueName: "KIND=OUTCOME"))
  var permissionAnswers: [String] = []

  @Option(
    name: .customLong("permission-status"),
    help: ArgumentHelp(
      "A permission's status at launch: notDetermined, granted, denied, partial or unavailable (repeatable).",
      valueName: "KIND=STATUS"))
  var permissionStatuses: [String] = []

  @Option(
    help: ArgumentHelp(
      "An action's answer: an outcome it declares, with values for its result fields (purchase=purchased:product="
        + "pro.yearly); any declared action, the prelude's or the flow's own (repeatable, in order per action).",
      valueName: "ACTION=OUTCOME[:K=V,...]"))
  var answer: [String] = []

  @Option(
    help: ArgumentHelp(
      "Sign in with Apple's answer, like --answer sign-in-with-apple=OUTCOME: success, failure or cancelled; "
        + "success:name=Akira adds values (repeatable).", valueName: "OUTCOME[:K=V,...]"))
  var auth: [String] = []

  @Option(
    help: ArgumentHelp(
      "The profile server's answer to a restore, like --answer restore-profile=OUTCOME: found:displayName=Akira, "
        + "empty or error (repeatable).", valueName: "OUTCOME[:K=V,...]"))
  var restore: [String] = []

  @Option(
    help: ArgumentHelp(
      "The review prompt's answer, like --answer request-review=OUTCOME: shown or suppressed (repeatable).",
      valueName: "OUTCOME"))
  var review: [String] = []

  @Option(
    help: ArgumentHelp(
      "The virtual clock at launch: a time of day (on 1970-01-01, the default day) or a date and time in UTC.",
      valueName: "HH:MM|YYYY-MM-DDTHH:MM"))
  var clock: String?

  @Option(
    name: .customLong("variant"),
    help: ArgumentHelp(
      "Pin an experiment's variant instead of assigning it from the flow's stable id, e.g. paywall=late "
        + "(repeatable).", valueName: "EXPERIMENT=VARIANT"))
  var variants: [String] = []

  @Option(
    help: ArgumentHelp(
      "Keep the store in this file (written atomically, locked while the run lasts); it survives restarts and "
        + "runs. A file that is not a readable store is refused and left as it is.", valueName: "PATH"))
  var state: String?

  @Flag(
    help: ArgumentHelp(
      "Move the --state store aside to a backup (its name is printed) and start from the flow's defaults."))
  var resetState = false

  @Option(help: ArgumentHelp("Read commands from FILE, or - for standard input.", valueName: "FILE"))
  var script: String?

  @Option(
    help: ArgumentHelp("Write the session as a scenario case (commands, answers and what happened).", valueName: "FILE")
  )
  var record: String?

  @Flag(help: "Replace the --record file when it exists.")
  var force = false

  @Option(help: ArgumentHelp("Print the trace as JSON Lines on standard output instead of text.", valueName: "json"))
  var trace: TraceFormat?

  enum TraceFormat: String, ExpressibleByArgument, CaseIterable { case json }

  func validate() throws {
    for pair in environment + permissionAnswers + permissionStatuses where !pair.contains("=") {
      throw ValidationError("'\(pair)' must be KEY=VALUE, e.g. osVersion=26.")
    }
    for text in answer where ActionFlag(answer: text) == nil {
      throw ValidationError("--answer '\(text)' must be ACTION=OUTCOME, e.g. purchase=cancelled.")
    }
    for pair in permissionStatuses {
      let status = String(pair.split(separator: "=", maxSplits: 1).last ?? "")
      do {
        _ = try PermissionStatus.parse(status)
      } catch {
        throw ValidationError("--permission-status: \(error.message).")
      }
    }
    if let clock, TimeOfDay.clock(clock) == nil {
      throw ValidationError("--clock must be HH:MM or a date and time, e.g. 20:10 or 2026-11-25T20:10.")
    }
    if resetState && state == nil { throw ValidationError("--reset-state needs --state FILE.") }
    if force && record == nil { throw ValidationError("'--force' needs '--record FILE'.") }
  }

  /// `--answer` then `--auth`, `--restore` and `--review`, each as the action it names.
  var actionAnswers: [ActionFlag] {
    var result = answer.compactMap(ActionFlag.init(answer:))
    for (spelling, texts) in zip(ActionFlag.spellings, [auth, restore, review]) {
      result += texts.map { ActionFlag(flag: spelling.flag, action: spelling.action, text: $0) }
    }
    return result
  }

  func run() async throws {
    // Refused before the session, not after it: what was typed would be lost.
    if let record,
      let refusal = OutputFile.refusal(record, force: force, otherwise: "--record to another file")
        ?? OutputFile.missingFolder(of: record)
    {
      printError("flowrun: error: \(refusal)")
      throw ExitStatus.unusable.exitCode
    }
    let compiled = try FlowArgument.load(flow)
    let interactive = script == nil && isatty(STDIN_FILENO) == 1
    // A dialog nothing scripts is asked on the terminal, also when the commands come from a script file.
    var setup = SessionSetup(
      environment: environment, permissionAnswers: permissionAnswers, permissionStatuses: permissionStatuses,
      actionAnswers: actionAnswers, clock: clock.flatMap(TimeOfDay.clock), store: nil,
      interactive: script != "-" && isatty(STDIN_FILENO) == 1)
    let pinned = compiled.variantPins(variants, in: "--variant")
    let problems = setup.problems(with: compiled, lang: lang) + pinned.problems
    if !problems.isEmpty {
      for problem in problems { printError("Error: \(problem)") }
      throw ExitStatus.unusable.exitCode
    }
    let output = Output(
      json: trace == .json,
      color: trace == nil && wantsColor(STDOUT_FILENO))
    if let state {
      do {
        let opened = try FileStore.open(
          path: state, persistedKeys: Set(compiled.variables.compactMap(\.persistKey)), reset: resetState)
        if let notice = opened.notice { printError(notice) }
        setup.store = opened.store
      } catch {
        printError("flowrun: \(error.message)")
        throw ExitStatus.unusable.exitCode
      }
    }
    let providers = setup.providers(output: output)
    var runner = Runner(flow: compiled, providers: providers)
    runner.languageOverride = lang
    runner.variantPins = pinned.pins
    var session = InteractiveSession(runner: runner, output: output, setup: setup)
    session.flowPath = flow
    let source: CommandSource
    if let script, script != "-" {
      do {
        source = try .script(path: script)
      } catch {
        printError("flowrun: cannot read the script: \(error)")
        throw ExitStatus.unusable.exitCode
      }
    } else {
      source = interactive ? .terminal(read: LineEditor.read) : .standardInput
    }
    let status = await session.run(source)
    if let record {
      do {
        let text = session.recordedCase(flowPath: flow, directory: FilePaths.directory(of: record))
        try TextFile.write(text, to: record, replacing: force)
      } catch {
        printError("flowrun: error: \(OutputFile.message(error))")
        throw ExitStatus.unusable.exitCode
      }
    }
    if status != ExitStatus.success.rawValue { throw ExitCode(status) }
  }
}
