import FlowCore
import FlowRuntime
import Testing

@Suite struct DiffTests {
  static func flow(_ version: String, _ steps: String) -> String {
    """
    flow: d
    version: "\(version)"
    locales: [en]
    start: a
    variables:
      saved: { type: int, default: 0, persist: savedStep }
    resume:
      - rawValue: saved
    hooks:
      enter:
        - set: saved
          value: step.rawValue
          when: step.kind != "terminal"
    steps:
    \(steps)
    """
  }

  static let old = flow(
    "1",
    """
      a: { kind: screen, rawValue: 0, next: b }
      b: { kind: screen, rawValue: 1, next: c }
      c: { kind: screen, rawValue: 2, next: end }
      end: { kind: terminal, outcome: completed }
    """)

  static let renumbered = flow(
    "2",
    """
      a: { kind: screen, rawValue: 0, next: n }
      n: { kind: screen, rawValue: 1, next: b }
      b: { kind: screen, rawValue: 2, next: c }
      c: { kind: screen, rawValue: 3, next: end }
      end: { kind: terminal, outcome: completed }
    """)

  @Test func renumberedRawValuesAreErrors() throws {
    let report = FlowDiff.compare(old: try compileFlow(Self.old), new: try compileFlow(Self.renumbered))
    #expect(report.added == ["n"])
    #expect(report.removed.isEmpty)
    #expect(report.transitionsAdded == ["a -> n (next)", "n -> b (next)"])
    #expect(report.transitionsRemoved == ["a -> b (next)"])
    #expect(report.hasErrors)
    #expect(report.errors.map(\.savedAt) == ["b", "c"])
    #expect(report.errors.first?.resumesAt == "n")
    #expect(
      report.errors.first?.message == "raw value 1 meant 'b' and now means 'n': a user saved at 'b' resumes at 'n'")
    #expect(report.text.contains("2 error(s)"))
  }

  @Test func keptNumberingIsFine() throws {
    let retired = Self.flow(
      "3",
      """
        a: { kind: screen, rawValue: 0, next: c }
        b: { kind: screen, rawValue: 1, next: c, retired: true }
        c: { kind: screen, rawValue: 2, next: end }
        end: { kind: terminal, outcome: completed }
      """)
    let report = FlowDiff.compare(old: try compileFlow(Self.old), new: try compileFlow(retired))
    #expect(!report.hasErrors)
    #expect(report.retired == ["b"])
    #expect(report.resumes.map(\.resumesAt) == ["a", "b", "c"])
  }

  @Test func reorderedStepsAndFunnel() throws {
    let swapped = Self.flow(
      "4",
      """
        a: { kind: screen, rawValue: 0, next: c }
        c: { kind: screen, rawValue: 2, next: b }
        b: { kind: screen, rawValue: 1, next: end }
        end: { kind: terminal, outcome: completed }
      """)
    let report = FlowDiff.compare(old: try compileFlow(Self.old), new: try compileFlow(swapped))
    #expect(report.reordered.count == 1)
    #expect(!report.hasErrors)
  }
}

/// Changes to what the app's lifecycle runs: the `launch:` list, `foreground:` and `open:` entries (issue 12 item
/// 5: "diff ... understand them").
@Suite struct LifecycleDiffTests {
  static func flow(_ lifecycle: String) -> String {
    """
    flow: l
    version: "1"
    locales: [en]
    start: a
    variables:
      name: { type: string, default: "" }
      code: { type: string, default: "" }
    \(lifecycle)
    steps:
      a: { kind: screen, next: end }
      end: { kind: terminal, outcome: completed }
    """
  }

  @Test func launchForegroundAndOpenChangesAreListed() throws {
    let old = Self.flow(
      """
      launch:
        - track: app_open
        - action: restore-profile
          on:
            found: { effects: [{ set: name, value: result.displayName ?? name }] }
      open:
        referral:
          params: { code: string }
          effects: [{ set: code, value: params.code }]
      """)
    let new = Self.flow(
      """
      launch:
        - action: restore-profile
          when: name == ""
          on:
            found: { effects: [{ set: name, value: result.displayName ?? name }] }
      foreground:
        effects: [{ track: app_foreground }]
      """)
    let report = FlowDiff.compare(old: try compileFlow(old), new: try compileFlow(new))
    #expect(
      report.effectChanges.map { "\($0.subject): \($0.before) => \($0.after)" } == [
        "launch: track app_open; action restore-profile on found → set name = result.displayName ?? name"
          + " => action restore-profile when name == \"\" on found → set name = result.displayName ?? name",
        "open referral: param code: string; set code = params.code => (absent)",
        "foreground: (absent) => track app_foreground",
      ])
  }

  @Test func anUnchangedLifecycleIsNotListed() throws {
    let flow = try compileFlow(Self.flow("launch:\n  - track: app_open"))
    #expect(FlowDiff.compare(old: flow, new: flow).effectChanges.isEmpty)
  }
}
