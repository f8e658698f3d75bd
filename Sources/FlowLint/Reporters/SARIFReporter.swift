internal import FlowCore

/// SARIF 2.1.0, as GitHub code scanning accepts it: one run whose driver lists every rule, and one result
/// per finding with its rule, level, message and physical location.
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
    var results: [Result]
  }
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
  struct ArtifactLocation: Encodable { var uri: String }
  struct Region: Encodable {
    var startLine: Int
    var startColumn: Int
  }

  package static func report(_ files: [FileReport], rules: [RuleDescription], color: Bool) -> String {
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
              artifactLocation: ArtifactLocation(uri: uri(diagnostic.file)),
              region: Region(
                startLine: diagnostic.reportedLocation.line, startColumn: diagnostic.reportedLocation.column)))
        ])
    }
    let log = Log(runs: [Run(tool: Tool(driver: Driver(rules: driverRules)), results: results)])
    return JSONReporter.encode(log) + "\n"
  }

  /// A relative URI for the path (`./` dropped, spaces and `%` escaped).
  static func uri(_ path: String) -> String {
    var path = path
    while path.hasPrefix("./") { path.removeFirst(2) }
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
