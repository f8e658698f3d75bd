import FlowCore

/// What `flowrun explore` types into text inputs and form fields.
///
/// An input with `values:` gets exactly those. Otherwise its candidates are the type's own samples
/// (``Step/Field/FieldType/exploreSamples``), the allowed `values` of the variable it writes, and the values on
/// both sides of every comparison in the conditions that read it (a text input's `valid` reads it as `input`; every
/// condition, route, check and assignment of the flow reads it by its variable): see
/// ``FlowExpression/boundaryValues(of:)``. Candidates that answer every test of those conditions alike take the same
/// branches, so only the first of them is kept (``FlowExpression/testAnswers(reading:when:minutesSinceMidnight:)``).
///
/// A form is filled with a baseline (for each field, the candidate that passes most tests of `next`'s `enabled`):
/// every field, the required fields only, the required fields with each optional one, then each field's other
/// candidates with the rest at the baseline.
struct ExploreInputs {
  /// The input events tried on each step, by step index (empty for steps with no text input or form).
  let events: [[FlowEvent]]
  /// The texts tried in each input of each step, by step index: the text input's, or each form field's in order.
  let candidates: [[Candidates]]
  /// The deep links opened, for every `open:` entry (``links(to:control:)``).
  let links: [String]

  /// The texts tried in one input.
  struct Candidates {
    /// The form field's name; nil for a text input.
    var field: String?
    var texts: [String]
  }

  init(flow: Flow, clock: Double) {
    let minutes = Int(clock / 60)
    let control = flow.controlExpressions
    let byStep = flow.steps.map { step -> (events: [FlowEvent], candidates: [Candidates]) in
      if let input = step.textInput {
        var reads = [Reading(path: [input.variable.value], exprs: control + [input.prefill].compactMap { $0 })]
        if let valid = input.valid { reads.insert(Reading(path: ["input"], exprs: [valid]), at: 0) }
        let allowed = flow.variable(input.variable.value)?.allowedValues ?? []
        let texts =
          input.values.isEmpty
          ? Self.candidates(
            samples: Step.Field.FieldType.string.exploreSamples + allowed, reads: reads, minutes: minutes,
            value: { .string($0) }, blankMatters: input.valid == nil && input.isRequired)
          : input.values
        return (texts.map { .input($0) }, [Candidates(field: nil, texts: texts)])
      }
      guard !step.fields.isEmpty else { return ([], []) }
      return Self.formEvents(step, flow: flow, control: control, minutes: minutes)
    }
    events = byStep.map(\.events)
    candidates = byStep.map(\.candidates)
    links = flow.openEntries.flatMap { Self.links(to: $0, control: control) }
  }

