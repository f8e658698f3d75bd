// MARK: - API

extension FlowExpression {
  /// The expression with every name path replaced by its value in `context`, keeping the operators:
  /// `!(env.osVersion >= 26 && env.alarmKitAvailable)` becomes `!(18 >= 26 && false)`.
  ///
  /// Strings are shown quoted, lists in brackets, maps as `{"key": value}`. A name that cannot be
  /// evaluated (unknown, or read from a value that is not a map) is left as written. Parentheses are
  /// those the operators need, so redundant ones in the source are dropped. Function calls are kept.
  package func explain(in context: some ExpressionContext) -> String {
    Explainer(evaluator: Evaluator(context: context)).render(syntax, atLeast: 0)
  }
}

// MARK: - Explainer

struct Explainer<Context: ExpressionContext> {
  typealias Syntax = FlowExpression.Syntax
  let evaluator: Evaluator<Context>

  /// The node's text, parenthesized when it binds looser than `precedence`.
  func render(_ node: Syntax, atLeast precedence: Int) -> String {
    let (text, own) = render(node)
    return own < precedence ? "(" + text + ")" : text
  }

  private func render(_ node: Syntax) -> (text: String, precedence: Int) {
    if node.path != nil, let value = try? evaluator.evaluate(node) {
      return literal(value)
    }
    switch node {
    case .literal(let value, _):
      return literal(value)
    case .list(let elements, _):
      return (
        "[" + elements.map { render($0, atLeast: 0) }.joined(separator: ", ") + "]", FlowExpression.primaryPrecedence
      )
    case .map(let entries, _):
      let text = entries.map { Value.mapKeyText($0.key) + ": " + render($0.value, atLeast: 0) }
      return ("{" + text.joined(separator: ", ") + "}", FlowExpression.primaryPrecedence)
    case .name(let name, _):
      return (name, FlowExpression.primaryPrecedence)
    case .member(let base, let name, _):
      return (render(base, atLeast: FlowExpression.primaryPrecedence) + "." + name, FlowExpression.primaryPrecedence)
    case .index(let base, let key, _):
      let text = render(base, atLeast: FlowExpression.primaryPrecedence) + "[" + render(key, atLeast: 0) + "]"
      return (text, FlowExpression.primaryPrecedence)
    case .unary(let op, let operand, _):
      var text = render(operand, atLeast: FlowExpression.unaryPrecedence)
      if op == .negate, text.hasPrefix("-") { text = "(" + text + ")" }
      return (op.rawValue + text, FlowExpression.unaryPrecedence)
    case .binary(let op, let left, let right, _):
      let own = op.precedence
      let leftText = render(left, atLeast: op.isRightAssociative ? own + 1 : own)
      let rightText = render(right, atLeast: op.isRightAssociative ? own : own + 1)
      return (leftText + " " + op.rawValue + " " + rightText, own)
    case .conditional(let condition, let then, let otherwise, _):
      let own = FlowExpression.conditionalPrecedence
      let text =
        render(condition, atLeast: own + 1) + " ? " + render(then, atLeast: own) + " : "
        + render(otherwise, atLeast: own)
      return (text, own)
    case .call(let function, let arguments, _):
      let text = function.rawValue + "(" + arguments.map { render($0, atLeast: 0) }.joined(separator: ", ") + ")"
      return (text, FlowExpression.primaryPrecedence)
    }
  }

  private func literal(_ value: Value) -> (text: String, precedence: Int) {
    if case .int(let i) = value, i < 0 { return (value.description, FlowExpression.unaryPrecedence) }
    if case .decimal(let d) = value, d < 0 { return (value.description, FlowExpression.unaryPrecedence) }
    return (value.description, FlowExpression.primaryPrecedence)
  }
}
