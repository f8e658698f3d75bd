import FlowApp
import FlowCore
import Foundation
import Testing

/// The UserDefaults store keeps the flow's values apart from anything it cannot read, which it never overwrites.
@Suite(.serialized) struct UserDefaultsStoreTests {
  let store: UserDefaultsStore
  let defaults: UserDefaults

  init() throws {
    store = UserDefaultsStore(suite: "dev.flowkit.tests.\(UInt64.random(in: 0...UInt64.max))")
    defaults = try #require(UserDefaults(suiteName: store.suite))
  }

  @Test func valuesRoundTripWithTheirTypes() async throws {
    defer { store.reset() }
    let values: [String: Value] = [
      "flag": .bool(true), "count": .int(1), "name": .string("Ana"), "none": .null,
      "habits": .list([.string("sleep"), .map(["at": .int(22)])]),
    ]
    for (key, value) in values { try await store.set(key, to: value) }
    #expect(try await store.load() == values)
    try await store.remove("count")
    #expect(try await store.load()["count"] == nil)
    store.reset()
    #expect(try await store.load() == [:])
  }

  @Test func aValueItCannotReadIsReportedAndNeverOverwritten() async throws {
    defer { store.reset() }
    try await store.set("Goal", to: .string("sleep"))
    defaults.set(42, forKey: "Legacy")
    defaults.set("{not json", forKey: "Broken")
    let expected = StoreError(
      "'Broken' in the defaults suite \(store.suite) holds no flow value; it is left as it is")
    await #expect(throws: expected) { try await store.load() }
    await #expect(throws: expected) { try await store.set("Broken", to: .int(1)) }
    await #expect(throws: expected) { try await store.remove("Broken") }
    #expect(defaults.string(forKey: "Broken") == "{not json")
    // Other keys, declared by the flow or not, are still written and kept.
    try await store.set("Goal", to: .string("focus"))
    #expect(defaults.string(forKey: "Goal") == #""focus""#)
    #expect(defaults.integer(forKey: "Legacy") == 42)
  }
}
