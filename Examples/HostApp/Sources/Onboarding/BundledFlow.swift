import Foundation

/// The flow the app ships, exported from `onboarding.yaml` with `flowrun export onboarding.yaml --json`; compile
/// it with `FlowCompiler.compile(json:file:)`.
public func bundledFlowJSON() throws -> [UInt8] {
  Array(try Data(contentsOf: Bundle.module.url(forResource: "onboarding", withExtension: "json")!))
}
