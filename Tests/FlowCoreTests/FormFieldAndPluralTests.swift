import Testing

@testable import FlowCore

/// The CLDR plural rules of the table, and the helpers form fields parse and compare values with.
struct FormFieldAndPluralTests {
  @Test(arguments: [
    (Value.int(1), "en", PluralCategory.one), (.int(0), "en", .other), (.int(2), "en", .other),
    (.int(-1), "en", .one), (.decimal(1.0), "en", .other), (.decimal(1.5), "en-GB", .other),
    (.int(1), "ja", .other), (.int(1), "ja-JP", .other), (.int(0), "fr", .one), (.decimal(1.5), "fr", .one),
    (.int(2), "fr", .other), (.int(1), "ru", .one), (.int(2), "ru", .few), (.int(5), "ru", .many),
    (.int(11), "ru", .many), (.int(12), "ru", .many), (.int(21), "ru", .one), (.int(22), "ru", .few),
    (.int(111), "ru", .many), (.decimal(1.5), "ru", .other), (.int(1), "xx", .other), (.string("1"), "en", .other),
    (.int(Int.min), "en", .other), (.decimal(1e300), "en", .other),
  ])
  func pluralCategories(_ value: Value, _ locale: String, _ expected: PluralCategory) {
    #expect(PluralRules.category(of: value, locale: locale) == expected, "\(value) in \(locale)")
  }

  @Test(arguments: [
    (Value.int(1), Value.decimal(1.5), Int?(-1)), (.decimal(2), .int(2), 0), (.date(10), .date(5), 1),
    (.date(0), .string("1970-01-02"), -1), (.string("09:30"), .string("10:00"), -1),
    (.string("9:30"), .string("09:30"), 0), (.duration(60), .duration(30), 1), (.bool(true), .int(1), nil),
    (.date(0), .string("not a date"), nil),
  ])
  func fieldBoundsCompare(_ a: Value, _ b: Value, _ expected: Int?) {
    #expect(Value.order(a, b) == expected)
  }

  @Test func fieldValuesReadAndWriteAsText() {
    #expect(Step.Field.text(of: .date(951_782_400)) == "2000-02-29")
    #expect(Step.Field.text(of: .list([.string("a"), .string("b")])) == "a,b")
    #expect(Step.Field.text(of: .decimal(80.5)) == "80.5")
    #expect(Step.Field.text(of: .null) == nil)
    #expect(Step.Field.FieldType.date.valueType == .date)
    #expect(Step.Field.FieldType.multiChoice.valueType == .list)
    #expect(Step.Field.FieldType.toggle.valueType == .bool)
  }
}
