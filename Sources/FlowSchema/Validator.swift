internal import FlowCore

/// One validation run over an instance: walks the instance and the compiled schemas together.
///
/// Two modes share one function. Silent mode (`report: false`) answers valid or not and stops at the first
/// failure; it is used for `anyOf`/`oneOf`/`not`/`if`. Reporting mode collects a diagnostic for each
/// violation. Both agree exactly on validity.
struct Validator {
  let program: SchemaProgram
  let file: String
  private var patterns: PatternMatcher
  private(set) var diagnostics: [Diagnostic] = []
  private var depth = 0

  /// Deepest nesting of schema evaluations: a backstop against pathological schemas and instances. Kept low
  /// because evaluation recurses: a debug build on a Swift Testing worker thread handled 600 levels but not
  /// 1,200. Loaded documents are at most `LoadLimits.maxDepth` (128) deep, and ordinary schemas nest a few
  /// evaluations per level of the document.
  static let maxDepth = 500

  /// `program.schemas`, looked up without reference counting: `program` keeps the list and its schemas alive.
  private let schemas: SchemaList.Slots

  init(program: SchemaProgram, file: String) {
    self.program = program
    schemas = program.schemas.unretainedSlots
    self.file = file
    patterns = PatternMatcher(program)
  }

  /// Validates `node` against the root schema.
  mutating func run(_ node: Node, report: Bool) -> Bool {
    var none: Evaluated?
    return eval(node, 0, Subject(), report: report, evaluated: &none)
  }
}

/// What the instance is, for wording: the value of property `key`, an item of a list, or a property name.
struct Subject {
  var key: String?
  var keyLocation: SourceLocation?
  /// The instance is a property name being checked by `propertyNames`.
  var isPropertyName = false
}

/// Annotations needed by `unevaluatedProperties` and `unevaluatedItems`: what adjacent keywords evaluated.
struct Evaluated {
  var properties: Set<String> = []
  var allItems = false
  var prefix = 0
  var items: Set<Int> = []

  mutating func merge(_ other: Evaluated) {
    properties.formUnion(other.properties)
    allItems = allItems || other.allItems
    prefix = max(prefix, other.prefix)
    items.formUnion(other.items)
  }

  func containsItem(_ index: Int) -> Bool { allItems || index < prefix || items.contains(index) }
}

// MARK: - Evaluation

extension Validator {
  /// Validates `x` against schema `index`. When `evaluated` is non-nil, adds what this schema evaluated.
  ///
  /// The `check...` helpers below return false to stop at once (silent mode, after a failure); they set
  /// `valid` to false for every failure.
  mutating func eval(
    _ x: Node, _ index: Int, _ subject: Subject, report: Bool, evaluated: inout Evaluated?
  ) -> Bool {
    // The schema as a borrowed reference: holding it as a strong one retained and released it (and the list) at
    // every evaluation, atomic operations that took a large part of a validation's time.
    let schema = schemas.object(index) ?? Unmanaged.passUnretained(program.schemas[index])
    return schema._withUnsafeGuaranteedRef { s in eval(x, s, subject, report: report, evaluated: &evaluated) }
  }

