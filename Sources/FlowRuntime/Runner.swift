package import FlowCore

/// Drives a ``FlowSession`` with `flowrun` commands: the shared core of the interactive prompt, scripts and
/// scenario tables.
package struct Runner: Sendable {
  package private(set) var session: FlowSession
  package var flow: Flow { session.engine.flow }
  /// Texts in this locale whatever the flow says.
  package var languageOverride: String? {
    get { session.engine.languageOverride }
    set { session.engine.languageOverride = newValue }
  }
  package var state: RunState { session.state }
  /// The variants pinned per experiment (`--variant`, a scenario's `variants:`), from the next launch on.
  package var variantPins: [String: String] {
    get { session.variantPins }
    set { session.variantPins = newValue }
  }

  package init(flow: Flow, providers: Providers) {
    session = FlowSession(flow: flow, providers: providers)
  }

  /// A runner on `engine`, which sessions of its flow share (``FlowSession/init(engine:providers:)``).
  package init(engine: Engine, providers: Providers) {
    session = FlowSession(engine: engine, providers: providers)
  }

  package enum Result: Sendable {
    case trace([TraceEntry])
    case rejected(Rejection)
    case failed(RunError)
    case info(String)
    case quit
  }

  package mutating func start(clock: Double? = nil) async -> Result {
    do {
      return .trace(try await session.launch(clock: clock))
    } catch {
      switch error {
      case .rejected(let rejection): return .rejected(rejection)
      case .failed(let failure): return .failed(failure)
      }
    }
  }

  package mutating func execute(_ command: Command) async -> Result {
    guard let event = command.event(on: state.current.map { flow.steps[$0] }) else {
      switch command.action {
      case .restart: return await start(clock: state.clock)
      case .foreground:
        do {
          return .trace(try await session.foreground())
        } catch {
          switch error {
          case .rejected(let rejection): return .rejected(rejection)
          case .failed(let failure): return .failed(failure)
          }
        }
      case .settings(let pairs): return changeSettings(pairs)
      case .state: return .info(stateDescription())
      case .help: return .info(Self.help)
      default: return .quit  // every other command sends an event
      }
    }
    do {
      return .trace(try await session.send(event, at: command.step))
    } catch {
      switch error {
      case .rejected(let rejection): return .rejected(rejection)
      case .failed(let failure): return .failed(failure)
      }
    }
  }

  /// `settings KIND=STATUS`: the user changes a permission in the system Settings app (read when the app
  /// returns from the background, at the next launch or at a reset).
  func changeSettings(_ pairs: [Command.Setting]) -> Result {
    guard let permissions = session.providers.permissions as? ScriptedPermissions else {
      return .info("settings can only be changed on the scripted permission provider")
    }
    var lines: [String] = []
    for pair in pairs {
      let status: PermissionStatus
      do {
        status = try PermissionStatus.parse(pair.status)
      } catch {
        return .rejected(Rejection(message: error.message, allowed: []))
      }
      permissions.setStatus(status, of: PermissionKind(rawValue: pair.kind))
      lines.append("  ⚙ \(pair.kind) is now \(status) in Settings (read at foreground, restart or reset)")
    }
    return .info(lines.joined(separator: "\n"))
  }

  /// Variables and store, for the `state` command.
  package func stateDescription() -> String {
    var lines: [String] = []
    lines.append("step: \(state.current.map { flow.steps[$0].id } ?? "-")")
    lines.append("language: \(session.engine.language(in: state))")
    lines.append("variables:")
    for (index, variable) in flow.variables.enumerated() {
      let persisted = variable.persistKey.map { "  (persisted as \($0))" } ?? ""
      lines.append("  \(variable.name) = \(state.variables[index].description)\(persisted)")
    }
    lines.append("permissions:")
    for (kind, status) in state.permissions.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      lines.append("  \(kind) = \(status)")
    }
    lines.append("store (at launch, updated by writes):")
    for (key, value) in state.store.sorted(by: { $0.key < $1.key }) { lines.append("  \(key) = \(value.jsonText)") }
    let variants = flow.variants(in: state)
    if !variants.isEmpty {
      lines.append("variants:")
      for experiment in flow.experiments {
        if let variant = variants[experiment.name] { lines.append("  \(experiment.name) = \(variant)") }
      }
    }
    lines.append("clock: \(TimeOfDay.clockText(seconds: state.clock))")
    return lines.joined(separator: "\n")
  }

  package static let help = """
    commands:
      next                 press the step's Next button
      back                 go back one step (where the flow allows it)
      skip                 press Skip
      choose ID[,ID...]    select option(s) and confirm (an option's number works too)
      input TEXT           type into a text field and confirm
      input F=V [F=V...]   fill form fields and confirm (times as HH:MM)
      tap BUTTON           tap a named button (tap request on a permission page)
      wait SECONDS         let virtual time pass (auto-advance timers; 0 to 31536000, a year)
      restart              the app is killed and launched again
      reset                reset onboarding as the flow defines
      settings K=STATUS    change a permission in the Settings app (granted, denied, ...)
      background           the app goes to the background (to Settings, another app)
      foreground           the app comes back; permission statuses are read again
      open URL             open a deep link (its entry and query parameters, as the flow's open: says)
      state                show variables, permissions and the store
      help                 this list
      quit                 leave
    add @STEP to a command to send it to a step that may no longer be current (a double tap)
    """
}

extension RuntimeEffect {
  /// One line, as traces and scenario tables write it: `track onboarding_step {step: "welcome"}`.
  package var summary: String {
    // Written into one string: a scenario row makes a line for every effect of its run.
    var text = ""
    text.reserveCapacity(48)
    func add(_ word: String, _ value: Value? = nil) {
      text += word
      if let value {
        text += " "
        value.write(to: &text)
      }
    }
    switch self {
    case .set(let variable, let value): add("set \(variable)", value)
    case .persist(let key, let value): add("persist \(key)", value)
    case .remove(let key): add("remove \(key)")
    case .track(let event, let properties):
      add("track \(event)")
      if !properties.isEmpty {
        text += " "
        properties.write(to: &text)
      }
    case .userProperty(let name, let value): add("userProperty \(name)", value)
    case .requestReview: add("requestReview")
    case .syncProfile(let userID): add("syncProfile", userID)
    case .placement(let name): add("placement \(name)")
    case .completeOnboarding: add("completeOnboarding")
    case .log(let line): add("log", .string(line))
    case .perform(let action, let permission, let arguments):
      if let permission {
        add("perform \(action) \(permission)")
      } else {
        add("perform \(action)", arguments.isEmpty ? nil : .map(arguments))
      }
    case .custom(let name, let arguments): add(name, arguments.isEmpty ? nil : .map(arguments))
    }
    return text
  }
}
