package import FlowCore

/// A flow as a diagram: Graphviz DOT or Mermaid. Steps are shaped by kind, retired steps greyed out, terminals
/// drawn as double circles; edges are labelled with the button or outcome and the route's guard, and a step's
/// `skipIf` is a dashed edge to its `next`. Every `resume` route is an edge from the launch point (dotted in
/// DOT, dashed in Mermaid), labelled with its condition; a route by raw value has one edge per step with a
/// `rawValue`, labelled `[EXPR == N]`.
package enum FlowGraph {
  package enum Format: String, Sendable, CaseIterable { case dot, mermaid }

  package static func render(_ flow: Flow, as format: Format) -> String {
    format == .dot ? dot(flow) : mermaid(flow)
  }

  /// The edge's label: the button or outcome name, `skip`, and the guard in brackets.
  static func label(_ declared: DeclaredTransition, skipIf: Expr?) -> String {
    var parts: [String] = []
    switch declared.transition.kind {
    case .next, .resume, .foreground: break
    case .open: parts.append(declared.transition.name ?? "")
    case .skip: parts.append("skip")
    case .button, .outcome: parts.append(declared.transition.name ?? "")
    case .skipIf: parts.append("skipIf \(skipIf?.description ?? "")")
    }
    if let guardText = declared.guardText, declared.transition.kind != .skipIf { parts.append("[\(guardText)]") }
    return parts.joined(separator: " ")
  }

  /// One drawn edge.
  struct Edge {
    enum Style { case plain, skipIf, resume }
    var from: String
    var to: String
    var label: String
    var style: Style
    var fromRetired: Bool
  }

  /// The declared transitions, with the `resume` routes by raw value after the other routes from launch.
  static func edges(_ flow: Flow) -> [Edge] {
    let declared = flow.declaredTransitions.map { declared in
      let transition = declared.transition
      let from = flow.step(transition.from)
      let style: Edge.Style =
        switch transition.kind {
        case .skipIf: .skipIf
        case .resume, .foreground, .open: .resume
        default: .plain
        }
      return Edge(
        from: transition.from, to: transition.to, label: label(declared, skipIf: from?.skipIf), style: style,
        fromRetired: from?.isRetired == true)
    }
    var byRawValue: [Edge] = []
    for route in flow.routes {
      guard route.from == nil, case .rawValue(let expr) = route.condition, let rawValue = flow.steps[route.to].rawValue
      else { continue }
      byRawValue.append(
        Edge(
          from: "launch", to: flow.steps[route.to].id, label: "[\(expr) == \(rawValue)]", style: .resume,
          fromRetired: false))
    }
    // In `Flow.routes` order: the resume routes as written, then the route to `start` (labelled `[start]`).
    let launchCount = declared.prefix { $0.from == "launch" && $0.label != "[start]" }.count
    return Array(declared[..<launchCount]) + byRawValue + Array(declared[launchCount...])
  }

  // MARK: - DOT

  static func dot(_ flow: Flow) -> String {
    var out = "digraph \(quoteDOT(flow.id)) {\n"
    out += "  label=\(quoteDOT("\(flow.id) \(flow.version)"));\n  labelloc=t;\n  rankdir=TB;\n"
    out += "  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n"
    out += "  \"launch\" [shape=point, width=0.15];\n"
    for step in flow.steps {
      var attributes = ["shape=\(dotShape(step.kind))", "label=\(quoteDOT("\(step.id)\n\(step.kind.rawValue)"))"]
      if step.kind == .singleChoice || step.kind == .multiChoice { attributes.append("style=rounded") }
      if step.isRetired {
        attributes += [
          "style=\"filled,dashed\"", "fillcolor=\"#eeeeee\"", "color=\"#999999\"", "fontcolor=\"#999999\"",
        ]
      } else if step.isTerminal {
        attributes += ["style=filled", "fillcolor=\"#d8f0d8\""]
      }
      out += "  \(quoteDOT(step.id)) [\(attributes.joined(separator: ", "))];\n"
    }
    for edge in edges(flow) {
      var attributes: [String] = []
      if !edge.label.isEmpty { attributes.append("label=\(quoteDOT(edge.label))") }
      if edge.style == .skipIf { attributes.append("style=dashed") }
      if edge.style == .resume { attributes.append("style=dotted") }
      if edge.fromRetired { attributes.append("color=\"#999999\"") }
      let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      out += "  \(quoteDOT(edge.from)) -> \(quoteDOT(edge.to))\(suffix);\n"
    }
    return out + "}\n"
  }

  static func dotShape(_ kind: Step.Kind) -> String {
    switch kind {
    case .screen: "box"
    case .singleChoice, .multiChoice: "box"
    case .textInput, .form: "parallelogram"
    case .permission: "hexagon"
    case .action: "component"
    case .terminal: "doublecircle"
    }
  }

  static func quoteDOT(_ text: String) -> String {
    var out = "\""
    for character in text {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.append(character)
      }
    }
    return out + "\""
  }

  // MARK: - Mermaid

  static func mermaid(_ flow: Flow) -> String {
    var out = "flowchart TD\n"
    out += "  launch__((\" \"))\n"
    for step in flow.steps {
      let text = quoteMermaid("\(step.id)<br/><small>\(step.kind.rawValue)</small>")
      let (open, close) = mermaidShape(step.kind)
      out += "  \(mermaidID(step.id))\(open)\(text)\(close)\n"
    }
    for edge in edges(flow) {
      let from = edge.from == "launch" ? "launch__" : mermaidID(edge.from)
      let arrow = edge.style == .plain ? "-->" : "-.->"
      let text = edge.label.isEmpty ? "" : "|\(quoteMermaid(edge.label))|"
      out += "  \(from) \(arrow)\(text) \(mermaidID(edge.to))\n"
    }
    out += "  classDef retired fill:#eeeeee,stroke:#999999,color:#999999,stroke-dasharray:4 2\n"
    out += "  classDef terminal fill:#d8f0d8\n"
    let retired = flow.steps.filter(\.isRetired).map { mermaidID($0.id) }
    let terminals = flow.steps.filter { $0.isTerminal && !$0.isRetired }.map { mermaidID($0.id) }
    if !retired.isEmpty { out += "  class \(retired.joined(separator: ",")) retired\n" }
    if !terminals.isEmpty { out += "  class \(terminals.joined(separator: ",")) terminal\n" }
    return out
  }

  static func mermaidShape(_ kind: Step.Kind) -> (String, String) {
    switch kind {
    case .screen: ("[", "]")
    case .singleChoice, .multiChoice: ("(", ")")
    case .textInput, .form: ("[/", "/]")
    case .permission: ("{{", "}}")
    case .action: ("[[", "]]")
    case .terminal: ("(((", ")))")
    }
  }

  /// Step ids are identifiers; `end` and friends are Mermaid keywords, so every id gets a prefix.
  static func mermaidID(_ id: String) -> String { "s_" + id }

  static func quoteMermaid(_ text: String) -> String {
    "\"" + text.replacing("\"", with: "#quot;") + "\""
  }
}
