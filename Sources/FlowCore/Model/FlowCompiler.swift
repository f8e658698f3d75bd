/// Turns a positioned document tree into a ``Flow``, resolving every name it can.
///
/// The compiler is defensive: it never traps on a badly shaped tree (a flow loaded from JSON in an app is not
/// schema-validated first). Problems become diagnostics with rule ids; the flow is still returned so a linter
/// can report more, but a flow with errors must not be run.
public enum FlowCompiler {
  /// Compiles `root` (the whole document) read from `file`.
  ///
  /// - Parameters:
  ///   - root: the document, from `JSONReader.read(bytes:file:limits:)` or the YAML loader.
  ///   - file: the path shown in diagnostics.
  /// - Returns: the flow, or nil when the document is not a flow at all, and every diagnostic found
  ///   (positions are 1-based). Run the flow only when no diagnostic is an error. Names the compiler does not
  ///   resolve (variables in expressions, unreachable steps) are FlowLint's to check.
  package static func compile(_ root: Node, file: String) -> (flow: Flow?, diagnostics: [Diagnostic]) {
    let compiler = Compiler(file: file)
    let flow = compiler.compileFlow(root)
    return (flow, compiler.diagnostics)
  }

  /// Reads a flow document written as JSON (RFC 8259) and compiles it: what an app does with the JSON form of
  /// a flow it ships or downloads.
  ///
  /// - Parameters:
  ///   - bytes: the document's UTF-8 bytes.
  ///   - file: the name shown in diagnostics.
  /// - Returns: the flow, or nil when the bytes are not a flow document, and every diagnostic found: a JSON
  ///   syntax error or a document over the loader's limits is one error. Run the flow only when no
  ///   diagnostic is an error.
  public static func compile(json bytes: [UInt8], file: String) -> (flow: Flow?, diagnostics: [Diagnostic]) {
    do {
      return compile(try JSONReader.read(bytes: bytes, file: file), file: file)
    } catch {
      return (nil, [error.diagnostic])
    }
  }
}

/// Rule ids the compiler reports (FlowLint's rule registry describes them).
package enum CompilerRule {
  package static let shape = "flow-shape"
  package static let unknownStep = "unknown-step"
  package static let expressionSyntax = "expression-syntax"
  package static let variantWeight = "variant-weight"
}

final class Compiler {
  let file: String
  var diagnostics: [Diagnostic] = []
  /// The prelude's declarations and the flow's own, known before any step is compiled (empty while the prelude
  /// itself is compiled).
  var declarations = Declarations()
  var stepIndexByID: [String: StepIndex] = [:]
  /// The expressions parsed so far, by source: a flow repeats its conditions (`language == "ja"` on many steps),
  /// and parsing one takes thousands of instructions where finding it takes a hash. Only sources that parse.
  private var parsedExpressions: [String: FlowExpression] = [:]
  var pendingTargets: [(name: String, location: SourceLocation)] = []

  init(file: String) { self.file = file }

  // MARK: - Diagnostics

  func error(
    _ message: String, at location: SourceLocation, rule: String = CompilerRule.shape,
    notes: [String] = []
  ) {
    diagnostics.append(Diagnostic(.error, message, file: file, at: location, rule: rule, notes: notes))
  }

  // MARK: - Flow

