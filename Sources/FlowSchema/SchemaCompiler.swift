internal import FlowCore

/// Turns a schema document into a `SchemaProgram`: registers every `$id` and `$anchor`, compiles each schema
/// reachable from the root once (so `$ref` cycles become index cycles), checks every keyword, and refuses
/// what it does not support.
struct SchemaCompiler {
  let root: Node
  let file: String
  /// Whether a pattern that does not compile is an error (see `JSONSchema.init`).
  let checkingPatterns: Bool

  /// Absolute URI (no fragment) of every schema resource → JSON pointer of its root in the document.
  private var resources: [String: String] = [:]
  /// `uri#anchor` → JSON pointer.
  private var anchors: [String: String] = [:]
  /// Every schema position visited while registering: its node (the first one, as `node(in:at:)` would find),
  /// so compiling and resolving a `$ref` need not walk the document from the root, and the base URI in effect.
  private var positions: [String: (node: Node, base: URIReference)] = [:]
  /// `$ref` text and base URI → the schema it resolved to.
  private var resolvedReferences: [ReferenceKey: Int] = [:]
  private var indexByPointer: [String: Int] = [:]
  private var drafts: [SchemaKeywords] = []
  private var patterns: [String] = []
  private var patternIndex: [String: Int] = [:]
  private(set) var warnings: [Diagnostic] = []

  static let defaultBase = URIReference("flowkit:///schema.json")

  init(root: Node, file: String, checkingPatterns: Bool = true) {
    self.root = root
    self.file = file
    self.checkingPatterns = checkingPatterns
  }

  mutating func compile() throws(SchemaError) -> SchemaProgram {
    // Room for every node up front: growing these tables rehashes every pointer string each time.
    let capacity = Self.countMappings(root)
    positions.reserveCapacity(capacity)
    indexByPointer.reserveCapacity(capacity)
    drafts.reserveCapacity(capacity)
    try register(root, pointer: "", base: Self.defaultBase)
    _ = try compileSchema(at: "")
    try rejectReferenceCycles()
    for index in drafts.indices {
      if !drafts[index].anyOf.isEmpty { drafts[index].anyOfBranches = branchSet(drafts[index].anyOf) }
      if !drafts[index].oneOf.isEmpty { drafts[index].oneOfBranches = branchSet(drafts[index].oneOf) }
      if drafts[index].unevaluatedProperties != nil { drafts[index].knownProperties = knownProperties(of: index) }
      drafts[index].exactFacts = exactFacts(of: index)
      drafts[index].groups = drafts[index].computeGroups()
    }
    for index in drafts.indices where !drafts[index].allOf.isEmpty {
      drafts[index].allOfByKey = keyedMembers(drafts[index].allOf)
    }
    return SchemaProgram(schemas: drafts.map(CompiledSchema.init), patterns: patterns)
  }
}

// MARK: - Keyword tables

extension SchemaCompiler {
  /// Keywords whose value is one subschema.
  static let singleSchemaKeywords: Set<String> = [
    "items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "contentSchema",
  ]
  /// Keywords whose value is a list of subschemas.
  static let schemaListKeywords: Set<String> = ["prefixItems", "allOf", "anyOf", "oneOf"]
  /// Keywords whose value maps names to subschemas.
  static let schemaMapKeywords: Set<String> = [
    "properties", "patternProperties", "dependentSchemas", "$defs", "definitions",
  ]
  /// Keywords that only annotate (or are handled while registering) and never assert.
  static let annotationKeywords: Set<String> = [
    "$schema", "$id", "$anchor", "$comment", "$defs", "definitions", "title", "description", "default",
    "examples", "deprecated", "readOnly", "writeOnly", "format", "contentEncoding", "contentMediaType",
    "contentSchema", "markdownDescription",
  ]
  /// Keywords compiled into assertions or applicators.
  static let assertionKeywords: Set<String> = [
    "$ref", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
    "maxProperties", "minProperties", "required", "dependentRequired", "prefixItems", "items", "contains",
    "properties", "patternProperties", "additionalProperties", "propertyNames", "dependentSchemas", "allOf",
    "anyOf", "oneOf", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties",
  ]
  /// Keywords refused, with the reason shown to the schema author.
  static let refusedKeywords: [String: String] = [
    "$dynamicRef": "dynamic references are not supported",
    "$dynamicAnchor": "dynamic anchors are not supported",
    "$recursiveRef": "'$recursiveRef' is a draft 2019-09 keyword and is not supported",
    "$recursiveAnchor": "'$recursiveAnchor' is a draft 2019-09 keyword and is not supported",
    "$vocabulary": "custom vocabularies are not supported",
    "dependencies": "'dependencies' is not a draft 2020-12 keyword; use 'dependentRequired' or 'dependentSchemas'",
    "additionalItems": "'additionalItems' is not a draft 2020-12 keyword; use 'items' after 'prefixItems'",
  ]
  static let supportedDialects: Set<String> = [
    "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#",
  ]
  static var allKeywords: Set<String> { annotationKeywords.union(assertionKeywords) }

