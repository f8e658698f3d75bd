import FlowCore
import FlowYAML
import Foundation
import Testing

/// Reading a file in two parts on two threads (`SplitParse`) gives exactly what reading it whole gives (the same
/// tree, the same positions), or nothing, and then the file is read whole: never a different tree, and never a
/// tree for a file that reading whole refuses.
struct SplitParseTests {
  static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Whether the file was read in parts; records an issue when the parts' tree differs from the whole's, or
  /// when there is one and reading whole fails.
  @discardableResult
  static func compare(_ text: String, limits: LoadLimits = .default) -> Bool {
    compare(Array(text.utf8), file: "test.yaml", limits: limits)
  }

  @discardableResult
  static func compare(_ bytes: [UInt8], file: String, limits: LoadLimits = .default) -> Bool {
    let whole = Result { () throws(LoadError) in
      try YAMLLoader.loadOnOneThread(bytes: bytes, file: file, limits: limits)
    }
    guard let parts = SplitParse.load(bytes: bytes, file: file, limits: limits) else { return false }
    switch whole {
    case .success(let node):
      if let difference = firstDifference(node, parts, at: "") {
        Issue.record("\(file): the parts' tree differs from the whole's: \(difference)")
      }
    case .failure(let error): Issue.record("\(file): read in parts, but reading whole says: \(error)")
    }
    return true
  }

  /// Where two trees first differ, as a path and the two nodes' shapes and positions.
  static func firstDifference(_ whole: Node, _ parts: Node, at path: String) -> String? {
    switch (whole.content, parts.content) {
    case (.mapping(let a), .mapping(let b)) where a.count == b.count && whole.location == parts.location:
      for (x, y) in zip(a, b) {
        if x.key != y.key || x.keyLocation != y.keyLocation {
          return "\(path): key '\(x.key)' at \(x.keyLocation) against '\(y.key)' at \(y.keyLocation)"
        }
        if let found = firstDifference(x.value, y.value, at: path + "/" + x.key) { return found }
      }
      return nil
    case (.sequence(let a), .sequence(let b)) where a.count == b.count && whole.location == parts.location:
      for (index, (x, y)) in zip(a, b).enumerated() {
        if let found = firstDifference(x, y, at: path + "/\(index)") { return found }
      }
      return nil
    default:
      guard whole != parts else { return nil }
      return "\(path): \(whole.kindDescription) at \(whole.location) (text \(whole.textStart)) against "
        + "\(parts.kindDescription) at \(parts.location) (text \(parts.textStart))"
    }
  }

  /// A flow-shaped document: top-level keys, then `steps` (each step drawn from `step(_:)`), then more keys.
  static func document(steps: Int, step: (Int) -> String = Self.step, after: String = "hooks: {}\n") -> String {
    var text = "flow: demo\nversion: \"1\"\nlocales: [en, ja]\nstart: s0\nsteps:\n"
    for index in 0..<steps { text += step(index) }
    return text + after
  }

  /// Steps of every shape a flow uses, in turn: flow mappings, block mappings and sequences, quoted strings, block
  /// scalars, comments at column 1 and in the steps, blank lines, non-ASCII text, a nested indentless sequence.
  static func step(_ index: Int) -> String {
    switch index % 6 {
    case 0: "  s\(index): {kind: screen, title: 't\(index)', next: s\(index + 1)}\n"
    case 1:
      "  s\(index):\n    kind: screen\n    title: \"タイトル \(index)\"\n    body: |\n      line one\n        indented\n\n      line three\n    next: s\(index + 1)\n"
    case 2:
      "# a comment at column 1\n  s\(index):   # a comment after the key\n    kind: choice\n    options:\n    - a\n    - b\n    next: s\(index + 1)\n\n"
    case 3: "  s\(index): !!map\n    kind: screen\n    note: >-\n      folded\n      text\n    next: s\(index + 1)\n"
    case 4: "  s_\(index): {kind: screen, values: [1, 2.5, true, null, ~, 0x1F], next: s\(index + 1)}\n"
    default: "  s\(index):\n    kind: screen\n    title: 'it''s \(index)'\n    next: \"s\\u0030\"\n"
    }
  }

  @Test func aFlowShapedDocumentIsReadInPartsAsItIsReadWhole() {
    #expect(Self.compare(Self.document(steps: 600)))
    #expect(Self.compare(Self.document(steps: 600, after: "")))
    #expect(Self.compare(Self.document(steps: 600, after: "# only a comment after the steps\n")))
    #expect(Self.compare("\u{FEFF}" + Self.document(steps: 600)))
    #expect(Self.compare("%YAML 1.2\n---\n" + Self.document(steps: 600)))
  }

