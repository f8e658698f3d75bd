internal import FlowCore

/// A compiled ``SchemaProgram`` written as printable text, so a schema embedded in the tools is compiled when
/// they are built instead of in every process (`scripts/embed-schemas.sh` writes
/// `EmbeddedSchemaPrograms.swift`).
///
/// The text is a stream of integers and strings. An integer is written in base 32 from its low digits up: a
/// digit followed by more is a character from `P` (0x50) to `o`, the last digit one from `0` (0x30) to `O`.
/// Signed integers are zigzag coded, a `Double` is its bit pattern. A string is its UTF-8 length times two,
/// plus one when its bytes follow as they are (printable ASCII other than `"` and `\`), else each byte as an
/// integer. So the text holds no `"` or `\` of its own and sits in a raw string literal as it is;
/// a line break may stand before any integer or string and is skipped. The patterns come first, then the
/// length of each schema object's text, then the objects, so that each can be read alone when validation first
/// reaches it (``SchemaList``). Each schema object starts with a mask of the keywords it has, and only those
/// follow; dictionaries and sets are written in key order, so the same program gives the same text.
enum SchemaProgramCoding {
  /// Bumped whenever the layout below changes; a text of another version is not read.
  static let version = 3

  /// The program as text, preceded by the format version and the length and hash of `source`, the schema text
  /// it was compiled from.
  static func encode(_ program: SchemaProgram, source: String) -> String {
    var writer = Writer()
    writer.int(version)
    writer.int(source.utf8.count)
    writer.unsigned(TextHash.of(source))
    writer.program(program)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// The program `text` holds; nil when it is of another format version, was compiled from a text of another
  /// length than `source`, or its patterns or table of objects are not well formed. That the text it was compiled
  /// from is `source` itself is not worked out here (hashing the schema at every start would cost more than the rest
  /// of reading the program): `scripts/embed-schemas.sh` writes the two together, and EmbeddedSchemaProgramTests
  /// fails when the program is not the one `source` compiles to. The schema objects are read, in place in `text`,
  /// as validation reaches them: one that does not read back (text damaged inside an object) stops the process.
  static func decode(_ text: String, source: String) -> SchemaProgram? {
    Objects.reading(text) { buffer -> SchemaProgram? in
      var reader = Reader(bytes: buffer)
      guard reader.int() == version, reader.int() == source.utf8.count else { return nil }
      _ = reader.unsigned()  // The source's hash (see above).
      let patterns = reader.strings()
      let lengths = reader.array { $0.int() }
      var starts = [reader.offset]
      starts.reserveCapacity(lengths.count + 1)
      for length in lengths where length >= 0 { starts.append(starts[starts.count - 1] + length) }
      guard !reader.failed, starts.count == lengths.count + 1, starts[starts.count - 1] == buffer.count else {
        return nil
      }
      let objects = Objects(text: text, starts: starts, patternCount: patterns.count)
      return SchemaProgram(schemas: SchemaList(objects), patterns: patterns)
    }
  }

  /// The schema objects of a program's text, each read on its own.
  struct Objects: Sendable {
    /// The program's text: a literal in the binary, read where it is, not copied.
    let text: String
    /// Where each object's text starts, and (last) where the text ends.
    let starts: [Int]
    let patternCount: Int

    var count: Int { starts.count - 1 }

    /// Schema object `index`. Made inside the read, so that its keywords (a large value) are not copied on the
    /// way out.
    func schema(_ index: Int) -> CompiledSchema {
      Self.reading(text) { buffer in
        var reader = Reader(bytes: UnsafeBufferPointer(rebasing: buffer[starts[index]..<starts[index + 1]]))
        reader.schemaCount = count
        reader.patternCount = patternCount
        let keywords = reader.keywords()
        guard !reader.failed, reader.isAtEnd else {
          fatalError(
            "schema object \(index) of an embedded schema program does not read back: run scripts/embed-schemas.sh")
        }
        return CompiledSchema(keywords)
      }
    }

    /// `body` on `text`'s UTF-8 bytes, in place when the string keeps them contiguous (literals and native strings
    /// do), else on a copy.
    static func reading<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
      text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }
  }
}