  enum SubschemaKind { case single, list, map }
  /// `singleSchemaKeywords`, `schemaListKeywords` and `schemaMapKeywords` in one table: one lookup per key.
  static let subschemaKinds: [String: SubschemaKind] = {
    var kinds: [String: SubschemaKind] = [:]
    for key in singleSchemaKeywords { kinds[key] = .single }
    for key in schemaListKeywords { kinds[key] = .list }
    for key in schemaMapKeywords { kinds[key] = .map }
    return kinds
  }()
}

/// A `$ref` as written and the base URI it is resolved against.
struct ReferenceKey: Hashable {
  var text: String
  var base: URIReference
}

// MARK: - Registration of $id and $anchor

extension SchemaCompiler {
  private mutating func register(_ node: Node, pointer: String, base: URIReference) throws(SchemaError) {
    guard let entries = node.entries else {
      record(node, pointer: pointer, base: base)
      return
    }
    var base = base
    if let idEntry = node.entry("$id") {
      guard let id = idEntry.value.string else {
        throw invalid("'$id' must be a string, found \(idEntry.value.kindDescription)", at: idEntry.value)
      }
      let reference = URIReference(id)
      if let fragment = reference.fragment, !fragment.isEmpty {
        throw invalid("'$id' must not have a fragment; use '$anchor' for '#\(fragment)'", at: idEntry.value)
      }
      base = reference.resolved(against: base).withoutFragment
      let key = base.text
      if let existing = resources[key], existing != pointer {
        throw invalid("duplicate '$id' '\(id)' (also at '#\(existing)')", at: idEntry.value)
      }
      resources[key] = pointer
    } else if pointer.isEmpty {
      resources[base.text] = pointer
    }
    record(node, pointer: pointer, base: base)
    if let anchorEntry = node.entry("$anchor") {
      guard let anchor = anchorEntry.value.string, Self.isValidAnchor(anchor) else {
        throw invalid("'$anchor' must be a plain name", at: anchorEntry.value)
      }
      let key = base.text + "#" + anchor
      if let existing = anchors[key], existing != pointer {
        throw invalid("duplicate '$anchor' '\(anchor)' (also at '#\(existing)')", at: anchorEntry.value)
      }
      anchors[key] = pointer
    }
    for entry in entries {
      switch Self.subschemaKinds[entry.key] {
      case nil: break
      case .single:
        try register(entry.value, pointer: pointer + "/" + Self.escape(entry.key), base: base)
      case .list:
        guard let list = entry.value.sequence else { break }
        let childPointer = pointer + "/" + Self.escape(entry.key)
        for (index, item) in list.enumerated() {
          try register(item, pointer: childPointer + "/\(index)", base: base)
        }
      case .map:
        guard let members = entry.value.entries else { break }
        let childPointer = pointer + "/" + Self.escape(entry.key)
        for member in members {
          try register(member.value, pointer: childPointer + "/" + Self.escape(member.key), base: base)
        }
      }
    }
  }

  /// How many mappings the document holds: an upper bound on its schema objects.
  private static func countMappings(_ node: Node) -> Int {
    switch node.content {
    case .mapping(let entries): 1 + entries.reduce(0) { $0 + countMappings($1.value) }
    case .sequence(let items): items.reduce(0) { $0 + countMappings($1) }
    default: 0
    }
  }

