internal import FlowCore
internal import Synchronization

/// One schema object after compilation: keyword values parsed, subschemas replaced by indices into
/// `SchemaProgram.schemas`, `$ref`s resolved, patterns numbered. Immutable once the program is built.
final class CompiledSchema: Sendable {
  let k: SchemaKeywords

  init(_ keywords: SchemaKeywords) { k = keywords }
}

/// The whole compiled document: every schema reachable from the root, by index (the root is 0).
final class SchemaProgram: Sendable {
  let schemas: SchemaList
  /// Regular expression sources, indexed by `SchemaKeywords.pattern` and `patternProperties`.
  let patterns: [String]
  /// Each pattern compiled for linear-time matching when it is first matched (a flow reaches few of them).
  let linearPatterns: LazyObjects<CompiledPattern>

  init(schemas: SchemaList, patterns: [String]) {
    self.schemas = schemas
    self.patterns = patterns
    linearPatterns = LazyObjects(count: patterns.count) { CompiledPattern(try? LinearPattern(patterns[$0])) }
  }

  convenience init(schemas: [CompiledSchema], patterns: [String]) {
    self.init(schemas: SchemaList(schemas), patterns: patterns)
  }
}

/// A pattern compiled for linear-time matching; nil for one that does not compile.
final class CompiledPattern: Sendable {
  let pattern: LinearPattern?

  init(_ pattern: LinearPattern?) { self.pattern = pattern }
}

/// A program's schema objects by index: all of them at hand (a schema compiled from its document), or read
/// from ``SchemaProgramCoding`` text one by one as validation first reaches each, so a process that validates
/// one flow reads only the objects that flow reaches.
typealias SchemaList = LazyObjects<CompiledSchema>

extension LazyObjects<CompiledSchema> {
  convenience init(_ encoded: SchemaProgramCoding.Objects) {
    self.init(count: encoded.count) { encoded.schema($0) }
  }
}

/// Objects by index, each made when it is first asked for, by whichever thread asks first, and kept: each slot
/// goes from nil to a retained object once, atomically. (`AtomicLazyReference` would do, but its `load` is not
/// inlined: hundreds of instructions per object looked up.)
final class LazyObjects<Object: AnyObject & Sendable>: @unchecked Sendable {
  // Sendable: the slots change only by `compareExchange` from nil; `make` is immutable.
  let count: Int
  private let slots: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>
  private let make: (@Sendable (Int) -> Object)?

  /// Objects all made already.
  init(_ objects: [Object]) {
    count = objects.count
    make = nil
    slots = .allocate(capacity: count)
    for (index, object) in objects.enumerated() {
      (slots + index).initialize(to: Atomic(UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque())))
    }
  }

  /// `count` objects, object `index` made by `make(index)` when first asked for.
  init(count: Int, make: @escaping @Sendable (Int) -> Object) {
    self.count = count
    self.make = make
    slots = .allocate(capacity: count)
    for index in 0..<count { (slots + index).initialize(to: Atomic(nil)) }
  }

  deinit {
    for index in 0..<count {
      if let object = slots[index].load(ordering: .relaxed) { Unmanaged<Object>.fromOpaque(object).release() }
    }
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  /// The slots, for a reader that outlives none of the objects (`Validator`): looking an object up through them
  /// retains neither the list nor the object.
  struct Slots {
    fileprivate let slots: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>
    fileprivate let count: Int

    /// Object `index`, unretained, or nil until it has been made (the list's subscript makes it).
    @inline(__always)
    func object(_ index: Int) -> Unmanaged<Object>? {
      precondition(index >= 0 && index < count, "index out of range")
      return slots[index].load(ordering: .acquiring).map { Unmanaged<Object>.fromOpaque($0) }
    }
  }

  /// Valid for as long as the list lives.
  var unretainedSlots: Slots { Slots(slots: slots, count: count) }

  @inline(__always)
  subscript(index: Int) -> Object {
    precondition(index >= 0 && index < count, "index out of range")
    if let object = slots[index].load(ordering: .acquiring) {
      return Unmanaged<Object>.fromOpaque(object).takeUnretainedValue()
    }
    return makeObject(index)
  }

  /// Makes object `index` and puts it in its empty slot, unless another thread has put one there first; returns
  /// the one there. (Only a list made with `make` has empty slots.)
  @inline(never)
  private func makeObject(_ index: Int) -> Object {
    let made = make!(index)
    let object = UnsafeRawPointer(Unmanaged.passRetained(made).toOpaque())
    let (stored, found) = slots[index].compareExchange(expected: nil, desired: object, ordering: .acquiringAndReleasing)
    if stored { return made }
    Unmanaged<Object>.fromOpaque(object).release()
    return Unmanaged<Object>.fromOpaque(found!).takeUnretainedValue()
  }
}

