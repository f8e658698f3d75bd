package import FlowCore

/// A scenario table: one flow and the cases that pin its behaviour down.
package struct ScenarioFile: Sendable {
  package var path: String
  /// The flow file, resolved relative to the scenario file.
  package var flowPath: String
  /// Where `flow:` names the flow file.
  package var flowLocation: SourceLocation = .unknown
  package var cases: [ScenarioCase]
}

/// One row: the world (environment, provider answers, store), the user's commands and what must happen.
package struct ScenarioCase: Sendable, Hashable {
  package var name: String
  package var source: String?
  package var location: SourceLocation
  package var environment: [String: Value] = [:]
  package var clock: Double?
  package var permissions: [PermissionKind: PermissionStatus] = [:]
  /// Scripted answers by permission kind, action name or step id.
  package var answers: [String: [ActionAnswer]] = [:]
  /// Where each of `answers` was written, in the same order.
  package var answerPositions: [String: [AnswerPositions]] = [:]
  package var store: [String: Value] = [:]
  package var storeCorrupted = false
  /// The variant pinned per experiment (`variants:`).
  package var variants: [String: String] = [:]
  package var steps: [ScenarioStep] = []
  package var expect = Expectations()
  /// Where each `env:`, `permissions:` and `answers:` key was written (the case's own, else its table's
  /// `defaults:`), for checking them against the flow.
  package var settingLocations: [ScenarioSetting: SourceLocation] = [:]
  /// The steps and variables the row's checks name (`at`, `path`, `skipped`, `variables`), by where each is
  /// written, for checking them against the flow.
  package var references: [SourceLocation: ScenarioReference] = [:]
}

/// A name of the flow a scenario case's checks use.
package enum ScenarioReference: Sendable, Hashable {
  case step(String)
  case variable(String)
}

/// A name a scenario case gives the device: an environment fact, a permission kind, or the key of scripted
/// answers.
package enum ScenarioSetting: Sendable, Hashable {
  case fact(String)
  case permission(String)
  case answers(String)
  /// An experiment of `variants:`.
  case variant(String)
}

/// A line of a case's `commands`: a command, possibly one that must be refused, or a check of the screen.
package enum ScenarioStep: Sendable, Hashable {
  /// A command; one that must be refused may name the refusal's whole message.
  case command(Command, mustBeRejected: Bool, message: String? = nil, location: SourceLocation)
  case check(ScreenCheck, location: SourceLocation)
}

/// What the current screen must show at a point in the commands.
package struct ScreenCheck: Sendable, Hashable {
  package var at: String?
  package var title: String?
  package var body: String?
  package var language: String?
  /// Button name (`next`, `skip`, `request`, a button's name) -> expected label and enabled state.
  package var buttons: [String: ButtonCheck] = [:]
  /// Buttons that must not be shown.
  package var hidden: [String] = []
  package var canGoBack: Bool?
  package var variables: [String: Value] = [:]
  /// A choice step's option labels in order.
  package var options: [String]?
  /// A text-input step's placeholder and prefilled text.
  package var placeholder: String?
  package var prefill: String?
  /// The dialog the step waits on (`restore-profile`, `request-permission notifications`), or "" for none.
  package var waiting: String?
  /// Form fields by name: nil when the field must be hidden.
  package var fields: [String: FieldCheck?] = [:]

  package struct FieldCheck: Sendable, Hashable {
    package var label: String?
    package var placeholder: String?
    package var prefill: String?
    package var options: [String]?
    package var minimum: String?
    package var maximum: String?
    package var isSecure: Bool?
  }

  package struct ButtonCheck: Sendable, Hashable {
    package var label: String?
    package var enabled: Bool?
  }
}

package struct Expectations: Sendable, Hashable {
  /// The exact sequence of steps entered.
  package var path: [String]?
  /// The exact sequence of outward effects (track, userProperty, requestReview, syncProfile, placement,
  /// completeOnboarding, log).
  package var events: [String]?
  /// Effects (any kind, as one-line summaries) that must appear in this order, others allowed between.
  package var includes: [String] = []
  /// Summaries (or their prefixes) that must not appear.
  package var excludes: [String] = []
  /// Store values at the end (only the keys given are compared); `null` means the key is absent.
  package var store: [String: Value] = [:]
  package var variables: [String: Value] = [:]
  package var at: String?
  /// The terminal outcome, or `false` when the flow must not have ended.
  package var ended: Value?
  /// Dialogs shown, in order (permission kinds, or action names).
  package var dialogs: [String]?
  package var skipped: [String]?
  package var stale: Int?
  /// Substrings of warnings that must have been reported.
  package var warnings: [String] = []
}

extension ScenarioCase {
  /// `source` and `name` as a reader sees them.
  package var title: String { source.map { "\(name) (\($0))" } ?? name }
}
