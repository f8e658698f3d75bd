public import FlowCore
import Foundation

/// The flow's persisted values in a `UserDefaults` suite of their own, one key per value, each stored as its
/// JSON text (JSON keeps `true` and `1` apart, which property-list numbers do not).
///
/// The same rules as the file store keep the user's data safe:
/// - a key the suite holds that is not a flow value (written by something else, or damaged) makes
///   ``load()`` throw ``StoreError`` (the session then starts from the flow's defaults and its trace says
///   why), and is never overwritten or removed by the flow: writing it throws ``StoreError`` too;
/// - keys the flow does not declare (any more) are kept: the store only ever writes the key it is given;
/// - only ``reset()``, an explicit decision of the app, forgets everything.
///
/// Use a suite for the flow alone (not `UserDefaults.standard`, whose domain holds the app's other settings).
public struct UserDefaultsStore: KeyValueStore {
  /// The name of the defaults suite holding the values.
  public let suite: String

  /// A store in the defaults suite named `suite` (e.g. `"com.example.app.onboarding"`).
  public init(suite: String) { self.suite = suite }

  private var defaults: UserDefaults { UserDefaults(suiteName: suite) ?? .standard }

  /// Forgets every value in the suite, readable or not (a fresh install, or the user's "start over").
  public func reset() { defaults.removePersistentDomain(forName: suite) }

  /// Every value in the suite.
  ///
  /// - Throws: ``StoreError`` naming the first key (in name order) whose object is not a flow value.
  public func load() async throws(StoreError) -> [String: Value] {
    var values: [String: Value] = [:]
    for (key, object) in (defaults.persistentDomain(forName: suite) ?? [:]).sorted(by: { $0.key < $1.key }) {
      values[key] = try value(of: object, key: key)
    }
    return values
  }

  /// Stores `value` under `key`.
  ///
  /// - Throws: ``StoreError`` when `key` holds something that is not a flow value (it is left as it is).
  public func set(_ key: String, to value: Value) async throws(StoreError) {
    try checkReadable(key)
    defaults.set(value.jsonText, forKey: key)
  }

  /// Removes `key`.
  ///
  /// - Throws: ``StoreError`` when `key` holds something that is not a flow value (it is left as it is).
  public func remove(_ key: String) async throws(StoreError) {
    try checkReadable(key)
    defaults.removeObject(forKey: key)
  }

  private func checkReadable(_ key: String) throws(StoreError) {
    guard let object = defaults.persistentDomain(forName: suite)?[key] else { return }
    _ = try value(of: object, key: key)
  }

  private func value(of object: Any, key: String) throws(StoreError) -> Value {
    guard let text = object as? String, let node = try? JSONReader.read(bytes: Array(text.utf8), file: key),
      let value = Value(node: node)
    else {
      throw StoreError("'\(key)' in the defaults suite \(suite) holds no flow value; it is left as it is")
    }
    return value
  }
}