extension SchemaProgramCoding {
  /// Whether a string's byte is written as it is.
  static func isPlain(_ byte: UInt8) -> Bool {
    // Without `"` and `\`, the text can hold neither the literal's end (`"""#`) nor an escape (`\#`).
    (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
  }

  /// The bits of a schema object's mask, one per keyword that may be absent, in the order they are written.
  struct Mask {
    var bits: UInt64
    var next: UInt64 = 1

    /// Whether the next keyword is present (reading).
    mutating func has() -> Bool {
      defer { next <<= 1 }
      return bits & next != 0
    }

    /// Notes whether the next keyword is present (writing); returns `present`.
    mutating func note(_ present: Bool) -> Bool {
      if present { bits |= next }
      next <<= 1
      return present
    }
  }
}

// MARK: - Writing

extension SchemaProgramCoding {
  struct Writer {
    var bytes: [UInt8] = []
    /// Where the current line started, for a line break before the token that passes 100 characters.
    var lineStart = 0

    mutating func breakLineIfLong() {
      if bytes.count - lineStart >= 100 {
        bytes.append(UInt8(ascii: "\n"))
        lineStart = bytes.count
      }
    }

    mutating func unsigned(_ value: UInt64) {
      breakLineIfLong()
      var value = value
      while value >= 32 {
        bytes.append(0x50 + UInt8(value & 31))
        value >>= 5
      }
      bytes.append(0x30 + UInt8(value))
    }

