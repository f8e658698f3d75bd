import FlowCore
import FlowRuntime
import Testing

@Suite struct GraphTests {
  static let flow = """
    flow: g
    version: "1"
    locales: [en]
    start: a
    resume:
      - when: 'env.x == 2'
        to: c
      - rawValue: env.saved
    steps:
      a:
        kind: screen
        rawValue: 0
        next:
          to:
            - when: 'env.x == 1'
              to: b
            - to: c
      b:
        kind: screen
        skipIf: 'true == false'
        next: c
      old:
        kind: screen
        rawValue: 1
        retired: true
        next: c
      c:
        kind: terminal
        outcome: completed
    environment:
      x: { type: int, default: 1 }
      saved: { type: int, default: 0 }
    """

  @Test func dotSnapshot() throws {
    let dot = FlowGraph.render(try compileFlow(Self.flow), as: .dot)
    #expect(
      dot == """
        digraph "g" {
          label="g 1";
          labelloc=t;
          rankdir=TB;
          node [fontname="Helvetica", fontsize=11];
          edge [fontname="Helvetica", fontsize=9];
          "launch" [shape=point, width=0.15];
          "a" [shape=box, label="a\\nscreen"];
          "b" [shape=box, label="b\\nscreen"];
          "old" [shape=box, label="old\\nscreen", style="filled,dashed", fillcolor="#eeeeee", color="#999999", fontcolor="#999999"];
          "c" [shape=doublecircle, label="c\\nterminal", style=filled, fillcolor="#d8f0d8"];
          "launch" -> "c" [label="[env.x == 2]", style=dotted];
          "launch" -> "a" [label="[env.saved == 0]", style=dotted];
          "launch" -> "old" [label="[env.saved == 1]", style=dotted];
          "launch" -> "a" [label="[start]", style=dotted];
          "a" -> "b" [label="[env.x == 1]"];
          "a" -> "c" [label="[otherwise]"];
          "b" -> "c";
          "b" -> "c" [label="skipIf true == false", style=dashed];
          "old" -> "c" [color="#999999"];
        }

        """)
  }

  @Test func mermaidSnapshot() throws {
    let mermaid = FlowGraph.render(try compileFlow(Self.flow), as: .mermaid)
    #expect(
      mermaid == """
        flowchart TD
          launch__((" "))
          s_a["a<br/><small>screen</small>"]
          s_b["b<br/><small>screen</small>"]
          s_old["old<br/><small>screen</small>"]
          s_c((("c<br/><small>terminal</small>")))
          launch__ -.->|"[env.x == 2]"| s_c
          launch__ -.->|"[env.saved == 0]"| s_a
          launch__ -.->|"[env.saved == 1]"| s_old
          launch__ -.->|"[start]"| s_a
          s_a -->|"[env.x == 1]"| s_b
          s_a -->|"[otherwise]"| s_c
          s_b --> s_c
          s_b -.->|"skipIf true == false"| s_c
          s_old --> s_c
          classDef retired fill:#eeeeee,stroke:#999999,color:#999999,stroke-dasharray:4 2
          classDef terminal fill:#d8f0d8
          class s_old retired
          class s_c terminal

        """)
  }
}
