/// Dates of the flow language: the one reader, writer and calendar of `date` values, for the expression functions,
/// form fields, stored values, scenario clocks and `flowrun --clock`.
///
/// A date is a whole number of seconds since 1970-01-01 00:00:00 UTC, in the proleptic Gregorian calendar, from
/// 0001-01-01 through 9999-12-31 23:59:59. The virtual clock has no time zone: every date is read and written in
/// UTC. Arithmetic outside that range is an evaluation error, never a trap.
package enum CalendarDate {
  package static let secondsPerDay = 86_400
  /// 0001-01-01T00:00:00Z.
  package static let earliest = -62_135_596_800
  /// 9999-12-31T23:59:59Z.
  package static let latest = 253_402_300_799

  package static func isInRange(_ seconds: Int) -> Bool { seconds >= earliest && seconds <= latest }

  // MARK: Days and civil dates (Howard Hinnant's algorithms)

  /// Days since 1970-01-01 of a year, month (1...12) and day (1...31) assumed valid.
  package static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year, month and day of a day number since 1970-01-01.
  package static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  package static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  package static func daysIn(month: Int, of year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Splits a date into its day number and the seconds since that day's midnight.
  package static func split(_ seconds: Int) -> (days: Int, secondOfDay: Int) {
    let days = seconds >= 0 ? seconds / secondsPerDay : -((-seconds + secondsPerDay - 1) / secondsPerDay)
    return (days, seconds - days * secondsPerDay)
  }

  // MARK: Text

  /// A date written `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, each optionally ending in `Z`
  /// (always UTC), as seconds since 1970; nil for anything else, including days a month lacks (`2025-02-29`).
  package static func seconds(_ text: String) -> Int? {
    var bytes = Array(text.utf8)
    if bytes.last == UInt8(ascii: "Z") { bytes.removeLast() }
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, is expected: Character) -> Bool {
      index < bytes.count && bytes[index] == expected.asciiValue
    }
    guard bytes.count == 10 || bytes.count == 16 || bytes.count == 19,
      let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
      let day = number(8..<10), year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, of: year)
    else { return nil }
    var secondOfDay = 0
    if bytes.count > 10 {
      guard byte(10, is: "T") || byte(10, is: " "), let hour = number(11..<13), byte(13, is: ":"),
        let minute = number(14..<16), hour < 24, minute < 60
      else { return nil }
      secondOfDay = hour * 3600 + minute * 60
      if bytes.count == 19 {
        guard byte(16, is: ":"), let second = number(17..<19), second < 60 else { return nil }
        secondOfDay += second
      }
    } else if text.utf8.last == UInt8(ascii: "Z") {
      return nil
    }
    return days(year: year, month: month, day: day) * secondsPerDay + secondOfDay
  }

  /// `2026-11-25` for a midnight, else `2026-11-25T23:55:00Z`: the one text form of a date, which ``seconds(_:)``
  /// reads back.
  package static func text(_ seconds: Int) -> String {
    let (days, secondOfDay) = split(seconds)
    let (year, month, day) = civil(days: days)
    var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    if secondOfDay != 0 {
      text +=
        "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
        + padded(secondOfDay % 60, 2) + "Z"
    }
    return text
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  // MARK: Calendar arithmetic

  /// The date `months` calendar months later (earlier when negative), the same time of day; a day the target
  /// month lacks becomes its last day (January 31 plus one month is February 28 or 29; February 29 plus a year is
  /// February 28). Nil outside the supported range.
  package static func adding(months: Int, to seconds: Int) -> Int? {
    let (days, secondOfDay) = split(seconds)
    let (year, month, day) = civil(days: days)
    guard months.magnitude < 12 * 10_000 else { return nil }
    let index = year * 12 + (month - 1) + months
    let newYear = index >= 0 ? index / 12 : -((-index + 11) / 12)
    let newMonth = index - newYear * 12 + 1
    guard newYear >= 1, newYear <= 9999 else { return nil }
    let newDay = min(day, daysIn(month: newMonth, of: newYear))
    let result = self.days(year: newYear, month: newMonth, day: newDay) * secondsPerDay + secondOfDay
    return isInRange(result) ? result : nil
  }

  /// Whole calendar years from `start` to `end`: the largest `n` with `start` plus `n` years at or before `end`
  /// (an age, with a February 29 birthday counted on February 28 in other years); negative when `end` is earlier.
  package static func years(from start: Int, to end: Int) -> Int {
    if end < start { return -years(from: end, to: start) }
    let first = civil(days: split(start).days).year
    let last = civil(days: split(end).days).year
    var count = last - first
    while count > 0, let anniversary = adding(months: count * 12, to: start), anniversary > end { count -= 1 }
    return count
  }
}

/// Durations of the flow language (`duration("1h30m")`): a signed whole number of seconds, written with the
/// units `d` (86,400 s), `h`, `m` and `s`.
package enum TimeSpan {
  /// The seconds `text` writes: an optional `-`, then one or more `<digits><unit>` parts with the units `d`, `h`,
  /// `m`, `s`, each at most once and in that order (`1d`, `90m`, `1h30m`, `-10s`, `0s`); nil for anything else or
  /// a total beyond the range of dates.
  package static func seconds(_ text: String) -> Int? {
    var bytes = Substring(text).utf8[...]
    var negative = false
    if bytes.first == UInt8(ascii: "-") {
      negative = true
      bytes = bytes.dropFirst()
    }
    guard !bytes.isEmpty else { return nil }
    let units: [(UInt8, Int)] = [
      (UInt8(ascii: "d"), 86_400), (UInt8(ascii: "h"), 3600), (UInt8(ascii: "m"), 60), (UInt8(ascii: "s"), 1),
    ]
    var nextUnit = 0
    var total = 0
    while !bytes.isEmpty {
      var value = 0
      var digits = 0
      while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        guard digits < 15 else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        bytes = bytes.dropFirst()
      }
      guard digits > 0, let unit = bytes.first,
        let found = units[nextUnit...].firstIndex(where: { $0.0 == unit })
      else { return nil }
      bytes = bytes.dropFirst()
      nextUnit = found + 1
      total += value * units[found].1
      guard total <= CalendarDate.latest - CalendarDate.earliest else { return nil }
    }
    return negative ? -total : total
  }

  /// `1d2h30m`, `-10m`, `45s`, `0s`: the one text form of a duration, which ``seconds(_:)`` reads back.
  package static func text(_ seconds: Int) -> String {
    if seconds == 0 { return "0s" }
    var rest = seconds.magnitude
    var text = seconds < 0 ? "-" : ""
    for (unit, size) in [("d", 86_400 as UInt), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
      text += String(rest / size) + unit
      rest %= size
    }
    return text
  }
}

/// The stable hash of the flow language (`bucket(id, salt)`, experiments): 64-bit FNV-1a over UTF-8 bytes, the
/// same on every platform and in every run (unlike Swift's `Hasher`, which is seeded per process).
package enum StableHash {
  /// FNV-1a, 64 bits, offset basis 0xcbf29ce484222325, prime 0x100000001b3.
  package static func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// How many buckets ``bucket(_:salt:)`` divides ids into.
  package static let buckets = 100

  /// A bucket from 0 to 99 for `id` in the experiment `salt`: FNV-1a of `salt + ":" + id`, modulo 100. The same id
  /// and salt always give the same bucket; another salt gives an independent split.
  package static func bucket(_ id: String, salt: String) -> Int {
    Int(fnv1a64(salt + ":" + id) % UInt64(buckets))
  }
}
