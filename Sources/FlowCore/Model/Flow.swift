/// A compiled flow: the typed model the engine runs and the linter checks.
///
/// An app builds one from the flow's canonical JSON (`flowrun export FLOW --json`) with
/// ``FlowCompiler/compile(json:file:)`` and runs it in a ``FlowSession``.
public struct Flow: Sendable {
  /// The flow's name (`flow:`).
  public let id: String
  /// The flow's version (`version:`).
  public let version: String
  package let description: String?
  package let locales: [String]
  /// Which locale texts are shown in; nil means the first locale.
  package let language: Expr?
  package let start: StepIndex
  package let back: Bool
  package let facts: [Fact]
  package let permissions: [Located<PermissionKind>]
  package let variables: [Variable]
  package let resume: [ResumeRoute]
  /// What runs when the app starts, before the `resume` routes choose the first step (`launch:`).
  package let launch: [LaunchItem]
  /// What happens when the app returns from the background, after the permission statuses are read again
  /// (`foreground:`); nil when the flow says nothing.
  package let foreground: Transition?
  /// The deep links the flow can be opened with (`open:`), by entry name.
  package let openEntries: [OpenEntry]
  package let reset: Reset
  package let hooks: Hooks
  /// locale -> key -> text, with the location of each key for diagnostics.
  package let strings: [String: [String: Located<String>]]
  package let steps: [Step]
  /// The actions, custom effects and terminal outcomes the flow may use: the prelude's and its own.
  package let declarations: Declarations
  /// Where `flow:` is, for diagnostics about the flow as a whole.
  package let location: SourceLocation

  package var stepIndexByID: [String: StepIndex]
  package var variableIndexByName: [String: Int]
  /// locale -> key -> the forms of a text with plural forms, by CLDR category (`strings` holds its `other` form).
  package var plurals: [String: [String: [PluralCategory: String]]] = [:]
  /// The experiments the flow declares (`experiments:`), in the order written; each run is assigned one variant
  /// of each at launch.
  package var experiments: [Experiment] = []

  package func index(of stepID: String) -> StepIndex? { stepIndexByID[stepID] }
  package func step(_ id: String) -> Step? { stepIndexByID[id].map { steps[$0] } }
  package func variable(_ name: String) -> Variable? { variableIndexByName[name].map { variables[$0] } }
  package func fact(_ name: String) -> Fact? { facts.first { $0.name == name } }
}

package typealias StepIndex = Int

/// A value with the place it was written.
package struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  package let value: Value
  package let location: SourceLocation
  package init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }
}

/// A name with the place it was written.
package struct Named<Value: Sendable & Hashable>: Sendable, Hashable {
  package let name: String
  package let value: Value
  package let location: SourceLocation
}

/// An expression as written in the flow, with the location of its scalar (for diagnostics).
package struct Expr: Sendable, Hashable, CustomStringConvertible {
  package init(expression: FlowExpression, location: SourceLocation, textStart: SourceLocation? = nil) {
    storage = Storage(expression: expression, location: location, textStart: textStart ?? location)
  }

  /// The fields, behind one reference: a model value that holds expressions is copied with one retain each.
  private let storage: Storage

  private final class Storage: Sendable {
    let expression: FlowExpression
    let location: SourceLocation
    let textStart: SourceLocation

    init(expression: FlowExpression, location: SourceLocation, textStart: SourceLocation) {
      self.expression = expression
      self.location = location
      self.textStart = textStart
    }
  }

  /// The parsed expression.
  package var expression: FlowExpression { storage.expression }
  /// Where its scalar starts (the quote of a quoted scalar).
  package var location: SourceLocation { storage.location }
  /// Where its text starts: column 1 of the expression.
  package var textStart: SourceLocation { storage.textStart }

  package static func == (lhs: Expr, rhs: Expr) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.expression == rhs.expression && lhs.location == rhs.location && lhs.textStart == rhs.textStart)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(expression)
    hasher.combine(location)
    hasher.combine(textStart)
  }
  /// The source text.
  package var description: String { expression.source }

  /// Where the 1-based `column` of the expression is in the file. A column after a line break of the text (in
  /// a block scalar) is on a later line, at the same indentation.
  package func location(ofColumn column: Int) -> SourceLocation {
    Self.location(ofColumn: column, in: expression.source, textStart: textStart)
  }

  /// Where the 1-based `column` of `source`, whose text starts at `textStart`, is in the file.
  package static func location(ofColumn column: Int, in source: String, textStart: SourceLocation) -> SourceLocation {
    var location = textStart
    for scalar in source.unicodeScalars.prefix(max(column, 1) - 1) {
      if scalar == "\n" {
        location = SourceLocation(line: location.line + 1, column: textStart.column)
      } else {
        location = location.advanced(by: 1)
      }
    }
    return location
  }
}

/// A fact about the device the flow depends on (`env.NAME`).
package struct Fact: Sendable, Hashable {
  package let name: String
  package let type: VariableType
  package let defaultValue: Value
  /// The values `flowrun explore` tries.
  package let values: [Value]
  package let location: SourceLocation
}

