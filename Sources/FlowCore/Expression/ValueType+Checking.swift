// MARK: - Types of values

extension ValueType {
  /// The static type of a value: lists and maps take the common type of their elements (`any` when the
  /// elements differ or there are none).
  package init(of value: Value) {
    switch value {
    case .null: self = .null
    case .bool: self = .bool
    case .int: self = .int
    case .decimal: self = .decimal
    case .date: self = .date
    case .duration: self = .duration
    case .string: self = .string
    case .list(let elements): self = .list(Self.common(elements.lazy.map(ValueType.init(of:))))
    case .map(let entries): self = .map(Self.common(entries.values.lazy.map(ValueType.init(of:))))
    }
  }

  private static func common(_ types: some Sequence<ValueType>) -> ValueType {
    var result: ValueType?
    for type in types {
      guard let current = result else {
        result = type
        continue
      }
      guard let unified = current.unified(with: type) else { return .any }
      result = unified
    }
    return result ?? .any
  }
}

// MARK: - Relations used by the checker

extension ValueType {
  /// The type without its optional wrapper (a value that may be null is accepted where the plain type is).
  var unwrapped: ValueType {
    if case .optional(let inner) = self { inner.unwrapped } else { self }
  }

  /// `T?`, without wrapping `any`, `null` or an optional again.
  static func optional(of type: ValueType) -> ValueType {
    switch type {
    case .any, .null, .optional: type
    default: .optional(type)
    }
  }

  /// The type that holds values of both types (`?:` branches, `??` operands, list elements), or nil when
  /// there is none. `any` absorbs everything; `null` and `T` make `T?`.
  func unified(with other: ValueType) -> ValueType? {
    if self == other { return self }
    switch (self, other) {
    case (.any, _), (_, .any): return .any
    case (.null, let type), (let type, .null): return .optional(of: type)
    case (.int, .decimal), (.decimal, .int): return .decimal
    case (.optional(let a), _), (_, .optional(let a)):
      let b = self.isOptional ? other.unwrapped : unwrapped
      return a.unified(with: b).map(ValueType.optional(of:))
    case (.list(let a), .list(let b)): return a.unified(with: b).map(ValueType.list)
    case (.map(let a), .map(let b)): return a.unified(with: b).map(ValueType.map)
    case (.record, .record), (.record, .map), (.map, .record): return .any
    default: return nil
    }
  }

  /// Whether `==` between values of the two types can ever be true: `any` and `null` compare with
  /// everything, optionals compare as their wrapped type.
  func isComparable(with other: ValueType) -> Bool {
    switch (unwrapped, other.unwrapped) {
    case (.any, _), (_, .any), (.null, _), (_, .null): true
    case (.int, .decimal), (.decimal, .int): true
    case (.list(let a), .list(let b)): a.isComparable(with: b)
    case (.map(let a), .map(let b)): a.isComparable(with: b)
    case (.record, .record), (.record, .map), (.map, .record): true
    case (let a, let b): a == b
    }
  }

  /// Whether `value` has this type (a provider's result checked against what its outcome returns).
  package func admits(_ value: Value) -> Bool {
    switch (self, value) {
    case (.any, _), (.null, .null), (.optional, .null), (.bool, .bool), (.int, .int), (.string, .string): true
    case (.optional(let wrapped), _): wrapped.admits(value)
    case (.list(let element), .list(let items)): items.allSatisfy(element.admits)
    case (.map(let element), .map(let entries)): entries.values.allSatisfy(element.admits)
    case (.record(let fields), .map(let entries)):
      entries.allSatisfy { key, item in fields[key].map { $0.admits(item) } ?? false }
    default: false
    }
  }

  var isOptional: Bool {
    if case .optional = self { true } else { false }
  }

  /// A coarse classification of the unwrapped type, for operand checks.
  var kind: Kind {
    switch unwrapped {
    case .any: .any
    case .null: .null
    case .bool: .bool
    case .int: .int
    case .decimal: .decimal
    case .date: .date
    case .duration: .duration
    case .string: .string
    case .list: .list
    case .map, .record: .map
    case .optional: .any
    }
  }

  enum Kind: Sendable {
    case any, null, bool, int, decimal, date, duration, string, list, map

    /// An int or a decimal.
    var isNumber: Bool { self == .int || self == .decimal }
  }
}