    mutating func int(_ value: Int) {
      unsigned(UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1)))))
    }
    mutating func bool(_ value: Bool) { int(value ? 1 : 0) }

    mutating func string(_ value: String) {
      let utf8 = Array(value.utf8)
      let plain = utf8.allSatisfy(SchemaProgramCoding.isPlain)
      int(utf8.count * 2 + (plain ? 1 : 0))
      if plain {
        bytes += utf8
      } else {
        for byte in utf8 { unsigned(UInt64(byte)) }
      }
    }

    mutating func array<T>(_ values: [T], _ write: (inout Writer, T) -> Void) {
      int(values.count)
      for value in values { write(&self, value) }
    }

    mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }
    mutating func ints(_ values: [Int]) { array(values) { $0.int($1) } }

    mutating func location(_ value: SourceLocation) {
      int(value.line)
      int(value.column)
    }

    mutating func number(_ value: SchemaNumber) {
      if let int = value.int {
        self.int(1)
        self.int(int)
      } else {
        self.int(0)
        unsigned(value.double.bitPattern)
      }
    }

    mutating func node(_ node: Node) {
      switch node.content {
      case .null: int(0)
      case .bool(let value): int(value ? 2 : 1)
      case .int(let value):
        int(3)
        int(value)
      case .double(let value):
        int(4)
        unsigned(value.bitPattern)
      case .string(let value):
        int(5)
        string(value)
        location(node.textStart)
      case .sequence(let items):
        int(6)
        array(items) { $0.node($1) }
      case .mapping(let entries):
        int(7)
        array(entries) {
          $0.string($1.key)
          $0.location($1.keyLocation)
          $0.node($1.value)
        }
      }
      location(node.location)
    }

    mutating func facts(_ facts: BranchFacts) {
      int(Int(facts.types.rawValue))
      strings(facts.required.sorted())
      strings(facts.requiredOrder)
      int(facts.declaredTypes.map { Int($0.rawValue) + 1 } ?? 0)
      array(facts.constants.sorted { $0.key < $1.key }) {
        $0.string($1.key)
        $0.node($1.value)
      }
      bool(facts.title != nil)
      if let title = facts.title { string(title) }
    }

    mutating func branches(_ set: BranchSet) {
      array(set.facts) { $0.facts($1) }
      bool(set.discriminator != nil)
      if let discriminator = set.discriminator { string(discriminator) }
      bool(set.identifyingKeys != nil)
      if let keys = set.identifyingKeys { array(keys) { $0.strings($1) } }
    }

    /// One schema object: its location, pointer and groups, the mask of the keywords it has, then those
    /// keywords (``Reader/keywords()`` reads them in the same order).
    mutating func keywords(_ k: SchemaKeywords) {
      location(k.location)
      string(k.pointer)
      int(Int(k.groups.rawValue))
      var mask = Mask(bits: 0)
      var body = Writer()
      // Each line: whether the keyword is there, then (only if it is) its value.
      if mask.note(k.title != nil) { body.string(k.title!) }
      _ = mask.note(k.rejectsAll)
      if mask.note(k.types != nil) { body.int(Int(k.types!.rawValue)) }
      if mask.note(k.enumValues != nil) { body.array(k.enumValues!) { $0.node($1) } }
      if mask.note(k.constValue != nil) { body.node(k.constValue!) }
      for number in [k.minimum, k.maximum, k.exclusiveMinimum, k.exclusiveMaximum, k.multipleOf] {
        if mask.note(number != nil) { body.number(number!) }
      }
      for value in [k.minLength, k.maxLength, k.pattern] { if mask.note(value != nil) { body.int(value!) } }
      if mask.note(!k.prefixItems.isEmpty) { body.ints(k.prefixItems) }
      for value in [k.items, k.contains, k.minContains, k.maxContains, k.minItems, k.maxItems] {
        if mask.note(value != nil) { body.int(value!) }
      }
      _ = mask.note(k.uniqueItems)
      if mask.note(k.unevaluatedItems != nil) { body.int(k.unevaluatedItems!) }
      if mask.note(!k.properties.isEmpty) {
        body.array(k.properties.sorted { $0.key < $1.key }) {
          $0.string($1.key)
          $0.int($1.value)
        }
      }
      if mask.note(!k.propertyOrder.isEmpty) { body.strings(k.propertyOrder) }
      if mask.note(!k.patternProperties.isEmpty) {
        body.array(k.patternProperties) {
          $0.int($1.pattern)
          $0.int($1.schema)
        }
      }
      if mask.note(k.additionalProperties != nil) { body.int(k.additionalProperties!) }
      if mask.note(k.propertyNames != nil) { body.int(k.propertyNames!) }
      if mask.note(!k.required.isEmpty) { body.strings(k.required) }
      if mask.note(!k.dependentRequired.isEmpty) {
        body.array(k.dependentRequired) {
          $0.string($1.key)
          $0.strings($1.required)
        }
      }
      if mask.note(!k.dependentSchemas.isEmpty) {
        body.array(k.dependentSchemas) {
          $0.string($1.key)
          $0.int($1.schema)
        }
      }
      for value in [k.minProperties, k.maxProperties, k.unevaluatedProperties] {
        if mask.note(value != nil) { body.int(value!) }
      }
      if mask.note(!k.knownProperties.isEmpty) { body.strings(k.knownProperties) }
      if mask.note(k.exactFacts != nil) { body.facts(k.exactFacts!) }
      if mask.note(k.ref != nil) { body.int(k.ref!) }
      if mask.note(k.refLocation != nil) { body.location(k.refLocation!) }
      for list in [k.allOf, k.anyOf, k.oneOf] { if mask.note(!list.isEmpty) { body.ints(list) } }
      if mask.note(k.anyOfBranches != nil) { body.branches(k.anyOfBranches!) }
      if mask.note(k.oneOfBranches != nil) { body.branches(k.oneOfBranches!) }
      for value in [k.not, k.ifSchema, k.thenSchema, k.elseSchema] { if mask.note(value != nil) { body.int(value!) } }
      if mask.note(k.allOfByKey != nil) {
        body.string(k.allOfByKey!.key)
        body.array(k.allOfByKey!.constants) { $0.node($1) }
        body.ints(k.allOfByKey!.thens)
      }
      unsigned(mask.bits)
      bytes += body.bytes  // its line breaks stand between its integers and strings, where they may
    }

    mutating func program(_ program: SchemaProgram) {
      array(program.patterns) { $0.string($1) }
      let objects = (0..<program.schemas.count).map { index in
        var object = Writer()
        object.keywords(program.schemas[index].k)
        return object.bytes
      }
      array(objects) { $0.int($1.count) }
      for object in objects { bytes += object }  // each one's line breaks stand where they may
    }
  }
}

// MARK: - Reading

extension SchemaProgramCoding {
  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0
    /// Set when the text ended early, held a character out of place or an index out of range; every read
    /// after it gives 0 or empty.
    var failed = false
    /// The program's schema and pattern counts, once read: every index must be below them.
    var schemaCount = 0
    var patternCount = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool {
      var at = offset
      while at < bytes.count && bytes[at] == UInt8(ascii: "\n") { at += 1 }
      return at == bytes.count
    }

