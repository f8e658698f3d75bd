// A command-line stand-in for the app (README shows this file): loads the flow, runs it with the app's
// providers through FlowApp's session model, shows each screen as text and reads what the user does from
// standard input (TextUI.swift).
import FlowApp
import FlowCore
import Onboarding

let (flow, diagnostics) = FlowCompiler.compile(json: try bundledFlowJSON(), file: "onboarding.json")
guard let flow, diagnostics.isEmpty else { fatalError("the flow does not compile: \(diagnostics)") }
let store = UserDefaultsStore(suite: "dev.flowkit.hostapp")
store.reset()  // a fresh install
let system = SystemDialogs(facts: ["osVersion": 26, "alarmKitAvailable": true, "locale": "en-US"], answer: askUser)
let analytics = Analytics { print("  \($0)") }
let model = FlowSessionModel(
  flow: flow, providers: AppProviders.make(system: system, store: store, analytics: analytics))
await model.start()
while let screen = model.screen, let line = show(screen) {
  guard let event = event(for: line, on: screen) else { continue }
  await model.send(event)
  if let error = model.error { print("  refused: \(error)") }
}
