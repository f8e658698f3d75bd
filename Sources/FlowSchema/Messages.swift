internal import FlowCore

/// Wording of schema diagnostics: lowercase, names in single quotes, "expected X, found Y".
enum Messages {
  /// "1 item", "3 items", "1 property", "2 properties".
  static func count(_ number: Int, _ noun: String) -> String {
    if number == 1 { return "1 \(noun)" }
    return noun.hasSuffix("y") ? "\(number) \(noun.dropLast())ies" : "\(number) \(noun)s"
  }

  /// Values for an "expected one of" list: strings quoted and sorted by `Suggestion.list`, others rendered.
  static func list(_ values: [Node]) -> String {
    if values.allSatisfy({ $0.string != nil }) { return Suggestion.list(values.compactMap(\.string)) }
    let rendered = values.prefix(12).map { NodeRendering.short($0, limit: 30) }.joined(separator: ", ")
    return values.count > 12 ? rendered + ", ..." : rendered
  }

  static func const(_ expected: Node, found: Node, _ subject: Subject) -> String {
    "expected \(NodeRendering.short(expected)), found \(NodeRendering.short(found))"
  }

  static func enumeration(_ values: [Node], found: Node, _ subject: Subject) -> String {
    unknownValue(found, noun: subject.key ?? "value", expected: values)
  }

  /// "unknown kind 'scren'; expected one of 'choice', 'screen'; did you mean 'screen'?"
  static func unknownValue(_ found: Node, noun: String, expected: [Node]) -> String {
    var text = "unknown \(noun) \(NodeRendering.short(found)); expected one of \(list(expected))"
    if let name = found.string {
      text += Suggestion.didYouMean(name, in: expected.compactMap(\.string))
    }
    return text
  }

  /// "unknown property 'nxt'; expected one of 'next', 'skip'; did you mean 'next'?"
  static func unknownProperty(_ name: String, known: [String], patterns: [String]) -> String {
    var alternatives: [String] = []
    if !known.isEmpty { alternatives.append(Suggestion.list(known)) }
    alternatives += patterns
    let expected: String
    let suggestion = Suggestion.didYouMean(name, in: known)
    switch (known.count, patterns.count) {
    case (1, 0) where !suggestion.isEmpty: return "unknown property '\(name)'" + suggestion
    case (0, 0): expected = "no properties are allowed here"
    case (1, 0): expected = "expected \(alternatives[0])"
    default: expected = "expected one of \(alternatives.joined(separator: " or "))"
    }
    return "unknown property '\(name)'; \(expected)" + suggestion
  }

  /// "'a'", "'a' and 'b'", "'a', 'b' and 'c'".
  static func conjunction(_ words: [String]) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
  }

  /// Why a value matched a `not` schema: "property name 'stay' is not allowed", else the schema's title or
  /// location.
  static func forbidden(_ found: Node, _ schema: SchemaKeywords, _ subject: Subject) -> String {
    let what = subject.isPropertyName ? "property name \(NodeRendering.short(found))" : NodeRendering.short(found)
    if schema.constValue != nil || schema.enumValues != nil { return "\(what) is not allowed here" }
    if let title = schema.title { return "\(what) must not be \(title)" }
    return "\(what) must not match the schema at '\(schema.pointer)'"
  }

  /// How a branch of `anyOf`/`oneOf` is named in a summary: its title, else its position and types.
  static func branchName(_ position: Int, _ facts: BranchFacts) -> String {
    if let title = facts.title { return "'\(title)'" }
    if let types = facts.declaredTypes, !types.isEmpty { return "form \(position + 1): \(types.phrase)" }
    return "form \(position + 1)"
  }
}
