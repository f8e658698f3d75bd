// A command-line stand-in for the app (README shows this file): loads the flow, runs it with the app's
// providers, shows each screen as text and reads what the user does from standard input (TextUI.swift).
import FlowCore
import Onboarding

let (flow, diagnostics) = FlowCompiler.compile(json: try bundledFlowJSON(), file: "onboarding.json")
guard let flow, diagnostics.isEmpty else { fatalError("the flow does not compile: \(diagnostics)") }
let store = DefaultsStore(suite: "dev.flowkit.hostapp")
store.clear()  // a fresh install
let system = SystemDialogs(facts: ["osVersion": 26, "alarmKitAvailable": true, "locale": "en-US"], answer: askUser)
try await run(flow, with: AppProviders.make(system: system, store: store, analytics: Analytics { print("  \($0)") }))

func run(_ flow: Flow, with providers: Providers) async throws {
  var session = FlowSession(flow: flow, providers: providers)
  _ = try await session.launch()
  while let screen = try session.screen(), let line = show(screen) {
    guard let event = event(for: line, on: screen) else { continue }
    do { _ = try await session.send(event) } catch { print("  refused: \(error)") }
  }
}