  private mutating func eval(
    _ x: Node, _ s: CompiledSchema, _ subject: Subject, report: Bool, evaluated: inout Evaluated?
  ) -> Bool {
    if s.k.rejectsAll {
      if report { reportFalse(x, subject) }
      return false
    }
    // Called in place: binding the facts to a constant copied them, which cost more than checking them.
    if !report && evaluated == nil, let answer = s.k.exactFacts?.mayMatch(x) { return answer }
    depth += 1
    defer { depth -= 1 }
    if depth > Self.maxDepth {
      if report { emit("schema evaluation nested deeper than \(Self.maxDepth) levels", at: x.location) }
      return false
    }
    if let types = s.k.types, !types.admits(x) {
      if report { emit("expected \(types.phrase), found \(x.kindDescription)", at: x.location) }
      return false
    }
    var valid = true
    let groups = s.k.groups
    var local: Evaluated? = evaluated != nil || groups.contains(.unevaluated) ? Evaluated() : nil

    if let constant = s.k.constValue, !constant.sameJSON(x) {
      guard fail(report, &valid, Messages.const(constant, found: x, subject), at: x.location) else { return false }
    }
    if let values = s.k.enumValues, !values.contains(where: { $0.sameJSON(x) }) {
      guard fail(report, &valid, Messages.enumeration(values, found: x, subject), at: x.location) else {
        return false
      }
    }
    switch x.content {
    case .int where groups.contains(.number), .double where groups.contains(.number):
      guard checkNumber(x, s, report: report, valid: &valid) else { return false }
    case .string(let text) where groups.contains(.string):
      guard checkString(x, text, s, report: report, valid: &valid) else { return false }
    case .sequence(let items) where groups.contains(.array):
      guard checkArray(x, items, s, report: report, valid: &valid, local: &local) else { return false }
    case .mapping(let entries) where groups.contains(.object):
      guard checkObject(x, entries, s, report: report, valid: &valid, local: &local) else { return false }
    default:
      break
    }
    if groups.contains(.inPlace) {
      guard applyInPlace(x, s, subject, report: report, valid: &valid, local: &local) else { return false }
    }
    if groups.contains(.unevaluated) {
      guard checkUnevaluated(x, s, report: report, valid: &valid, local: &local) else { return false }
    }

    if valid || report, let local, evaluated != nil { evaluated?.merge(local) }
    return valid
  }

  /// Records a failure; returns whether to go on (only when reporting).
  private mutating func fail(
    _ report: Bool, _ valid: inout Bool, _ message: @autoclosure () -> String, at location: SourceLocation
  ) -> Bool {
    valid = false
    if report { emit(message(), at: location) }
    return report
  }

  /// Checks a count against a schema's bounds (`minLength`/`maxLength`, `minItems`/`maxItems`,
  /// `minContains`/`maxContains`, `minProperties`/`maxProperties`): "expected at least 2 items, found 1".
  /// `unit` names what is counted, `matching` the schema counted items match; a count over the maximum is
  /// reported where `overAt` puts the first one too many (at `location` without it). Returns false when
  /// validation should stop, as ``fail(_:_:_:at:)`` does.
  private mutating func checkBounds(
    _ count: Int, _ minimum: Int?, _ maximum: Int?, of unit: String, matching pointer: String? = nil,
    at location: SourceLocation, overAt: ((Int) -> SourceLocation)? = nil, report: Bool, valid: inout Bool
  ) -> Bool {
    let matching = pointer.map { " matching '\($0)'" } ?? ""
    if let minimum, count < minimum {
      guard
        fail(
          report, &valid, "expected at least \(Messages.count(minimum, unit))\(matching), found \(count)", at: location)
      else { return false }
    }
    if let maximum, count > maximum {
      guard
        fail(
          report, &valid, "expected at most \(Messages.count(maximum, unit))\(matching), found \(count)",
          at: overAt?(maximum) ?? location)
      else { return false }
    }
    return true
  }

  mutating func emit(_ message: String, at location: SourceLocation) {
    diagnostics.append(Diagnostic(.error, message, file: file, at: location, rule: "schema"))
  }

  /// Applies a subschema to the same instance, passing annotations up when they are being collected.
  private mutating func applyHere(
    _ x: Node, _ index: Int, _ subject: Subject, report: Bool, local: inout Evaluated?
  ) -> Bool {
    guard local != nil else {
      var none: Evaluated?
      return eval(x, index, subject, report: report, evaluated: &none)
    }
    var sub: Evaluated? = Evaluated()
    let ok = eval(x, index, subject, report: report, evaluated: &sub)
    // When reporting, keep what a failed subschema evaluated too: the instance is invalid already, and this
    // avoids a second, misleading "unknown property" for properties the failed subschema does define.
    if ok || report, let sub { local?.merge(sub) }
    return ok
  }

  /// Applies a subschema to a child value (a property value or an item).
  private mutating func applyChild(_ x: Node, _ index: Int, _ subject: Subject, report: Bool) -> Bool {
    var none: Evaluated?
    return eval(x, index, subject, report: report, evaluated: &none)
  }

