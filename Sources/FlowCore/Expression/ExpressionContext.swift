/// What an expression reads when it is evaluated: its root names and the virtual clock.
///
/// ## Implementation requirements
///
/// - `value(of:)` returns nil for a name that does not exist (evaluation then fails with
///   "unknown name"); namespaces such as `env`, `permission`, `store`, `step`, `target`, `result` and
///   `input` are returned as `.map` values (or any value for `input`).
/// - Lookups must be cheap and free of side effects: an expression may read a root many times.
package protocol ExpressionContext {
  /// The value bound to a root name (a variable or a namespace), or nil when the name is unknown.
  func value(of root: String) -> Value?
  /// The virtual clock's time of day, in minutes since midnight (read by `now()`, `nextHabit()`,
  /// `isLaterToday()`); values outside `0..<1440` are taken modulo a day.
  var minutesSinceMidnight: Int { get }
  /// The virtual clock's date and time, in whole seconds since 1970-01-01 00:00:00 UTC (read by `timestamp()` and
  /// `today()`). Its time of day is ``minutesSinceMidnight``.
  var secondsSinceEpoch: Int { get }
  /// `root.member` (`permission.camera`) when `root` is a namespace the context would build whole for
  /// ``value(of:)``: the member's value (`.null` when it has none), read without building the rest; nil to have
  /// `root` read with ``value(of:)`` and the member taken from that.
  func value(of root: String, member: String) -> Value?
}

extension ExpressionContext {
  /// Every namespace is read whole.
  package func value(of root: String, member: String) -> Value? { nil }

  /// A clock that knows only a time of day is that time on 1970-01-01.
  package var secondsSinceEpoch: Int { minutesSinceMidnight * 60 }
}

/// A plain dictionary of root values with a clock: the simplest ``ExpressionContext``.
package struct Bindings: ExpressionContext, Hashable, Sendable {
  package var roots: [String: Value]
  package var minutesSinceMidnight: Int
  package var secondsSinceEpoch: Int

  /// Names and a clock at `minutesSinceMidnight` on 1970-01-01, or at `secondsSinceEpoch` when it is given (the
  /// time of day then follows from it).
  package init(_ roots: [String: Value] = [:], minutesSinceMidnight: Int = 0, secondsSinceEpoch: Int? = nil) {
    self.roots = roots
    if let secondsSinceEpoch {
      self.secondsSinceEpoch = secondsSinceEpoch
      self.minutesSinceMidnight = CalendarDate.split(secondsSinceEpoch).secondOfDay / 60
    } else {
      self.secondsSinceEpoch = minutesSinceMidnight * 60
      self.minutesSinceMidnight = minutesSinceMidnight
    }
  }

  package func value(of root: String) -> Value? { roots[root] }

  /// No names, midnight.
  package static let empty = Bindings()
}

/// The static types of the root names an expression may use, for ``FlowExpression/check(in:)``.
package struct TypeScope: Hashable, Sendable {
  package var roots: [String: ValueType]

  package init(_ roots: [String: ValueType]) {
    self.roots = roots
  }
}
