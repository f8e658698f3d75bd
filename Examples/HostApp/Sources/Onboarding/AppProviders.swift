public import FlowCore
import Foundation

/// The providers a real app supplies: each one wraps a system framework or a service of the app. Here the
/// system parts are closures, so the command-line host can answer them the way a user would.
public enum AppProviders {
  /// Every provider the session needs, built from the app's services.
  public static func make(system: SystemDialogs, store: DefaultsStore, analytics: Analytics) -> Providers {
    Providers(
      permissions: system, auth: system, profiles: system, review: system, platform: system, store: store,
      effects: analytics)
  }
}

/// The operating system's dialogs and facts. In an iOS app `request(_:)` calls `UNUserNotificationCenter`
/// (`requestAuthorization`) or AlarmKit, and `signInWithApple()` runs an `ASAuthorizationController`; here
/// `answer` stands in for the user's tap on the system dialog.
public struct SystemDialogs: PermissionProvider, AuthProvider, ProfileServer, ReviewPrompt, Platform {
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
  public func signInWithApple() async -> ActionAnswer { await answer(ActionName.signInWithApple.rawValue) }
  public func restoreProfile() async -> ActionAnswer { await answer(ActionName.restoreProfile.rawValue) }
  public func syncProfile(userID: Value) async {}
  public func requestReview() async -> ActionAnswer { await answer(ActionName.requestReview.rawValue) }
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
      log("analytics: \(event)" + (properties.isEmpty ? "" : " \(Value.map(properties))"))
    case .userProperty(let name, let value): log("analytics: user property \(name) = \(value)")
    case .placement(let name): log("app: show placement \(name)")
    case .completeOnboarding: log("app: onboarding complete")
    case .log(let line): log("log: \(line)")
    default: break
    }
  }
}

/// The flow's persisted values in `UserDefaults`, one key per value, each stored as JSON data.
public struct DefaultsStore: KeyValueStore {
  private let suite: String

  /// A store in the defaults suite `suite`.
  public init(suite: String) { self.suite = suite }

  private var defaults: UserDefaults { UserDefaults(suiteName: suite) ?? .standard }

  /// Forgets every stored value (a fresh install).
  public func clear() { defaults.removePersistentDomain(forName: suite) }

  public func load() async throws(StoreError) -> [String: Value] {
    var values: [String: Value] = [:]
    for (key, object) in defaults.persistentDomain(forName: suite) ?? [:] {
      guard let data = object as? Data, let stored = try? JSONDecoder().decode(StoredValue.self, from: data) else {
        throw StoreError("'\(key)' in the defaults suite \(suite) holds no flow value")
      }
      values[key] = stored.value
    }
    return values
  }

  public func set(_ key: String, to value: Value) async throws(StoreError) {
    do {
      defaults.set(try JSONEncoder().encode(StoredValue(value: value)), forKey: key)
    } catch {
      throw StoreError("cannot encode '\(key)': \(error)")
    }
  }

  public func remove(_ key: String) async throws(StoreError) { defaults.removeObject(forKey: key) }
}

/// A flow value as JSON: JSON keeps `true` and `1` apart, which property-list numbers do not.
private struct StoredValue: Codable {
  var value: Value

  init(value: Value) { self.value = value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      value = .null
    } else if let bool = try? container.decode(Bool.self) {
      value = .bool(bool)
    } else if let int = try? container.decode(Int.self) {
      value = .int(int)
    } else if let string = try? container.decode(String.self) {
      value = .string(string)
    } else if let list = try? container.decode([StoredValue].self) {
      value = .list(list.map(\.value))
    } else {
      value = .map(try container.decode([String: StoredValue].self).mapValues(\.value))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch value {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .int(let int): try container.encode(int)
    case .string(let string): try container.encode(string)
    case .list(let list): try container.encode(list.map(StoredValue.init(value:)))
    case .map(let map): try container.encode(map.mapValues(StoredValue.init(value:)))
    }
  }
}