  func compileFlow(_ root: Node) -> Flow? {
    guard root.entries != nil else {
      error(
        "a flow document must be a mapping with 'flow', 'start' and 'steps'; found \(root.kindDescription)",
        at: root.location)
      return nil
    }
    // Step ids first, so every transition can be resolved in one pass.
    let stepsNode = root["steps"]
    stepIndexByID.reserveCapacity(stepsNode?.entries?.count ?? 0)
    for (offset, entry) in (stepsNode?.entries ?? []).enumerated() {
      stepIndexByID[entry.key] = offset
    }

    let id = requiredString(root, "flow") ?? ""
    let version = scalarString(root["version"]) ?? ""
    let locales = (root["locales"]?.sequence ?? []).compactMap(\.string)
    let facts = (root["environment"]?.entries ?? []).map(compileFact)
    let variables = (root["variables"]?.entries ?? []).map(compileVariable)
    var variableIndex: [String: Int] = [:]
    variableIndex.reserveCapacity(variables.count)
    for (offset, variable) in variables.enumerated() { variableIndex[variable.name] = offset }

    var strings: [String: [String: Located<String>]] = [:]
    var plurals: [String: [String: [PluralCategory: String]]] = [:]
    for localeEntry in root["strings"]?.entries ?? [] {
      var table: [String: Located<String>] = [:]
      table.reserveCapacity(localeEntry.value.entries?.count ?? 0)
      for entry in localeEntry.value.entries ?? [] {
        if let forms = entry.value.entries {
          // A text with plural forms: CLDR category -> text, `other` required.
          var byCategory: [PluralCategory: String] = [:]
          for form in forms {
            guard let category = PluralCategory(rawValue: form.key), let text = scalarString(form.value) else {
              error(
                "unknown plural category '\(form.key)' of string '\(entry.key)'; expected one of "
                  + Suggestion.list(PluralCategory.allCases.map(\.rawValue)), at: form.keyLocation)
              continue
            }
            byCategory[category] = text
          }
          guard let other = byCategory[.other] else {
            error("string '\(entry.key)' has plural forms but no 'other' form", at: entry.value.location)
            continue
          }
          table[entry.key] = Located(other, at: entry.keyLocation)
          plurals[localeEntry.key, default: [:]][entry.key] = byCategory
          continue
        }
        guard let text = scalarString(entry.value) else {
          error("string '\(entry.key)' must be text; found \(entry.value.kindDescription)", at: entry.value.location)
          continue
        }
        table[entry.key] = Located(text, at: entry.keyLocation)
      }
      strings[localeEntry.key] = table
    }

    declarations = Prelude.declarations.adding(compileDeclarations(root, isPrelude: false))
    let steps = (stepsNode?.entries ?? []).map(compileStep)
    // The engine starts at `flow.steps[start]`: a flow without steps or without a start must not compile
    // cleanly, since an app runs compiled JSON without schema validation.
    if let stepsNode {
      if stepsNode.entries == nil {
        error(
          "'steps' must be a mapping of step ids to steps; found \(stepsNode.kindDescription)",
          at: stepsNode.location)
      } else if steps.isEmpty {
        error("'steps' is empty: a flow needs at least one step", at: stepsNode.location)
      }
    } else {
      error("missing 'steps': a flow needs at least one step", at: root.location)
    }
    if root["start"] == nil { error("missing 'start'", at: root.location) }
    let start = stepTarget(root["start"], what: "start") ?? 0

    var flow = Flow(
      id: id, version: version, description: root["description"]?.string, locales: locales,
      language: root["language"].flatMap(expression), start: start, back: root["back"]?.bool ?? false,
      facts: facts,
      permissions: (root["permissions"]?.sequence ?? []).compactMap { node in
        (node.string ?? node["kind"]?.string).map { Located(PermissionKind(rawValue: $0), at: node.location) }
      },
      variables: variables, resume: (root["resume"]?.sequence ?? []).compactMap(compileResumeRoute),
      launch: compileLaunch(root["launch"]), foreground: root["foreground"].flatMap { transition($0) },
      openEntries: (root["open"]?.entries ?? []).map(compileOpenEntry),
      reset: compileReset(root["reset"]), hooks: compileHooks(root["hooks"]), strings: strings, steps: steps,
      declarations: declarations,
      location: root.entry("flow")?.keyLocation ?? root.location,
      stepIndexByID: stepIndexByID, variableIndexByName: variableIndex, plurals: plurals)
    flow.experiments = compileExperiments(root["experiments"])
    return flow
  }

  func compileFact(_ entry: Node.Entry) -> Fact {
    let node = entry.value
    let type = variableType(node["type"]) ?? .string
    func typed(_ node: Node, _ what: String) -> Value {
      let written = value(of: node)
      if let value = type.coerce(written) { return value }
      error("\(what) of '\(entry.key)' must be \(type.article) \(type.rawValue); found \(written)", at: node.location)
      return written
    }
    let defaultValue = node["default"].map { typed($0, "the default") } ?? type.zero
    var values = (node["values"]?.sequence ?? []).map { typed($0, "a value") }
    if values.isEmpty { values = type == .bool ? [.bool(false), .bool(true)] : [defaultValue] }
    return Fact(name: entry.key, type: type, defaultValue: defaultValue, values: values, location: entry.keyLocation)
  }

