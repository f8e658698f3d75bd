public import FlowCore
import Foundation
public import Observation

/// The onboarding as the app's UI sees it: the current screen, and the events a user's taps send. A SwiftUI
/// view binds to it (`OnboardingView`); the command-line host drives the same model.
@MainActor @Observable
public final class OnboardingModel {
  /// What the current step shows; nil before ``start()``.
  public private(set) var screen: Screen?
  /// Why the last event was refused or the flow failed, for the UI to show.
  public private(set) var problem: String?
  private var session: FlowSession

  /// A model running a flow the app ships, with the app's providers.
  public init(flow: Flow, providers: Providers) {
    session = FlowSession(flow: flow, providers: providers)
  }

  /// Starts the flow, or resumes it where the store says it was left.
  public func start() async { await update { session in try await session.launch() } }

  /// Sends what the user did (a button's ``Screen/Button/event``, `.choose`, `.input`).
  public func send(_ event: FlowEvent) async { await update { session in try await session.send(event) } }

  private func update(_ change: (inout FlowSession) async throws -> [TraceEntry]) async {
    // A copy, so a tap while a provider is answering never sees a half-updated session.
    var next = session
    do {
      _ = try await change(&next)
      session = next
      problem = nil
      screen = try session.screen()
    } catch {
      problem = "\(error)"
    }
  }
}

/// The flow the app ships, exported from `onboarding.yaml` with `flowrun export onboarding.yaml --json`; compile
/// it with `FlowCompiler.compile(json:file:)`.
public func bundledFlowJSON() throws -> [UInt8] {
  Array(try Data(contentsOf: Bundle.module.url(forResource: "onboarding", withExtension: "json")!))
}