/// The JSON types of draft 2020-12, as a set. `integer` is a subset of `number` when matching.
struct TypeSet: OptionSet, Hashable, Sendable {
  let rawValue: UInt8

  static let null = TypeSet(rawValue: 1)
  static let boolean = TypeSet(rawValue: 2)
  static let object = TypeSet(rawValue: 4)
  static let array = TypeSet(rawValue: 8)
  static let number = TypeSet(rawValue: 16)
  static let string = TypeSet(rawValue: 32)
  static let integer = TypeSet(rawValue: 64)
  static let any: TypeSet = [.null, .boolean, .object, .array, .number, .string, .integer]

  static let names: [(String, TypeSet)] = [
    ("null", .null), ("boolean", .boolean), ("object", .object), ("array", .array), ("number", .number),
    ("string", .string), ("integer", .integer),
  ]

  /// The types an instance has: an integral number is both `integer` and `number`.
  static func of(_ node: Node) -> TypeSet {
    switch node.content {
    case .null: .null
    case .bool: .boolean
    case .int: [.integer, .number]
    case .double(let d): d.isFinite && d.rounded(.towardZero) == d ? [.integer, .number] : .number
    case .string: .string
    case .sequence: .array
    case .mapping: .object
    }
  }

  func admits(_ node: Node) -> Bool { !intersection(TypeSet.of(node)).isEmpty }

  /// "a string or a mapping", in the words diagnostics use.
  var phrase: String {
    var words: [String] = []
    if contains(.null) { words.append("null") }
    if contains(.boolean) { words.append("a boolean") }
    if contains(.number) {
      words.append("a number")
    } else if contains(.integer) {
      words.append("an integer")
    }
    if contains(.string) { words.append("a string") }
    if contains(.array) { words.append("a list") }
    if contains(.object) { words.append("a mapping") }
    switch words.count {
    case 0: return "nothing"
    case 1: return words[0]
    default: return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
  }
}

/// A numeric keyword value, kept exact for integers.
struct SchemaNumber: Hashable, Sendable, CustomStringConvertible {
  var int: Int?
  var double: Double

  init(int: Int?, double: Double) {
    self.int = int
    self.double = double
  }

  init?(_ node: Node) {
    switch node.content {
    case .int(let i): int = i; double = Double(i)
    case .double(let d): int = nil; double = d
    default: return nil
    }
  }

  var description: String {
    if let int { return String(int) }
    if double.rounded(.towardZero) == double && abs(double) < 1e15 { return String(Int(double)) }
    return String(double)
  }

  /// -1, 0 or 1 as `node` (a number) is below, equal to or above this value.
  func compare(_ node: Node) -> Int {
    if case .int(let i) = node.content, let int { return i < int ? -1 : (i == int ? 0 : 1) }
    guard let value = node.number else { return 0 }
    return value < double ? -1 : (value == double ? 0 : 1)
  }
}

/// What a branch of `anyOf`/`oneOf` certainly requires, gathered from the branch, its `$ref` targets and its
/// `allOf` members. An instance that breaks any of these fails the branch, so branches can be ruled out
/// (and diagnostics aimed) without evaluating them.
struct BranchFacts: Hashable, Sendable {
  var types: TypeSet = .any
  /// The branch's own `type`, for naming it in messages.
  var declaredTypes: TypeSet?
  /// The facts that are not plain values, in one box (none when all are empty): validation copies the facts of
  /// each branch it tries, and a copy then retains and releases one object, not four.
  private var box: OutOfLine<Details>?

  private struct Details: Hashable, Sendable {
    var required: Set<String> = []
    var requiredOrder: [String] = []
    var constants: [String: Node] = [:]
    var title: String?
  }

