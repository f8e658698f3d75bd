// What an input must hold to land on each side of the conditions that read it: the values `flowrun explore`
// types into text inputs and form fields, derived from the literals they are compared against.

extension FlowExpression {
  /// Values of the name at `path` (`["age"]`, `["input"]`, `["habitTimes", "wake"]`) on both sides of every
  /// comparison of it with a literal, in source order: `age >= 18` gives 17 and 18, `size(input) > 2` gives
  /// `"aa"` and `"aaa"`, `minutes(wake) < 480` gives `"07:59"` and `"08:00"`, `lang in ["ja", "en"]` gives
  /// `"ja"` and `"en"`, `startsWith(code, "#")` gives `"#"`. The name may be wrapped in `size`, `trim`,
  /// `lower`, `upper`, `minutes`, `?? DEFAULT` or `+`/`-` an integer literal; other comparisons give nothing.
  package func boundaryValues(of path: [String]) -> [Value] {
    var found: [Value] = []
    Self.collectBoundaries(syntax, of: path, into: &found)
    Self.collectConjunctions(syntax, of: path, into: &found)
    return found
  }

  /// The answers of this expression's tests that read the name at `path` when it holds `value`, in source order:
  /// each comparison, `in`, and call of a function that answers a bool. A test that also reads another name
  /// cannot be answered from `value` alone and answers nil. Two values with the same answers take the same
  /// branch of every condition the expression has, whatever the other names hold (when no answer is nil).
  /// `minutesSinceMidnight` is the clock `now()` and `isLaterToday` read.
  package func testAnswers(reading path: [String], when value: Value, minutesSinceMidnight: Int = 0) -> [Value?] {
    guard let root = path.first else { return [] }
    var bound = value
    for key in path.dropFirst().reversed() { bound = .map([key: bound]) }
    let evaluator = Evaluator(context: Bindings([root: bound], minutesSinceMidnight: minutesSinceMidnight))
    var answers: [Value?] = []
    Self.collectTests(syntax, reading: path) { test, isName in
      let answer = try? evaluator.evaluate(test)
      // The name itself is a test only where it holds a bool (a bool field used as a condition).
      if isName, let answer, case .bool = answer {
        answers.append(answer)
      } else {
        answers.append(isName ? .null : answer)
      }
    }
    return answers
  }

  // MARK: - Walking

  private static func reads(_ node: Syntax, _ path: [String]) -> Bool {
    if let own = node.path { return own.starts(with: path) || path.starts(with: own) }
    switch node {
    case .literal, .name: return false
    case .list(let elements, _), .call(_, let elements, _): return elements.contains { reads($0, path) }
    case .map(let entries, _): return entries.contains { reads($0.value, path) }
    case .member(let base, _, _), .unary(_, let base, _): return reads(base, path)
    case .index(let base, let key, _), .binary(_, let base, let key, _): return reads(base, path) || reads(key, path)
    case .conditional(let condition, let then, let otherwise, _):
      return reads(condition, path) || reads(then, path) || reads(otherwise, path)
    }
  }

  private static func children(_ node: Syntax) -> [Syntax] {
    switch node {
    case .literal, .name: []
    case .list(let elements, _), .call(_, let elements, _): elements
    case .map(let entries, _): entries.map(\.value)
    case .member(let base, _, _), .unary(_, let base, _): [base]
    case .index(let base, let key, _), .binary(_, let base, let key, _): [base, key]
    case .conditional(let condition, let then, let otherwise, _): [condition, then, otherwise]
    }
  }

  /// Calls `visit` with every test (comparison, `in`, bool-answering call) that reads `path`, and with every
  /// place the name itself is read (`isName`).
  private static func collectTests(_ node: Syntax, reading path: [String], _ visit: (Syntax, _ isName: Bool) -> Void) {
    guard reads(node, path) else { return }
    switch node {
    case .binary(let op, _, _, _) where op.isTest: visit(node, false)
    case .call(let function, _, _) where function.answersBool: visit(node, false)
    case .name, .member, .index: if node.path == path { visit(node, true) }
    default: break
    }
    for child in children(node) { collectTests(child, reading: path, visit) }
  }

  private static func collectBoundaries(_ node: Syntax, of path: [String], into found: inout [Value]) {
    switch node {
    case .binary(let op, let left, let right, _) where op.isTest:
      if case .literal(let literal, _) = right {
        found += sides(of: op, literal).flatMap { invert(left, to: $0, path) }
      }
      if case .literal(let literal, _) = left, let mirrored = op.mirrored {
        found += sides(of: mirrored, literal).flatMap { invert(right, to: $0, path) }
      }
      if op == .in, case .list(let elements, _) = right {
        for case .literal(let element, _) in elements { found += invert(left, to: element, path) }
      }
      if op == .in, case .literal(.string(let needle), _) = left {
        found += invert(right, to: .string(needle), path)
      }
    case .call(.contains, let arguments, _), .call(.startsWith, let arguments, _):
      if arguments.count == 2, case .literal(.string(let part), _) = arguments[1] {
        found += invert(arguments[0], to: .string(part), path)
      }
    default:
      break
    }
    for child in children(node) { collectBoundaries(child, of: path, into: &found) }
  }

