import Foundation
import Testing

struct FlowLintAgainstTests {
  @Test func renumberedRawValuesAreErrorsAtTheNewStep() throws {
    let result = try Tool.run("flowlint", ["flows/anicca-v03.yaml", "--against", "flows/anicca-v02.yaml"])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "flows/anicca-v03.yaml:130:3: error: progress saved by flows/anicca-v02.yaml: raw value 3 meant 'ideals' and now means 'source': a user saved at 'ideals' resumes at 'source' [version-resume]"
      ),
      "\(result.stdout)")
  }

  @Test func aCompatibleNewVersionPassesWithWarningsOnly() throws {
    let result = try Tool.run("flowlint", ["flows/anicca-v04.yaml", "--against", "flows/anicca-v03.yaml"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("warning: progress saved by flows/anicca-v03.yaml"))
    let strict = try Tool.run("flowlint", ["flows/anicca-v04.yaml", "--against", "flows/anicca-v03.yaml", "--strict"])
    #expect(strict.status == 1)
  }

  @Test func anUnreadableOldFlowIsAnIOError() throws {
    let result = try Tool.run("flowlint", ["flows/anicca-v04.yaml", "--against", "flows/missing.yaml"])
    #expect(result.status == 2)
  }
}
