/// `"HH:MM"` times of day: the one reader and writer of times, for the clock functions, form fields, scenario
/// clocks and `flowrun --clock`.
package enum TimeOfDay {
  package static let minutesPerDay = 24 * 60

  /// Minutes since midnight of `"H:MM"` or `"HH:MM"` (00:00 through 23:59), or nil for anything else.
  package static func minutes(_ text: String) -> Int? {
    var digits: [Int] = []
    var colon = -1
    for (offset, byte) in text.utf8.enumerated() {
      if byte == UInt8(ascii: ":"), colon < 0 {
        colon = offset
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits.count < 4 {
        digits.append(Int(byte - UInt8(ascii: "0")))
      } else {
        return nil
      }
    }
    guard colon == 1 || colon == 2, digits.count == colon + 2 else { return nil }
    let hours = colon == 1 ? digits[0] : digits[0] * 10 + digits[1]
    let minutes = digits[colon] * 10 + digits[colon + 1]
    guard hours < 24, minutes < 60 else { return nil }
    return hours * 60 + minutes
  }

  /// Seconds since midnight of a time ``minutes(_:)`` reads, or nil.
  package static func seconds(_ text: String) -> Double? { minutes(text).map { Double($0 * 60) } }

  /// `"HH:MM"` for a number of minutes since midnight, taken modulo a day.
  package static func text(minutes: Int) -> String {
    let value = normalized(minutes)
    let hours = value / 60, rest = value % 60
    return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
  }

  /// `"HH:MM"` for a clock in seconds since midnight (seconds are dropped).
  package static func text(seconds: Double) -> String { text(minutes: minutes(ofClock: seconds)) }

  /// The whole minutes a clock in seconds since midnight shows, taken modulo a day; any clock, however far
  /// ahead, gives a minute (one that is not a finite number gives midnight), never a trap.
  package static func minutes(ofClock seconds: Double) -> Int {
    guard seconds.isFinite else { return 0 }
    var rest = seconds.truncatingRemainder(dividingBy: Double(minutesPerDay * 60))
    if rest < 0 { rest += Double(minutesPerDay * 60) }
    return (Int(rest) / 60) % minutesPerDay
  }

  /// The whole seconds since 1970-01-01 00:00 UTC a clock shows (the clock counts seconds from then, so a clock under
  /// a day is a time on 1970-01-01), held to the range of dates (years 1 to 9999); a clock that is not a finite
  /// number gives 1970-01-01 00:00.
  package static func secondsSinceEpoch(ofClock seconds: Double) -> Int {
    guard seconds.isFinite else { return 0 }
    return Int(min(max(seconds.rounded(.down), Double(CalendarDate.earliest)), Double(CalendarDate.latest)))
  }

  /// A clock as `--clock`, a scenario's `clock:` and the `state` command write it: `HH:MM` on 1970-01-01 (the
  /// default day), else the date and time (`2026-11-25T23:55` or `2026-11-25`; see ``CalendarDate``).
  package static func clockText(seconds: Double) -> String {
    if seconds >= 0, seconds < Double(minutesPerDay * 60) { return text(seconds: seconds) }
    let whole = secondsSinceEpoch(ofClock: seconds)
    let (_, secondOfDay) = CalendarDate.split(whole)
    let full = CalendarDate.text(whole)
    // Seconds and the `Z` are dropped when the clock is on a whole minute: `2026-11-25T23:55`.
    if secondOfDay % 60 == 0, secondOfDay != 0 { return String(full.dropLast(4)) }
    return full
  }

  /// The clock `text` sets: `HH:MM` (that time on 1970-01-01) or a date as ``CalendarDate/seconds(_:)`` reads it;
  /// nil for anything else.
  package static func clock(_ text: String) -> Double? {
    if let seconds = seconds(text) { return seconds }
    return CalendarDate.seconds(text).map(Double.init)
  }

  package static func normalized(_ minutes: Int) -> Int {
    let value = minutes % minutesPerDay
    return value < 0 ? value + minutesPerDay : value
  }

  /// The key of `habits` whose time comes soonest from `now` on: a time equal to `now` counts as now
  /// (distance 0), earlier times count as tomorrow. Ties go to the key that sorts first; values that are
  /// not `"HH:MM"` strings are ignored; "" when no value is a time.
  static func nextHabit(_ habits: [String: Value], now: Int) -> String {
    let current = normalized(now)
    var best: (distance: Int, key: String)?
    for (key, value) in habits {
      guard case .string(let text) = value, let time = minutes(text) else { continue }
      let distance = normalized(time - current)
      if let found = best, found.distance < distance || (found.distance == distance && found.key < key) {
        continue
      }
      best = (distance, key)
    }
    return best?.key ?? ""
  }
}