  func compileVariable(_ entry: Node.Entry) -> Variable {
    let node = entry.value
    // An unknown type is reported once, here; nothing else is checked against a type the flow did not say.
    let declared = variableType(node["type"])
    let type = declared ?? .string
    // A default that does not fit is reported below as not of the variable's type.
    let written = node["default"].map { (try? Value(exactly: $0)) ?? .null }
    let defaultValue = written.flatMap(type.coerce) ?? type.zero
    if declared != nil, let defaultNode = node["default"], written.flatMap(type.coerce) == nil {
      error(
        "default of '\(entry.key)' must be \(type.article) \(type.rawValue); found \(defaultNode.kindDescription)",
        at: defaultNode.location)
    }
    return Variable(
      name: entry.key, type: type, typeIsKnown: declared != nil, defaultValue: defaultValue,
      allowedValues: node["values"]?.sequence?.compactMap(scalarString),
      persistKey: node["persist"].flatMap(scalarString), initial: node["initial"].flatMap(expression),
      location: entry.keyLocation)
  }

  func variableType(_ node: Node?) -> VariableType? {
    guard let node else { return nil }
    guard let name = node.string, let type = VariableType(rawValue: name) else {
      error(
        "unknown type '\(scalarString(node) ?? node.kindDescription)'; expected one of "
          + Suggestion.list(VariableType.allCases.map(\.rawValue)), at: node.location)
      return nil
    }
    return type
  }

  func compileResumeRoute(_ node: Node) -> ResumeRoute? {
    let when = node["when"].flatMap(expression)
    if let raw = node["rawValue"] {
      guard let expr = expression(raw) else { return nil }
      return ResumeRoute(when: when, destination: .rawValue(expr), location: node.location)
    }
    guard let target = stepTarget(node["to"], what: "resume route") else { return nil }
    return ResumeRoute(when: when, destination: .step(target), location: node.location)
  }

  func compileLaunch(_ node: Node?) -> [LaunchItem] {
    guard let node else { return [] }
    guard let list = node.sequence else {
      error(
        "'launch' is a list of effects and actions ({action: NAME, on: {...}}); found \(node.kindDescription)",
        at: node.location)
      return []
    }
    return list.compactMap { item -> LaunchItem? in
      guard let actionNode = item["action"] else { return effect(item).map(LaunchItem.effect) }
      let outcomes = outcomes(item["on"])
      for outcome in outcomes {
        if case .stay = outcome.transition.target { continue }
        error(
          "outcome '\(outcome.name)' of a launch action cannot go to a step: the 'resume' routes choose the "
            + "first step; give it 'effects' only", at: outcome.transition.location)
      }
      return .action(
        LaunchAction(
          name: Located(ActionName(rawValue: scalarString(actionNode) ?? ""), at: actionNode.location),
          arguments: arguments(item["arguments"]), when: item["when"].flatMap(expression), outcomes: outcomes,
          location: item.location))
    }
  }

  func compileOpenEntry(_ entry: Node.Entry) -> OpenEntry {
    let params = (entry.value["params"]?.entries ?? []).map { param -> OpenParameter in
      let typeNode = param.value.string != nil ? param.value : param.value["type"]
      var type = variableType(typeNode) ?? .string
      if ![.string, .int, .bool].contains(type) {
        error(
          "parameter '\(param.key)' of open entry '\(entry.key)' must be a string, int or bool; found \(type.rawValue)",
          at: typeNode?.location ?? param.keyLocation)
        type = .string
      }
      return OpenParameter(
        name: param.key, type: type, isRequired: param.value["required"]?.bool ?? true, location: param.keyLocation)
    }
    let transition =
      transition(entry.value)
      ?? Transition(target: .stay, location: entry.value.location)
    return OpenEntry(name: entry.key, params: params, transition: transition, location: entry.keyLocation)
  }

  func compileReset(_ node: Node?) -> Reset {
    guard let node else { return Reset() }
    return Reset(
      clear: (node["clear"]?.sequence ?? []).compactMap { n in n.string.map { Located($0, at: n.location) } },
      effects: effects(node["effects"]), location: node.location)
  }

  func compileHooks(_ node: Node?) -> Hooks {
    guard let node else { return Hooks() }
    return Hooks(launch: effects(node["launch"]), advance: effects(node["advance"]), enter: effects(node["enter"]))
  }

  // MARK: - Steps

