/// `HH:MM` <-> seconds since midnight.
package enum ClockText {
  package static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]),
      let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return Double(hour * 3600 + minute * 60)
  }
}