  private mutating func reportFalse(_ x: Node, _ subject: Subject) {
    if let key = subject.key {
      emit("property '\(key)' is not allowed here", at: subject.keyLocation ?? x.location)
    } else {
      emit("no value is allowed here, found \(x.kindDescription)", at: x.location)
    }
  }
}

// MARK: - Numbers and strings

extension Validator {
  private mutating func checkNumber(_ x: Node, _ s: CompiledSchema, report: Bool, valid: inout Bool) -> Bool {
    // The rendering only for a message: most numbers pass.
    var found: String { NodeRendering.short(x) }
    if let m = s.k.numbers?.group.minimum, m.compare(x) < 0 {
      guard fail(report, &valid, "expected a number >= \(m), found \(found)", at: x.location) else { return false }
    }
    if let m = s.k.numbers?.group.maximum, m.compare(x) > 0 {
      guard fail(report, &valid, "expected a number <= \(m), found \(found)", at: x.location) else { return false }
    }
    if let m = s.k.numbers?.group.exclusiveMinimum, m.compare(x) <= 0 {
      guard fail(report, &valid, "expected a number > \(m), found \(found)", at: x.location) else { return false }
    }
    if let m = s.k.numbers?.group.exclusiveMaximum, m.compare(x) >= 0 {
      guard fail(report, &valid, "expected a number < \(m), found \(found)", at: x.location) else { return false }
    }
    if let m = s.k.numbers?.group.multipleOf, !Self.isMultiple(x, of: m) {
      guard fail(report, &valid, "expected a multiple of \(m), found \(found)", at: x.location) else {
        return false
      }
    }
    return true
  }

  static func isMultiple(_ x: Node, of m: SchemaNumber) -> Bool {
    if case .int(let i) = x.content, let divisor = m.int { return i % divisor == 0 }
    guard let value = x.number else { return true }
    let quotient = value / m.double
    guard quotient.isFinite else { return false }
    return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
  }

  private mutating func checkString(
    _ x: Node, _ text: String, _ s: CompiledSchema, report: Bool, valid: inout Bool
  ) -> Bool {
    // A string has between a quarter of its UTF-8 bytes and all of them as characters: counting them (a decoding
    // pass) is needed only when that range is not within the bounds.
    let bytes = text.utf8.count
    if s.k.minLength.map({ $0 > (bytes + 3) / 4 }) ?? false || s.k.maxLength.map({ $0 < bytes }) ?? false {
      guard
        checkBounds(
          text.unicodeScalars.count, s.k.minLength, s.k.maxLength, of: "character", at: x.location, report: report,
          valid: &valid)
      else { return false }
    }
    if let pattern = s.k.pattern, !patterns.matches(pattern, text) {
      let source = program.patterns[pattern]
      guard
        fail(
          report, &valid, "expected a string matching '\(source)', found \(NodeRendering.short(x))",
          at: x.location)
      else { return false }
    }
    return true
  }
}

// MARK: - Arrays

