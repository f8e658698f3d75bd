/// The standard prelude: the declarations every flow has without writing them (`schemas/prelude.json`, embedded
/// by `scripts/embed-schemas.sh`), compiled by the same code that compiles a flow's own.
package enum Prelude {
  /// The prelude's actions and terminal outcomes.
  package static var declarations: Declarations { current.declarations }
  /// What compiling the embedded prelude reported; empty (a test checks it).
  package static var diagnostics: [Diagnostic] { current.diagnostics }

  private static let current = compiled(from: EmbeddedPrelude.json)

  /// The declarations compiled when FlowKit was built (`EmbeddedPreludeDeclarations`, written by
  /// `scripts/embed-schemas.sh`) when `json` is the text they were compiled from (its length and hash), which
  /// costs no parsing at start-up; else `json` compiled now.
  static func compiled(from json: String) -> (declarations: Declarations, diagnostics: [Diagnostic]) {
    if json.utf8.count == EmbeddedPreludeDeclarations.sourceLength,
      TextHash.of(json) == EmbeddedPreludeDeclarations.sourceHash
    {
      return (EmbeddedPreludeDeclarations.declarations(), [])
    }
    return compile(json)
  }

  /// A prelude (the embedded one by default) compiled now.
  package static func compile(_ json: String = EmbeddedPrelude.json)
    -> (declarations: Declarations, diagnostics: [Diagnostic])
  {
    let file = "schemas/prelude.json"
    let compiler = Compiler(file: file)
    do throws(LoadError) {
      let root = try JSONReader.read(bytes: Array(json.utf8), file: file)
      return (compiler.compileDeclarations(root, isPrelude: true), compiler.diagnostics)
    } catch {
      return (Declarations(), [error.diagnostic])
    }
  }
}

extension Compiler {
  /// The declarations of a flow document (or the prelude): `actions`, `effects` and `outcomes`.
  func compileDeclarations(_ root: Node, isPrelude: Bool) -> Declarations {
    var declarations = Declarations()
    for entry in root["actions"]?.entries ?? [] {
      let name = ActionName(rawValue: entry.key)
      declarations.actions[name] = actionDeclaration(entry, isPrelude: isPrelude)
    }
    for entry in root["effects"]?.entries ?? [] {
      if Effect.typeNames.contains(entry.key) {
        error(
          "'\(entry.key)' is a built-in effect; a custom effect needs another name", at: entry.keyLocation)
        continue
      }
      declarations.effects[entry.key] = EffectDeclaration(
        name: entry.key, arguments: typedNames(entry.value["arguments"]), location: entry.keyLocation)
    }
    // The prelude's catalogue is a mapping of kinds; a flow lists kinds, writing its own as {kind: NAME, ...}.
    for entry in root["permissions"]?.entries ?? [] {
      declarations.permissions[PermissionKind(rawValue: entry.key)] = permissionDeclaration(
        entry.key, entry.value, at: entry.keyLocation)
    }
    for node in root["permissions"]?.sequence ?? [] where node.entries != nil {
      guard let kind = node["kind"]?.string else { continue }
      declarations.permissions[PermissionKind(rawValue: kind)] = permissionDeclaration(kind, node, at: node.location)
    }
    for node in root["outcomes"]?.sequence ?? [] {
      guard let name = node.string else { continue }
      let outcome = TerminalOutcome(rawValue: name)
      if !declarations.outcomes.contains(outcome) { declarations.outcomes.append(outcome) }
    }
    return declarations
  }

  func permissionDeclaration(_ kind: String, _ node: Node, at location: SourceLocation) -> PermissionDeclaration {
    let allowed = Set(PermissionStatus.allCases.map(\.rawValue))
    var statuses: [Named<String>] = []
    for entry in node["statuses"]?.entries ?? [] {
      if !allowed.contains(entry.key) {
        let names = PermissionStatus.allCases.map(\.rawValue)
        error(
          "unknown permission status '\(entry.key)' of '\(kind)'; expected one of \(Suggestion.list(names))"
            + Suggestion.didYouMean(entry.key, in: names), at: entry.keyLocation)
      }
      statuses.append(Named(name: entry.key, value: scalarString(entry.value) ?? "", location: entry.keyLocation))
    }
    return PermissionDeclaration(
      kind: PermissionKind(rawValue: kind), api: node["api"]?.string, statuses: statuses, note: node["note"]?.string,
      location: location)
  }