    mutating func fail() { failed = true }

    mutating func unsigned() -> UInt64 {
      while offset < bytes.count && bytes[offset] == UInt8(ascii: "\n") { offset += 1 }
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while offset < bytes.count && shift < 64 {
        let byte = bytes[offset]
        offset += 1
        if byte &- 0x30 < 0x20 { return value | (UInt64(byte &- 0x30) << shift) }
        guard byte &- 0x50 < 0x20 else { break }
        value |= UInt64(byte &- 0x50) << shift
        shift += 5
      }
      fail()
      return 0
    }

    mutating func int() -> Int {
      let zigzag = Int(Int64(bitPattern: unsigned()))
      return (zigzag >>> 1) ^ -(zigzag & 1)
    }

    mutating func bool() -> Bool { int() != 0 }

    /// A count of items still to read: never more than there are characters left, so bad text cannot ask for
    /// a huge allocation.
    mutating func count() -> Int {
      let count = int()
      guard count >= 0, count <= bytes.count - offset else {
        fail()
        return 0
      }
      return count
    }

    /// A subschema index.
    mutating func schema() -> Int {
      let index = int()
      guard index >= 0 && index < schemaCount else {
        fail()
        return 0
      }
      return index
    }

    /// A pattern index.
    mutating func pattern() -> Int {
      let index = int()
      guard index >= 0 && index < patternCount else {
        fail()
        return 0
      }
      return index
    }

    mutating func string() -> String {
      let header = int()
      let length = header / 2
      // Plain bytes take one character each, others at least one: a length past the end is damage.
      guard header >= 0, length <= bytes.count - offset else {
        fail()
        return ""
      }
      if header & 1 == 1 {
        let start = offset
        offset += length
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
      }
      var utf8: [UInt8] = []
      utf8.reserveCapacity(length)
      for _ in 0..<length { utf8.append(UInt8(truncatingIfNeeded: unsigned())) }
      return String(decoding: utf8, as: UTF8.self)
    }

    mutating func array<T>(_ read: (inout Reader) -> T) -> [T] {
      let count = count()
      guard count > 0 else { return [] }
      var result: [T] = []
      result.reserveCapacity(count)
      for _ in 0..<count where !failed { result.append(read(&self)) }
      return result
    }

    mutating func strings() -> [String] { array { $0.string() } }
    mutating func schemas() -> [Int] { array { $0.schema() } }

    mutating func location() -> SourceLocation {
      let line = int()
      return SourceLocation(line: line, column: int())
    }

    mutating func number() -> SchemaNumber {
      if bool() {
        let value = int()
        return SchemaNumber(int: value, double: Double(value))
      }
      return SchemaNumber(int: nil, double: Double(bitPattern: unsigned()))
    }

    mutating func node() -> Node {
      let content: Node.Content
      var textStart: SourceLocation?
      switch int() {
      case 0: content = .null
      case 1: content = .bool(false)
      case 2: content = .bool(true)
      case 3: content = .int(int())
      case 4: content = .double(Double(bitPattern: unsigned()))
      case 5:
        content = .string(string())
        textStart = location()
      case 6: content = .sequence(array { $0.node() })
      case 7:
        content = .mapping(
          array { reader in
            let key = reader.string()
            let keyLocation = reader.location()
            return Node.Entry(key: key, keyLocation: keyLocation, value: reader.node())
          })
      default:
        fail()
        content = .null
      }
      let location = location()
      if case .string(let text) = content, let textStart {
        return Node(string: text, at: location, textStart: textStart)
      }
      return Node(content, at: location)
    }

    mutating func typeSet() -> TypeSet { TypeSet(rawValue: UInt8(truncatingIfNeeded: int())) }

    mutating func facts() -> BranchFacts {
      var facts = BranchFacts()
      facts.types = typeSet()
      facts.required = Set(strings())
      facts.requiredOrder = strings()
      let declared = int()
      facts.declaredTypes = declared == 0 ? nil : TypeSet(rawValue: UInt8(truncatingIfNeeded: declared - 1))
      for _ in 0..<count() where !failed {
        let key = string()
        facts.constants[key] = node()
      }
      facts.title = bool() ? string() : nil
      return facts
    }

