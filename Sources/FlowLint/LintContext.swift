package import FlowCore
package import FlowLoading

/// What a rule sees: the flow, its tree and text, and indexes built once per file. Rules report through
/// ``report(_:_:at:notes:)``.
///
/// Each rule gets a context of its own, for its findings, and the contexts of one file share its indexes
/// (``LintIndexes``): two threads may run the rules of a file (``TaskShare``).
package final class LintContext {
  package private(set) var findings: [Diagnostic] = []
  private let indexes: LintIndexes

  /// A context for one rule, sharing `indexes` with the other rules of its file.
  init(_ indexes: LintIndexes) { self.indexes = indexes }

  package var file: String { indexes.file }
  package var text: SourceText { indexes.text }
  package var root: Node { indexes.root }
  package var flow: Flow { indexes.flow }

  /// Adds a finding of the rule described by `rule`, with its severity.
  package func report(_ rule: RuleDescription, _ message: String, at location: SourceLocation, notes: [String] = []) {
    findings.append(Diagnostic(rule.severity, message, file: file, at: location, rule: rule.id, notes: notes))
  }

  // MARK: - Indexes

  /// Every place the flow uses an expression, texts, names and moves.
  package var walk: FlowWalk { indexes.walk }

  /// The flow's step graph: every route from a step to a step.
  package var graph: Digraph { indexes.graph }

  /// The tree of step `id`: the entry of `steps` the compiler numbered it from (``Flow/index(of:)``).
  package func stepNode(_ id: String) -> Node? {
    guard let index = flow.index(of: id), let entries = root["steps"]?.entries, index < entries.count,
      entries[index].key == id
    else { return nil }
    return entries[index].value
  }

  package var declaredPermissions: Set<String> { indexes.declaredPermissions }

  /// The root names every expression may use: variables, `env`, `permission`, `store`, `step`, `experiment`.
  package var baseScope: [String: ValueType] { indexes.baseScope }

  /// The scope of one expression site.
  package func scope(for site: ExpressionSite) -> [String: ValueType] {
    guard !site.extraRoots.isEmpty else { return baseScope }
    return baseScope.merging(site.extraRoots) { _, extra in extra }
  }

  /// The outcomes an `on:` table's action declares (the request outcomes for a permission), nil for an action
  /// neither the prelude nor the flow declares (that is `unknown-action`'s).
  package func outcomes(of table: OutcomeTable) -> [String]? {
    if table.isPermission { return PermissionStatus.requestOutcomes.map(\.rawValue) }
    return flow.action(table.action.value)?.outcomeNames
  }

  /// Where the 1-based `column` of an expression is in the file.
  package func location(of expr: Expr, column: Int) -> SourceLocation { expr.location(ofColumn: column) }

  /// The location of `key`'s value (or the key itself with `atKey`) in step `id`'s mapping.
  package func location(inStep id: String, key: String, atKey: Bool = false) -> SourceLocation? {
    guard let entry = stepNode(id)?.entry(key) else { return nil }
    return atKey ? entry.keyLocation : entry.value.location
  }
}

/// The indexes of one file that its rules share, made before the rules run: two threads may run them
/// (``TaskShare``), and a value made once and then only read needs no lock. A flow that loads cleanly uses each of
/// them; after a load error the graph goes unused (its rules need a clean load), a small cost.
final class LintIndexes: Sendable {
  let file: String
  let text: SourceText
  let root: Node
  let flow: Flow
  let walk: FlowWalk
  let graph: Digraph
  let declaredPermissions: Set<String>
  let baseScope: [String: ValueType]

  init(file: String, text: SourceText, root: Node, flow: Flow) {
    self.file = file
    self.text = text
    self.root = root
    self.flow = flow
    walk = FlowWalk(flow)
    graph = Digraph(stepCount: flow.steps.count, routes: walk.routes)
    declaredPermissions = Set(flow.permissions.map(\.value.rawValue))
    baseScope = Self.baseScope(of: flow)
  }

  /// The root names every expression may use: variables, `env`, `permission`, `store`, `step`, `experiment`.
  private static func baseScope(of flow: Flow) -> [String: ValueType] {
    var roots: [String: ValueType] = [:]
    for variable in flow.variables { roots[variable.name] = variable.checkedType }
    var facts: [String: ValueType] = [:]
    for fact in flow.facts { facts[fact.name] = fact.type.valueType }
    roots["env"] = .record(facts)
    var permissions: [String: ValueType] = [:]
    for permission in flow.permissions { permissions[permission.value.rawValue] = .string }
    roots["permission"] = .record(permissions)
    roots["store"] = .map(.any)
    roots["step"] = .record(["id": .string, "kind": .string, "rawValue": .optional(.int)])
    roots["experiment"] = .record(
      Dictionary(flow.experiments.map { ($0.name, ValueType.string) }) { first, _ in first })
    return roots
  }
}
