import Testing

@testable import FlowCore

/// `permission.kind` and `experiment.name` are read without building the whole namespace
/// (`Scope.value(of:member:)`): each must give what the whole map gives, and note the same read.
@Suite struct NamespaceMemberTests {
  static let flow = """
    flow: t
    version: "1"
    locales: [en]
    start: a
    permissions: [notifications, camera]
    environment:
      deviceId: { type: string, default: device-0001 }
    experiments:
      paywall: { id: env.deviceId, variants: { early: 50, late: 50 } }
      path: { id: env.deviceId, salt: s, variants: { full: 90, short: 10 } }
    steps:
      a: { kind: terminal }
    """

  /// The member read alone, the member taken from the namespace read whole, and whether each read was noted.
  static func read(_ root: String, _ member: String, bindings: [String: Value]? = nil) throws -> (
    alone: Value?, whole: Value?, notedAlone: AccessLog.Entries, notedWhole: AccessLog.Entries
  ) {
    let engine = Engine(flow: try compileFlow(Self.flow))
    let (state, _) = try engine.launch(Launch(permissions: ["camera": .granted]))
    var run = Run(engine: engine, state: state)
    let aloneLog = AccessLog(variableCount: 0)
    run.log = aloneLog
    let alone = run.withScope(bindings) { $0.value(of: root, member: member) }
    let wholeLog = AccessLog(variableCount: 0)
    run.log = wholeLog
    let whole = run.withScope(bindings) { scope -> Value? in
      guard case .map(let entries) = scope.value(of: root) else { return nil }
      return entries[member] ?? .null
    }
    return (alone, whole, aloneLog.current, wholeLog.current)
  }

  @Test(arguments: [
    ("permission", "camera"), ("permission", "notifications"), ("permission", "location"),
    ("experiment", "paywall"), ("experiment", "path"), ("experiment", "pricing"),
  ])
  func aMemberReadAloneIsTheMemberOfTheWholeNamespace(_ root: String, _ member: String) throws {
    let read = try Self.read(root, member)
    #expect(read.alone != nil)
    #expect(read.alone == read.whole)
    #expect(read.notedAlone.readPermissions == (root == "permission"))
    #expect(read.notedAlone.readVariants == (root == "experiment"))
    #expect(read.notedAlone.readPermissions == read.notedWhole.readPermissions)
    #expect(read.notedAlone.readVariants == read.notedWhole.readVariants)
  }

  @Test func theMembersAreTheStatusesAndVariantsOfTheRun() throws {
    #expect(try Self.read("permission", "camera").alone == .string("granted"))
    #expect(try Self.read("permission", "notifications").alone == .string("notDetermined"))
    #expect(try Self.read("permission", "location").alone == .null)
    #expect(try [.string("early"), .string("late")].contains(Self.read("experiment", "paywall").alone))
    #expect(try [.string("full"), .string("short")].contains(Self.read("experiment", "path").alone))
    #expect(try Self.read("experiment", "pricing").alone == .null)
  }

  /// A binding of the namespace's name wins, as it does for `value(of:)`: the member is then left to the whole read.
  @Test func aBindingOfThatNameIsReadWhole() throws {
    let read = try Self.read("permission", "camera", bindings: ["permission": .map(["camera": .string("bound")])])
    #expect(read.alone == nil)
    #expect(read.whole == .string("bound"))
  }

  /// Namespaces the context does not build (`env`, `store`, variables) are read whole.
  @Test(arguments: ["env", "store", "step"])
  func otherRootsAreReadWhole(_ root: String) throws {
    #expect(try Self.read(root, "deviceId").alone == nil)
  }
}