  func compileStep(_ entry: Node.Entry) -> Step {
    let node = entry.value
    let kindName = node["kind"]?.string ?? ""
    let kind: Step.Kind
    if let known = Step.Kind(rawValue: kindName) {
      kind = known
    } else {
      let all = Step.Kind.allCases.map(\.rawValue)
      var notes: [String] = []
      if let guess = Suggestion.closest(to: kindName, in: all) { notes.append("did you mean '\(guess)'?") }
      error(
        "unknown step kind '\(kindName)' for step '\(entry.key)'; expected one of \(Suggestion.list(all))",
        at: node["kind"]?.location ?? entry.keyLocation, notes: notes)
      kind = .screen
    }
    let content: Step.Content
    switch kind {
    case .singleChoice, .multiChoice:
      let options = (node["options"]?.entries ?? []).map { option in
        Step.Option(
          id: option.key, label: text(option.value) ?? LocalizedText(alternatives: []), location: option.keyLocation)
      }
      let required = node["required"]?.bool ?? true
      let choice = Step.Choice(
        options: options, variable: locatedString(node, "variable"), isRequired: required,
        min: node["min"]?.int ?? (required ? 1 : 0), max: node["max"]?.int ?? (kind == .singleChoice ? 1 : nil))
      content = kind == .singleChoice ? .singleChoice(choice) : .multiChoice(choice)
    case .textInput:
      content = .textInput(
        Step.TextInput(
          variable: locatedString(node, "variable"), isRequired: node["required"]?.bool ?? true,
          placeholder: node["placeholder"].flatMap(text), prefill: node["prefill"].flatMap(expression),
          valid: node["valid"].flatMap(expression), values: sampleTexts(node["values"])))
    case .form:
      content = .form(
        (node["fields"]?.entries ?? []).map { field in
          let value = field.value
          let typeName = value["type"]?.string ?? "string"
          let type = Step.Field.FieldType(rawValue: typeName) ?? .string
          if Step.Field.FieldType(rawValue: typeName) == nil {
            error(
              "unknown field type '\(typeName)'; expected one of "
                + Suggestion.list(Step.Field.FieldType.allCases.map(\.rawValue)),
              at: value["type"]?.location ?? field.keyLocation)
          }
          var compiled = Step.Field(
            name: field.key, label: value["label"].flatMap(text), type: type,
            target: assignmentTarget(value["target"])
              ?? AssignmentTarget(variable: field.key, key: nil, location: field.keyLocation),
            isRequired: value["required"]?.bool ?? false, placeholder: value["placeholder"].flatMap(text),
            location: field.keyLocation)
          compileFieldChecks(value, into: &compiled)
          compiled.values = sampleTexts(value["values"])
          for sample in value["values"]?.sequence ?? [] {
            if let raw = scalarString(sample), compiled.parse(raw) == nil {
              error("sample '\(raw)' of field '\(field.key)' is not a valid \(type.rawValue)", at: sample.location)
            }
          }
          return compiled
        })
    case .permission:
      let request = node["request"]
      content = .permission(
        Step.PermissionRequest(
          kind: located(node, "permission", as: PermissionKind.init(rawValue:)),
          label: request?["label"].flatMap(text), enabled: request?["enabled"].flatMap(expression),
          visible: request?["visible"].flatMap(expression), outcomes: outcomes(node["on"])))
    case .action:
      content = .action(
        Step.ActionCall(
          name: located(node, "action", as: ActionName.init(rawValue:)), arguments: arguments(node["arguments"]),
          outcomes: outcomes(node["on"])))
    case .terminal:
      content = .terminal(node["outcome"]?.string.map(TerminalOutcome.init(rawValue:)) ?? .completed)
    case .screen:
      content = .screen
    }
    let autoAdvance = node["autoAdvance"].map { auto in
      Step.AutoAdvance(
        seconds: auto["after"]?.number ?? 0, when: auto["when"].flatMap(expression), location: auto.location)
    }
    return Step(
      id: entry.key, content: content, title: node["title"].flatMap(text), body: node["body"].flatMap(text),
      rawValue: node["rawValue"]?.int, isRetired: node["retired"]?.bool ?? false,
      skipIf: node["skipIf"].flatMap(expression), back: node["back"]?.bool, enter: effects(node["enter"]),
      next: node["next"].flatMap { transition($0) }, skip: node["skip"].flatMap { transition($0) },
      buttons: (node["buttons"]?.entries ?? []).compactMap(button), autoAdvance: autoAdvance,
      location: entry.keyLocation)
  }