extension Validator {
  private mutating func checkArray(
    _ x: Node, _ items: [Node], _ s: CompiledSchema, report: Bool, valid: inout Bool, local: inout Evaluated?
  ) -> Bool {
    let count = items.count
    // The box of the array keywords, and the prefix read once (not the group copied: evaluation recurses).
    let arrays = s.k.arrays
    let prefixItems = arrays?.group.prefixItems ?? []
    guard
      checkBounds(
        count, arrays?.group.minItems, arrays?.group.maxItems, of: "item", at: x.location,
        overAt: { items[$0].location },
        report: report, valid: &valid)
    else { return false }
    if arrays?.group.uniqueItems ?? false, count > 1, let (first, second) = Self.firstDuplicate(items) {
      guard
        fail(
          report, &valid,
          "duplicate item \(NodeRendering.short(items[second])) (first at \(items[first].location))",
          at: items[second].location)
      else { return false }
    }
    let prefixCount = min(count, prefixItems.count)
    for position in 0..<prefixCount {
      if !applyChild(items[position], prefixItems[position], Subject(), report: report) {
        valid = false
        if !report { return false }
      }
    }
    if prefixCount > 0, let current = local?.prefix { local?.prefix = max(current, prefixCount) }
    if let itemSchema = arrays?.group.items, count > prefixCount {
      if program.schemas[itemSchema].k.rejectsAll {
        guard
          fail(
            report, &valid,
            "expected at most \(Messages.count(prefixItems.count, "item")), found \(count)",
            at: items[prefixCount].location)
        else { return false }
      } else {
        for position in prefixCount..<count where !applyChild(items[position], itemSchema, Subject(), report: report) {
          valid = false
          if !report { return false }
        }
      }
      local?.allItems = true
    }
    if let contains = arrays?.group.contains {
      let pointer = program.schemas[contains].k.pointer
      let minimum = arrays?.group.minContains ?? 1
      var matches = 0
      for (position, item) in items.enumerated() where applyChild(item, contains, Subject(), report: false) {
        matches += 1
        local?.items.insert(position)
        if local == nil && arrays?.group.maxContains == nil && matches >= minimum { break }
      }
      guard
        checkBounds(
          matches, minimum, arrays?.group.maxContains, of: "item", matching: pointer, at: x.location,
          report: report,
          valid: &valid)
      else { return false }
    }
    return true
  }

  /// Positions of the first item equal to an earlier one, by JSON equality (hashing first, so long lists stay
  /// linear).
  static func firstDuplicate(_ items: [Node]) -> (Int, Int)? {
    var seen: [Int: [Int]] = [:]
    for (position, item) in items.enumerated() {
      let hash = JSONHash.of(item)
      if let earlier = seen[hash]?.first(where: { items[$0].sameJSON(item) }) { return (earlier, position) }
      seen[hash, default: []].append(position)
    }
    return nil
  }
}

// MARK: - Objects

extension Validator {
  private mutating func checkObject(
    _ x: Node, _ entries: [Node.Entry], _ s: CompiledSchema, report: Bool, valid: inout Bool,
    local: inout Evaluated?
  ) -> Bool {
    // The box of the object keywords, and its lists read once (not the group copied: evaluation recurses).
    let objects = s.k.objects
    let patternProperties = objects?.group.patternProperties ?? []
    let dependentRequired = objects?.group.dependentRequired ?? []
    guard
      checkBounds(
        entries.count, objects?.group.minProperties, objects?.group.maxProperties, of: "property",
        at: x.location,
        overAt: { entries[$0].keyLocation }, report: report, valid: &valid)
    else { return false }
    // Missing required properties are reported after the properties, so that a misspelt one ('userID' for
    // 'userId') is reported once, as an unknown property with a suggestion.
    var missing: [String] = []
    for name in s.k.required where !entries.contains(where: { $0.key == name }) {
      guard report else { return fail(report, &valid, "", at: x.location) }
      missing.append(name)
    }
    if !dependentRequired.isEmpty {
      for (trigger, names) in dependentRequired
      where entries.contains(where: { $0.key == trigger }) {
        for name in names where !entries.contains(where: { $0.key == name }) {
          guard
            fail(
              report, &valid, "missing property '\(name)', required when '\(trigger)' is present",
              at: x.location)
          else { return false }
        }
      }
    }
    let schemaProgram = program
    let hasApplicators =
      !s.k.properties.isEmpty || !patternProperties.isEmpty
      || s.k.additionalProperties != nil
    if hasApplicators || objects?.group.propertyNames != nil {
      // By position, not `for entry in entries`: copying each entry out cost more than checking it.
      for position in entries.indices {
        let key = entries[position].key
        let keyLocation = entries[position].keyLocation
        let subject = Subject(key: key, keyLocation: keyLocation)
        if let names = objects?.group.propertyNames {
          let name = Node(.string(key), at: keyLocation)
          if !applyChild(name, names, Subject(isPropertyName: true), report: report) {
            valid = false
            if !report { return false }
          }
        }
        guard hasApplicators else { continue }
        var matched = false
        if let schema = s.k.properties[key] {
          matched = true
          if !applyChild(entries[position].value, schema, subject, report: report) {
            valid = false
            if !report { return false }
          }
        }
        if !patternProperties.isEmpty {
          for (pattern, schema) in patternProperties where patterns.matches(pattern, key) {
            matched = true
            if !applyChild(entries[position].value, schema, subject, report: report) {
              valid = false
              if !report { return false }
            }
          }
        }
        if !matched, let additional = s.k.additionalProperties {
          matched = true
          if program.schemas[additional].k.rejectsAll {
            if let intended = Suggestion.closest(to: key, in: missing) {
              missing.removeAll { $0 == intended }
            }
            guard fail(report, &valid, Self.unknownProperty(key, s, schemaProgram), at: keyLocation) else {
              return false
            }
          } else if !applyChild(entries[position].value, additional, subject, report: report) {
            valid = false
            if !report { return false }
          }
        }
        if matched { local?.properties.insert(key) }
      }
    }
    for name in missing {
      guard fail(report, &valid, "missing required property '\(name)'", at: x.location) else { return false }
    }
    return true
  }

