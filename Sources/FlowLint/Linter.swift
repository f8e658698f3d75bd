import Dispatch
package import FlowCore
package import FlowLoading
internal import Synchronization

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// The findings for one file, with its text for carets.
package struct FileReport: Sendable {
  package var file: String
  package var text: SourceText
  package var diagnostics: [Diagnostic]
  /// The file as the lint read it, for checks that go on from the findings (`flowlint --against`, `--strings`):
  /// they see the very bytes that were linted, without reading and parsing the file again. Nil for a report
  /// made without loading a flow (a scenario table, `flowlint --schema`).
  ///
  /// The report holds the document's tree and compiled flow for as long as it lives: `flowlint` keeps its
  /// reports until it exits, so the process's exit returns that memory, and no time goes into taking a large
  /// tree apart node by node (about 7% of linting a 10,000-step flow).
  package var loaded: LoadedFlow?

  package init(file: String, text: SourceText, diagnostics: [Diagnostic], loaded: LoadedFlow? = nil) {
    self.file = file
    self.text = text
    self.diagnostics = diagnostics
    self.loaded = loaded
  }
}

/// Runs every rule of ``RuleRegistry`` on loaded flows and applies `# flowlint-disable-next-line` comments.
package enum Linter {
  /// The findings for a loaded flow: its load/schema/compiler diagnostics and every rule's findings, minus
  /// suppressed ones, plus `unused-suppression`/`unknown-rule` warnings, with `configuration`'s rule settings
  /// applied; sorted by position.
  package static func lint(
    _ loaded: LoadedFlow, rules: [any LintRule] = RuleRegistry.all, configuration: LintConfiguration = .init()
  ) -> [Diagnostic] {
    findings(loaded, RuleFindings(loaded, rules: rules), configuration: configuration)
  }

  /// `lint(_:rules:configuration:)` with the rules' findings already made, on the flow as compiled (see
  /// ``RuleFindings``).
  static func findings(_ loaded: LoadedFlow, _ rules: RuleFindings, configuration: LintConfiguration)
    -> [Diagnostic]
  {
    var findings = loaded.diagnostics
    var rules = rules
    if loaded.diagnostics.contains(where: { $0.severity == .error }) { rules.dropCleanLoadRules() }
    if loaded.flow != nil, loaded.node != nil {
      // One message per problem. A rule finding at exactly the position of a schema error replaces it: the
      // rule names the problem in the flow's terms ("unknown outcome 'allowed' of 'request-permission'").
      // Other findings on a line where loading already reported an error describe the same mistake again.
      let schemaPositions = Set(loaded.diagnostics.filter { $0.ruleID == "schema" }.map(\.location))
      let replaced = Set(rules.findings.map(\.location).filter(schemaPositions.contains))
      findings.removeAll { $0.ruleID == "schema" && replaced.contains($0.location) }
      findings = Diagnostic.merging(findings, rules.findings) { replaced.contains($0.location) }
    }
    var suppressions = Suppressions(text: loaded.text, file: loaded.file)
    findings = configuration.apply(to: suppressions.apply(to: findings, checked: rules.checked))
    return findings.sorted(by: Diagnostic.positionOrder)
  }

  /// The rules' findings on a compiled flow, in rule order, and the ids of the rules that ran.
  ///
  /// `flowlint` runs the rules while the schema is still being checked, on the flow as compiled: the rules that
  /// need a clean load run when the compiler reported no error, and ``dropCleanLoadRules()`` takes back what they
  /// found when the schema then reports one.
  struct RuleFindings {
    private(set) var findings: [Diagnostic] = []
    private(set) var checked: Set<String> = []
    /// Each rule that ran only because the load was clean so far, with the findings it added.
    private var cleanLoadOnly: [(id: String, findings: Range<Int>)] = []

    /// No rule ran.
    init() {}

    /// The findings of `rules`, each run with a context of its own; with `share`, a thread that is free
    /// takes rules too (``TaskShare``), and the findings stay in rule order.
    init(_ loaded: LoadedFlow, rules: [any LintRule], sharing share: TaskShare = TaskShare()) {
      guard let flow = loaded.flow, let root = loaded.node else { return }
      let indexes = LintIndexes(file: loaded.file, text: loaded.text, root: root, flow: flow)
      let loadIsClean = !loaded.diagnostics.contains { $0.severity == .error }
      let running = rules.filter { loadIsClean || !type(of: $0).needsCleanLoad }
      let found = FindingsByRule(count: running.count)
      share.run(count: running.count) { index in
        let context = LintContext(indexes)
        running[index].check(context)
        found.keep(context.findings, of: index)
      }
      for (rule, ruleFindings) in zip(running, found.all) {
        checked.insert(rule.ruleDescription.id)
        if type(of: rule).needsCleanLoad {
          cleanLoadOnly.append((rule.ruleDescription.id, findings.count..<findings.count + ruleFindings.count))
        }
        findings += ruleFindings
      }
    }

    /// Forgets the rules that need a clean load: the load turned out to have an error.
    mutating func dropCleanLoadRules() {
      for (id, added) in cleanLoadOnly.reversed() {
        findings.removeSubrange(added)
        checked.remove(id)
      }
      cleanLoadOnly = []
    }
  }

  /// Each rule's findings, kept by whichever thread ran it (``RuleFindings``). ``Locked`` rather than
  /// `Synchronization.Mutex`, whose ordering ThreadSanitizer does not see.
  private final class FindingsByRule: Sendable {
    private let findings: Locked<[[Diagnostic]]>

    init(count: Int) { findings = Locked(Array(repeating: [], count: count)) }

    func keep(_ found: [Diagnostic], of rule: Int) { findings.withLock { $0[rule] = found } }

    /// Every rule's findings, once all rules ran.
    var all: [[Diagnostic]] { findings.withLock { $0 } }
  }

  /// Checks the scenario table at a path (loads it with the scenario loader and checks its rows against its
  /// flow): its problems as diagnostics. FlowLint cannot load tables itself; `flowlint` passes FlowRuntime's.
  package typealias TableCheck = @Sendable (_ path: String) -> [Diagnostic]

  /// Loads and lints the file at `path`: a scenario table (``LoadedFlow/kind``) with `tables` when given,
  /// anything else as a flow. A document that shows neither kind is linted as a flow, and its first finding says
  /// so.
  package static func lint(path: String, configuration: LintConfiguration = .init(), tables: TableCheck? = nil)
    -> Result<FileReport, FlowIOError>
  {
    do {
      // The rules check the flow while the schema is checked on another thread, which then takes rules too;
      // not a scenario table's.
      let share = TaskShare()
      let (loaded, rules) = try FlowLoader.load(path: path, sharing: share) { compiled in
        compiled.kind == .scenarioTable && tables != nil
          ? nil : RuleFindings(compiled, rules: RuleRegistry.all, sharing: share)
      }
      let kind = loaded.kind
      if kind == .scenarioTable, let tables {
        var suppressions = Suppressions(text: loaded.text, file: path)
        let findings = suppressions.apply(to: tables(path), checked: [ScenarioTableRule.description.id])
        return .success(
          FileReport(
            file: path, text: loaded.text,
            diagnostics: configuration.apply(to: findings).sorted(by: Diagnostic.positionOrder)))
      }
      // No rule ran when the file is not a document.
      var diagnostics = findings(loaded, rules.flatMap { $0 } ?? RuleFindings(), configuration: configuration)
      if kind == nil, loaded.node != nil, !diagnostics.isEmpty {
        diagnostics[0].notes.append(
          "flowlint took this file for a flow: it has no $schema modeline and neither 'steps' (a flow) nor "
            + "'cases' (a scenario table) at the top")
      }
      return .success(FileReport(file: path, text: loaded.text, diagnostics: diagnostics, loaded: loaded))
    } catch {
      return .failure(error)
    }
  }

  /// Lints many files in parallel; results come back in the order of `paths`.
  package static func lint(
    paths: [String], configuration: LintConfiguration = .init(), tables: TableCheck? = nil
  ) -> [Result<FileReport, FlowIOError>] {
    // One file needs no worker threads.
    if paths.count == 1 { return [lint(path: paths[0], configuration: configuration, tables: tables)] }
    let results = Mutex<[Result<FileReport, FlowIOError>?]>(Array(repeating: nil, count: paths.count))
    DispatchQueue.concurrentPerform(iterations: paths.count) { index in
      let result = lint(path: paths[index], configuration: configuration, tables: tables)
      results.withLock { $0[index] = result }
    }
    return results.withLock { $0.map { $0! } }
  }
}
