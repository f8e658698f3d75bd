import FlowCommandLine
import Testing

/// flowlint's status from its findings, as README's exit-code table gives it.
struct ExitStatusTests {
  @Test func flowlintStatusFollowsTheFindings() {
    #expect(ExitStatus(errors: 0, warnings: 0, strict: true, unreadable: 0) == .success)
    #expect(ExitStatus(errors: 0, warnings: 2, strict: false, unreadable: 0) == .success)
    #expect(ExitStatus(errors: 0, warnings: 2, strict: true, unreadable: 0) == .findings)
    #expect(ExitStatus(errors: 1, warnings: 0, strict: false, unreadable: 0) == .findings)
    #expect(ExitStatus(errors: 1, warnings: 0, strict: false, unreadable: 1) == .unusable)
  }

  @Test func theNumbersAreTheDocumentedOnes() {
    #expect([ExitStatus.success, .findings, .unusable].map(\.rawValue) == [0, 1, 2])
  }
}