  /// Notes the node and base URI at a schema position; a position reached twice keeps its first node and its
  /// last base.
  private mutating func record(_ node: Node, pointer: String, base: URIReference) {
    if let index = positions.index(forKey: pointer) {
      positions.values[index].base = base
    } else {
      positions[pointer] = (node, base)
    }
  }

  private static func isValidAnchor(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first,
      ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_"
    else { return false }
    return text.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || "-_.".unicodeScalars.contains($0)
    }
  }
}

// MARK: - Compiling one schema

extension SchemaCompiler {
  private mutating func compileSchema(at pointer: String) throws(SchemaError) -> Int {
    if let index = indexByPointer[pointer] { return index }
    guard let node = positions[pointer]?.node ?? Self.node(in: root, at: pointer) else {
      throw SchemaError(
        .unresolvedReference, "no schema at '#\(pointer)'", file: file, at: root.location)
    }
    let index = drafts.count
    indexByPointer[pointer] = index
    drafts.append(SchemaKeywords(location: node.location, pointer: "#" + pointer))
    let keywords = try compileKeywords(node, pointer: pointer)
    drafts[index] = keywords
    return index
  }

  private mutating func compileKeywords(_ node: Node, pointer: String) throws(SchemaError) -> SchemaKeywords {
    var k = SchemaKeywords(location: node.location, pointer: "#" + pointer)
    if case .bool(let value) = node.content {
      k.rejectsAll = !value
      return k
    }
    guard let entries = node.entries else {
      throw invalid("a schema must be a mapping or a boolean, found \(node.kindDescription)", at: node)
    }
    let base = baseURI(for: pointer)
    for entry in entries {
      let key = entry.key
      let value = entry.value
      var child: String { pointer + "/" + Self.escape(key) }
      switch key {
      case "$schema":
        guard let dialect = value.string, Self.supportedDialects.contains(dialect) else {
          throw SchemaError(
            .unsupportedKeyword,
            "unsupported '$schema' \(render(value)); expected 'https://json-schema.org/draft/2020-12/schema'",
            file: file, at: value.location)
        }
      case "title": k.title = value.string
      case "$ref":
        guard let text = value.string else { throw invalid("'$ref' must be a string", at: value) }
        k.ref = try resolveReference(text, base: base, at: value)
        k.refLocation = value.location
      case "type": k.types = try types(value)
      case "enum":
        guard let list = value.sequence else { throw invalid("'enum' must be a list", at: value) }
        k.enumValues = list
      case "const": k.constValue = value
      case "multipleOf":
        let number = try number(value, key)
        guard number.double > 0 else { throw invalid("'multipleOf' must be greater than 0", at: value) }
        k.multipleOf = number
      case "maximum": k.maximum = try number(value, key)
      case "minimum": k.minimum = try number(value, key)
      case "exclusiveMaximum": k.exclusiveMaximum = try number(value, key)
      case "exclusiveMinimum": k.exclusiveMinimum = try number(value, key)
      case "maxLength": k.maxLength = try count(value, key)
      case "minLength": k.minLength = try count(value, key)
      case "pattern":
        guard let source = value.string else { throw invalid("'pattern' must be a string", at: value) }
        k.pattern = try pattern(source, at: value)
      case "maxItems": k.maxItems = try count(value, key)
      case "minItems": k.minItems = try count(value, key)
      case "maxContains": k.maxContains = try count(value, key)
      case "minContains": k.minContains = try count(value, key)
      case "maxProperties": k.maxProperties = try count(value, key)
      case "minProperties": k.minProperties = try count(value, key)
      case "uniqueItems":
        guard let flag = value.bool else { throw invalid("'uniqueItems' must be a boolean", at: value) }
        k.uniqueItems = flag
      case "required": k.required = try names(value, key)
      case "dependentRequired":
        guard let members = value.entries else { throw invalid("'dependentRequired' must be a mapping", at: value) }
        for member in members { k.dependentRequired.append((member.key, try names(member.value, key))) }
      case "prefixItems": k.prefixItems = try schemaList(value, key, pointer: child)
      case "items":
        if value.sequence != nil {
          throw SchemaError(
            .unsupportedKeyword,
            "'items' must be a single schema in draft 2020-12; use 'prefixItems' for a list of schemas",
            file: file, at: entry.keyLocation)
        }
        k.items = try compileSchema(at: child)
      case "contains": k.contains = try compileSchema(at: child)
      case "properties":
        guard let members = value.entries else { throw invalid("'properties' must be a mapping", at: value) }
        for member in members {
          k.properties[member.key] = try compileSchema(at: child + "/" + Self.escape(member.key))
          k.propertyOrder.append(member.key)
        }
      case "patternProperties":
        guard let members = value.entries else { throw invalid("'patternProperties' must be a mapping", at: value) }
        for member in members {
          let regex = try pattern(member.key, at: Node(.string(member.key), at: member.keyLocation))
          k.patternProperties.append((regex, try compileSchema(at: child + "/" + Self.escape(member.key))))
        }
      case "additionalProperties": k.additionalProperties = try compileSchema(at: child)
      case "propertyNames": k.propertyNames = try compileSchema(at: child)
      case "dependentSchemas":
        guard let members = value.entries else { throw invalid("'dependentSchemas' must be a mapping", at: value) }
        for member in members {
          k.dependentSchemas.append((member.key, try compileSchema(at: child + "/" + Self.escape(member.key))))
        }
      case "allOf": k.allOf = try schemaList(value, key, pointer: child, nonEmpty: true)
      case "anyOf": k.anyOf = try schemaList(value, key, pointer: child, nonEmpty: true)
      case "oneOf": k.oneOf = try schemaList(value, key, pointer: child, nonEmpty: true)
      case "not": k.not = try compileSchema(at: child)
      case "if": k.ifSchema = try compileSchema(at: child)
      case "then": k.thenSchema = try compileSchema(at: child)
      case "else": k.elseSchema = try compileSchema(at: child)
      case "unevaluatedItems": k.unevaluatedItems = try compileSchema(at: child)
      case "unevaluatedProperties": k.unevaluatedProperties = try compileSchema(at: child)
      case "$defs", "definitions":
        guard value.entries != nil else { throw invalid("'\(key)' must be a mapping", at: value) }
      case _ where Self.annotationKeywords.contains(key) || key.hasPrefix("x-"):
        break
      default:
        if let reason = Self.refusedKeywords[key] {
          throw SchemaError(
            .unsupportedKeyword, "unsupported keyword '\(key)': \(reason)", file: file, at: entry.keyLocation)
        }
        let hint = Suggestion.didYouMean(key, in: Self.allKeywords)
        warnings.append(
          Diagnostic(
            .warning, "unknown keyword '\(key)' is ignored\(hint)", file: file, at: entry.keyLocation,
            rule: "schema"))
      }
    }
    if k.ifSchema == nil {
      k.thenSchema = nil
      k.elseSchema = nil
    }
    return k
  }

