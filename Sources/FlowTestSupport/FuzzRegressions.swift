#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// The inputs the fuzz targets (Fuzz/Targets) keep in Tests/FuzzRegressions/TARGET, for this package's tests that
/// replay them. Not for apps: it reads FlowKit's own source tree.
package enum FuzzRegressions {
  /// The folder Tests/FuzzRegressions of this package.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests").appendingPathComponent("FuzzRegressions")

  /// The inputs kept for `target` ("json", "expression", "scenario", "store"), each named "TARGET/FILE", sorted;
  /// none if the folder cannot be read.
  package static func inputs(_ target: String) -> [String] {
    let directory = root.appendingPathComponent(target).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map { "\(target)/\($0)" }
  }

  /// The path of the input `name`, as `inputs` names it.
  package static func path(_ name: String) -> String { root.appendingPathComponent(name).path }

  /// The bytes of the input `name`, as `inputs` names it.
  package static func bytes(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: root.appendingPathComponent(name)))
  }
}