  var required: Set<String> {
    get { box?.group.required ?? [] }
    set { OutOfLine.modify(&box, empty: Details()) { $0.required = newValue } }
  }
  /// `required` in the order the schema lists it (the first is the branch's main key).
  var requiredOrder: [String] {
    get { box?.group.requiredOrder ?? [] }
    set { OutOfLine.modify(&box, empty: Details()) { $0.requiredOrder = newValue } }
  }
  /// `properties.KEY.const` (or a one-value `enum`), for keys that act as a discriminator.
  var constants: [String: Node] {
    get { box?.group.constants ?? [:] }
    set { OutOfLine.modify(&box, empty: Details()) { $0.constants = newValue } }
  }
  var title: String? {
    get { box?.group.title }
    set { OutOfLine.modify(&box, empty: Details()) { $0.title = newValue } }
  }

  static func == (a: BranchFacts, b: BranchFacts) -> Bool {
    a.types == b.types && a.declaredTypes == b.declaredTypes
      && (a.box?.group ?? Details()) == (b.box?.group ?? Details())
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(types)
    hasher.combine(declaredTypes)
    hasher.combine(box?.group ?? Details())
  }

  /// False when the instance certainly fails the branch.
  func mayMatch(_ node: Node) -> Bool {
    guard types.admits(node) else { return false }
    // Read in the box: copying its group out retained each of its parts.
    guard case .mapping(let entries) = node.content, let box else { return true }
    for key in box.group.required where !entries.contains(where: { $0.key == key }) { return false }
    for (key, value) in box.group.constants {
      if let found = entries.firstIndex(where: { $0.key == key }), !entries[found].value.sameJSON(value) {
        return false
      }
    }
    return true
  }
}

/// How the branches of an `anyOf`/`oneOf` can be told apart, computed once at compile time.
struct BranchSet: Hashable, Sendable {
  var facts: [BranchFacts]
  /// A property whose constant value differs in every branch that admits a mapping (`kind`, `type`).
  var discriminator: String?
  /// For every branch that admits a mapping, the required properties no other such branch requires
  /// (`set`, `value` for `{set: x, value: y}`; `track` for `{track: name}`), in the order the branch lists
  /// them; nil unless every such branch has one.
  var identifyingKeys: [[String]]?
}

/// The members of an `allOf` that are each `{if: {properties: {KEY: {const: VALUE}}, required: [KEY]}, then: …}`,
/// all with the same KEY (a step's `kind` choosing the step's form): a member's `then` applies when the
/// instance's KEY has the member's VALUE, so validation compares the value with each VALUE instead of
/// evaluating each member.
struct KeyedMembers: Sendable {
  /// The property every member's `if` tests.
  var key: String
  /// For each member, in `allOf` order: the value its `if` requires, and its `then`.
  var constants: [Node]
  var thens: [Int]
}

/// Groups of keywords a schema uses.
struct KeywordGroups: OptionSet, Hashable, Sendable {
  let rawValue: UInt8

  static let number = KeywordGroups(rawValue: 1)
  static let string = KeywordGroups(rawValue: 2)
  static let array = KeywordGroups(rawValue: 4)
  static let object = KeywordGroups(rawValue: 8)
  static let inPlace = KeywordGroups(rawValue: 16)
  static let unevaluated = KeywordGroups(rawValue: 32)
}

/// Keyword values of one schema object. Subschemas are indices into `SchemaProgram.schemas`.
///
/// The keywords most schema objects lack (number bounds, most array and object keywords, `not`/`if`, the
/// `anyOf`/`oneOf` facts) are kept out of line, one allocation per group present: with every keyword inline an
/// object took 866 bytes, and a seed lint reads about 200 of them at start-up, each page of them a fault. The
/// properties below read and write them as if inline. The validator reads them through the groups (`s.k.arrays?.group.items`): in a
/// debug build each call of a computed property copies the whole value onto the stack, and evaluation recurses.
struct SchemaKeywords: Sendable {
  var location: SourceLocation
  /// JSON pointer of the schema in its document, for messages (`#/$defs/step`).
  var pointer: String
  var title: String?
  /// A `false` schema.
  var rejectsAll = false

  var types: TypeSet?
  var enumValues: [Node]?
  var constValue: Node?

  var minLength: Int?
  var maxLength: Int?
  var pattern: Int?

  var properties = PropertyTable()
  var propertyOrder: [String] = []
  var additionalProperties: Int?
  var required: [String] = []
  /// Property names declared by this schema and its in-place subschemas, for "did you mean" under
  /// `unevaluatedProperties`.
  var knownProperties: [String] = []

  /// Set when the schema asserts nothing but these facts: validation is `exactFacts.mayMatch`.
  var exactFacts: BranchFacts?

