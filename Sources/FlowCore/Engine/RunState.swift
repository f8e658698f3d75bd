/// Everything the engine knows about one run of a flow. A value: copy it to branch, compare it to deduplicate.
public struct RunState: Sendable, Hashable {
  public var current: StepIndex?
  /// Steps the user can go back to, most recent last.
  public var history = History()
  /// Variable values by index in ``Flow/variables``.
  public var variables: [Value] = []
  /// Permission statuses by kind, as read at launch and answered since.
  public var permissions: [PermissionKind: PermissionStatus] = [:]
  public var environment: [String: Value] = [:]
  /// The raw stored values at launch (`store.KEY`).
  public var store: [String: Value] = [:]
  /// Seconds since midnight on the virtual clock.
  public var clock: Double = 9 * 3600
  /// When the pending auto-advance fires (clock seconds), if one is pending.
  public var timer: Double?
  /// The action or permission request waiting for its outcome.
  public var pending: Pending?
  /// Set once a terminal step is reached.
  public var ended: Ended?

  public init() {}

  /// An action or permission request waiting for its outcome (``FlowEvent/outcome(_:result:)``).
  public struct Pending: Sendable, Hashable {
    public var action: ActionName
    public var permission: PermissionKind?
    /// The button that started it, or nil for an action step / permission request.
    public var button: String?
  }

  /// The terminal step the run ended at, and its outcome (`completed`, `paywall`, `home`).
  public struct Ended: Sendable, Hashable {
    public var step: StepIndex
    public var outcome: TerminalOutcome
  }
}