  private static func unknownProperty(_ name: String, _ s: CompiledSchema, _ program: SchemaProgram) -> String {
    let patterns = (s.k.objects?.group.patternProperties ?? []).map {
      "a name matching '\(program.patterns[$0.pattern])'"
    }
    return Messages.unknownProperty(name, known: s.k.propertyOrder, patterns: patterns)
  }
}

// MARK: - In-place applicators

extension Validator {
  private mutating func applyInPlace(
    _ x: Node, _ s: CompiledSchema, _ subject: Subject, report: Bool, valid: inout Bool, local: inout Evaluated?
  ) -> Bool {
    if let ref = s.k.ref, !applyHere(x, ref, subject, report: report, local: &local) {
      valid = false
      if !report { return false }
    }
    // Without annotations to gather and below the depth limit, a choice by a property's value is made directly
    // (what applying each member would do, as `applyKeyed` says).
    if let keyed = s.k.choices?.group.allOfByKey, local == nil, depth < Self.maxDepth, let entries = x.entries {
      guard applyKeyed(x, entries, keyed, subject, report: report, valid: &valid) else { return false }
    } else if !s.k.allOf.isEmpty {
      for member in s.k.allOf where !applyHere(x, member, subject, report: report, local: &local) {
        valid = false
        if !report { return false }
      }
    }
    // `anyOf` and `oneOf` in functions of their own: evaluation recurses through this one, and a debug build
    // keeps every local of a function on the stack, used or not (`DiagnosticsTests` validates 500 levels deep).
    if let branches = s.k.choices?.group.anyOfBranches {
      guard applyAnyOf(x, s, branches, subject, report: report, valid: &valid, local: &local) else { return false }
    }
    if let branches = s.k.choices?.group.oneOfBranches {
      guard applyOneOf(x, s, branches, subject, report: report, valid: &valid, local: &local) else { return false }
    }
    if let not = s.k.conditions?.group.not, applyChild(x, not, subject, report: false) {
      let message = Messages.forbidden(x, program.schemas[not].k, subject)
      guard
        fail(
          report, &valid, message,
          at: x.location)
      else { return false }
    }
    if let condition = s.k.conditions?.group.ifSchema {
      var sub: Evaluated? = local == nil ? nil : Evaluated()
      let holds = eval(x, condition, subject, report: false, evaluated: &sub)
      if holds, let sub { local?.merge(sub) }
      if let next = holds ? s.k.conditions?.group.thenSchema : s.k.conditions?.group.elseSchema,
        !applyHere(x, next, subject, report: report, local: &local)
      {
        valid = false
        if !report { return false }
      }
    }
    if let dependentSchemas = s.k.objects?.group.dependentSchemas, !dependentSchemas.isEmpty, let entries = x.entries {
      for (trigger, schema) in dependentSchemas where entries.contains(where: { $0.key == trigger }) {
        if !applyHere(x, schema, subject, report: report, local: &local) {
          valid = false
          if !report { return false }
        }
      }
    }
    return true
  }