  var ref: Int?
  var refLocation: SourceLocation?
  var allOf: [Int] = []
  var anyOf: [Int] = []
  var oneOf: [Int] = []

  private(set) var numbers: OutOfLine<NumberKeywords>?
  private(set) var arrays: OutOfLine<ArrayKeywords>?
  private(set) var objects: OutOfLine<ObjectKeywords>?
  private(set) var conditions: OutOfLine<ConditionKeywords>?
  private(set) var choices: OutOfLine<ChoiceKeywords>?

  /// Which groups of keywords are present, so evaluation skips the others without touching them.
  var groups: KeywordGroups = []

  /// Has `unevaluatedProperties` or `unevaluatedItems`, so its in-place subschemas must report what they
  /// evaluated.
  var needsAnnotations: Bool { unevaluatedItems != nil || unevaluatedProperties != nil }

  init(location: SourceLocation, pointer: String) {
    self.location = location
    self.pointer = pointer
  }

  func computeGroups() -> KeywordGroups {
    var groups: KeywordGroups = []
    if minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || multipleOf != nil {
      groups.insert(.number)
    }
    if minLength != nil || maxLength != nil || pattern != nil { groups.insert(.string) }
    if !prefixItems.isEmpty || items != nil || contains != nil || minItems != nil || maxItems != nil || uniqueItems {
      groups.insert(.array)
    }
    if !properties.isEmpty || !patternProperties.isEmpty || additionalProperties != nil || propertyNames != nil
      || !required.isEmpty || !dependentRequired.isEmpty || minProperties != nil || maxProperties != nil
    {
      groups.insert(.object)
    }
    if !inPlaceSubschemas.isEmpty { groups.insert(.inPlace) }
    if needsAnnotations { groups.insert(.unevaluated) }
    return groups
  }

  /// Subschemas applied to the same instance (the edges a non-terminating `$ref` loop would use).
  var inPlaceSubschemas: [Int] {
    var result = allOf + anyOf + oneOf + dependentSchemas.map(\.schema)
    for single in [ref, not, ifSchema, thenSchema, elseSchema] { if let single { result.append(single) } }
    return result
  }
}

/// A group of keywords kept out of line (``SchemaKeywords``), copied on write like a value.
final class OutOfLine<Group: Sendable>: @unchecked Sendable {
  // Sendable: `group` changes only in `modify`, while the box is uniquely referenced (a schema object being read
  // or compiled); a shared box is copied first, so a box that another thread can see never changes.
  private(set) var group: Group

  init(_ group: Group) { self.group = group }

  /// Applies `change` to the group in `box` (an empty group when there is none), in place when `box` is the
  /// only reference to it: a schema object being read sets its keywords one at a time.
  static func modify(_ box: inout OutOfLine?, empty: Group, _ change: (inout Group) -> Void) {
    if isKnownUniquelyReferenced(&box), let unique = box {
      change(&unique.group)
      return
    }
    var group = box?.group ?? empty
    change(&group)
    box = OutOfLine(group)
  }
}

struct NumberKeywords: Sendable {
  var minimum: SchemaNumber?
  var maximum: SchemaNumber?
  var exclusiveMinimum: SchemaNumber?
  var exclusiveMaximum: SchemaNumber?
  var multipleOf: SchemaNumber?
}

struct ArrayKeywords: Sendable {
  var prefixItems: [Int] = []
  var items: Int?
  var contains: Int?
  var minContains: Int?
  var maxContains: Int?
  var minItems: Int?
  var maxItems: Int?
  var uniqueItems = false
  var unevaluatedItems: Int?
}

struct ObjectKeywords: Sendable {
  var patternProperties: [(pattern: Int, schema: Int)] = []
  var propertyNames: Int?
  var dependentRequired: [(key: String, required: [String])] = []
  var dependentSchemas: [(key: String, schema: Int)] = []
  var minProperties: Int?
  var maxProperties: Int?
  var unevaluatedProperties: Int?
}

struct ConditionKeywords: Sendable {
  var not: Int?
  var ifSchema: Int?
  var thenSchema: Int?
  var elseSchema: Int?
}

struct ChoiceKeywords: Sendable {
  /// Set when `allOf` is a choice by one property's value (see ``KeyedMembers``).
  var allOfByKey: KeyedMembers?
  var anyOfBranches: BranchSet?
  var oneOfBranches: BranchSet?
}

// The out-of-line keywords, read and written as if they were stored properties.
extension SchemaKeywords {
  var minimum: SchemaNumber? {
    get { numbers?.group.minimum }
    set { OutOfLine.modify(&numbers, empty: .init()) { $0.minimum = newValue } }
  }
  var maximum: SchemaNumber? {
    get { numbers?.group.maximum }
    set { OutOfLine.modify(&numbers, empty: .init()) { $0.maximum = newValue } }
  }
  var exclusiveMinimum: SchemaNumber? {
    get { numbers?.group.exclusiveMinimum }
    set { OutOfLine.modify(&numbers, empty: .init()) { $0.exclusiveMinimum = newValue } }
  }
  var exclusiveMaximum: SchemaNumber? {
    get { numbers?.group.exclusiveMaximum }
    set { OutOfLine.modify(&numbers, empty: .init()) { $0.exclusiveMaximum = newValue } }
  }
  var multipleOf: SchemaNumber? {
    get { numbers?.group.multipleOf }
    set { OutOfLine.modify(&numbers, empty: .init()) { $0.multipleOf = newValue } }
  }

