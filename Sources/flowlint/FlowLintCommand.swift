import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLint
import FlowLoading
import FlowRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

@main
struct FlowLintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowlint",
    abstract: "Check onboarding flow files (YAML or JSON) against the flow schema and the lint rules.",
    discussion: """
      Each file is read, validated against the flow schema (embedded in this binary, so flowlint runs from \
      any directory) and compiled; then the rules check names, strings, permissions, outcomes, expression \
      types and the step graph (unreachable steps, dead ends, endless automatic loops). Directories are \
      searched recursively for *.yaml, *.yml and *.json files; with no path, flowlint checks 'flows/'. \
      Files are checked in parallel. A scenario table among them (its $schema modeline names \
      scenario.schema.json, or it has 'cases' and no 'steps') is checked as 'flowrun test' loads one, rows \
      against its flow, without running them (rule scenario-table); a file showing neither kind is checked \
      as a flow, and its first finding says so.

      RULES: 'flowlint --list-rules' prints every rule id with a one-line summary; docs/lint-rules.md shows \
      an example of each.

      CONFIGURATION: the nearest .flowlint.yml upward from the working directory (up to a folder holding \
      .git), or --config FILE, turns rules off or re-grades them and leaves paths out; --no-config ignores \
      it. Rules that cannot be silenced cannot be turned off either. An unknown key, rule id or severity in \
      it is a usage error (exit 2). Example:
        rules: {unused-variable: off, unreachable-step: error}
        exclude: [flows/drafts/**]

      SUPPRESSION: a comment on the line above a finding silences it:
        # flowlint-disable-next-line unreachable-step, unused-variable
      A suppression that silences nothing, or names an unknown rule, is itself a warning \
      (unused-suppression, unknown-rule).

      FORMATS (--format): text (path:line:col: severity: message [rule-id], the source line and a caret), \
      json (an array of findings with sorted keys), sarif (SARIF 2.1.0 for GitHub code scanning: every rule \
      registered, file URIs relative to the repository root, the nearest folder upward with .git), github \
      (workflow annotations). Text is coloured only when standard output is a terminal and NO_COLOR is unset.

      SCHEMA MODE: 'flowlint --schema S.json DOC...' validates any YAML or JSON documents against any JSON \
      Schema (draft 2020-12) and reports file:line:col diagnostics.

      VERSIONS: 'flowlint NEW.yaml --against OLD.yaml' also reports what NEW does to users whose progress OLD \
      saved (rule version-resume): a step raw value that now means a different step is an error, a saved step \
      that resumes elsewhere is a warning. 'flowrun diff OLD NEW' shows the whole comparison.

      STRINGS: 'flowlint FLOW --strings Localizable.xcstrings' also checks that every text key the flow uses is \
      in the Xcode String Catalog with a localization for every locale the flow declares (rule \
      strings-catalog), reported where the flow uses the key. A catalog that is not JSON or not a String \
      Catalog is an error with its position (exit 2). 'flowrun strings export FLOW --xcstrings' writes one.

      EXIT STATUS: 0 no findings (warnings allowed unless --strict); 1 an error was found (or a warning, \
      with --strict); 2 a usage error, a path that cannot be read, nothing to check (no flow files, or every \
      one in the folders named left out by 'exclude'), or a schema that does not compile.
      """,
    version: flowKitVersion)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, github, markdown
  }

  @Argument(help: "Flow files or directories to check (default: flows/).")
  var paths: [String] = []

  @Option(help: "The report format (markdown only with --list-rules).")
  var format: Format = .text

  @Flag(help: "Fail (exit 1) on warnings too.")
  var strict = false

  @Flag(help: "Print every rule id with its summary, then exit.")
  var listRules = false

  @Option(
    name: .customLong("schema"),
    help: ArgumentHelp(
      "Validate the documents against this JSON Schema instead of linting flows.", valueName: "schema.json"))
  var schemaPath: String?

  @Flag(help: "Print only errors (and warnings with --strict), without the summary line.")
  var quiet = false

  @Option(
    name: .customLong("against"),
    help: ArgumentHelp(
      "Also check what each flow does to users whose progress this older version saved (a saved raw value that now means another step is an error).",
      valueName: "OLD.yaml"))
  var againstPath: String?

  @Option(
    name: .customLong("strings"),
    help: ArgumentHelp(
      "Also check that every text key each flow uses is in this String Catalog, for every locale the flow declares.",
      valueName: "CATALOG.xcstrings"))
  var stringsPath: String?

  @Option(
    name: .customLong("config"),
    help: ArgumentHelp(
      "Read rule settings and excluded paths from this file instead of the nearest .flowlint.yml.",
      valueName: "FILE"))
  var configPath: String?

  @Flag(help: "Ignore any .flowlint.yml.")
  var noConfig = false

  mutating func validate() throws {
    if configPath != nil && noConfig {
      throw ValidationError("'--config' and '--no-config' cannot be used together.")
    }
    if format == .markdown && !listRules {
      throw ValidationError("'--format markdown' is only valid with '--list-rules'.")
    }
    if schemaPath != nil && paths.isEmpty {
      throw ValidationError("'--schema' needs at least one document to validate.")
    }
    if schemaPath != nil && stringsPath != nil {
      throw ValidationError("'--strings' checks flows; it cannot be combined with '--schema'.")
    }
  }

  func run() throws {
    try LintRun(
      paths: paths, format: format, strict: strict, listRules: listRules, schemaPath: schemaPath, quiet: quiet,
      againstPath: againstPath, stringsPath: stringsPath, configPath: configPath, noConfig: noConfig
    ).run()
  }

  /// Parses, runs, and maps every failure to a message and an exit status: 0 for help, 2 for usage errors.
  static func main() {
    do {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if !arguments.contains(where: { $0.hasPrefix("-") }) {
        // Only paths: every option keeps its default, as parsing would leave it, and `validate()` has nothing
        // to refuse. Building the parser costs about a millisecond, a tenth of linting a seed flow.
        try LintRun(paths: arguments).run()
        return
      }
      var command = try parseAsRoot()
      try command.run()
    } catch {
      ExitStatus.exit(for: error, of: Self.self)
    }
  }
}

