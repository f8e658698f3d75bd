extension FlowExpression {
  /// The parsed form of an expression. Every case carries the 1-based column errors about it point at:
  /// the operator for unary and binary nodes, the member name, the `[` of an index, the `?` of `?:`,
  /// the function name of a call, the first character of a literal or name.
  indirect enum Syntax: Sendable {
    case literal(Value, at: Int)
    case list([Syntax], at: Int)
    /// `{key: value, "other key": value}`, entries in source order (keys are distinct).
    case map([(key: String, value: Syntax)], at: Int)
    case name(String, at: Int)
    case member(Syntax, String, at: Int)
    case index(Syntax, Syntax, at: Int)
    case unary(UnaryOperator, Syntax, at: Int)
    case binary(BinaryOperator, Syntax, Syntax, at: Int)
    case conditional(Syntax, Syntax, Syntax, at: Int)
    case call(Builtin, [Syntax], at: Int)

    /// The column errors about this node point at.
    var column: Int {
      switch self {
      case .literal(_, let at), .list(_, let at), .map(_, let at), .name(_, let at), .member(_, _, let at),
        .index(_, _, let at), .unary(_, _, let at), .binary(_, _, _, let at),
        .conditional(_, _, _, let at), .call(_, _, let at):
        at
      }
    }

    /// The column of the node's first character (the leftmost operand of an operator).
    var start: Int {
      var node = self
      while true {
        switch node {
        case .member(let base, _, _), .index(let base, _, _), .binary(_, let base, _, _),
          .conditional(let base, _, _, _):
          node = base
        default:
          return node.column
        }
      }
    }

    /// `env.osVersion`, `habitTimes["wake"]`: a root name followed by members or string-literal indexes.
    var path: [String]? {
      switch self {
      case .name(let name, _): [name]
      case .member(let base, let member, _): base.path.map { $0 + [member] }
      case .index(let base, .literal(.string(let key), _), _): base.path.map { $0 + [key] }
      default: nil
      }
    }
  }

  enum UnaryOperator: String, Sendable {
    case not = "!"
    case negate = "-"
  }

  enum BinaryOperator: String, Sendable, CaseIterable {
    case multiply = "*", divide = "/", remainder = "%"
    case add = "+", subtract = "-"
    case coalesce = "??"
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", `in` = "in"
    case equal = "==", notEqual = "!="
    case and = "&&", or = "||"

    /// The operator a symbol token spells, by its one or two bytes: `init(rawValue:)` compared the symbol with
    /// each operator's text in turn, and the parser asks after every operand.
    init?(symbol: String) {
      var bytes = symbol.utf8.makeIterator()
      let first = bytes.next()
      let second = bytes.next()
      guard bytes.next() == nil else { return nil }
      switch (first, second) {
      case (UInt8(ascii: "*"), nil): self = .multiply
      case (UInt8(ascii: "/"), nil): self = .divide
      case (UInt8(ascii: "%"), nil): self = .remainder
      case (UInt8(ascii: "+"), nil): self = .add
      case (UInt8(ascii: "-"), nil): self = .subtract
      case (UInt8(ascii: "?"), UInt8(ascii: "?")): self = .coalesce
      case (UInt8(ascii: "<"), nil): self = .less
      case (UInt8(ascii: "<"), UInt8(ascii: "=")): self = .lessOrEqual
      case (UInt8(ascii: ">"), nil): self = .greater
      case (UInt8(ascii: ">"), UInt8(ascii: "=")): self = .greaterOrEqual
      case (UInt8(ascii: "="), UInt8(ascii: "=")): self = .equal
      case (UInt8(ascii: "!"), UInt8(ascii: "=")): self = .notEqual
      case (UInt8(ascii: "&"), UInt8(ascii: "&")): self = .and
      case (UInt8(ascii: "|"), UInt8(ascii: "|")): self = .or
      default: return nil
      }
    }

    /// Binding strength: higher binds tighter. `?:` is 1.
    var precedence: Int {
      switch self {
      case .or: 2
      case .and: 3
      case .equal, .notEqual: 4
      case .less, .lessOrEqual, .greater, .greaterOrEqual, .in: 5
      case .coalesce: 6
      case .add, .subtract: 7
      case .multiply, .divide, .remainder: 8
      }
    }

    var isRightAssociative: Bool { self == .coalesce }
  }

  /// Precedence of `?:`, the loosest operator.
  static let conditionalPrecedence = 1
  /// Precedence of prefix operators, tighter than every binary operator.
  static let unaryPrecedence = 9
  /// Precedence of literals, names, calls and postfix members/indexes.
  static let primaryPrecedence = 10
}