  /// For each chain of `&&` (and each `matches` test), one text that passes every test of the chain on the
  /// string at `path` at once: its `startsWith` prefix, `contains` parts and the `matches` pattern's example,
  /// padded to the chain's smallest `size`. One test at a time, `startsWith(input, "@") && size(input) >= 4`
  /// gives `@` and `aaaa`, neither of which passes both; this gives `@aaa`.
  private static func collectConjunctions(_ node: Syntax, of path: [String], into found: inout [Value]) {
    guard reads(node, path) else { return }
    switch node {
    case .binary(.and, _, _, _):
      var chain: [Syntax] = []
      flatten(node, into: &chain)
      if let text = text(passing: chain, path) { found.append(.string(text)) }
      for part in chain { collectConjunctions(part, of: path, into: &found) }
      return
    case .call(.matches, _, _):
      if let text = text(passing: [node], path) { found.append(.string(text)) }
    default:
      break
    }
    for child in children(node) { collectConjunctions(child, of: path, into: &found) }
  }

  private static func flatten(_ node: Syntax, into chain: inout [Syntax]) {
    if case .binary(.and, let left, let right, _) = node {
      flatten(left, into: &chain)
      flatten(right, into: &chain)
    } else {
      chain.append(node)
    }
  }

  /// A text passing every test of `chain` on the string at `path`, or nil when the chain says nothing of its shape.
  private static func text(passing chain: [Syntax], _ path: [String]) -> String? {
    var prefix = ""
    var parts: [String] = []
    var pattern: String?
    var fewest = 0
    for test in chain {
      switch test {
      case .call(.startsWith, let arguments, _) where arguments.count == 2 && arguments[0].path == path:
        if case .literal(.string(let start), _) = arguments[1], start.count > prefix.count { prefix = start }
      case .call(.contains, let arguments, _) where arguments.count == 2 && arguments[0].path == path:
        if case .literal(.string(let part), _) = arguments[1] { parts.append(part) }
      case .call(.matches, let arguments, _) where arguments.count == 2 && arguments[0].path == path:
        if case .literal(.string(let source), _) = arguments[1] { pattern = source }
      case .binary(let op, .call(.size, let arguments, _), .literal(.int(let n), _), _)
      where arguments.first?.path == path:
        fewest = max(fewest, smallestSize(op, n))
      case .binary(let op, .literal(.int(let n), _), .call(.size, let arguments, _), _)
      where arguments.first?.path == path:
        if let mirrored = op.mirrored { fewest = max(fewest, smallestSize(mirrored, n)) }
      default:
        break
      }
    }
    guard !prefix.isEmpty || !parts.isEmpty || pattern != nil else { return nil }
    var text = prefix + parts.joined()
    if let pattern {
      guard let example = LinearPattern.example(matching: pattern, minLength: max(0, fewest - text.count)) else {
        return nil
      }
      text += example
    }
    return text + String(repeating: "a", count: max(0, min(fewest, 256) - text.count))
  }

  /// The fewest characters `size(x) op n` allows.
  private static func smallestSize(_ op: BinaryOperator, _ n: Int) -> Int {
    switch op {
    case .greaterOrEqual, .equal: n
    case .greater: n &+ 1
    default: 0
    }
  }

  /// The values of the compared side on both sides of `op literal`.
  private static func sides(of op: BinaryOperator, _ literal: Value) -> [Value] {
    guard case .int(let n) = literal else { return [literal] }
    switch op {
    case .less, .greaterOrEqual: return [.int(n &- 1), .int(n)]
    case .lessOrEqual, .greater: return [.int(n), .int(n &+ 1)]
    default: return [.int(n)]
    }
  }

  /// The values of `path` that make `node` evaluate to `target`; empty when `node` is not a simple function of it.
  private static func invert(_ node: Syntax, to target: Value, _ path: [String]) -> [Value] {
    if node.path == path { return [target] }
    switch (node, target) {
    case (.call(.size, let arguments, _), .int(let n)) where (0...256).contains(n):
      return invert(arguments[0], to: .string(String(repeating: "a", count: n)), path)
    case (.call(.trim, let arguments, _), _), (.call(.lower, let arguments, _), _),
      (.call(.upper, let arguments, _), _):
      return invert(arguments[0], to: target, path)
    case (.call(.minutes, let arguments, _), .int(let n)) where (0..<1440).contains(n):
      return invert(arguments[0], to: .string(TimeOfDay.text(minutes: n)), path)
    case (.binary(.coalesce, let value, _, _), _):
      return invert(value, to: target, path)
    case (.binary(.add, let value, .literal(.int(let k), _), _), .int(let n)):
      return invert(value, to: .int(n &- k), path)
    case (.binary(.subtract, let value, .literal(.int(let k), _), _), .int(let n)):
      return invert(value, to: .int(n &+ k), path)
    default:
      return []
    }
  }
}

extension FlowExpression.BinaryOperator {
  /// A comparison or `in`: an operator whose answer is a bool that depends on its operands' values.
  fileprivate var isTest: Bool {
    switch self {
    case .less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual, .in: true
    default: false
    }
  }

  /// The operator with its operands swapped: `18 <= age` is `age >= 18`.
  fileprivate var mirrored: Self? {
    switch self {
    case .less: .greater
    case .lessOrEqual: .greaterOrEqual
    case .greater: .less
    case .greaterOrEqual: .lessOrEqual
    case .equal, .notEqual: self
    default: nil
    }
  }
}

extension FlowExpression.Builtin {
  /// Whether the function answers a bool (a test in ``FlowExpression/testAnswers(reading:when:)``).
  fileprivate var answersBool: Bool {
    switch self {
    case .contains, .startsWith, .isLaterToday, .matches: true
    default: false
    }
  }
}
