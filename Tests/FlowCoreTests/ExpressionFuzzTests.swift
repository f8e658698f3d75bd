import FlowTestSupport
import Testing

@testable import FlowCore

/// Random token soup (from a fixed seed): every stage either succeeds or throws an error whose column lies
/// inside the source (or just after it), and nothing traps.
struct ExpressionFuzzTests {
  static let fragments = [
    "(", ")", "[", "]", ",", ".", "?", ":", "??", "!", "-", "+", "*", "/", "%", "<", "<=", "==", "!=", "&&", "||",
    " in ", "0", "1", "9223372036854775807", "'a'", "\"06:00\"", "'\\u{41}'", "true", "null", "env", "osVersion",
    "ideals", "habitTimes", "result", "name", "big", "small", "size(", "contains(", "minutes(", "nextHabit(",
    "now()", "keys(", "'", "=", " ",
  ]

  /// A 64-bit linear congruential generator, so failures reproduce.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  @Test func randomInputsFailCleanly() {
    var generator = Generator(state: 2026)
    var parsed = 0
    for _ in 0..<5000 {
      let count = Int.random(in: 1...14, using: &generator)
      let source = (0..<count).map { _ in Self.fragments.randomElement(using: &generator) ?? "" }.joined()
      let limit = source.unicodeScalars.count + 1
      func inRange(_ error: ExpressionError) -> Bool { (1...limit).contains(error.column) }
      let expression: FlowExpression
      do {
        expression = try FlowExpression(source)
      } catch {
        #expect(inRange(error), "\(source): \(error)")
        continue
      }
      parsed += 1
      do { _ = try expression.check(in: ExpressionFixtures.scope) } catch {
        #expect(inRange(error), "\(source): \(error)")
      }
      do { _ = try expression.evaluate(in: ExpressionFixtures.bindings) } catch {
        #expect(inRange(error), "\(source): \(error)")
      }
      #expect(!expression.explain(in: ExpressionFixtures.bindings).isEmpty)
      #expect(expression.references.allSatisfy { (1..<limit).contains($0.column) })
    }
    #expect(parsed > 100, "\(parsed)")
  }

  static let atoms = [
    "0", "1", "-3", "11", "big", "small", "'a'", "\"06:00\"", "''", "true", "false", "null", "env.osVersion",
    "env.alarmKitAvailable", "env['locale']", "ideals", "ideals[0]", "habitTimes", "habitTimes.wake", "result.name",
    "onboardingStep", "displayName", "store.SelectedLanguage", "step.rawValue",
  ]
  static let binaryOperators = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "in", "&&", "||", "??"]
  static let calls = [
    ("size", 1), ("contains", 2), ("startsWith", 2), ("lower", 1), ("upper", 1), ("trim", 1), ("keys", 1),
    ("now", 0), ("minutes", 1), ("nextHabit", 1), ("isLaterToday", 1),
  ]

  static func expression(depth: Int, using generator: inout Generator) -> String {
    func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &generator)] }
    if depth == 0 || Int.random(in: 0..<4, using: &generator) == 0 { return pick(atoms) }
    func sub() -> String {
      let text = expression(depth: depth - 1, using: &generator)
      return Bool.random(using: &generator) ? "(" + text + ")" : text
    }
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: return pick(["!", "-"]) + "(" + expression(depth: depth - 1, using: &generator) + ")"
    case 1: return sub() + " ? " + sub() + " : " + sub()
    case 2:
      let (name, arity) = pick(calls)
      return name + "(" + (0..<arity).map { _ in sub() }.joined(separator: ", ") + ")"
    case 3: return "[" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in sub() }.joined(separator: ", ") + "]"
    default: return "(" + sub() + ") " + pick(binaryOperators) + " (" + sub() + ")"
    }
  }

  /// Grammatical random expressions: they parse; checking and evaluation fail only with columns in range;
  /// and an explanation without maps parses back to an expression with the same value.
  @Test func randomExpressionsEvaluateLikeTheirExplanations() throws {
    var generator = Generator(state: 7)
    var evaluated = 0
    for _ in 0..<3000 {
      let source = Self.expression(depth: 4, using: &generator)
      let expression = try FlowExpression(source)
      let limit = source.unicodeScalars.count + 1
      do { _ = try expression.check(in: ExpressionFixtures.scope) } catch {
        #expect((1...limit).contains(error.column), "\(source): \(error)")
      }
      let value: Value
      do { value = try expression.evaluate(in: ExpressionFixtures.bindings) } catch {
        #expect((1...limit).contains(error.column), "\(source): \(error)")
        continue
      }
      evaluated += 1
      let explained = expression.explain(in: ExpressionFixtures.bindings)
      guard !explained.contains("{") else { continue }
      let reparsed = try FlowExpression(explained)
      #expect(try reparsed.evaluate(in: ExpressionFixtures.bindings) == value, "\(source) -> \(explained)")
    }
    #expect(evaluated > 300, "\(evaluated)")
  }
}
