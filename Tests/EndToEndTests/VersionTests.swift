import FlowCommandLine
import Testing

/// `--version` on both tools prints the one version constant and exits 0.
struct VersionTests {
  @Test(arguments: ["flowlint", "flowrun"])
  func versionPrintsTheOneConstant(_ tool: String) throws {
    let result = try Tool.run(tool, ["--version"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(flowKitVersion)\n")
    #expect(result.stderr == "")
  }

  @Test func theVersionIsSemantic() {
    let parts = flowKitVersion.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(flowKitVersion)")
  }
}
