/// A compiled flow: the typed model the engine runs and the linter checks.
///
/// Build one with ``FlowCompiler`` from a positioned document tree (YAML or JSON). Steps are addressed by
/// index internally; ``Flow/index(of:)`` maps an id to its index.
public struct Flow: Sendable {
  public let id: String
  public let version: String
  public let description: String?
  public let locales: [String]
  /// Which locale texts are shown in; nil means the first locale.
  public let language: Expr?
  public let start: StepIndex
  public let back: Bool
  public let facts: [Fact]
  public let permissions: [Located<PermissionKind>]
  public let variables: [Variable]
  public let resume: [ResumeRoute]
  public let reset: Reset
  public let hooks: Hooks
  /// locale -> key -> text, with the location of each key for diagnostics.
  public let strings: [String: [String: Located<String>]]
  public let steps: [Step]
  /// Where `flow:` is, for diagnostics about the flow as a whole.
  public let location: SourceLocation

  package var stepIndexByID: [String: StepIndex]
  package var variableIndexByName: [String: Int]

  public func index(of stepID: String) -> StepIndex? { stepIndexByID[stepID] }
  public func step(_ id: String) -> Step? { stepIndexByID[id].map { steps[$0] } }
  public func variable(_ name: String) -> Variable? { variableIndexByName[name].map { variables[$0] } }
  public func fact(_ name: String) -> Fact? { facts.first { $0.name == name } }
}

public typealias StepIndex = Int

/// A value with the place it was written.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  public let value: Value
  public let location: SourceLocation
  public init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }
}

/// A name with the place it was written.
public struct Named<Value: Sendable & Hashable>: Sendable, Hashable {
  public let name: String
  public let value: Value
  public let location: SourceLocation
}

/// An expression as written in the flow, with the location of its scalar (for diagnostics).
public struct Expr: Sendable, Hashable, CustomStringConvertible {
  package init(expression: FlowExpression, location: SourceLocation, textStart: SourceLocation? = nil) {
    self.expression = expression
    self.location = location
    self.textStart = textStart ?? location
  }

  /// The parsed expression.
  public let expression: FlowExpression
  /// Where its scalar starts (the quote of a quoted scalar).
  public let location: SourceLocation
  /// Where its text starts: column 1 of the expression.
  package let textStart: SourceLocation
  /// The source text.
  public var description: String { expression.source }

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
        location.column += 1
      }
    }
    return location
  }
}

/// A fact about the device the flow depends on (`env.NAME`).
public struct Fact: Sendable, Hashable {
  public let name: String
  public let type: VariableType
  public let defaultValue: Value
  /// The values `flowrun explore` tries.
  public let values: [Value]
  public let location: SourceLocation
}

/// The type of a variable or fact.
public enum VariableType: String, Sendable, Hashable, CaseIterable {
  case bool, int, string, list, map

  public var valueType: ValueType {
    switch self {
    case .bool: .bool
    case .int: .int
    case .string: .string
    case .list: .list(.string)
    case .map: .map(.string)
    }
  }

  /// Whether `value` has this type.
  public func admits(_ value: Value) -> Bool {
    switch (self, value) {
    case (.bool, .bool), (.int, .int), (.string, .string): true
    case (.list, .list(let items)): items.allSatisfy { if case .string = $0 { true } else { false } }
    case (.map, .map(let entries)): entries.values.allSatisfy { if case .string = $0 { true } else { false } }
    default: false
    }
  }
}

/// A typed variable of the flow; persisted ones survive a restart.
public struct Variable: Sendable, Hashable {
  public let name: String
  public let type: VariableType
  public let defaultValue: Value
  /// Allowed values for a string variable; a stored value outside them is replaced by the default.
  public let allowedValues: [String]?
  /// The store key, when the variable is persisted.
  public let persistKey: String?
  /// Evaluated at launch and on reset when nothing is stored.
  public let initial: Expr?
  public let location: SourceLocation

  public func admits(_ value: Value) -> Bool {
    guard type.admits(value) else { return false }
    if let allowedValues, case .string(let s) = value { return allowedValues.contains(s) }
    return true
  }
}

/// A route of `resume`: to a step, or to the step whose raw value an expression gives.
public struct ResumeRoute: Sendable, Hashable {
  /// A step, or the step whose `rawValue` equals an expression's value (skipped when none does).
  public enum Destination: Sendable, Hashable {
    case step(StepIndex)
    case rawValue(Expr)
  }
  public let when: Expr?
  public let destination: Destination
  public let location: SourceLocation
}

/// What `reset` clears and what runs after.
public struct Reset: Sendable, Hashable {
  public package(set) var clear: [Located<String>] = []
  public package(set) var effects: [Effect] = []
  public package(set) var location: SourceLocation = .unknown
}

/// Effects that run around every move.
public struct Hooks: Sendable, Hashable {
  public package(set) var launch: [Effect] = []
  public package(set) var advance: [Effect] = []
  public package(set) var enter: [Effect] = []
}