    mutating func branches() -> BranchSet {
      let facts = array { $0.facts() }
      let discriminator = bool() ? string() : nil
      let keys = bool() ? array { $0.strings() } : nil
      return BranchSet(facts: facts, discriminator: discriminator, identifyingKeys: keys)
    }

    /// One schema object, as ``Writer/keywords(_:)`` wrote it.
    mutating func keywords() -> SchemaKeywords {
      let location = location()
      var k = SchemaKeywords(location: location, pointer: string())
      read(into: &k)
      return k
    }

    /// The rest of a schema object after its location and pointer, read into `k` in place (a large value: the
    /// whole read returning it made a copy of it).
    private mutating func read(into k: inout SchemaKeywords) {
      k.groups = KeywordGroups(rawValue: UInt8(truncatingIfNeeded: int()))
      var mask = Mask(bits: unsigned())
      if mask.has() { k.title = string() }
      k.rejectsAll = mask.has()
      if mask.has() { k.types = typeSet() }
      if mask.has() { k.enumValues = array { $0.node() } }
      if mask.has() { k.constValue = node() }
      if mask.has() { k.minimum = number() }
      if mask.has() { k.maximum = number() }
      if mask.has() { k.exclusiveMinimum = number() }
      if mask.has() { k.exclusiveMaximum = number() }
      if mask.has() { k.multipleOf = number() }
      if mask.has() { k.minLength = int() }
      if mask.has() { k.maxLength = int() }
      if mask.has() { k.pattern = pattern() }
      if mask.has() { k.prefixItems = schemas() }
      if mask.has() { k.items = schema() }
      if mask.has() { k.contains = schema() }
      if mask.has() { k.minContains = int() }
      if mask.has() { k.maxContains = int() }
      if mask.has() { k.minItems = int() }
      if mask.has() { k.maxItems = int() }
      k.uniqueItems = mask.has()
      if mask.has() { k.unevaluatedItems = schema() }
      if mask.has() {
        let count = count()
        k.properties.reserveCapacity(count)
        for _ in 0..<count where !failed {
          let key = string()
          k.properties[key] = schema()
        }
      }
      if mask.has() { k.propertyOrder = strings() }
      if mask.has() { k.patternProperties = array { (pattern: $0.pattern(), schema: $0.schema()) } }
      if mask.has() { k.additionalProperties = schema() }
      if mask.has() { k.propertyNames = schema() }
      if mask.has() { k.required = strings() }
      if mask.has() { k.dependentRequired = array { (key: $0.string(), required: $0.strings()) } }
      if mask.has() { k.dependentSchemas = array { (key: $0.string(), schema: $0.schema()) } }
      if mask.has() { k.minProperties = int() }
      if mask.has() { k.maxProperties = int() }
      if mask.has() { k.unevaluatedProperties = schema() }
      if mask.has() { k.knownProperties = strings() }
      if mask.has() { k.exactFacts = facts() }
      if mask.has() { k.ref = schema() }
      if mask.has() { k.refLocation = self.location() }
      if mask.has() { k.allOf = schemas() }
      if mask.has() { k.anyOf = schemas() }
      if mask.has() { k.oneOf = schemas() }
      if mask.has() { k.anyOfBranches = branches() }
      if mask.has() { k.oneOfBranches = branches() }
      if mask.has() { k.not = schema() }
      if mask.has() { k.ifSchema = schema() }
      if mask.has() { k.thenSchema = schema() }
      if mask.has() { k.elseSchema = schema() }
      if mask.has() {
        let keyed = KeyedMembers(key: string(), constants: array { $0.node() }, thens: schemas())
        if keyed.constants.count != k.allOf.count || keyed.thens.count != k.allOf.count { fail() }
        k.allOfByKey = keyed
      }
      if mask.bits >> 47 != 0 { fail() }  // a keyword this version does not know
    }
  }
}

infix operator >>> : BitwiseShiftPrecedence

/// Logical (unsigned) right shift of an `Int`.
private func >>> (value: Int, amount: Int) -> Int { Int(bitPattern: UInt(bitPattern: value) >> UInt(amount)) }