  private mutating func schemaList(
    _ value: Node, _ key: String, pointer: String, nonEmpty: Bool = false
  ) throws(SchemaError) -> [Int] {
    guard let list = value.sequence, !(nonEmpty && list.isEmpty) else {
      throw invalid("'\(key)' must be a\(nonEmpty ? " non-empty" : "") list of schemas", at: value)
    }
    var result: [Int] = []
    for index in list.indices { result.append(try compileSchema(at: pointer + "/\(index)")) }
    return result
  }

  private func types(_ value: Node) throws(SchemaError) -> TypeSet {
    let names = value.sequence ?? [value]
    var set: TypeSet = []
    for name in names {
      guard let text = name.string, let type = TypeSet.names.first(where: { $0.0 == text })?.1 else {
        throw invalid(
          "unknown type \(render(name)); expected one of \(Suggestion.list(TypeSet.names.map(\.0), limit: 7))",
          at: name)
      }
      set.insert(type)
    }
    return set
  }

  private func number(_ value: Node, _ key: String) throws(SchemaError) -> SchemaNumber {
    guard let number = SchemaNumber(value) else {
      throw invalid("'\(key)' must be a number, found \(value.kindDescription)", at: value)
    }
    return number
  }

  private func count(_ value: Node, _ key: String) throws(SchemaError) -> Int {
    guard let count = value.int, count >= 0 else {
      throw invalid("'\(key)' must be a non-negative integer, found \(render(value))", at: value)
    }
    return count
  }

  private func names(_ value: Node, _ key: String) throws(SchemaError) -> [String] {
    guard let list = value.sequence else { throw invalid("'\(key)' must be a list of strings", at: value) }
    var result: [String] = []
    for item in list {
      guard let name = item.string else { throw invalid("'\(key)' must be a list of strings", at: item) }
      result.append(name)
    }
    return result
  }

