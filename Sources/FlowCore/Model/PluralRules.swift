/// A CLDR plural category: which form of a text a number takes (`one`: "1 try left", `other`: "3 tries left").
package enum PluralCategory: String, CaseIterable, Sendable, Hashable {
  case zero, one, two, few, many, other
}

/// The CLDR cardinal plural rules of the languages FlowKit knows, by language code (the part of a locale before
/// `-`). A language not in the table uses `other` for every number; adding a language is one line of ``table``.
package enum PluralRules {
  /// The CLDR operands of a number: `i`, its integer digits, and `v`, how many fraction digits it is written with
  /// (`1` has v = 0, `1.0` and `1.5` have v = 1).
  package struct Operands: Sendable {
    package var integer: Int
    package var fractionDigits: Int
    /// The number itself (n), without its sign.
    package var number: Double
  }

  package typealias Rule = @Sendable (Operands) -> PluralCategory

  /// `one` for 1 written without a fraction, else `other` (English, German, Dutch, Swedish, Italian, ...).
  static let oneForOne: Rule = { $0.integer == 1 && $0.fractionDigits == 0 ? .one : .other }
  /// Always `other` (Japanese, Chinese, Korean, ...: no plural forms).
  static let onlyOther: Rule = { _ in .other }
  /// `one` for 0 and 1 and anything between (French, Portuguese).
  static let oneForZeroAndOne: Rule = { $0.integer <= 1 ? .one : .other }
  /// East Slavic (Russian, Ukrainian): one, few, many by the last digits.
  static let eastSlavic: Rule = { operands in
    guard operands.fractionDigits == 0 else { return .other }
    let last = operands.integer % 10, lastTwo = operands.integer % 100
    if last == 1 && lastTwo != 11 { return .one }
    if (2...4).contains(last) && !(12...14).contains(lastTwo) { return .few }
    return .many
  }

  /// language code -> rule.
  package static let table: [String: Rule] = [
    "en": oneForOne, "de": oneForOne, "nl": oneForOne, "sv": oneForOne, "it": oneForOne, "es": oneForOne,
    "ja": onlyOther, "zh": onlyOther, "ko": onlyOther,
    "fr": oneForZeroAndOne, "pt": oneForZeroAndOne,
    "ru": eastSlavic, "uk": eastSlavic,
  ]

  /// The category `value` (an int or a decimal) takes in `locale`; `other` for anything else.
  package static func category(of value: Value, locale: String) -> PluralCategory {
    let operands: Operands
    switch value {
    case .int(let i):
      operands = Operands(integer: Int(clamping: i.magnitude), fractionDigits: 0, number: Double(i.magnitude))
    case .decimal(let d):
      let text = Value.decimalText(d.magnitude)
      let fraction = text.split(separator: ".").dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
      let whole = d.magnitude < 9e18 ? Int(d.magnitude) : Int.max
      operands = Operands(integer: whole, fractionDigits: fraction, number: d.magnitude)
    default: return .other
    }
    let language = String(locale.split(separator: "-").first ?? "")
    return (table[language] ?? onlyOther)(operands)
  }
}