/// One run of flowlint with its options parsed.
struct LintRun {
  var paths: [String]
  var format: FlowLintCommand.Format = .text
  var strict = false
  var listRules = false
  var schemaPath: String?
  var quiet = false
  var againstPath: String?
  var stringsPath: String?
  var configPath: String?
  var noConfig = false

  /// Lints (or lists rules, or validates against `--schema`), reports and exits; throws `ExitCode(2)` after
  /// printing a usage or input problem.
  func run() throws {
    if listRules {
      print(RuleListing.render(format: format), terminator: "")
      return
    }
    let outcome: RunOutcome
    if let schemaPath {
      outcome = try SchemaMode.run(schemaPath: schemaPath, documents: paths)
    } else {
      let files: [String]
      // The paths as a message names them; made only for a message (`joined` costs a conformance look-up at its
      // first use, 170,000 instructions in the static build).
      var named: String { (paths.isEmpty ? ["flows"] : paths).joined(separator: ", ") }
      if paths.isEmpty && !TextFile.exists("flows") {
        printError(
          "flowlint: error: no path given, and no 'flows' folder here to check by default; name the flow files "
            + "or folders to check, e.g. flowlint onboarding.yaml")
        throw ExitStatus.unusable.exitCode
      }
      do {
        files = try FlowFiles.paths(in: paths.isEmpty ? ["flows"] : paths)
      } catch {
        printError(error.description)
        throw ExitStatus.unusable.exitCode
      }
      if files.isEmpty {
        printError("flowlint: error: no flow files (*.yaml, *.yml, *.json) in \(named)")
        throw ExitStatus.unusable.exitCode
      }
      let catalog = try stringsPath.map { path throws(ExitCode) in try StringsMode.catalog(at: path) }
      let configuration = try loadConfiguration()
      let checked = files.filter { !configuration.excludes($0) }
      // A folder of which nothing is checked is no pass: say so rather than "checked 0 files: no findings". Files
      // named one by one and all left out pass: a pre-commit hook names the staged files, drafts among them.
      if checked.isEmpty && !paths.allSatisfy({ FlowFiles.isFolder($0) == false }) {
        printError(
          "flowlint: error: every flow file in \(named) is left out by 'exclude' in "
            + "\(configurationPath ?? LintConfiguration.fileName); check them with --no-config, or change its patterns")
        throw ExitStatus.unusable.exitCode
      }
      var linted = RunOutcome(
        results: Linter.lint(
          paths: checked, configuration: configuration, tables: ScenarioSuite.lintTable(path:)))
      if let againstPath { AgainstMode.check(&linted, against: try FlowArgument.load(againstPath), at: againstPath) }
      if let catalog, let stringsPath { StringsMode.check(&linted, against: catalog, at: stringsPath) }
      outcome = linted
    }
    report(outcome)
  }

