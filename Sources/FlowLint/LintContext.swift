package import FlowCore
package import FlowLoading

/// What a rule sees: the flow, its tree and text, and indexes built once per file. Rules report through
/// ``report(_:_:at:notes:)``.
package final class LintContext {
  package let file: String
  package let text: SourceText
  package let root: Node
  package let flow: Flow
  package private(set) var findings: [Diagnostic] = []

  package init(file: String, text: SourceText, root: Node, flow: Flow) {
    self.file = file
    self.text = text
    self.root = root
    self.flow = flow
  }

  /// Adds a finding of the rule described by `rule`, with its severity.
  package func report(_ rule: RuleDescription, _ message: String, at location: SourceLocation, notes: [String] = []) {
    findings.append(Diagnostic(rule.severity, message, file: file, at: location, rule: rule.id, notes: notes))
  }

  // MARK: - Indexes

  /// Every place the flow uses an expression, texts, names and moves; computed once.
  package private(set) lazy var walk = FlowWalk(flow)

  /// The flow's step graph: every route from a step to a step.
  package private(set) lazy var graph = Digraph(stepCount: flow.steps.count, routes: walk.routes)

  /// The tree of each step by id.
  package private(set) lazy var stepNodes: [String: Node] = {
    var nodes: [String: Node] = [:]
    for entry in root["steps"]?.entries ?? [] where nodes[entry.key] == nil { nodes[entry.key] = entry.value }
    return nodes
  }()

  package private(set) lazy var declaredPermissions: Set<String> = Set(flow.permissions.map(\.value.rawValue))

  /// The root names every expression may use: variables, `env`, `permission`, `store`, `step`, `experiment`.
  package private(set) lazy var baseScope: [String: ValueType] = {
    var roots: [String: ValueType] = [:]
    for variable in flow.variables { roots[variable.name] = variable.type.valueType }
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
  }()

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
    guard let entry = stepNodes[id]?.entry(key) else { return nil }
    return atKey ? entry.keyLocation : entry.value.location
  }
}
