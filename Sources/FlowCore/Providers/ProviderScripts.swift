/// The rules of scripted providers, as values: what a scripted permission, system action or store answers.
///
/// `flowrun` (FlowRuntime's providers, answered from flags and the prompt) and app tests (FlowTestSupport's
/// fakes) both simulate the operating system with these, each holding them behind its own lock, so the two
/// answer alike. `package`: no part of what an app embeds.

/// Permission statuses at start and scripted request answers, per kind.
///
/// A request shows a dialog only where iOS would (``PermissionStatus/requestShowsDialog(for:)``): when the
/// status is undetermined, and after `partial` for notifications and location. Then the next answer scripted for
/// the requesting step is used, then the next scripted for the kind, then what ``Unscripted`` says. Otherwise
/// (`granted`, `denied`, `unavailable`, `partial` of any other kind) it answers the status at once without a
/// dialog. An `unavailable` answer shows no dialog either (the device cannot offer the permission) and, like
/// every answer but `error` and `timeout`, is kept: later requests answer it at once.
package struct PermissionScript: Sendable {
  /// What a request begins with.
  package enum Start: Sendable {
    /// The status is determined: answered at once, without a dialog.
    case determined(ActionAnswer)
    /// A dialog is due: the next scripted answer, or nil when none is left.
    case dialog(scripted: ActionAnswer?)
  }

  private var statuses: [PermissionKind: PermissionStatus]
  private var answers: [PermissionKind: [ActionAnswer]]
  private var stepAnswers: [String: [ActionAnswer]]
  /// The kinds a system dialog was shown for, in order.
  package private(set) var dialogsShown: [PermissionKind] = []
  /// The answers requests took from the script or a person, not from a decided status, per kind and in order:
  /// what a replay of the session must script.
  package private(set) var dialogAnswers: [PermissionKind: [ActionAnswer]] = [:]

  /// - Parameters:
  ///   - answers: successive answers per kind.
  ///   - stepAnswers: successive answers per step id, used before the kind's for a request made on that step.
  package init(
    statuses: [PermissionKind: PermissionStatus], answers: [PermissionKind: [ActionAnswer]],
    stepAnswers: [String: [ActionAnswer]] = [:]
  ) {
    self.statuses = statuses
    self.answers = answers
    self.stepAnswers = stepAnswers
  }

  /// The outcomes a person may answer a request with.
  package static let choices = PermissionStatus.requestOutcomes.filter { $0 != .unavailable }.map(\.rawValue)

  /// The status of `kind` (`notDetermined` unless set).
  package func status(of kind: PermissionKind) -> PermissionStatus { statuses[kind] ?? .notDetermined }

  /// Changes a status, as the user would in Settings.
  package mutating func setStatus(_ status: PermissionStatus, of kind: PermissionKind) { statuses[kind] = status }

  /// Begins a request for `kind` made on `step`.
  package mutating func start(_ kind: PermissionKind, at step: String? = nil) -> Start {
    let current = status(of: kind)
    guard current.requestShowsDialog(for: kind) else {
      return .determined(ActionAnswer(current.rawValue, dialogShown: false))
    }
    return .dialog(scripted: stepAnswers.takeFirst(step) ?? answers.takeFirst(kind))
  }

  /// Ends a request for `kind` with `answer` (scripted or a person's; `granted` when nil): records the dialog
  /// (none for `unavailable`: the device cannot offer the permission, so it asks nobody) and the status the
  /// answer leaves (``PermissionStatus/remembered``).
  package mutating func finish(_ kind: PermissionKind, with answer: ActionAnswer?) -> ActionAnswer {
    var result = answer ?? ActionAnswer(PermissionStatus.granted.rawValue)
    let status = PermissionStatus(rawValue: result.outcome)
    if status == .unavailable { result.dialogShown = false }
    if result.dialogShown { dialogsShown.append(kind) }
    dialogAnswers[kind, default: []].append(result)
    if let status { statuses[kind] = status.remembered }
    return result
  }
}

/// Scripted answers to the actions a flow declares: a call takes the next answer queued for the step performing
/// it, then the next queued for its action, then what ``Unscripted`` says, then the declaration's `default`
/// outcome with its result fields' examples. Whether the answer shows a system dialog is the declaration's
/// (`dialog:`).
package struct ActionScript: Sendable {
  private var answers: [ActionName: [ActionAnswer]]
  private var stepAnswers: [String: [ActionAnswer]] = [:]
  /// How many times each action was performed.
  package private(set) var calls: [ActionName: Int] = [:]

  package init(answers: [ActionName: [ActionAnswer]]) { self.answers = answers }

  /// The script with successive answers per step id, used before the action's own for a call made on that step.
  package func answering(steps stepAnswers: [String: [ActionAnswer]]) -> ActionScript {
    var script = self
    script.stepAnswers = stepAnswers
    return script
  }

  /// Counts a call made on `step` and takes the next answer scripted for the step, else for the action, or nil
  /// when none is left.
  package mutating func start(_ request: ActionRequest, at step: String? = nil) -> ActionAnswer? {
    calls[request.name, default: 0] += 1
    return stepAnswers.takeFirst(step) ?? answers.takeFirst(request.name)
  }

  /// The answer given: `answer` (scripted or a person's), else the declaration's default outcome; a result field
  /// the answer leaves out takes its declared example (an optional one stays null), so a flow reading it never
  /// finds a required field missing; a system dialog is shown only when the answer and the outcome's declaration
  /// both say so.
  package func finish(_ request: ActionRequest, with answer: ActionAnswer?) -> ActionAnswer {
    let declaration = request.declaration
    let answer = answer ?? Self.answer(declaration.defaultOutcome, of: declaration)
    let outcome = declaration.outcome(answer.outcome)
    var result = answer.result
    for field in outcome?.result ?? [] where result[field.name] == nil && !field.type.isOptional {
      result[field.name] = field.example
    }
    return ActionAnswer(answer.outcome, result: result, dialogShown: answer.dialogShown && (outcome?.dialog ?? true))
  }

  /// The outcome `name` of `declaration` with every result field at its example value (what explore and
  /// unscripted fakes answer).
  package static func answer(_ name: String, of declaration: ActionDeclaration) -> ActionAnswer {
    var result: [String: Value] = [:]
    for field in declaration.outcome(name)?.result ?? [] { result[field.name] = field.example }
    return ActionAnswer(name, result: result)
  }
}