  func button(_ entry: Node.Entry) -> StepButton? {
    let node = entry.value
    let move: StepButton.Move
    if let permission = node["permission"] {
      move = .request(
        Located(PermissionKind(rawValue: permission.string ?? ""), at: permission.location),
        outcomes: outcomes(node["on"]))
    } else if let action = node["action"] {
      move = .perform(
        Step.ActionCall(
          name: Located(ActionName(rawValue: action.string ?? ""), at: action.location),
          arguments: arguments(node["arguments"]), outcomes: outcomes(node["on"])))
    } else {
      move = .go(target(node["to"]) ?? .stay)
    }
    return StepButton(
      name: entry.key, label: node["label"].flatMap(text), enabled: node["enabled"].flatMap(expression),
      visible: node["visible"].flatMap(expression), effects: effects(node["effects"]), move: move,
      location: entry.keyLocation)
  }

  /// A form field's checks and presentation: prefill, visible, secure, min/max, lengths, pattern, options, messages.
  func compileFieldChecks(_ node: Node, into field: inout Step.Field) {
    field.prefill = node["prefill"].flatMap(expression)
    field.visible = node["visible"].flatMap(expression)
    field.isSecure = node["secure"]?.bool ?? false
    field.minimum = node["min"].flatMap(expression)
    field.maximum = node["max"].flatMap(expression)
    field.minLength = node["minLength"]?.int
    field.maxLength = node["maxLength"]?.int
    if let patternNode = node["pattern"], let pattern = patternNode.string {
      do {
        _ = try LinearPattern(pattern)
        field.pattern = pattern
      } catch {
        self.error("invalid pattern for field '\(field.name)': \(error.description)", at: patternNode.location)
      }
    }
    field.options = (node["options"]?.entries ?? []).map { option in
      Step.Option(
        id: option.key, label: text(option.value) ?? LocalizedText(alternatives: []), location: option.keyLocation)
    }
    field.optionsFrom = node["optionsFrom"].flatMap(expression)
    if field.type.hasOptions, field.options.isEmpty, field.optionsFrom == nil {
      error(
        "\(field.type.rawValue) field '\(field.name)' needs 'options' or 'optionsFrom'",
        at: node["type"]?.location ?? node.location)
    }
    for entry in node["messages"]?.entries ?? [] {
      guard let check = Step.Field.Check(rawValue: entry.key) else {
        error(
          "unknown check '\(entry.key)' in the messages of field '\(field.name)'; expected one of "
            + Suggestion.list(Step.Field.Check.allCases.map(\.rawValue))
            + Suggestion.didYouMean(entry.key, in: Step.Field.Check.allCases.map(\.rawValue)),
          at: entry.keyLocation)
        continue
      }
      if let message = text(entry.value) { field.messages[check] = message }
    }
  }

  /// `arguments: {product: "'pro.yearly'"}`: an action call's or a custom effect's argument expressions.
  func arguments(_ node: Node?) -> [Named<Expr>] {
    (node?.entries ?? []).compactMap { entry in
      expression(entry.value).map { Named(name: entry.key, value: $0, location: entry.keyLocation) }
    }
  }

  func outcomes(_ node: Node?) -> [Outcome] {
    (node?.entries ?? []).compactMap { entry in
      transition(entry.value).map { Outcome(name: entry.key, transition: $0, location: entry.keyLocation) }
    }
  }

  // MARK: - Transitions

  func transition(_ node: Node) -> Transition? {
    if node.string != nil {
      guard let target = target(node) else { return nil }
      return Transition(target: target, label: nil, enabled: nil, effects: [], location: node.location)
    }
    guard node.entries != nil else {
      error("a transition is a step id or a mapping with 'to'; found \(node.kindDescription)", at: node.location)
      return nil
    }
    return Transition(
      target: target(node["to"]) ?? .stay, label: node["label"].flatMap(text),
      enabled: node["enabled"].flatMap(expression), visible: node["visible"].flatMap(expression),
      effects: effects(node["effects"]), location: node.location)
  }