  /// Whether the text has a cut (`SplitParse.plan`).
  static func hasCut(_ text: String) -> Bool {
    Array(text.utf8).withUnsafeBufferPointer { SplitParse.plan($0) } != nil
  }

  /// Files the cut must leave alone: reading whole refuses them, or gives what no part could give alone. Each has
  /// a cut, which the parts then turn down, except those whose lines already rule one out.
  @Test func whatTheCutCannotReadAloneIsReadWhole() {
    // An alias in the second part to an anchor in the first, and an anchor in the second part.
    let anchored = Self.document(steps: 600) { index in
      index == 1
        ? "  s1: &shared {kind: screen, next: s2}\n"
        : index % 50 == 0 ? "  s\(index): *shared\n" : "  s\(index): {kind: screen, next: s\(index + 1)}\n"
    }
    #expect(Self.hasCut(anchored))
    #expect(!Self.compare(anchored))
    #expect(Self.hasCut(Self.document(steps: 600) { "  s\($0): &a\($0) {kind: screen}\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { "  s\($0): &a\($0) {kind: screen}\n" }))
    // A key of the second part that the first part has already: reading whole reports the duplicate.
    #expect(Self.hasCut(Self.document(steps: 600) { "  s\($0 % 400): {kind: screen}\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { "  s\($0 % 400): {kind: screen}\n" }))
    #expect(Self.hasCut(Self.document(steps: 600, after: "flow: again\n")))
    #expect(!Self.compare(Self.document(steps: 600, after: "flow: again\n")))
    // A quoted string and a flow collection whose next line sits at the keys' indentation, in every step.
    #expect(Self.hasCut(Self.document(steps: 600) { "  s\($0): \"one\n  t\($0): two\"\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { "  s\($0): \"one\n  t\($0): two\"\n" }))
    #expect(Self.hasCut(Self.document(steps: 600) { "  s\($0): {a: 1,\n  b\($0): 2}\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { "  s\($0): {a: 1,\n  b\($0): 2}\n" }))
    // Two documents, a document end, a carriage return.
    #expect(!Self.hasCut(Self.document(steps: 600, after: "---\nflow: second\n")))
    #expect(!Self.compare(Self.document(steps: 600, after: "---\nflow: second\n")))
    #expect(!Self.hasCut(Self.document(steps: 600, after: "...\n")))
    #expect(!Self.compare(Self.document(steps: 600, after: "...\n")))
    #expect(!Self.hasCut(Self.document(steps: 600).replacingOccurrences(of: "\n", with: "\r\n")))
    #expect(!Self.compare(Self.document(steps: 600).replacingOccurrences(of: "\n", with: "\r\n")))
    // A line at a smaller indentation inside the steps, and a tab.
    #expect(Self.hasCut(Self.document(steps: 600) { $0 == 500 ? " s500: {}\n" : "  s\($0): {}\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { $0 == 500 ? " s500: {}\n" : "  s\($0): {}\n" }))
    #expect(Self.hasCut(Self.document(steps: 600) { $0 == 500 ? "\ts500: {}\n" : "  s\($0): {}\n" }))
    #expect(!Self.compare(Self.document(steps: 600) { $0 == 500 ? "\ts500: {}\n" : "  s\($0): {}\n" }))
    // A byte the input check refuses, in each part (each thread checks its own), and a file over the size limit.
    for bad in [
      Self.document(steps: 600) { $0 == 5 ? "  s5: {kind: \u{1}}\n" : Self.step($0) },
      Self.document(steps: 600) { $0 == 500 ? "  s500: {kind: \u{7F}}\n" : Self.step($0) },
      Self.document(steps: 600, after: "hooks: \u{0}\n"),
    ] {
      #expect(Self.hasCut(bad))
      #expect(!Self.compare(bad))
    }
    let document = Self.document(steps: 600)
    #expect(Self.compare(document, limits: LoadLimits(maxBytes: document.utf8.count)))
    #expect(!Self.compare(document, limits: LoadLimits(maxBytes: document.utf8.count - 1)))
  }

