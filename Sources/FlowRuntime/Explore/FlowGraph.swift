package import FlowCore

/// A flow as a diagram: Graphviz DOT or Mermaid. Steps are shaped by kind, retired steps greyed out, terminals
/// drawn as double circles; edges are labelled with the button or outcome and the route's guard, and a step's
/// `skipIf` is a dashed edge to its `next`.
package enum FlowGraph {
  package enum Format: String, Sendable, CaseIterable { case dot, mermaid }

  package static func render(_ flow: Flow, as format: Format) -> String {
    format == .dot ? dot(flow) : mermaid(flow)
  }

  /// The edge's label: the button or outcome name, `skip`, and the guard in brackets.
  static func label(_ declared: DeclaredTransition, skipIf: Expr?) -> String {
    var parts: [String] = []
    switch declared.transition.kind {
    case .next, .resume: break
    case .skip: parts.append("skip")
    case .button, .outcome: parts.append(declared.transition.name ?? "")
    case .skipIf: parts.append("skipIf \(skipIf?.description ?? "")")
    }
    if let guardText = declared.guardText, declared.transition.kind != .skipIf { parts.append("[\(guardText)]") }
    return parts.joined(separator: " ")
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
    for declared in flow.declaredTransitions {
      let transition = declared.transition
      let from = flow.step(transition.from)
      var attributes: [String] = []
      let text = label(declared, skipIf: from?.skipIf)
      if !text.isEmpty { attributes.append("label=\(quoteDOT(text))") }
      if transition.kind == .skipIf { attributes.append("style=dashed") }
      if transition.kind == .resume { attributes.append("style=dotted") }
      if from?.isRetired == true { attributes.append("color=\"#999999\"") }
      let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      out += "  \(quoteDOT(transition.from)) -> \(quoteDOT(transition.to))\(suffix);\n"
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
    for declared in flow.declaredTransitions {
      let transition = declared.transition
      let from = transition.from == "launch" ? "launch__" : mermaidID(transition.from)
      let text = label(declared, skipIf: flow.step(transition.from)?.skipIf)
      let arrow = transition.kind == .skipIf || transition.kind == .resume ? "-.->" : "-->"
      out += "  \(from) \(arrow)\(text.isEmpty ? "" : "|\(quoteMermaid(text))|") \(mermaidID(transition.to))\n"
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
