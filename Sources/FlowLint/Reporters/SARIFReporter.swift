internal import FlowCore

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// SARIF 2.1.0, as GitHub code scanning accepts it: one run whose driver lists every rule the tool can report,
/// and one result per finding with its rule, level, message and physical location. Artifact URIs are relative to
/// the repository root (`uriBaseId` `%SRCROOT%`): the nearest folder upward from the working directory that holds
/// `.git`, else the working directory. A file outside it is written as an absolute `file://` URI.
package enum SARIFReporter: Reporter {
  package static let identifier = "sarif"

  struct Log: Encodable {
    let version = "2.1.0"
    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var runs: [Run]
    enum CodingKeys: String, CodingKey {
      case version, runs
      case schema = "$schema"
    }
  }
  struct Run: Encodable {
    var tool: Tool
    var originalUriBaseIds: [String: BaseURI]
    var results: [Result]
  }
  struct BaseURI: Encodable { var uri: String }
  struct Tool: Encodable { var driver: Driver }
  struct Driver: Encodable {
    let name = "flowlint"
    let informationUri = "https://github.com/flowkit/flowkit/blob/main/docs/lint-rules.md"
    var rules: [Rule]
  }
  struct Rule: Encodable {
    var id: String
    var name: String
    var shortDescription: Message
    var defaultConfiguration: Configuration
  }
  struct Configuration: Encodable { var level: String }
  struct Message: Encodable { var text: String }
  struct Result: Encodable {
    var ruleId: String
    var ruleIndex: Int?
    var level: String
    var message: Message
    var locations: [Location]
  }
  struct Location: Encodable { var physicalLocation: PhysicalLocation }
  struct PhysicalLocation: Encodable {
    var artifactLocation: ArtifactLocation
    var region: Region
  }
  struct ArtifactLocation: Encodable {
    var uri: String
    var uriBaseId: String?
  }
  struct Region: Encodable {
    var startLine: Int
    var startColumn: Int
  }

  /// The name SARIF consumers resolve relative artifact URIs against.
  static let sourceRoot = "%SRCROOT%"

  package static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String {
    let workingDirectory = FileManager.default.currentDirectoryPath
    return report(
      files, rules: rules, root: repositoryRoot(from: workingDirectory), workingDirectory: workingDirectory)
  }

  /// The report with artifact URIs relative to `root` (an absolute path), resolving relative file paths against
  /// `workingDirectory`.
  package static func report(
    _ files: [FileReport], rules: [RuleDescription], root: String, workingDirectory: String
  ) -> String {
    let driverRules = rules.map { rule in
      Rule(
        id: rule.id, name: rule.id, shortDescription: Message(text: rule.summary),
        defaultConfiguration: Configuration(level: rule.severity.rawValue))
    }
    var indexByID: [String: Int] = [:]
    for (index, rule) in rules.enumerated() { indexByID[rule.id] = index }
    let results = files.flatMap(\.diagnostics).map { diagnostic in
      let rule = diagnostic.ruleID ?? "load"
      let text = ([diagnostic.message] + diagnostic.notes).joined(separator: "\n")
      return Result(
        ruleId: rule, ruleIndex: indexByID[rule], level: diagnostic.severity.rawValue, message: Message(text: text),
        locations: [
          Location(
            physicalLocation: PhysicalLocation(
              artifactLocation: artifactLocation(diagnostic.file, root: root, workingDirectory: workingDirectory),
              region: Region(
                startLine: diagnostic.reportedLocation.line, startColumn: diagnostic.reportedLocation.column)))
        ])
    }
    let base = BaseURI(uri: "file://" + uri(root.hasSuffix("/") ? root : root + "/"))
    let run = Run(
      tool: Tool(driver: Driver(rules: driverRules)), originalUriBaseIds: [sourceRoot: base], results: results)
    let log = Log(runs: [run])
    return JSONReporter.encode(log) + "\n"
  }

  /// Where `path` is: relative to `root` when inside it, else an absolute `file://` URI.
  static func artifactLocation(_ path: String, root: String, workingDirectory: String) -> ArtifactLocation {
    let absolute = normalized(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
    let rootPath = normalized(root)
    let prefix = rootPath == "/" ? "/" : rootPath + "/"
    if absolute.hasPrefix(prefix) {
      return ArtifactLocation(uri: uri(String(absolute.dropFirst(prefix.count))), uriBaseId: sourceRoot)
    }
    return ArtifactLocation(uri: "file://" + uri(absolute), uriBaseId: nil)
  }

  /// The nearest folder upward from `directory` (itself included) that holds `.git` (a folder, or the file a
  /// worktree has), else `directory`.
  static func repositoryRoot(from directory: String) -> String {
    var candidate = normalized(directory)
    while true {
      if FileManager.default.fileExists(atPath: candidate + (candidate == "/" ? "" : "/") + ".git") {
        return candidate
      }
      guard candidate != "/", let slash = candidate.lastIndex(of: "/") else { return normalized(directory) }
      candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
    }
  }

  /// An absolute path without `.`, `..` or empty components.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The path as a URI reference (spaces, `%`, `#` and `?` escaped).
  static func uri(_ path: String) -> String {
    var out = ""
    for scalar in path.unicodeScalars {
      switch scalar {
      case " ": out += "%20"
      case "%": out += "%25"
      case "#": out += "%23"
      case "?": out += "%3F"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
