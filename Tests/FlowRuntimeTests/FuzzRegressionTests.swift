import FlowCore
import FlowRuntime
import FlowTestSupport
import FlowYAML
import Foundation
import Testing

/// Inputs the scenario and store fuzz targets (Fuzz/Targets/scenario.swift, store.swift) keep in
/// Tests/FuzzRegressions/{scenario,store}: each must load or fail with a clear error.
struct FuzzRegressionTests {
  @Test(
    "every scenario regression input loads or fails with diagnostics", arguments: FuzzRegressions.inputs("scenario"))
  func scenario(_ name: String) throws {
    let bytes = try FuzzRegressions.bytes(name)
    do {
      _ = try ScenarioLoader.load(bytes: bytes, path: "Tests/Scenarios/fuzz.yaml")
    } catch {
      #expect(!error.diagnostics.isEmpty)
    }
  }

  @Test(
    "every store regression input reads or fails with a message naming the file",
    arguments: FuzzRegressions.inputs("store"))
  func store(_ name: String) throws {
    let path = FuzzRegressions.path(name)
    do {
      _ = try FileStore.read(path: path)
    } catch {
      #expect(error.message.hasPrefix(path))
    }
  }

  /// An empty store file is refused by name. (Reading it hit a swift-foundation leak of the read buffer, see
  /// Fuzz/lsan.supp; FlowKit's part is the message.)
  @Test("an empty store file is refused with a clear message")
  func emptyStore() {
    let path = FuzzRegressions.path("store/empty.json")
    let error = #expect(throws: StoreError.self) { _ = try FileStore.read(path: path) }
    #expect(error?.message == "\(path): the store file is empty")
  }
}

/// The limits in docs/limits.md that the runtime enforces, each with the message it gives.
struct RuntimeLimitTests {
  @Test("the documented automatic-move limit is the engine's default")
  func automaticMoveDefault() throws {
    let flow = try compileFlow(
      """
      flow: f
      version: "1"
      locales: [en]
      start: a
      steps:
        a: { kind: screen, next: b }
        b: { kind: terminal, outcome: completed }
      """)
    #expect(Engine(flow: flow).maxAutomaticMoves == 1_000)
  }

  @Test("more than 1,000 automatic moves in one event stop the run with a clear error")
  func automaticMoves() async throws {
    // A chain of 1,001 steps that all skip themselves: no loop, just too long.
    let count = 1_001
    var yaml = """
      flow: chain
      version: "1"
      locales: [en]
      start: a
      steps:
        a: { kind: screen, next: s0 }

      """
    for i in 0..<count {
      yaml += "  s\(i): { kind: screen, skipIf: \"true\", next: \(i + 1 < count ? "s\(i + 1)" : "done") }\n"
    }
    yaml += "  done: { kind: terminal, outcome: completed }\n"
    let flow = try compileFlow(yaml)
    var session = FlowSession(flow: flow, providers: .fakes())
    _ = try await session.launch()
    let error = (await #expect(throws: FlowError.self) { _ = try await session.send(.next) })?.failure
    #expect(error?.message == "more than 1000 automatic moves in one event")
    #expect(session.state.current == 0)
  }

  @Test("a scenario file over 8 MiB is refused with both sizes")
  func scenarioFileSize() throws {
    let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: 8 << 20) + [0x0A]
    let error = #expect(throws: ScenarioLoadError.self) {
      _ = try ScenarioLoader.load(bytes: bytes, path: "big.yaml")
    }
    #expect(
      error?.diagnostics.map(\.description) == [
        "big.yaml:1:1: error: the input is 8388609 bytes, more than the limit of 8388608 bytes [load]"
      ])
  }

  @Test("a store file over 8 MiB is refused with both sizes")
  func storeFileSize() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flowkit-big-store-\(getpid()).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = "{\"k\": \"" + String(repeating: "x", count: 8 << 20) + "\"}"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: StoreError.self) { _ = try FileStore.read(path: path) }
    #expect(
      error?.message == "\(path):1:1: error: the input is 8388617 bytes, more than the limit of 8388608 bytes [load]")
  }
}
