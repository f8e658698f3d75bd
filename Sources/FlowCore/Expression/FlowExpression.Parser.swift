extension FlowExpression {
  /// A recursive-descent parser with precedence climbing over the tokens of one source.
  ///
  /// Recursion is bounded: every construct that nests (parentheses, brackets, calls, prefix operators,
  /// `?:`, `??`) counts against ``FlowExpression/maxDepth``, and so does the depth of the tree built, so
  /// neither parsing nor the tree walks that follow can exhaust the stack.
  struct Parser {
    private let tokens: [Token]
    private var position = 0
    private var nesting = 0

    private struct Parsed {
      var syntax: Syntax
      var depth: Int
    }

    static func parse(_ source: String) throws(ExpressionError) -> Syntax {
      var count = 0
      for _ in source.unicodeScalars {
        count += 1
        if count > FlowExpression.maxLength {
          throw ExpressionError(
            .limit, "expression is too long; at most \(FlowExpression.maxLength) characters",
            column: FlowExpression.maxLength + 1)
        }
      }
      var parser = Parser(tokens: try Lexer.tokens(of: source))
      let result = try parser.conditional()
      let token = parser.current
      if token.kind != .end {
        if token.kind == .identifier("and") || token.kind == .identifier("or") {
          throw ExpressionError(
            .syntax, "unexpected \(token.quoted); did you mean '\(token.text == "and" ? "&&" : "||")'?",
            column: token.column)
        }
        let hint =
          token.is("(")
          ? "only the built-in functions can be called" : "expected an operator or the end of the expression"
        throw ExpressionError(.syntax, "unexpected \(token.quoted); \(hint)", column: token.column)
      }
      return result.syntax
    }

    private init(tokens: [Token]) {
      self.tokens = tokens
    }

    private var current: Token { tokens[position] }

    private mutating func advance() -> Token {
      let token = tokens[position]
      if position < tokens.count - 1 { position += 1 }
      return token
    }

    // MARK: - Limits

    /// Enters a nested construct starting at `column`.
    private mutating func enter(at column: Int) throws(ExpressionError) {
      nesting += 1
      if nesting > FlowExpression.maxDepth { throw Self.tooDeep(at: column) }
    }

    private mutating func leave() { nesting -= 1 }

    private func node(_ syntax: Syntax, children: Parsed...) throws(ExpressionError) -> Parsed {
      try node(syntax, children: children)
    }

    private func node(_ syntax: Syntax, children: [Parsed]) throws(ExpressionError) -> Parsed {
      let depth = 1 + children.reduce(0) { max($0, $1.depth) }
      if depth > FlowExpression.maxDepth { throw Self.tooDeep(at: syntax.column) }
      return Parsed(syntax: syntax, depth: depth)
    }

    private static func tooDeep(at column: Int) -> ExpressionError {
      ExpressionError(
        .limit, "expression is nested too deeply; at most \(FlowExpression.maxDepth) levels", column: column)
    }

    // MARK: - Grammar

    /// conditional := binary ('?' conditional ':' conditional)?
    private mutating func conditional() throws(ExpressionError) -> Parsed {
      let condition = try binary(minimumPrecedence: FlowExpression.conditionalPrecedence + 1)
      guard current.is("?") else { return condition }
      let question = advance()
      try enter(at: question.column)
      defer { leave() }
      let then = try conditional()
      guard current.is(":") else {
        throw ExpressionError(
          .syntax, "unexpected \(current.quoted); expected ':' of '?:'", column: current.column)
      }
      _ = advance()
      let otherwise = try conditional()
      return try node(
        .conditional(condition.syntax, then.syntax, otherwise.syntax, at: question.column),
        children: condition, then, otherwise)
    }

    /// Binary operators by precedence climbing; left-associative except `??`.
    private mutating func binary(minimumPrecedence: Int) throws(ExpressionError) -> Parsed {
      var left = try unary()
      while let op = binaryOperator(current), op.precedence >= minimumPrecedence {
        let token = advance()
        let right: Parsed
        if op.isRightAssociative {
          try enter(at: token.column)
          right = try binary(minimumPrecedence: op.precedence)
          leave()
        } else {
          right = try binary(minimumPrecedence: op.precedence + 1)
        }
        left = try node(.binary(op, left.syntax, right.syntax, at: token.column), children: left, right)
      }
      return left
    }

    private func binaryOperator(_ token: Token) -> BinaryOperator? {
      switch token.kind {
      case .symbol(let text): BinaryOperator(symbol: text)
      case .identifier("in"): .in
      default: nil
      }
    }

    /// unary := ('!' | '-') unary | postfix
    private mutating func unary() throws(ExpressionError) -> Parsed {
      let token = current
      guard token.is("!") || token.is("-") else { return try postfix() }
      _ = advance()
      if token.is("-"), case .integer(let magnitude) = current.kind {
        _ = advance()
        let value = magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        return try postfix(after: node(.literal(.int(value), at: token.column)))
      }
      if token.is("-"), case .decimal(let magnitude) = current.kind {
        _ = advance()
        return try postfix(after: node(.literal(.decimal(-magnitude), at: token.column)))
      }
      try enter(at: token.column)
      defer { leave() }
      let operand = try unary()
      let op: UnaryOperator = token.is("!") ? .not : .negate
      return try node(.unary(op, operand.syntax, at: token.column), children: operand)
    }

    /// postfix := primary ('.' name | '[' conditional ']')*
    private mutating func postfix() throws(ExpressionError) -> Parsed {
      try postfix(after: primary())
    }

    private mutating func postfix(after base: Parsed) throws(ExpressionError) -> Parsed {
      var result = base
      while true {
        if current.is(".") {
          _ = advance()
          guard case .identifier(let member) = current.kind else {
            throw ExpressionError(
              .syntax, "unexpected \(current.quoted); expected a member name after '.'", column: current.column)
          }
          let name = advance()
          result = try node(.member(result.syntax, member, at: name.column), children: result)
        } else if current.is("[") {
          let open = advance()
          try enter(at: open.column)
          let key = try conditional()
          try expect("]", closing: open)
          leave()
          result = try node(.index(result.syntax, key.syntax, at: open.column), children: result, key)
        } else {
          return result
        }
      }
    }

    private mutating func primary() throws(ExpressionError) -> Parsed {
      let token = current
      switch token.kind {
      case .integer(let magnitude):
        _ = advance()
        guard magnitude <= UInt64(Int.max) else {
          throw ExpressionError(
            .syntax, "integer literal '\(token.text)' is too large; at most \(Int.max)", column: token.column)
        }
        return try node(.literal(.int(Int(magnitude)), at: token.column))
      case .decimal(let number):
        _ = advance()
        return try node(.literal(.decimal(number), at: token.column))
      case .string(let text):
        _ = advance()
        return try node(.literal(.string(text), at: token.column))
      case .identifier("true"), .identifier("false"):
        _ = advance()
        return try node(.literal(.bool(token.text == "true"), at: token.column))
      case .identifier("null"):
        _ = advance()
        return try node(.literal(.null, at: token.column))
      case .identifier("in"):
        throw ExpressionError(.syntax, "unexpected 'in'; expected an expression", column: token.column)
      case .identifier(let name):
        _ = advance()
        if current.is("(") { return try call(name, at: token) }
        if name == "not", startsExpression(current) {
          throw ExpressionError(.syntax, "unknown operator 'not'; did you mean '!'?", column: token.column)
        }
        return try node(.name(name, at: token.column))
      case .symbol("("):
        _ = advance()
        try enter(at: token.column)
        defer { leave() }
        let inner = try conditional()
        try expect(")", closing: token)
        return inner
      case .symbol("["):
        _ = advance()
        try enter(at: token.column)
        defer { leave() }
        var elements: [Parsed] = []
        while !current.is("]") {
          elements.append(try conditional())
          if current.is(",") { _ = advance() } else { break }
        }
        try expect("]", closing: token, orComma: true)
        return try node(.list(elements.map(\.syntax), at: token.column), children: elements)
      case .symbol("{"):
        return try mapLiteral(at: advance())
      default:
        throw ExpressionError(.syntax, "unexpected \(token.quoted); expected an expression", column: token.column)
      }
    }

    /// '{' (key ':' conditional (',' key ':' conditional)*)? '}' where a key is a name or a string.
    private mutating func mapLiteral(at open: Token) throws(ExpressionError) -> Parsed {
      try enter(at: open.column)
      defer { leave() }
      var entries: [(key: String, value: Syntax)] = []
      var values: [Parsed] = []
      var seen: Set<String> = []
      while !current.is("}") {
        let keyToken = current
        let key: String
        switch keyToken.kind {
        case .identifier(let name), .string(let name): key = name
        default:
          throw ExpressionError(
            .syntax, "unexpected \(keyToken.quoted); expected a map key (a name or a string)", column: keyToken.column)
        }
        _ = advance()
        guard seen.insert(key).inserted else {
          throw ExpressionError(.syntax, "duplicate key '\(key)' in a map literal", column: keyToken.column)
        }
        guard current.is(":") else {
          throw ExpressionError(
            .syntax, "unexpected \(current.quoted); expected ':' after the map key '\(key)'", column: current.column)
        }
        _ = advance()
        let value = try conditional()
        entries.append((key, value.syntax))
        values.append(value)
        if current.is(",") { _ = advance() } else { break }
      }
      try expect("}", closing: open, orComma: true)
      return try node(.map(entries, at: open.column), children: values)
    }

    /// name '(' (conditional (',' conditional)*)? ')'
    private mutating func call(_ name: String, at token: Token) throws(ExpressionError) -> Parsed {
      guard let function = Builtin(rawValue: name) else {
        let names = Builtin.allCases.map(\.rawValue)
        throw ExpressionError(
          .syntax, "unknown function '\(name)'" + Suggestion.didYouMean(name, in: names),
          column: token.column, notes: ["functions: " + Suggestion.list(names, limit: names.count)])
      }
      let open = advance()
      try enter(at: open.column)
      defer { leave() }
      var arguments: [Parsed] = []
      while !current.is(")") {
        arguments.append(try conditional())
        if current.is(",") { _ = advance() } else { break }
      }
      try expect(")", closing: open, orComma: true)
      guard arguments.count == function.arity else {
        let plural = function.arity == 1 ? "argument" : "arguments"
        throw ExpressionError(
          .syntax, "\(function.signature) takes \(function.arity) \(plural), found \(arguments.count)",
          column: token.column)
      }
      if function == .matches, case .literal(.string(let pattern), let column) = arguments[1].syntax {
        do {
          _ = try LinearPattern.compiled(pattern)
        } catch {
          throw ExpressionError(.syntax, "invalid pattern: \(error.description)", column: column)
        }
      }
      return try node(.call(function, arguments.map(\.syntax), at: token.column), children: arguments)
    }

    private mutating func expect(_ symbol: String, closing open: Token, orComma: Bool = false)
      throws(ExpressionError)
    {
      guard current.is(symbol) else {
        let what = orComma ? "',' or '\(symbol)'" : "'\(symbol)'"
        throw ExpressionError(
          .syntax,
          "unexpected \(current.quoted); expected \(what) to close '\(open.text)' at column \(open.column)",
          column: current.column)
      }
      _ = advance()
    }

    private func startsExpression(_ token: Token) -> Bool {
      switch token.kind {
      case .integer, .decimal, .string: true
      case .identifier(let name): name != "in"
      case .symbol(let s): s == "(" || s == "[" || s == "{" || s == "!" || s == "-"
      case .end: false
      }
    }
  }
}
