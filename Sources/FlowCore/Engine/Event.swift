/// Something that happens to a running flow: a user command, a provider's answer, time passing, a relaunch.
public enum FlowEvent: Sendable, Hashable {
  /// The app starts or is relaunched (killed and started again): in-memory state is lost and the flow
  /// resumes from the store as its `resume` routes say.
  case launch(Launch)
  /// Confirm the step (`next`): follows its `next` transition.
  case next
  /// Skip the step: follows its `skip` transition.
  case skip
  /// Go back to the previous step, when the step allows it.
  case back
  /// Select one or several options and confirm.
  case choose([String])
  /// Text for a text-input step.
  case input(String)
  /// Named fields for a form step.
  case inputFields([String: String])
  /// Tap a named button (`request` on a permission step).
  case tap(String)
  /// The answer to the pending action or permission request, with its result values.
  case outcome(String, result: [String: Value])
  /// Virtual time passes.
  case elapse(seconds: Double)
  /// Clear what the flow's `reset` names and start again.
  case reset
  /// The app goes to the background (the user switches to another app or to Settings). Until it comes back,
  /// only ``foreground(permissions:)``, time, a launch and provider answers are accepted.
  case background
  /// The app returns from the background with the permission statuses read again (the user may have changed
  /// them in Settings meanwhile); then the flow's `foreground:` effects and routes run.
  case foreground(permissions: [PermissionKind: PermissionStatus])
  /// A deep link opened while the flow runs (`anicca://referral?code=A1`): the flow's `open:` entry the URL
  /// names runs with the URL's query items as `params`.
  case open(String)

  /// A short name for traces and messages.
  package var name: String {
    switch self {
    case .launch: "launch"
    case .next: "next"
    case .skip: "skip"
    case .back: "back"
    case .choose: "choose"
    case .input, .inputFields: "input"
    case .tap(let button): "tap \(button)"
    case .outcome(let outcome, _): "outcome \(outcome)"
    case .elapse: "wait"
    case .reset: "reset"
    case .background: "background"
    case .foreground: "foreground"
    case .open: "open"
    }
  }
}

/// What the app knows when it starts: the device, the permission statuses and the stored values.
public struct Launch: Sendable, Hashable {
  /// Facts by name (`osVersion`); missing facts take the flow's defaults.
  package var environment: [String: Value]
  /// Permission statuses by kind (`notDetermined`, `granted`, `denied`, `unavailable`).
  package var permissions: [PermissionKind: PermissionStatus]
  /// The stored values by key, or nil when the store could not be read (then defaults are used).
  package var store: [String: Value]?
  /// Why the store could not be read, reported as a warning.
  package var storeProblem: String?
  /// The virtual clock: seconds since 1970-01-01 00:00 UTC (under a day: a time of day on that day).
  package var clock: Double
  /// Variants pinned by experiment name (`flowrun --variant`, a scenario's `variants:`, the app): they win over
  /// the assignment by bucket.
  package var variants: [String: String]

  package init(
    environment: [String: Value] = [:], permissions: [PermissionKind: PermissionStatus] = [:],
    store: [String: Value]? = [:],
    storeProblem: String? = nil, clock: Double = 9 * 3600, variants: [String: String] = [:]
  ) {
    self.environment = environment
    self.permissions = permissions
    self.store = store
    self.storeProblem = storeProblem
    self.clock = clock
    self.variants = variants
  }
}
