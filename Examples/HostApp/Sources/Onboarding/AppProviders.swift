public import FlowCore
import Foundation

/// The providers a real app supplies: each one wraps a system framework or a service of the app. Here the
/// system parts are closures, so the command-line host can answer them the way a user would.
public enum AppProviders {
  /// Every provider the session needs, built from the app's services.
  public static func make(system: SystemDialogs, store: any KeyValueStore, analytics: Analytics) -> Providers {
    Providers(permissions: system, actions: system, platform: system, store: store, effects: analytics)
  }
}

/// The operating system's dialogs and facts. In an iOS app `request(_:)` calls `UNUserNotificationCenter`
/// (`requestAuthorization`) or AlarmKit, and `perform(_:)` runs an `ASAuthorizationController` for
/// `sign-in-with-apple` or StoreKit for `purchase`; here `answer` stands in for the user's tap on the system
/// dialog.
public struct SystemDialogs: PermissionProvider, ActionProvider, Platform {
  /// Answers a system dialog by its name (`notifications`, `sign-in-with-apple`, ...).
  public var answer: @Sendable (String) async -> ActionAnswer
  /// The device's facts (`osVersion`, `locale`, ...).
  public var facts: [String: Value]

  public init(facts: [String: Value], answer: @escaping @Sendable (String) async -> ActionAnswer) {
    self.facts = facts
    self.answer = answer
  }

  public func status(of kind: PermissionKind) async -> PermissionStatus { .notDetermined }
  public func request(_ kind: PermissionKind) async -> ActionAnswer { await answer(kind.rawValue) }
  /// Every action the flow declares, by name (`sign-in-with-apple`, `request-review`, ...).
  public func perform(_ request: ActionRequest) async -> ActionAnswer { await answer(request.name.rawValue) }
  public func environment() async -> [String: Value] { facts }
  public func timeOfDay() async -> Double {
    let now = Calendar.current.dateComponents([.hour, .minute, .second], from: Date())
    return Double((now.hour ?? 0) * 3600 + (now.minute ?? 0) * 60 + (now.second ?? 0))
  }
}

/// The app's analytics: every effect that leaves the flow is logged through `log` (an app sends `track` and
/// `userProperty` to its analytics SDK and acts on `placement` and `completeOnboarding`).
public struct Analytics: EffectHandler {
  public var log: @Sendable (String) -> Void
  public init(log: @escaping @Sendable (String) -> Void) { self.log = log }

  public func perform(_ effect: RuntimeEffect) async {
    switch effect {
    case .track(let event, let properties):
      log("analytics: \(event)" + (properties.isEmpty ? "" : " \(Value.map(properties.dictionary))"))
    case .userProperty(let name, let value): log("analytics: user property \(name) = \(value)")
    case .placement(let name): log("app: show placement \(name)")
    case .completeOnboarding: log("app: onboarding complete")
    case .log(let line): log("log: \(line)")
    default: break
    }
  }
}