  /// The configuration file in use: `--config`, else the nearest `.flowlint.yml`; nil with `--no-config`.
  var configurationPath: String? {
    guard !noConfig else { return nil }
    return configPath ?? LintConfiguration.find(from: FileManager.default.currentDirectoryPath)
  }

  /// The `--config` file, or the nearest `.flowlint.yml` upward from the working directory (none with
  /// `--no-config`); throws `ExitCode(2)` after printing each problem of a file that cannot be used.
  func loadConfiguration() throws -> LintConfiguration {
    guard let path = configurationPath else { return LintConfiguration() }
    do {
      return try LintConfiguration.load(path: path)
    } catch {
      for problem in error.diagnostics { printError(problem.description) }
      throw ExitStatus.unusable.exitCode
    }
  }

  /// Prints the report and exits with the status the findings call for.
  func report(_ outcome: RunOutcome) {
    var reports = outcome.reports
    if quiet && !strict {
      for index in reports.indices { reports[index].diagnostics.removeAll { $0.severity == .warning } }
    }
    let reportFormat = ReportFormat(rawValue: format.rawValue) ?? .text
    let color = reportFormat == .text && wantsColor(STDOUT_FILENO)
    let text = reportFormat.reporter.report(reports, rules: RuleRegistry.descriptions, color: color)
    if !text.isEmpty { print(text, terminator: "") }
    for problem in outcome.ioErrors { printError(problem.description) }

    let all = outcome.reports.flatMap(\.diagnostics)
    let errors = all.filter { $0.severity == .error }.count
    let warnings = all.count - errors
    if !quiet && reportFormat == .text {
      let files = outcome.reports.count
      let unreadable = outcome.ioErrors.count
      var summary = "flowlint: checked \(files) \(files == 1 ? "file" : "files")"
      if errors > 0 || warnings > 0 {
        summary +=
          ": \(errors) \(errors == 1 ? "error" : "errors"), \(warnings) \(warnings == 1 ? "warning" : "warnings")"
      } else if unreadable == 0 {
        summary += ": no findings"
      }
      // A file that could not be read was not checked: the summary does not call the run clean.
      if unreadable > 0 { summary += "; \(unreadable) could not be read" }
      printError(summary)
    }
    let status = ExitStatus(errors: errors, warnings: warnings, strict: strict, unreadable: outcome.ioErrors.count)
    terminate(status.rawValue)
  }
}

struct RunOutcome {
  var reports: [FileReport] = []
  var ioErrors: [FlowIOError] = []

  init(results: [Result<FileReport, FlowIOError>]) {
    for result in results {
      switch result {
      case .success(let report): reports.append(report)
      case .failure(let error): ioErrors.append(error)
      }
    }
  }

  init(reports: [FileReport], ioErrors: [FlowIOError]) {
    self.reports = reports
    self.ioErrors = ioErrors
  }
}
