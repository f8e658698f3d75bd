// The app's life around the flow (returning from the background, deep links): part of ``Run``, the handling of
// one event (see Engine.swift). Actions at launch are in Run+Launch.swift.

extension Run {

  /// The app is back: the permission statuses are the ones read now, then the flow's `foreground:` runs on the
  /// current step (its effects, then its route; without the `advance` hook, since the user did not move on).
  mutating func foreground(_ permissions: [PermissionKind: PermissionStatus]) throws {
    guard state.inBackground else {
      throw Rejection(message: "the app is not in the background ('background' first)", allowed: [])
    }
    state.inBackground = false
    for permission in flow.permissions {
      if let status = permissions[permission.value] {
        state.permissions[permission.value] = status
        log?.wrotePermissions()
      }
    }
    guard let transition = flow.foreground, let current = state.current, state.ended == nil, state.pending == nil
    else { return }
    try follow(transition, from: current, route: .foreground, name: nil, bindings: [:])
  }

  /// A deep link: the `open:` entry the URL names runs on the current step with the URL's query as `params`.
  mutating func open(_ url: String) throws {
    guard let current = state.current else {
      throw Rejection(message: "the flow has not started", allowed: ["restart"])
    }
    if let ended = state.ended {
      throw Rejection(
        message: "the flow has ended at '\(flow.steps[ended.step].id)' (\(ended.outcome)); a link cannot open it",
        allowed: ["restart", "reset"])
    }
    if let pending = state.pending {
      throw Rejection(
        message: "waiting for the answer to '\(pending.action)'",
        allowed: outcomeNames(of: pending).map { "answer \($0)" })
    }
    let link = DeepLink(url)
    let names = flow.openEntries.map(\.name)
    guard let entry = flow.openEntries.first(where: { $0.name == link.entry }) else {
      let message =
        names.isEmpty
        ? "'\(url)' opens nothing: the flow has no 'open' entries"
        : "'\(url)' names no 'open' entry ('\(link.entry)'); expected one of \(Suggestion.list(names))"
          + Suggestion.didYouMean(link.entry, in: names)
      throw Rejection(message: message, allowed: names.map { "open …/\($0)" })
    }
    var params: [String: Value] = [:]
    for parameter in entry.params {
      guard let text = link.query[parameter.name] else {
        if parameter.isRequired {
          throw Rejection(
            message: "'\(url)' lacks the parameter '\(parameter.name)' that 'open' entry '\(entry.name)' needs",
            allowed: [])
        }
        params[parameter.name] = .null
        continue
      }
      guard let value = parameter.type.parse(text) else {
        throw Rejection(
          message: "parameter '\(parameter.name)' of '\(url)' is '\(text)', not a valid \(parameter.type.rawValue)",
          allowed: [])
      }
      params[parameter.name] = value
    }
    try follow(entry.transition, from: current, route: .open, name: entry.name, bindings: ["params": .map(params)])
  }

  /// Runs a lifecycle transition on the current step: its effects, then its route (recorded as from `foreground`
  /// or `open`), skips and entering the step; `stay` keeps the step.
  mutating func follow(
    _ transition: Transition, from current: StepIndex, route: RouteKind, name: String?, bindings: [String: Value]
  ) throws(RunError) {
    try apply(transition.effects, step: current, bindings: bindings)
    guard let destination = try choose(transition.target, from: current, bindings: bindings) else { return }
    records.append(.moved(from: route.rawValue, to: flow.steps[destination].id, route: route, name: name))
    let target = try resolveSkips(from: destination)
    try enter(target, from: current)
  }
}

/// A deep link's parts as `open` reads them: the entry (the first path segment; a custom scheme's host counts as
/// one, `https` hosts do not) and the query items, percent-decoded (`+` is a space; a repeated item keeps its
/// last value). The URL is cut at its ASCII delimiters (`://`, `/`, `?`, `#`, `&`, `=`) byte by byte, as a URL's
/// syntax is defined, not character by character (which cost four times as many instructions, at every deep-link
/// move `flowrun explore` makes).
package struct DeepLink: Sendable, Hashable {
  package var entry: String
  package var query: [String: String]

  package init(_ url: String) {
    let bytes = Array(url.utf8)
    var start = 0
    var isWeb = false
    if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
      let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
      isWeb = scheme == "http" || scheme == "https"
      start = colon + 3
    }
    var end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    var queryItems: ArraySlice<UInt8> = []
    if let mark = bytes[start..<end].firstIndex(of: UInt8(ascii: "?")) {
      queryItems = bytes[(mark + 1)..<end]
      end = mark
    }
    var segments = bytes[start..<end].split(separator: UInt8(ascii: "/"))
    if isWeb && !segments.isEmpty { segments.removeFirst() }
    entry = segments.first.map(Self.decode) ?? ""
    var query: [String: String] = [:]
    for item in queryItems.split(separator: UInt8(ascii: "&")) {
      let parts = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      query[Self.decode(parts[0])] = parts.count > 1 ? Self.decode(parts[1]) : ""
    }
    self.query = query
  }

  /// `%41` → `A`, `+` → space; an invalid escape is kept as written, bytes that are not UTF-8 become U+FFFD.
  static func decode(_ text: ArraySlice<UInt8>) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count)
    var utf8 = text
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hex(utf8[utf8.startIndex]),
        let low = hex(utf8[utf8.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        utf8.removeFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension VariableType {
  /// A deep link parameter's text as this type: `42`, `true`/`false`, any string; nil when it is not one.
  package func parse(_ text: String) -> Value? {
    switch self {
    case .string: .string(text)
    case .int: Int(text).map(Value.int)
    case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
    default: nil
    }
  }
}