  private mutating func pattern(_ source: String, at node: Node) throws(SchemaError) -> Int {
    if let index = patternIndex[source] { return index }
    do {
      if checkingPatterns { _ = try LinearPattern(source) }
    } catch {
      throw SchemaError(
        .invalidPattern, "invalid regular expression '\(source)': \(error)", file: file, at: node.location)
    }
    patterns.append(source)
    patternIndex[source] = patterns.count - 1
    return patterns.count - 1
  }

  private func invalid(_ message: String, at node: Node) -> SchemaError {
    SchemaError(.invalidKeyword, message, file: file, at: node.location)
  }
}

// MARK: - References

extension SchemaCompiler {
  private func baseURI(for pointer: String) -> URIReference {
    var current = pointer
    while true {
      if let base = positions[current]?.base { return base }
      guard let slash = current.lastIndex(of: "/") else { return Self.defaultBase }
      current = String(current[..<slash])
    }
  }

  private mutating func resolveReference(
    _ text: String, base: URIReference, at node: Node
  ) throws(SchemaError) -> Int {
    let key = ReferenceKey(text: text, base: base)
    if let index = resolvedReferences[key] { return index }
    let index = try resolveNewReference(text, base: base, at: node)
    resolvedReferences[key] = index
    return index
  }

  private mutating func resolveNewReference(
    _ text: String, base: URIReference, at node: Node
  ) throws(SchemaError) -> Int {
    let target = URIReference(text).resolved(against: base)
    let resource = target.withoutFragment.text
    guard let resourcePointer = resources[resource] else {
      throw SchemaError(
        .unresolvedReference,
        "cannot resolve '$ref' '\(text)': '\(resource)' is not in this document (remote references are not supported)",
        file: file, at: node.location)
    }
    let fragment = (target.fragment ?? "").removingPercentEncoding
    if fragment.isEmpty { return try compileSchema(at: resourcePointer) }
    if fragment.hasPrefix("/") {
      let pointer = resourcePointer + fragment
      guard positions[pointer] != nil || Self.node(in: root, at: pointer) != nil else {
        throw SchemaError(
          .unresolvedReference, "cannot resolve '$ref' '\(text)': nothing at '#\(pointer)'", file: file,
          at: node.location)
      }
      return try compileSchema(at: pointer)
    }
    guard let anchored = anchors[resource + "#" + fragment] else {
      throw SchemaError(
        .unresolvedReference, "cannot resolve '$ref' '\(text)': no '$anchor' named '\(fragment)'", file: file,
        at: node.location)
    }
    return try compileSchema(at: anchored)
  }

  /// Refuses a cycle of in-place applicators (`$ref`, `allOf`, ...): evaluating it would never end.
  private func rejectReferenceCycles() throws(SchemaError) {
    var state = [UInt8](repeating: 0, count: drafts.count)  // 0 new, 1 on the stack, 2 done
    let allEdges = drafts.map(\.inPlaceSubschemas)
    for start in drafts.indices where state[start] == 0 {
      var stack: [(node: Int, next: Int)] = [(start, 0)]
      state[start] = 1
      while let top = stack.last {
        let edges = allEdges[top.node]
        if top.next == edges.count {
          state[top.node] = 2
          stack.removeLast()
          continue
        }
        stack[stack.count - 1].next += 1
        let target = edges[top.next]
        if state[target] == 1 {
          let culprit = stack.last { drafts[$0.node].ref != nil }.map { drafts[$0.node] } ?? drafts[target]
          throw SchemaError(
            .referenceCycle,
            "'$ref' cycle through '\(drafts[target].pointer)' never descends into the instance, so it would never end",
            file: file, at: culprit.refLocation ?? culprit.location)
        }
        if state[target] == 0 {
          state[target] = 1
          stack.append((target, 0))
        }
      }
    }
  }

  static func escape(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    return token.replacing("~", with: "~0").replacing("/", with: "~1")
  }

  static func unescape(_ token: Substring) -> String {
    guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
    return String(token.replacing("~1", with: "/").replacing("~0", with: "~"))
  }