  func target(_ node: Node?) -> Target? {
    guard let node else { return nil }
    if node.string == "stay" { return .stay }
    if let routes = node.sequence {
      return .routes(
        routes.map { route in
          let to = route["to"]
          let rawValue = route["rawValue"].flatMap(expression)
          return Route(
            when: route["when"].flatMap(expression),
            target: to?.string == "stay" || rawValue != nil ? nil : stepTarget(to, what: "route"),
            effects: effects(route["effects"]), location: route.location, rawValue: rawValue)
        })
    }
    return stepTarget(node, what: "transition").map(Target.step)
  }

  func stepTarget(_ node: Node?, what: String) -> StepIndex? {
    guard let node else { return nil }
    guard let name = scalarString(node) else {
      error("\(what) must name a step; found \(node.kindDescription)", at: node.location)
      return nil
    }
    if let index = stepIndexByID[name] { return index }
    var notes: [String] = []
    if let guess = Suggestion.closest(to: name, in: stepIndexByID.keys) { notes.append("did you mean '\(guess)'?") }
    let expected =
      stepIndexByID.isEmpty ? "; the flow has no steps" : "; expected one of \(Suggestion.list(stepIndexByID.keys))"
    error("unknown step '\(name)'\(expected)", at: node.location, rule: CompilerRule.unknownStep, notes: notes)
    return nil
  }

  // MARK: - Effects

  func effects(_ node: Node?) -> [Effect] {
    guard let node else { return [] }
    guard let list = node.sequence else {
      error("effects must be a list; found \(node.kindDescription)", at: node.location)
      return []
    }
    return list.compactMap(effect)
  }

  func effect(_ node: Node) -> Effect? {
    guard let entries = node.entries, let first = entries.first(where: { $0.key != "when" }) else {
      error("an effect is a mapping such as {track: EVENT}; found \(node.kindDescription)", at: node.location)
      return nil
    }
    let when = node["when"].flatMap(expression)
    let kind: Effect.Kind
    switch first.key {
    case "set":
      guard let target = assignmentTarget(first.value), let valueNode = node["value"] else {
        error("'set' needs a variable and a 'value' expression", at: first.keyLocation)
        return nil
      }
      // A value that does not parse is reported by `expression` itself.
      guard let value = expression(valueNode) else { return nil }
      kind = .set(target, value)
    case "track":
      kind = .track(
        event: scalarString(first.value) ?? "",
        properties: (node["properties"]?.entries ?? []).compactMap { entry in
          expression(entry.value).map { Named(name: entry.key, value: $0, location: entry.keyLocation) }
        })
    case "userProperty":
      guard let valueNode = node["value"] else {
        error("'userProperty' needs a 'value' expression", at: first.keyLocation)
        return nil
      }
      guard let value = expression(valueNode) else { return nil }
      kind = .userProperty(name: scalarString(first.value) ?? "", value: value)
    case "requestReview": kind = .requestReview
    case "completeOnboarding": kind = .completeOnboarding
    case "syncProfile": kind = .syncProfile(userID: first.value["userId"].flatMap(expression))
    case "placement": kind = .placement(scalarString(first.value) ?? "")
    case "log":
      guard let value = expression(first.value) else { return nil }
      kind = .log(value)
    default:
      guard declarations.effects[first.key] != nil else {
        unknownEffect(first.key, at: first.keyLocation)
        return nil
      }
      // A custom effect: `{openSettings: {}}`, `{followUser: {userId: result.userId}}`.
      if first.value.entries == nil, first.value.content != .null {
        error(
          "custom effect '\(first.key)' takes a mapping of its arguments (or {} for none); found "
            + first.value.kindDescription, at: first.value.location)
        return nil
      }
      kind = .custom(name: first.key, arguments: arguments(first.value), location: first.keyLocation)
    }
    return Effect(kind: kind, when: when, location: node.location)
  }

  func unknownEffect(_ name: String, at location: SourceLocation) {
    let names = Effect.typeNames + declarations.effectNames
    var notes: [String] = []
    if let guess = Suggestion.closest(to: name, in: names) { notes.append("did you mean '\(guess)'?") }
    error(
      "unknown effect type '\(name)'; expected one of \(Suggestion.list(names))", at: location,
      notes: notes)
  }

