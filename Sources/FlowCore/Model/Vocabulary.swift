/// The words of the flow language that name things outside the flow: permission kinds and statuses, system
/// actions, dialogs and terminal outcomes. Each is a type, so a misspelling is caught where text is read, in
/// one place per word (``VocabularyWord/parse(_:among:)``), instead of wherever strings are compared.

/// A kind of permission a flow asks for (`notifications`, `microphone`, ...). The flow declares the kinds it
/// uses under `permissions:`; the well-known ones are static members.
public struct PermissionKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The kind as written in the flow: `notifications`.
  public let rawValue: String
  /// The kind spelled `rawValue`; any name is a kind, whether a flow declares it is checked by the linter.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The kind spelled by a literal: `"notifications"`.
  public init(stringLiteral value: String) { self.init(rawValue: value) }
  /// The kind as written in the flow.
  public var description: String { rawValue }

  /// Notifications (`UNUserNotificationCenter`).
  public static let notifications: Self = "notifications"
  /// The microphone.
  public static let microphone: Self = "microphone"
  /// HealthKit.
  public static let healthKit: Self = "healthKit"
  /// Location.
  public static let location: Self = "location"
  /// AlarmKit alarms.
  public static let alarmKit: Self = "alarmKit"

  /// Whether a request after a partial grant shows the system dialog again, as iOS does for provisional
  /// notifications (it asks for full authorization) and for location allowed only while the app is in use (it
  /// asks to allow it always). Any other kind (HealthKit, whose sheet lists only types not yet asked; photos
  /// limited to a selection) answers `partial` again at once, without a dialog.
  package var asksAgainWhenPartial: Bool { self == .notifications || self == .location }
}

/// The status of a permission on the device, or the outcome of a request for it. A closed set: the operating
/// system defines it.
public enum PermissionStatus: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Never asked: a request shows the system dialog.
  case notDetermined
  /// Allowed.
  case granted
  /// Refused.
  case denied
  /// Allowed in part (for example provisional notifications or some HealthKit types).
  case partial
  /// The device cannot grant it.
  case unavailable
  /// The request failed.
  case error
  /// The request got no answer in time.
  case timeout

  /// The status as written: `notDetermined`.
  public var description: String { rawValue }

  /// The statuses a device reports (what a launch reads, and what `settings` may set): every request outcome
  /// the device keeps (``remembered``), and `notDetermined`.
  package static let onDevice: [Self] = [.notDetermined, .granted, .denied, .partial, .unavailable]
  /// The outcomes of a permission request, in the order outcome tables list them.
  package static let requestOutcomes: [Self] = [.granted, .denied, .partial, .unavailable, .error, .timeout]

  /// The status the device keeps after a request answered `self` (what a relaunch reads): `granted`,
  /// `denied`, `partial` and `unavailable` as they are; `error` and `timeout` leave it undetermined.
  package var remembered: Self {
    switch self {
    case .granted, .denied, .partial, .unavailable: self
    case .notDetermined, .error, .timeout: .notDetermined
    }
  }

  /// Whether a request for `kind` in this status (as the device keeps it) shows the system dialog: when it is
  /// undetermined, and after a partial grant of a kind that asks again (``PermissionKind/asksAgainWhenPartial``).
  /// Otherwise the request answers the status at once, without a dialog.
  package func requestShowsDialog(for kind: PermissionKind) -> Bool {
    self == .notDetermined || (self == .partial && kind.asksAgainWhenPartial)
  }
}

/// An action a flow performs (`action: purchase` on an action step or a button). Every action is declared: by
/// the standard prelude (`sign-in-with-apple`, `restore-profile`, `request-review`, `purchase`,
/// `restore-purchases`) or by the flow under `actions:`; ``Flow``'s declarations give its outcomes and result
/// fields, and the linter reports a name neither declares.
public struct ActionName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The action as written in the flow: `sign-in-with-apple`.
  public let rawValue: String
  /// The action spelled `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The action spelled by a literal: `"restore-profile"`.
  public init(stringLiteral value: String) { self.init(rawValue: value) }
  /// The action as written in the flow.
  public var description: String { rawValue }

  /// Request a permission (a permission step's `request` button); its outcomes are ``PermissionStatus``es.
  public static let requestPermission: Self = "request-permission"
  /// The prelude's review prompt, which the `requestReview` effect performs.
  package static let requestReview: Self = "request-review"
}

/// A system dialog or action a provider answered: a permission request or another action.
public enum DialogName: Hashable, Sendable, CustomStringConvertible {
  /// An action (`sign-in-with-apple`, `request-review`, `purchase`, or one the flow declares).
  case action(ActionName)
  /// A permission request for one kind.
  case permission(PermissionKind)

  /// `request-permission KIND` for a permission request, else the action's name.
  public var description: String {
    switch self {
    case .action(let action): action.rawValue
    case .permission(let kind): "\(ActionName.requestPermission) \(kind)"
    }
  }
}

/// How a flow ends: the `outcome:` of a terminal step (`completed` by default). The app decides what follows.
public struct TerminalOutcome: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The outcome as written in the flow: `paywall`.
  public let rawValue: String
  /// The outcome spelled `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The outcome spelled by a literal: `"home"`.
  public init(stringLiteral value: String) { self.init(rawValue: value) }
  /// The outcome as written in the flow.
  public var description: String { rawValue }

  /// Onboarding is done; the app shows its main screen.
  public static let completed: Self = "completed"
  /// The app shows its paywall.
  public static let paywall: Self = "paywall"
  /// The app goes home without completing onboarding.
  public static let home: Self = "home"

  /// The outcomes the standard prelude declares.
  package static var known: [Self] { Prelude.declarations.outcomes }
}

// MARK: - Parsing

/// A word of the vocabulary, read from text in one place: ``parse(_:among:)``.
package protocol VocabularyWord: RawRepresentable<String>, Hashable, Sendable {
  /// What words of this type are called in messages: `permission status`.
  static var wordKind: String { get }
  /// The words accepted when no other list is given.
  static var known: [Self] { get }
}

extension VocabularyWord {
  /// The word spelled `text` when it is one of `candidates`.
  /// - Throws: ``UnknownWord`` naming the candidates, with a suggestion when one is close.
  package static func parse(_ text: String, among candidates: [Self] = known) throws(UnknownWord) -> Self {
    if let word = candidates.first(where: { $0.rawValue == text }) { return word }
    throw UnknownWord(text, kind: wordKind, candidates: candidates.map(\.rawValue))
  }
}

/// Text that is not a word of the vocabulary.
package struct UnknownWord: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text as given.
  package let text: String
  /// The words it could have been.
  package let candidates: [String]
  /// `unknown permission status 'grantd'; expected one of 'denied', 'granted', ...; did you mean 'granted'?`
  package let message: String

  package init(_ text: String, kind: String, candidates: [String]) {
    self.text = text
    self.candidates = candidates
    message =
      "unknown \(kind) '\(text)'; expected one of \(Suggestion.list(candidates))"
      + Suggestion.didYouMean(text, in: candidates)
  }

  package var description: String { message }
}

extension PermissionKind: VocabularyWord {
  package static let wordKind = "permission"
  package static let known: [Self] = [.notifications, .microphone, .healthKit, .location, .alarmKit]
}

extension PermissionStatus: VocabularyWord {
  package static let wordKind = "permission status"
  package static var known: [Self] { onDevice }
}

extension TerminalOutcome: VocabularyWord {
  package static let wordKind = "terminal outcome"
}