  private mutating func applyAnyOf(
    _ x: Node, _ s: CompiledSchema, _ branches: BranchSet, _ subject: Subject, report: Bool, valid: inout Bool,
    local: inout Evaluated?
  ) -> Bool {
    var matched = false
    for (position, branch) in s.k.anyOf.enumerated() where branches.facts[position].mayMatch(x) {
      var sub: Evaluated? = local == nil ? nil : Evaluated()
      if eval(x, branch, subject, report: false, evaluated: &sub) {
        matched = true
        guard let sub else { break }
        local?.merge(sub)
      }
    }
    if !matched {
      valid = false
      guard report else { return false }
      reportBranches(x, s.k.anyOf, branches, subject)
    }
    return true
  }

  private mutating func applyOneOf(
    _ x: Node, _ s: CompiledSchema, _ branches: BranchSet, _ subject: Subject, report: Bool, valid: inout Bool,
    local: inout Evaluated?
  ) -> Bool {
    // The first two passing branches, without an array: most instances pass exactly one, and allocating an
    // array for each cost more than checking the branches.
    var first: (position: Int, evaluated: Evaluated?)?
    var second: Int?
    for (position, branch) in s.k.oneOf.enumerated() where branches.facts[position].mayMatch(x) {
      var sub: Evaluated? = local == nil ? nil : Evaluated()
      if eval(x, branch, subject, report: false, evaluated: &sub) {
        guard first != nil else {
          first = (position, sub)
          continue
        }
        second = position
        break
      }
    }
    if let first, second == nil {
      if let sub = first.evaluated { local?.merge(sub) }
    } else {
      valid = false
      guard report else { return false }
      let passing = [first?.position, second].compactMap { $0 }
      if passing.isEmpty {
        reportBranches(x, s.k.oneOf, branches, subject)
      } else if let entries = x.entries, let identifying = branches.identifyingKeys,
        case let clashing = passing.compactMap({
          identifying[$0].first { key in entries.contains { $0.key == key } }
        }),
        clashing.count > 1
      {
        reportClash(clashing, entries, at: x.location)
      } else {
        let names = passing.map { Messages.branchName($0, branches.facts[$0]) }
        emit(
          "\(x.kindDescription) matches more than one allowed form (\(names.joined(separator: " and ")));"
            + " expected exactly one",
          at: x.location)
      }
    }
    return true
  }

  /// An `allOf` of ``KeyedMembers`` on a mapping, with no annotations gathered. Applying a member would
  /// evaluate it one level deeper (`depth` is below the limit, so that succeeds), check its `if` by its exact
  /// facts (the mapping's first `key` entry exists and has the member's value) and, only when that holds,
  /// apply its `then` from that level: this does the same for the members whose value the entry has.
  private mutating func applyKeyed(
    _ x: Node, _ entries: [Node.Entry], _ keyed: KeyedMembers, _ subject: Subject, report: Bool, valid: inout Bool
  ) -> Bool {
    guard let found = entries.firstIndex(where: { $0.key == keyed.key }) else { return true }
    let value = entries[found].value
    for (position, constant) in keyed.constants.enumerated() where value.sameJSON(constant) {
      depth += 1
      let ok = applyChild(x, keyed.thens[position], subject, report: report)
      depth -= 1
      if !ok {
        valid = false
        if !report { return false }
      }
    }
    return true
  }

  private mutating func checkUnevaluated(
    _ x: Node, _ s: CompiledSchema, report: Bool, valid: inout Bool, local: inout Evaluated?
  ) -> Bool {
    if let schema = s.k.objects?.group.unevaluatedProperties, let entries = x.entries {
      let rejectsAll = program.schemas[schema].k.rejectsAll
      for entry in entries where !(local?.properties.contains(entry.key) ?? false) {
        if rejectsAll {
          let message = Messages.unknownProperty(entry.key, known: s.k.knownProperties, patterns: [])
          guard fail(report, &valid, message, at: entry.keyLocation) else { return false }
        } else if !applyChild(
          entry.value, schema, Subject(key: entry.key, keyLocation: entry.keyLocation),
          report: report)
        {
          valid = false
          if !report { return false }
        }
        local?.properties.insert(entry.key)
      }
    }
    if let schema = s.k.arrays?.group.unevaluatedItems, let items = x.sequence {
      for (position, item) in items.enumerated() where !(local?.containsItem(position) ?? false) {
        if program.schemas[schema].k.rejectsAll {
          guard
            fail(
              report, &valid, "unexpected item \(position + 1); no further items are allowed here",
              at: item.location)
          else { return false }
        } else if !applyChild(item, schema, Subject(), report: report) {
          valid = false
          if !report { return false }
        }
      }
      local?.allItems = true
    }
    return true
  }
}

