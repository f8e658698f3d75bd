import Testing

@testable import FlowCore

struct SuggestionTests {
  static let names = ["osVersion", "alarmKitAvailable", "locale", "deviceId"]

  @Test(
    arguments: [
      ("osVerson", "osVersion"),
      ("OSVERSION", "osVersion"),
      ("locael", "locale"),
      ("alarmkitavailble", "alarmKitAvailable"),
      ("devicId", "deviceId"),
    ] as [(String, String)])
  func suggests(_ name: String, _ expected: String) {
    #expect(Suggestion.closest(to: name, in: Self.names) == expected)
  }

  @Test(arguments: ["x", "vers", "loc", "completelyDifferent", ""])
  func staysQuietWhenNothingIsClose(_ name: String) {
    #expect(Suggestion.closest(to: name, in: Self.names) == nil)
  }

  @Test func shortNamesAllowOneEdit() {
    #expect(Suggestion.closest(to: "ab", in: ["ac", "zz"]) == "ac")
    #expect(Suggestion.closest(to: "ab", in: ["cd"]) == nil)
  }

  @Test func tiesGoToTheCandidateThatSortsFirst() {
    #expect(Suggestion.closest(to: "cat", in: ["cut", "bat", "cap"]) == "bat")
    #expect(Suggestion.closest(to: "cat", in: ["cap", "cut", "bat"]) == "bat")
  }

  @Test func listsNamesSortedQuotedAndTruncated() {
    #expect(Suggestion.list(["b", "a", "c", "a"]) == "'a', 'b', 'c'")
    #expect(Suggestion.list([String]()) == "")
    let many = (1...15).map { "n\(String($0).count == 1 ? "0" : "")\($0)" }
    #expect(
      Suggestion.list(many)
        == "'n01', 'n02', 'n03', 'n04', 'n05', 'n06', 'n07', 'n08', 'n09', 'n10', 'n11', 'n12', ..."
    )
    #expect(Suggestion.list(["x", "y", "z"], limit: 2) == "'x', 'y', ...")
  }

  @Test func didYouMeanIsEmptyWithoutASuggestion() {
    #expect(Suggestion.didYouMean("locael", in: Self.names) == "; did you mean 'locale'?")
    #expect(Suggestion.didYouMean("zzz", in: Self.names) == "")
  }
}