  /// The node at a JSON pointer (`/a/0/b`), or nil.
  static func node(in root: Node, at pointer: String) -> Node? {
    var current = root
    for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let key = unescape(token)
      switch current.content {
      case .mapping(let entries):
        guard let value = entries.first(where: { $0.key == key })?.value else { return nil }
        current = value
      case .sequence(let items):
        guard let index = Int(key), items.indices.contains(index), String(index) == key else { return nil }
        current = items[index]
      default:
        return nil
      }
    }
    return current
  }
}

// MARK: - Branch facts (discriminators)

extension SchemaCompiler {
  private func branchSet(_ branches: [Int]) -> BranchSet {
    let facts = branches.map { branchFacts(of: $0) }
    var set = BranchSet(facts: facts)
    let objectBranches = facts.filter { !$0.types.intersection(.object).isEmpty }
    guard objectBranches.count > 1 else { return set }
    // A discriminator: every object branch pins the same property to a different constant.
    let candidates = objectBranches[0].constants.keys.sorted()
    for key in candidates {
      let values = objectBranches.compactMap { $0.constants[key] }
      guard values.count == objectBranches.count else { continue }
      let distinct = values.indices.allSatisfy { i in values[..<i].allSatisfy { !$0.sameJSON(values[i]) } }
      if distinct {
        set.discriminator = key
        break
      }
    }
    // A shape: every object branch requires a property no other object branch requires.
    var identifying: [[String]] = []
    for (index, branch) in facts.enumerated() {
      guard !branch.types.intersection(.object).isEmpty else {
        identifying.append([])
        continue
      }
      let others = facts.enumerated().filter { $0.offset != index && !$0.element.types.intersection(.object).isEmpty }
      let own = branch.requiredOrder.filter { key in !others.contains { $0.element.required.contains(key) } }
      if own.isEmpty { return set }
      identifying.append(own)
    }
    set.identifyingKeys = identifying
    return set
  }

  private func branchFacts(of index: Int) -> BranchFacts {
    var facts = BranchFacts()
    var visited: Set<Int> = []
    gather(index, into: &facts, visited: &visited)
    facts.title = drafts[index].title
    return facts
  }

  private func gather(_ index: Int, into facts: inout BranchFacts, visited: inout Set<Int>) {
    guard visited.insert(index).inserted else { return }
    let k = drafts[index]
    if k.rejectsAll { facts.types = [] }
    if let types = k.types {
      var allowed = types
      if types.contains(.number) { allowed.insert(.integer) }
      facts.types = facts.types.intersection(allowed)
      // An integer-only branch still admits numbers such as 1.0.
      if facts.types.contains(.integer) { facts.types.insert(.number) }
    }
    for name in k.required where facts.required.insert(name).inserted { facts.requiredOrder.append(name) }
    if facts.declaredTypes == nil { facts.declaredTypes = k.types }
    for (name, schema) in k.properties {
      if let constant = constant(of: schema) { facts.constants[name] = constant }
    }
    for member in k.allOf { gather(member, into: &facts, visited: &visited) }
    if let ref = k.ref { gather(ref, into: &facts, visited: &visited) }
  }

  private func constant(of index: Int) -> Node? {
    var current = index
    for _ in 0..<16 {
      let k = drafts[current]
      if let value = k.constValue { return value }
      if let values = k.enumValues, values.count == 1 { return values[0] }
      guard let next = k.ref else { return nil }
      current = next
    }
    return nil
  }

  /// The facts of a schema that asserts nothing beyond them (`{properties: {kind: {const: x}}, required: [kind]}`,
  /// the usual `if`), so that checking the facts is the whole validation; nil for any other schema.
  private func exactFacts(of index: Int) -> BranchFacts? { exactFacts(of: drafts[index]) }