  func assignmentTarget(_ node: Node?) -> AssignmentTarget? {
    guard let node, let path = node.string else { return nil }
    // Split at the first "." by UTF-8 code unit: `String.split` walks grapheme clusters, about 6,000
    // instructions a target.
    guard let dot = path.utf8.firstIndex(of: UInt8(ascii: ".")) else {
      return AssignmentTarget(variable: path, key: nil, location: node.location)
    }
    let key = path[path.utf8.index(after: dot)...]
    return AssignmentTarget(
      variable: String(path[..<dot]), key: key.isEmpty ? nil : String(key), location: node.location)
  }

  // MARK: - Texts and expressions

  func text(_ node: Node) -> LocalizedText? {
    if let key = node.string {
      return LocalizedText(alternatives: [.init(when: nil, key: key, args: [], location: node.location)])
    }
    if let list = node.sequence {
      return LocalizedText(alternatives: list.compactMap { alternative($0) })
    }
    if node.entries != nil, let alternative = alternative(node) {
      return LocalizedText(alternatives: [alternative])
    }
    error(
      "a text is a string key, {key, args} or a list of {when, key}; found \(node.kindDescription)",
      at: node.location)
    return nil
  }

  func alternative(_ node: Node) -> LocalizedText.Alternative? {
    if let key = node.string { return .init(when: nil, key: key, args: [], location: node.location) }
    guard let key = node["key"]?.string else {
      error("a text alternative needs a 'key'", at: node.location)
      return nil
    }
    return .init(
      when: node["when"].flatMap(expression), key: key,
      args: (node["args"]?.entries ?? []).compactMap { entry in
        expression(entry.value).map { Named(name: entry.key, value: $0, location: entry.keyLocation) }
      }, location: node["key"]?.location ?? node.location)
  }

  /// An expression from a scalar; literal booleans and numbers are accepted as constant expressions.
  func expression(_ node: Node) -> Expr? {
    let source: String
    switch node.content {
    case .string(let s): source = s
    case .bool(let b): source = b ? "true" : "false"
    case .int(let i): source = String(i)
    case .double(let d) where d.isFinite: source = Value.decimalText(d)
    default:
      error("expected an expression (a string); found \(node.kindDescription)", at: node.location)
      return nil
    }
    do {
      let expression: FlowExpression
      if let parsed = parsedExpressions[source] {
        expression = parsed
      } else {
        expression = try FlowExpression(source)
        parsedExpressions[source] = expression
      }
      return Expr(expression: expression, location: node.location, textStart: node.textStart)
    } catch {
      let location = Expr.location(ofColumn: error.column, in: source, textStart: node.textStart)
      self.error(error.message, at: location, rule: CompilerRule.expressionSyntax, notes: error.notes)
      return nil
    }
  }

  // MARK: - Scalars

  func requiredString(_ node: Node, _ key: String) -> String? {
    guard let value = node[key] else {
      error("missing '\(key)'", at: node.location)
      return nil
    }
    return scalarString(value)
  }

  /// The texts of a `values:` list of samples on a text input or form field.
  func sampleTexts(_ node: Node?) -> [String] {
    (node?.sequence ?? []).compactMap(scalarString)
  }

  func scalarString(_ node: Node?) -> String? {
    switch node?.content {
    case .string(let s): s
    case .int(let i): String(i)
    case .double(let d): String(d)
    case .bool(let b): String(b)
    default: nil
    }
  }

  func locatedString(_ node: Node, _ key: String) -> Located<String> {
    located(node, key, as: { $0 })
  }

  /// The scalar under `key` read as a word of the vocabulary; a missing key is an error.
  func located<Word>(_ node: Node, _ key: String, as word: (String) -> Word) -> Located<Word> {
    guard let value = node[key] else {
      error("missing '\(key)'", at: node.location)
      return Located(word(""), at: node.location)
    }
    return Located(word(scalarString(value) ?? ""), at: value.location)
  }

  func value(of node: Node) -> Value {
    do {
      return try Value(exactly: node)
    } catch {
      self.error("'\(error.number)' is not a finite number", at: error.location)
      return .null
    }
  }
}

extension VariableType {
  /// `a` or `an`, for messages: "must be an int".
  package var article: String { self == .int ? "an" : "a" }

  /// The value of this type a variable has when nothing else is known.
  package var zero: Value {
    switch self {
    case .bool: .bool(false)
    case .int: .int(0)
    case .decimal: .decimal(0)
    case .date: .null
    case .duration: .duration(0)
    case .string: .string("")
    case .list: .list([])
    case .map: .map([:])
    }
  }
}