  /// The links tried for `entry`: each parameter at its first candidate, then each parameter's other candidates in
  /// turn. A parameter's candidates are a sample of its type and the values the flow's conditions compare
  /// `params.NAME` with (a `matches` test gives a text of its pattern): `flowkit://referral?code=A1`, then
  /// `flowkit://referral?code=aaaa` for `matches(params.code, "^[A-Za-z0-9]{4,12}$")`.
  static func links(to entry: OpenEntry, control: [Expr]) -> [String] {
    let candidates = entry.params.map { parameter -> [String] in
      var texts: [String] =
        switch parameter.type {
        case .int: ["1"]
        case .bool: ["true", "false"]
        default: ["A1"]
        }
      for expr in control {
        texts += expr.expression.boundaryValues(of: ["params", parameter.name]).compactMap(Step.Field.text(of:))
      }
      var seen: Set<String> = []
      return texts.filter { seen.insert($0).inserted }
    }
    func link(_ values: [String]) -> String {
      let query = zip(entry.params, values).map { "\($0.name)=\(percentEncoded($1))" }
      return "flowkit://\(entry.name)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }
    let baseline = candidates.map { $0.first ?? "" }
    var links = [link(baseline)]
    for (index, texts) in candidates.enumerated() {
      for text in texts.dropFirst() {
        var values = baseline
        values[index] = text
        links.append(link(values))
      }
    }
    return links
  }

  /// `text` as a URL query value: letters, digits and `-._~` as they are, every other byte as `%XX`.
  static func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF")
        result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
      }
    }
    return result
  }

  /// A name an input is read by and the expressions that read it.
  struct Reading {
    var path: [String]
    var exprs: [Expr]
  }

  /// The fillings tried on a form, and each field's texts.
  static func formEvents(
    _ step: Step, flow: Flow, control: [Expr], minutes: Int
  ) -> (events: [FlowEvent], candidates: [Candidates]) {
    var fieldTexts: [String: [String]] = [:]
    var baseline: [String: String] = [:]
    for field in step.fields {
      let path = [field.target.variable] + (field.target.key.map { [$0] } ?? [])
      let allowed = field.target.key == nil ? flow.variable(field.target.variable)?.allowedValues ?? [] : []
      let texts =
        field.values.isEmpty
        ? candidates(
          samples: field.type.exploreSamples + allowed + field.checkedSamples,
          reads: [Reading(path: path, exprs: control)],
          minutes: minutes, value: field.parse, keepAll: field.hasChecks)
        : field.values
      fieldTexts[field.name] = texts
      // The baseline passes the most tests of `next`'s `enabled` (on a tie, the first that is not empty).
      let enabled = step.next?.enabled.map { [$0.expression] } ?? []
      func passed(_ text: String) -> Int {
        guard let value = field.parse(text) else { return -1 }
        return enabled.flatMap { $0.testAnswers(reading: path, when: value, minutesSinceMidnight: minutes) }
          .count { $0 == .bool(true) }
      }
      var best = -2
      for text in texts where passed(text) * 2 + (text.isEmpty ? 0 : 1) > best {
        best = passed(text) * 2 + (text.isEmpty ? 0 : 1)
        baseline[field.name] = text
      }
    }
    var events: [[String: String]] = [baseline]
    let required = baseline.filter { name, _ in step.fields.contains { $0.name == name && $0.isRequired } }
    events.append(required)
    // Each optional field on its own too (with the required ones): follow-ups often depend on which was given.
    for field in step.fields where !field.isRequired {
      var single = required
      single[field.name] = baseline[field.name]
      events.append(single)
    }
    for field in step.fields {
      for text in fieldTexts[field.name] ?? [] where text != baseline[field.name] {
        var varied = baseline
        varied[field.name] = text
        events.append(varied)
      }
    }
    var seen: Set<[String: String]> = []
    return (
      events.filter { seen.insert($0).inserted }.map { .inputFields($0) },
      step.fields.map { Candidates(field: $0.name, texts: fieldTexts[$0.name] ?? []) }
    )
  }

  /// `samples`, then the boundary values of every reading, as texts a field accepts (`value` reads them), each
  /// text once, and only the first of the texts that answer every test alike. With `blankMatters` (a required text
  /// input with no `valid`, which refuses a blank text) a blank and a non-blank text never answer alike.
  static func candidates(
    samples: [String], reads: [Reading], minutes: Int, value: (String) -> Value?, keepAll: Bool = false,
    blankMatters: Bool = false
  ) -> [String] {
    var texts = samples
    for reading in reads {
      for expr in reading.exprs {
        texts += expr.expression.boundaryValues(of: reading.path).compactMap(Step.Field.text(of:))
      }
    }
    struct Answers: Hashable {
      var answers: [Value?]
      /// Set when a test could not be answered from the input alone: the input is then kept.
      var text: String?
    }
    var seenTexts: Set<String> = []
    var seenAnswers: Set<Answers> = []
    var kept: [String] = []
    for text in texts where seenTexts.insert(text).inserted {
      guard let typed = value(text) else { continue }
      var answers: [Value?] = blankMatters ? [.bool(text.allSatisfy(\.isWhitespace))] : []
      for reading in reads {
        for expr in reading.exprs {
          answers += expr.expression.testAnswers(reading: reading.path, when: typed, minutesSinceMidnight: minutes)
        }
      }
      let key = Answers(answers: answers, text: keepAll || answers.contains(nil) ? text : nil)
      if seenAnswers.insert(key).inserted { kept.append(text) }
    }
    return kept
  }
}

extension Step.Field.FieldType {
  /// What explore types into a field of this type whatever the flow compares it with (a text input is a
  /// `string`). A new field type adds its samples here; the values its conditions compare it with are added by
  /// ``ExploreInputs``, and `Step.Field.parse` says which texts it accepts.
  var exploreSamples: [String] {
    switch self {
    case .string: ["", "Akira"]
    case .int: ["1"]
    case .decimal: ["1.5"]
    case .bool, .toggle: ["true", "false"]
    case .time: ["07:00"]
    case .date: ["2000-01-01"]
    case .singleChoice, .multiChoice: []  // each option, from the field's checks
    }
  }
}

extension Step.Field {
  /// Whether the engine checks the field's value beyond its type (bounds, lengths, a pattern, options): explore
  /// then keeps every candidate, since two that answer the flow's conditions alike may not both pass the checks.
  var hasChecks: Bool {
    minimum != nil || maximum != nil || minLength != nil || maxLength != nil || pattern != nil || !options.isEmpty
      || optionsFrom != nil
  }

  /// Candidates from the field's own checks: each option (and, for a multi-choice field, all of them), the values
  /// on both sides of a `min` or `max` that needs no names (`1`, `date("1900-01-01")`), texts of `minLength`
  /// and `maxLength` characters and one character beyond, and a text the `pattern` matches.
  var checkedSamples: [String] {
    var texts = options.map(\.id)
    if type == .multiChoice, options.count > 1 { texts.append(options.map(\.id).joined(separator: ",")) }
    for (bound, step) in [(minimum, -1), (maximum, 1)] {
      guard type != .multiChoice, let bound, let value = try? bound.expression.evaluate(in: Bindings.empty) else {
        continue
      }
      if case .int(let n) = value { texts.append(String(n &+ step)) }
      if let text = Step.Field.text(of: value) { texts.append(text) }
    }
    for (length, extra) in [(minLength, -1), (maxLength, 1)] {
      guard let length else { continue }
      texts += [length, length + extra].filter { (0...256).contains($0) }.map { String(repeating: "a", count: $0) }
    }
    if let pattern, let example = LinearPattern.example(matching: pattern, minLength: minLength ?? 0) {
      texts.append(example)
    }
    return texts
  }
}