  private func exactFacts(of k: SchemaKeywords) -> BranchFacts? {
    guard !k.rejectsAll, k.ref == nil, k.enumValues == nil, k.constValue == nil, k.allOf.isEmpty, k.anyOf.isEmpty,
      k.oneOf.isEmpty, k.not == nil, k.ifSchema == nil, k.minimum == nil, k.maximum == nil,
      k.exclusiveMinimum == nil, k.exclusiveMaximum == nil, k.multipleOf == nil, k.minLength == nil,
      k.maxLength == nil, k.pattern == nil, k.prefixItems.isEmpty, k.items == nil, k.contains == nil,
      k.minItems == nil, k.maxItems == nil, !k.uniqueItems, k.unevaluatedItems == nil,
      k.patternProperties.isEmpty, k.additionalProperties == nil, k.propertyNames == nil,
      k.dependentRequired.isEmpty, k.dependentSchemas.isEmpty, k.minProperties == nil, k.maxProperties == nil,
      k.unevaluatedProperties == nil
    else { return nil }
    var facts = BranchFacts()
    facts.types = k.types ?? .any
    facts.required = Set(k.required)
    for (name, schema) in k.properties {
      let member = drafts[schema]
      guard isOnlyConstant(member), (member.constValue != nil) != (member.enumValues != nil),
        let value = member.constValue ?? (member.enumValues?.count == 1 ? member.enumValues?[0] : nil)
      else { return nil }
      facts.constants[name] = value
    }
    return facts
  }

  /// ``KeyedMembers`` for these `allOf` members (whose `if`s have their ``SchemaKeywords/exactFacts``
  /// already), or nil unless every member has only an `if` and a `then`, and every `if` only requires the
  /// same property and pins it to a constant.
  private func keyedMembers(_ members: [Int]) -> KeyedMembers? {
    var keyed = KeyedMembers(key: "", constants: [], thens: [])
    for member in members {
      var rest = drafts[member]
      guard let condition = rest.ifSchema, let then = rest.thenSchema, rest.elseSchema == nil else { return nil }
      rest.ifSchema = nil
      rest.thenSchema = nil
      // Nothing else: no facts beyond any type, and none of the keywords that exact facts rule out.
      guard exactFacts(of: rest) == BranchFacts(), let facts = drafts[condition].exactFacts, facts.types == .any,
        facts.required.count == 1, let key = facts.required.first, facts.constants.count == 1,
        let constant = facts.constants[key], keyed.constants.isEmpty || key == keyed.key
      else { return nil }
      keyed.key = key
      keyed.constants.append(constant)
      keyed.thens.append(then)
    }
    return keyed
  }

  private func isOnlyConstant(_ k: SchemaKeywords) -> Bool {
    k.ref == nil && k.allOf.isEmpty && k.anyOf.isEmpty && k.oneOf.isEmpty && k.not == nil && k.ifSchema == nil
      && k.types == nil && k.pattern == nil && k.minLength == nil && k.maxLength == nil && k.minimum == nil
      && k.maximum == nil && k.exclusiveMinimum == nil && k.exclusiveMaximum == nil && k.multipleOf == nil
      && k.properties.isEmpty && k.required.isEmpty && k.items == nil && k.prefixItems.isEmpty
      && k.additionalProperties == nil && k.patternProperties.isEmpty && k.propertyNames == nil
      && k.contains == nil && k.minItems == nil && k.maxItems == nil && !k.uniqueItems && k.minProperties == nil
      && k.maxProperties == nil && k.dependentRequired.isEmpty && k.dependentSchemas.isEmpty
      && k.unevaluatedItems == nil && k.unevaluatedProperties == nil && !k.rejectsAll
  }

  /// Names under `properties` in a schema and every schema it applies in place.
  private func knownProperties(of index: Int) -> [String] {
    var names: Set<String> = []
    var visited: Set<Int> = []
    var pending = [index]
    while let next = pending.popLast() {
      guard visited.insert(next).inserted else { continue }
      names.formUnion(drafts[next].properties.keys)
      pending.append(contentsOf: drafts[next].inPlaceSubschemas)
    }
    return names.sorted()
  }

  private func render(_ node: Node) -> String { NodeRendering.short(node) }
}

extension String {
  /// Decodes `%XX` escapes (UTF-8); invalid escapes are kept as written.
  fileprivate var removingPercentEncoding: String {
    guard utf8.contains(UInt8(ascii: "%")) else { return self }
    var bytes: [UInt8] = []
    var iterator = utf8.makeIterator()
    var pending: [UInt8] = []
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        pending = [byte]
        guard let high = iterator.next() else { bytes += pending; break }
        pending.append(high)
        guard let low = iterator.next() else { bytes += pending; break }
        pending.append(low)
        if let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
          bytes.append(value)
        } else {
          bytes += pending
        }
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
