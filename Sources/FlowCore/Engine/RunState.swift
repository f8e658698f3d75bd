/// Everything the engine knows about one run of a flow. A value: copy it to branch, compare it to deduplicate.
public struct RunState: Sendable, Hashable {
  package var current: StepIndex?
  /// Steps the user can go back to, most recent last.
  package var history = History()
  /// Variable values, in the order the flow's `variables:` section declares them.
  public package(set) var variables: [Value] = []
  /// Permission statuses by kind, as read at launch and answered since.
  public package(set) var permissions: [PermissionKind: PermissionStatus] = [:]
  package var environment: [String: Value] = [:]
  /// The raw stored values at launch (`store.KEY`).
  package var store: [String: Value] = [:]
  /// Seconds since midnight on the virtual clock.
  package var clock: Double = 9 * 3600
  /// When the pending auto-advance fires (clock seconds), if one is pending.
  package var timer: Double?
  /// The action or permission request waiting for its outcome.
  package var pending: Pending?
  /// Whether the app is in the background (between ``FlowEvent/background`` and ``FlowEvent/foreground(permissions:)``).
  package var inBackground = false
  /// The variant of each of the flow's experiments (an index into its variants, in the order the flow declares
  /// the experiments), assigned at launch; empty before.
  package var variants: [Int] = []
  /// Set once a terminal step is reached.
  public package(set) var ended: Ended?

  package init() {}

  /// Whether an action or permission request waits for its outcome; tested without copying ``pending`` (which
  /// the engine does on every event).
  var isWaiting: Bool { if case .some = pending { true } else { false } }
  /// Whether the run has ended; tested without copying ``ended``.
  var hasEnded: Bool { if case .some = ended { true } else { false } }

  /// An action or permission request waiting for its outcome (``FlowEvent/outcome(_:result:)``).
  package struct Pending: Sendable, Hashable {
    package var action: ActionName
    package var permission: PermissionKind?
    /// The button that started it, or nil for an action step / permission request.
    package var button: String?
    /// The index of the flow's `launch:` entry that started it, for an action run at launch (no step yet).
    package var launchItem: Int? = nil
  }

  /// The terminal step the run ended at, and its outcome (`completed`, `paywall`, `home`).
  public struct Ended: Sendable, Hashable {
    package var step: StepIndex
    /// The terminal step's outcome.
    public let outcome: TerminalOutcome

    package init(step: StepIndex, outcome: TerminalOutcome) {
      self.step = step
      self.outcome = outcome
    }
  }
}