  /// The limits hold for the whole document, not for each part.
  @Test func theLimitsAreTheWholeDocuments() {
    let text = Self.document(steps: 600) { "  s\($0): {kind: screen, next: {to: s\($0 + 1)}}\n" }
    // root, steps, a step, its `next`: depth 4.
    #expect(Self.compare(text, limits: LoadLimits(maxDepth: 4)))
    #expect(!Self.compare(text, limits: LoadLimits(maxDepth: 3)))
    // The fewest nodes allowed for which reading whole succeeds.
    var (fails, reads) = (0, 100_000)
    while reads - fails > 1 {
      let middle = (fails + reads) / 2
      if (try? YAMLLoader.loadOnOneThread(bytes: Array(text.utf8), file: "t", limits: LoadLimits(maxNodes: middle)))
        != nil
      {
        reads = middle
      } else {
        fails = middle
      }
    }
    #expect(reads > 4_800)
    // Each part counts its own root: two more than the whole document.
    #expect(Self.compare(text, limits: LoadLimits(maxNodes: reads + 2)))
    #expect(!Self.compare(text, limits: LoadLimits(maxNodes: reads + 1)))
    #expect(!Self.compare(text, limits: LoadLimits(maxNodes: reads - 1)))
  }

  /// Every YAML file of the repository (flows, scenario tables, fixtures) and every case of the YAML Test Suite:
  /// the small ones are cut too when their shape allows (`SplitParse.load` has no size limit; `YAMLLoader` cuts
  /// only large files).
  @Test func everyYAMLFileOfTheRepositoryAndTheSuiteReadsTheSameInParts() throws {
    var files: [URL] = []
    for folder in ["flows", "Tests", "Examples", "schemas"] {
      guard
        let walk = FileManager.default.enumerator(
          at: Self.root.appending(path: folder), includingPropertiesForKeys: nil)
      else { continue }
      for case let url as URL in walk where ["yaml", "yml"].contains(url.pathExtension) { files.append(url) }
    }
    if FileManager.default.fileExists(atPath: ConformanceTests.suite.path) {
      files += try ConformanceTests.caseFolders().map { $0.url.appending(path: "in.yaml") }
    }
    var cut = 0
    for url in files { if Self.compare(try [UInt8](Data(contentsOf: url)), file: url.path) { cut += 1 } }
    #expect(files.count > 100)
    // The seven flows of flows/ at least have the shape.
    #expect(cut >= 7)
  }

  /// `YAMLLoader.load` cuts a large file, and gives the whole's tree.
  @Test func aLargeFileIsCutByTheLoader() throws {
    let text = Self.document(steps: 4_000)
    let bytes = Array(text.utf8)
    #expect(bytes.count >= SplitParse.minimumBytes)
    #expect(bytes.withUnsafeBufferPointer { SplitParse.plan($0) } != nil)
    #expect(
      try YAMLLoader.load(bytes: bytes, file: "large.yaml")
        == YAMLLoader.loadOnOneThread(bytes: bytes, file: "large.yaml"))
    // A control character late in the file, where the other thread reads: the error of reading it whole.
    let bad = Array(Self.document(steps: 4_000) { $0 == 3_000 ? "  s3000: {kind: \u{1}}\n" : Self.step($0) }.utf8)
    let inParts = Result { () throws(LoadError) in try YAMLLoader.load(bytes: bad, file: "large.yaml") }
    let whole = Result { () throws(LoadError) in try YAMLLoader.loadOnOneThread(bytes: bad, file: "large.yaml") }
    #expect(throws: LoadError.self) { try inParts.get() }
    #expect(inParts == whole)
  }

  /// A large document's tree takes tens of megabytes: the threads that read it ask for huge pages where their
  /// memory comes from (`flowkit_expect_large_heap`), which takes a lint of a 10,000-step flow from about 10,450
  /// page faults to about 2,100. Linux with glibc and transparent huge pages only, and not under a sanitizer
  /// (its allocator is not glibc's).
  @Test func theReaderOfALargeFileAsksForHugePages() throws {
    #if os(Linux)
      let setting = Self.read("/sys/kernel/mm/transparent_hugepage/enabled")
      guard let setting, !setting.contains("[never]"),
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil,
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil
      else { return }
      let bytes = Array(Self.document(steps: 4_000).utf8)
      #expect(SplitParse.load(bytes: bytes, file: "large.yaml") != nil)
      // A block this thread takes now comes from its arena, which the load advised.
      let block = malloc(64 * 1024)!
      defer { free(block) }
      let flags = try #require(Self.mappingFlags(containing: UInt(bitPattern: block)))
      #expect(flags.contains("hg"), "VmFlags: \(flags.joined(separator: " "))")
    #endif
  }

  /// The `VmFlags` of the mapping of this process that holds `address` (`/proc/self/smaps`).
  static func mappingFlags(containing address: UInt) -> [String]? {
    guard let smaps = read("/proc/self/smaps") else { return nil }
    var inside = false
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
        let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
        inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
      } else if inside, fields.first == "VmFlags:" {
        return fields.dropFirst().map(String.init)
      }
    }
    return nil
  }

  /// A file of `/proc` or `/sys`, read to its end (they give no size to read up to).
  static func read(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
  }
}