// MARK: - Diagnostics for anyOf / oneOf

extension Validator {
  /// Explains why no branch matched, aiming at the branch the instance meant (by type, discriminator value,
  /// or identifying property) instead of listing every branch's failures.
  private mutating func reportBranches(_ x: Node, _ branches: [Int], _ set: BranchSet, _ subject: Subject) {
    let typed = branches.indices.filter { set.facts[$0].types.admits(x) }
    if typed.isEmpty {
      let union = set.facts.reduce(TypeSet()) { $0.union($1.types) }
      emit("expected \(union.phrase), found \(x.kindDescription)", at: x.location)
      return
    }
    if typed.count == 1 {
      _ = applyChild(x, branches[typed[0]], subject, report: true)
      return
    }
    if let entries = x.entries {
      if let key = set.discriminator {
        let choices = typed.filter { set.facts[$0].constants[key] != nil }
        guard let entry = entries.first(where: { $0.key == key }) else {
          let values = choices.compactMap { set.facts[$0].constants[key] }
          emit("missing required property '\(key)'; expected one of \(Messages.list(values))", at: x.location)
          return
        }
        let selected = choices.filter { set.facts[$0].constants[key]?.sameJSON(entry.value) ?? false }
        if selected.count == 1 {
          _ = applyChild(x, branches[selected[0]], subject, report: true)
          return
        }
        if selected.isEmpty {
          let values = choices.compactMap { set.facts[$0].constants[key] }
          emit(Messages.unknownValue(entry.value, noun: key, expected: values), at: entry.value.location)
          return
        }
      }
      if let identifying = set.identifyingKeys {
        let present = typed.filter { position in
          identifying[position].contains { key in entries.contains { $0.key == key } }
        }
        if present.count == 1 {
          _ = applyChild(x, branches[present[0]], subject, report: true)
          return
        }
        let keys = typed.compactMap { identifying[$0].first }
        if present.isEmpty {
          let instanceKeys = entries.map(\.key)
          if let typo = entries.first(where: { Suggestion.closest(to: $0.key, in: keys) != nil }) {
            emit(Messages.unknownProperty(typo.key, known: keys, patterns: []), at: typo.keyLocation)
          } else {
            let found = instanceKeys.isEmpty ? "none" : Suggestion.list(instanceKeys)
            emit("expected one of the properties \(Suggestion.list(keys)), found \(found)", at: x.location)
          }
          return
        }
        let clashing = present.compactMap { position in
          identifying[position].first { key in entries.contains { $0.key == key } }
        }
        reportClash(clashing, entries, at: x.location)
        return
      }
    }
    let remaining = typed.filter { set.facts[$0].mayMatch(x) }
    if remaining.count == 1 {
      _ = applyChild(x, branches[remaining[0]], subject, report: true)
      return
    }
    let names = typed.map { Messages.branchName($0, set.facts[$0]) }
    emit("\(x.kindDescription) matches none of the allowed forms (\(names.joined(separator: ", ")))", at: x.location)
  }

  /// "properties 'to' and 'action' cannot be used together; use only one", at the later of the keys.
  private mutating func reportClash(_ keys: [String], _ entries: [Node.Entry], at location: SourceLocation) {
    let ordered = entries.filter { keys.contains($0.key) }
    emit(
      "properties \(Messages.conjunction(ordered.map { "'\($0.key)'" })) cannot be used together; use only one",
      at: ordered.last?.keyLocation ?? location)
  }
}
