package import FlowCore
package import FlowLoading
internal import Synchronization

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

  /// The tree of each step by id.
  package var stepNodes: [String: Node] { indexes.stepNodes }

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
    guard let entry = stepNodes[id]?.entry(key) else { return nil }
    return atKey ? entry.keyLocation : entry.value.location
  }
}

/// The indexes of one file that its rules share, each made when a rule first asks for it, on whichever thread
/// runs that rule (a rule on the other thread asking meanwhile waits for it).
final class LintIndexes: Sendable {
  let file: String
  let text: SourceText
  let root: Node
  let flow: Flow
  private let madeWalk = Mutex<FlowWalk?>(nil)
  private let madeGraph = Mutex<Digraph?>(nil)
  private let madeStepNodes = Mutex<[String: Node]?>(nil)
  private let madeDeclaredPermissions = Mutex<Set<String>?>(nil)
  private let madeBaseScope = Mutex<[String: ValueType]?>(nil)

  init(file: String, text: SourceText, root: Node, flow: Flow) {
    self.file = file
    self.text = text
    self.root = root
    self.flow = flow
  }

  var walk: FlowWalk { once(madeWalk) { FlowWalk(flow) } }

  var graph: Digraph { once(madeGraph) { Digraph(stepCount: flow.steps.count, routes: walk.routes) } }

  var stepNodes: [String: Node] {
    once(madeStepNodes) {
      var nodes: [String: Node] = [:]
      for entry in root["steps"]?.entries ?? [] where nodes[entry.key] == nil { nodes[entry.key] = entry.value }
      return nodes
    }
  }

  var declaredPermissions: Set<String> {
    once(madeDeclaredPermissions) { Set(flow.permissions.map(\.value.rawValue)) }
  }

  var baseScope: [String: ValueType] {
    once(madeBaseScope) {
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
    }
  }

  /// The value `made` holds, made by `make` and kept there when it holds none. One mutex for each index (not a
  /// generic class: making a generic class's metadata at run time costs more than a small flow's rules).
  private func once<Value: Sendable>(_ made: borrowing Mutex<Value?>, _ make: () -> Value) -> Value {
    made.withLock { made in
      if let made { return made }
      let value = make()
      made = value
      return value
    }
  }
}
