/// An analytics event's properties, in the order the flow writes them (``RuntimeEffect/track(event:properties:)``).
///
/// A collection of `(name, value)` pairs: traces and recordings print them in that order, and an app that wants a
/// dictionary for its analytics SDK takes ``dictionary``. Written as a dictionary literal, the pairs keep the
/// literal's order.
public struct TrackProperties: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
  CustomStringConvertible
{
  /// The property names, in order.
  public private(set) var names: [String] = []
  /// The values, in the order of ``names``.
  public private(set) var values: [Value] = []

  /// No properties.
  public init() {}

  /// The pairs in the literal's order; a name given twice keeps its last value at its first place.
  public init(dictionaryLiteral elements: (String, Value)...) {
    for (name, value) in elements { self[name] = value }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { names.count }
  public subscript(position: Int) -> (name: String, value: Value) { (names[position], values[position]) }

  /// The value of the property `name`, or nil; setting a new name appends it.
  public subscript(name: String) -> Value? {
    get { names.firstIndex(of: name).map { values[$0] } }
    set {
      if let index = names.firstIndex(of: name) {
        if let newValue { values[index] = newValue } else { names.remove(at: index); values.remove(at: index) }
      } else if let newValue {
        names.append(name)
        values.append(newValue)
      }
    }
  }

  /// The properties as a dictionary (for an analytics SDK), without their order.
  public var dictionary: [String: Value] { Dictionary(zip(names, values)) { _, last in last } }

  /// `{step: "welcome", count: 2}`: as a map literal, in order.
  public var description: String {
    var text = ""
    write(to: &text)
    return text
  }

  /// Appends ``description`` to `text`.
  package func write(to text: inout String) {
    text += "{"
    for index in indices {
      if index > 0 { text += ", " }
      Value.writeMapKey(names[index], to: &text)
      text += ": "
      values[index].write(to: &text)
    }
    text += "}"
  }

  /// The properties as a JSON object node, in order.
  package var node: Node {
    Node(.mapping(indices.map { Node.Entry(key: names[$0], keyLocation: .unknown, value: values[$0].node) }))
  }
}