  func actionDeclaration(_ entry: Node.Entry, isPrelude: Bool) -> ActionDeclaration {
    let node = entry.value
    let dialog = node["dialog"]?.bool ?? true
    let outcomes = (node["outcomes"]?.entries ?? []).map { outcome in
      OutcomeDeclaration(
        name: outcome.key,
        result: (outcome.value["result"]?.entries ?? []).compactMap(resultField),
        dialog: outcome.value["dialog"]?.bool ?? dialog, location: outcome.keyLocation)
    }
    if outcomes.isEmpty {
      error("action '\(entry.key)' declares no outcomes; an action needs at least one", at: entry.keyLocation)
    }
    var defaultOutcome = outcomes.first?.name ?? ""
    if let node = node["default"], let name = node.string {
      if outcomes.contains(where: { $0.name == name }) {
        defaultOutcome = name
      } else {
        error(
          "the default outcome '\(name)' of action '\(entry.key)' is not one of its outcomes; expected one of "
            + Suggestion.list(outcomes.map(\.name)) + Suggestion.didYouMean(name, in: outcomes.map(\.name)),
          at: node.location)
      }
    }
    return ActionDeclaration(
      name: ActionName(rawValue: entry.key), arguments: typedNames(node["arguments"]), outcomes: outcomes,
      timeout: node["timeout"]?.number, defaultOutcome: defaultOutcome, location: entry.keyLocation,
      isPrelude: isPrelude)
  }

  /// `{product: string, count: int?}`: names with their declared types.
  func typedNames(_ node: Node?) -> [Named<ValueType>] {
    (node?.entries ?? []).compactMap { entry in
      declaredType(entry.value).map { Named(name: entry.key, value: $0, location: entry.keyLocation) }
    }
  }

  /// A result field: a type (`string?`), or `{type, example}`.
  func resultField(_ entry: Node.Entry) -> ResultField? {
    let typeNode = entry.value.entries == nil ? entry.value : entry.value["type"]
    guard let typeNode, let type = declaredType(typeNode) else {
      if entry.value.entries != nil, entry.value["type"] == nil {
        error("result field '\(entry.key)' needs a 'type'", at: entry.keyLocation)
      }
      return nil
    }
    var example = type.sample
    if let node = entry.value["example"] {
      let value = value(of: node)
      if type.admits(value) {
        example = value
      } else {
        error("the example of '\(entry.key)' must be a \(type); found \(node.kindDescription)", at: node.location)
      }
    }
    return ResultField(name: entry.key, type: type, example: example, location: entry.keyLocation)
  }

  /// A declared type: a variable type (`string`, `int`, `bool`, `list`, `map`), optional with a final `?`.
  func declaredType(_ node: Node) -> ValueType? {
    guard let text = node.string else {
      error("a type is a name such as 'string' or 'int?'; found \(node.kindDescription)", at: node.location)
      return nil
    }
    let optional = text.hasSuffix("?")
    let name = optional ? String(text.dropLast()) : text
    guard let type = VariableType(rawValue: name) else {
      let names = VariableType.allCases.map(\.rawValue)
      error(
        "unknown type '\(text)'; expected one of \(Suggestion.list(names)), optional with a final '?'"
          + Suggestion.didYouMean(name, in: names), at: node.location)
      return nil
    }
    return optional ? .optional(type.valueType) : type.valueType
  }
}

extension ValueType {
  /// A value of this type, for a result field without an example: the type's zero, null for an optional.
  package var sample: Value {
    switch self {
    case .bool: .bool(false)
    case .int: .int(0)
    case .decimal: .decimal(0)
    case .date: .date(0)
    case .duration: .duration(0)
    case .string: .string("")
    case .list: .list([])
    case .map, .record: .map([:])
    case .optional, .null, .any: .null
    }
  }
}