  var prefixItems: [Int] {
    get { arrays?.group.prefixItems ?? [] }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.prefixItems = newValue } }
  }
  var items: Int? {
    get { arrays?.group.items }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.items = newValue } }
  }
  var contains: Int? {
    get { arrays?.group.contains }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.contains = newValue } }
  }
  var minContains: Int? {
    get { arrays?.group.minContains }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.minContains = newValue } }
  }
  var maxContains: Int? {
    get { arrays?.group.maxContains }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.maxContains = newValue } }
  }
  var minItems: Int? {
    get { arrays?.group.minItems }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.minItems = newValue } }
  }
  var maxItems: Int? {
    get { arrays?.group.maxItems }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.maxItems = newValue } }
  }
  var uniqueItems: Bool {
    get { arrays?.group.uniqueItems ?? false }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.uniqueItems = newValue } }
  }
  var unevaluatedItems: Int? {
    get { arrays?.group.unevaluatedItems }
    set { OutOfLine.modify(&arrays, empty: .init()) { $0.unevaluatedItems = newValue } }
  }

  var patternProperties: [(pattern: Int, schema: Int)] {
    get { objects?.group.patternProperties ?? [] }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.patternProperties = newValue } }
  }
  var propertyNames: Int? {
    get { objects?.group.propertyNames }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.propertyNames = newValue } }
  }
  var dependentRequired: [(key: String, required: [String])] {
    get { objects?.group.dependentRequired ?? [] }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.dependentRequired = newValue } }
  }
  var dependentSchemas: [(key: String, schema: Int)] {
    get { objects?.group.dependentSchemas ?? [] }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.dependentSchemas = newValue } }
  }
  var minProperties: Int? {
    get { objects?.group.minProperties }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.minProperties = newValue } }
  }
  var maxProperties: Int? {
    get { objects?.group.maxProperties }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.maxProperties = newValue } }
  }
  var unevaluatedProperties: Int? {
    get { objects?.group.unevaluatedProperties }
    set { OutOfLine.modify(&objects, empty: .init()) { $0.unevaluatedProperties = newValue } }
  }

  var not: Int? {
    get { conditions?.group.not }
    set { OutOfLine.modify(&conditions, empty: .init()) { $0.not = newValue } }
  }
  var ifSchema: Int? {
    get { conditions?.group.ifSchema }
    set { OutOfLine.modify(&conditions, empty: .init()) { $0.ifSchema = newValue } }
  }
  var thenSchema: Int? {
    get { conditions?.group.thenSchema }
    set { OutOfLine.modify(&conditions, empty: .init()) { $0.thenSchema = newValue } }
  }
  var elseSchema: Int? {
    get { conditions?.group.elseSchema }
    set { OutOfLine.modify(&conditions, empty: .init()) { $0.elseSchema = newValue } }
  }

  var allOfByKey: KeyedMembers? {
    get { choices?.group.allOfByKey }
    set { OutOfLine.modify(&choices, empty: .init()) { $0.allOfByKey = newValue } }
  }
  var anyOfBranches: BranchSet? {
    get { choices?.group.anyOfBranches }
    set { OutOfLine.modify(&choices, empty: .init()) { $0.anyOfBranches = newValue } }
  }
  var oneOfBranches: BranchSet? {
    get { choices?.group.oneOfBranches }
    set { OutOfLine.modify(&choices, empty: .init()) { $0.oneOfBranches = newValue } }
  }
}