/// An in-memory store's contents; `corrupted` makes `load` fail as a damaged file would, until the next write.
package struct StoreScript: Sendable {
  package private(set) var values: [String: Value]
  private var corrupted: Bool

  package init(_ values: [String: Value], corrupted: Bool) {
    self.values = values
    self.corrupted = corrupted
  }

  package func load() throws(StoreError) -> [String: Value] {
    if corrupted { throw StoreError("the stored data is corrupted") }
    return values
  }

  /// A write to a corrupted store starts it afresh.
  package mutating func set(_ key: String, to value: Value) {
    if corrupted { (values, corrupted) = ([:], false) }
    values[key] = value
  }

  package mutating func remove(_ key: String) { values.removeValue(forKey: key) }
}

/// Asks a person to answer a system dialog nothing scripted: the question and the outcomes to choose from; nil
/// when there is no answer (input ended).
package typealias AskForAnswer = @Sendable (_ question: String, _ choices: [String]) async -> String?

/// Who answers a system dialog that nothing scripted.
package enum Unscripted: Sendable {
  /// The action's fallback (`granted` for a permission, `cancelled`, `empty`, `shown`): app tests' fakes.
  case fallback
  /// A person, asked the question with the outcomes to choose from; the fallback when they give none.
  case ask(AskForAnswer)
  /// Nobody (a scenario row, `flowrun` without a terminal): `note` is told the dialog and the step it was
  /// shown on, and the answer is ``ActionAnswer/unanswered``, an outcome no action has, so the flow takes none
  /// and nothing is granted silently.
  case refuse(note: @Sendable (_ dialog: DialogName, _ step: String?, _ choices: [String]) -> Void)

  /// `.ask(ask)`, or `.fallback` when `ask` is nil.
  package init(asking ask: AskForAnswer?) { self = ask.map(Unscripted.ask) ?? .fallback }
}

extension ActionAnswer {
  /// The answer to a dialog nobody answered (``Unscripted/refuse(note:)``): no action has this outcome.
  package static let unanswered = ActionAnswer("(unanswered)", dialogShown: false)
}

/// The step whose action or permission request a provider is answering, while ``FlowSession`` waits for it:
/// scripted providers take the answers keyed by that step first.
package enum PerformingStep {
  @TaskLocal package static var id: String?
}

extension Dictionary where Value == [ActionAnswer] {
  /// Removes and returns the first answer queued under `key`, or nil when there is none.
  fileprivate mutating func takeFirst(_ key: Key?) -> ActionAnswer? {
    guard let key, self[key]?.isEmpty == false else { return nil }
    return self[key]?.removeFirst()
  }
}

/// A provider that keeps a script (``PermissionScript``, ``ActionScript``) behind its own lock; FlowCore has
/// none to offer. The extensions below answer by the script, asking a person between taking a scripted answer
/// and finishing, outside the lock.
package protocol ScriptKeeper<Script>: Sendable {
  associatedtype Script: Sendable
  /// Runs `body` on the script under the keeper's lock.
  func withScript<Result: Sendable>(_ body: (inout Script) -> Result) -> Result
}

extension ScriptKeeper where Script == PermissionScript {
  /// Answers a request for `kind` by the script; when the status is undetermined and no scripted answer is
  /// left, `unscripted` says who answers.
  package func answerRequest(_ kind: PermissionKind, unscripted: Unscripted) async -> ActionAnswer {
    var answer: ActionAnswer?
    let step = PerformingStep.id
    switch withScript({ $0.start(kind, at: step) }) {
    case .determined(let answer): return answer
    case .dialog(let scripted): answer = scripted
    }
    if answer == nil {
      switch unscripted {
      case .fallback: break
      case .ask(let ask):
        if let outcome = await ask("Allow \(kind)?", PermissionScript.choices) { answer = ActionAnswer(outcome) }
      case .refuse(let note):
        note(.permission(kind), step, PermissionScript.choices)
        return .unanswered
      }
    }
    return withScript { [answer] in $0.finish(kind, with: answer) }
  }
}

extension ScriptKeeper where Script == ActionScript {
  /// Performs the action by the script; when no scripted answer is left and the flow awaits the answer,
  /// `unscripted` says who answers (a call nothing routes, the `requestReview` effect, takes the default).
  package func answerAction(_ request: ActionRequest, unscripted: Unscripted) async -> ActionAnswer {
    let step = PerformingStep.id
    var answer = withScript { $0.start(request, at: step) }
    if answer == nil, request.isAwaited {
      switch unscripted {
      case .fallback: break
      case .ask(let ask):
        if let outcome = await ask("\(request.name)?", request.outcomes) { answer = ActionAnswer(outcome) }
      case .refuse(let note):
        note(.action(request.name), step, request.outcomes)
        return .unanswered
      }
    }
    return withScript { [answer] in $0.finish(request, with: answer) }
  }
}