/// The type of a variable or fact.
package enum VariableType: String, Sendable, Hashable, CaseIterable {
  case bool, int, decimal, date, duration, string, list, map

  package var valueType: ValueType {
    switch self {
    case .bool: .bool
    case .int: .int
    case .decimal: .decimal
    case .date: .date
    case .duration: .duration
    case .string: .string
    case .list: .list(.string)
    case .map: .map(.string)
    }
  }

  /// Whether `value` has this type, or reads as it (see ``coerce(_:)``).
  package func admits(_ value: Value) -> Bool { coerce(value) != nil }

  /// `value` as a value of this type, or nil when it is not one: an int is read as a decimal where a decimal is
  /// wanted (and a whole decimal, `18.0`, as an int where an int is), and a date or a duration as the text documents and stores write it (`"2026-11-25"`, `"10m"`). A date
  /// may be null (not set).
  package func coerce(_ value: Value) -> Value? {
    switch (self, value) {
    case (.bool, .bool), (.int, .int), (.decimal, .decimal), (.date, .date), (.date, .null), (.duration, .duration),
      (.string, .string):
      value
    case (.decimal, .int(let i)): .decimal(Double(i))
    case (.int, .decimal(let d)): Int(exactly: d).map(Value.int)
    case (.date, .string(let text)): CalendarDate.seconds(text).map(Value.date)
    case (.duration, .string(let text)): TimeSpan.seconds(text).map(Value.duration)
    case (.list, .list(let items)): items.allSatisfy { if case .string = $0 { true } else { false } } ? value : nil
    case (.map, .map(let entries)):
      entries.values.allSatisfy { if case .string = $0 { true } else { false } } ? value : nil
    default: nil
    }
  }
}

/// A typed variable of the flow; persisted ones survive a restart.
package struct Variable: Sendable, Hashable {
  package let name: String
  package let type: VariableType
  /// False when the flow's `type` is missing or not a type (reported as an error): ``type`` is then `string` so
  /// that the flow compiles, and expressions treat the variable as of any type, so that the one mistake is not
  /// reported again at every use.
  package let typeIsKnown: Bool
  /// The type expressions that read or write the variable are checked against: `any` when ``typeIsKnown`` is false.
  package var checkedType: ValueType { typeIsKnown ? type.valueType : .any }
  package let defaultValue: Value
  /// Allowed values for a string variable; a stored value outside them is replaced by the default.
  package let allowedValues: [String]?
  /// The store key, when the variable is persisted.
  package let persistKey: String?
  /// Evaluated at launch and on reset when nothing is stored.
  package let initial: Expr?
  package let location: SourceLocation

  package func admits(_ value: Value) -> Bool { coerce(value) != nil }

  /// `value` as this variable holds it (see ``VariableType/coerce(_:)``), or nil when it is not of the variable's
  /// type or not one of its allowed values.
  package func coerce(_ value: Value) -> Value? {
    guard let typed = type.coerce(value) else { return nil }
    if let allowedValues, case .string(let s) = typed { return allowedValues.contains(s) ? typed : nil }
    return typed
  }
  /// The value a launch loads from the stored value `stored`: `stored` as this variable holds it, or the default
  /// when it does not fit (the launch warns).
  package func loaded(from stored: Value) -> Value { load(stored).value }
  /// ``loaded(from:)``, and whether `stored` fits.
  package func load(_ stored: Value) -> (value: Value, fits: Bool) {
    if let typed = coerce(stored) { return (typed, true) }
    return (defaultValue, false)
  }
}

/// A route of `resume`: to a step, or to the step whose raw value an expression gives.
package struct ResumeRoute: Sendable, Hashable {
  /// A step, or the step whose `rawValue` equals an expression's value (skipped when none does).
  package enum Destination: Sendable, Hashable {
    case step(StepIndex)
    case rawValue(Expr)
  }
  package let when: Expr?
  package let destination: Destination
  package let location: SourceLocation
}

/// One entry of the flow's `launch:` list, run in order when the app starts (and on `restart`), before the
/// `resume` routes choose the first step: an effect, or a system action whose outcome's effects run before the
/// next entry (the app fetching a profile or a remote configuration at start-up).
package enum LaunchItem: Sendable, Hashable {
  case effect(Effect)
  case action(LaunchAction)
}

/// A declared action run at launch (`- action: restore-profile`), when its `when` holds; each outcome runs
/// effects (it has no step to go to: the `resume` routes decide).
package struct LaunchAction: Sendable, Hashable {
  package let name: Located<ActionName>
  package let arguments: [Named<Expr>]
  package let when: Expr?
  package let outcomes: [Outcome]
  package let location: SourceLocation

  /// The call it makes: the action, its arguments and where each outcome goes (`else` included).
  package var call: Step.ActionCall { Step.ActionCall(name: name, arguments: arguments, outcomes: outcomes) }
}

/// A deep link into the flow (`open: {NAME: {params, effects, to}}`): `open URL` takes the entry named by the
/// URL's first path segment (a custom scheme's host counts as one) with the URL's query items as `params`.
package struct OpenEntry: Sendable, Hashable {
  package let name: String
  package let params: [OpenParameter]
  /// The entry's effects and where it goes (`stay` by default).
  package let transition: Transition
  package let location: SourceLocation
}

/// A query parameter an `open:` entry reads as `params.NAME`.
package struct OpenParameter: Sendable, Hashable {
  package let name: String
  /// `string`, `int` or `bool`.
  package let type: VariableType
  /// A link without it is refused (default `true`).
  package let isRequired: Bool
  package let location: SourceLocation
}

/// What `reset` clears and what runs after.
package struct Reset: Sendable, Hashable {
  package var clear: [Located<String>] = []
  package var effects: [Effect] = []
  package var location: SourceLocation = .unknown
}

/// Effects that run around every move.
package struct Hooks: Sendable, Hashable {
  package var launch: [Effect] = []
  package var advance: [Effect] = []
  package var enter: [Effect] = []
}
