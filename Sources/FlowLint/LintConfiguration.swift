package import FlowCore
internal import FlowLoading

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// A `.flowlint.yml`: rules turned off or re-graded, and paths left out.
///
/// ```yaml
/// rules:
///   unused-variable: off
///   unreachable-step: error
/// exclude:
///   - flows/drafts/**
/// ```
///
/// A rule that no suppression comment may silence (``RuleDescription/isSuppressible``) cannot be turned off
/// or re-graded either. `exclude` patterns are relative to the file's folder: `*` and `?` match within one
/// path component, `**` any number of components.
package struct LintConfiguration: Sendable, Hashable {
  /// What a configuration does to a rule's findings.
  package enum Setting: String, Sendable, CaseIterable {
    case off, warning, error
  }

  package static let fileName = ".flowlint.yml"

  package var rules: [String: Setting] = [:]
  package var exclude: [String] = []
  /// The folder `exclude` patterns are relative to: the configuration file's.
  package var root = "."

  package init() {}

  /// A configuration file that cannot be used, with every problem found in it.
  package struct Invalid: Error, Sendable {
    package var diagnostics: [Diagnostic]
  }

  /// The findings with rules turned off removed and re-graded ones at their new severity.
  package func apply(to findings: [Diagnostic]) -> [Diagnostic] {
    guard !rules.isEmpty else { return findings }
    return findings.compactMap { finding in
      guard let id = finding.ruleID, let setting = rules[id] else { return finding }
      var graded = finding
      switch setting {
      case .off: return nil
      case .warning: graded.severity = .warning
      case .error: graded.severity = .error
      }
      return graded
    }
  }

  /// Whether `path` (relative to the working directory, or absolute) matches an `exclude` pattern.
  package func excludes(_ path: String) -> Bool {
    guard !exclude.isEmpty else { return false }
    let base = Self.components(Self.absolute(root))
    let file = Self.components(Self.absolute(path))
    guard file.count > base.count, Array(file.prefix(base.count)) == base else { return false }
    let relative = Array(file.dropFirst(base.count))
    return exclude.contains { Self.matches(Self.components($0), relative[...]) }
  }

  /// The `.flowlint.yml` in `directory` or the nearest folder above it, stopping at a folder that holds
  /// `.git` (a repository's root) or at the filesystem's root.
  package static func find(from directory: String) -> String? {
    var folder = absolute(directory)
    while true {
      let prefix = folder == "/" ? "/" : folder + "/"
      if FileManager.default.fileExists(atPath: prefix + fileName) { return prefix + fileName }
      if FileManager.default.fileExists(atPath: prefix + ".git") || folder == "/" { return nil }
      folder = String(folder[..<folder.lastIndex(of: "/")!])
      if folder.isEmpty { folder = "/" }
    }
  }

  /// Reads and checks the configuration file at `path`.
  ///
  /// - Throws: ``Invalid`` with a positioned error for each unknown key, unknown rule id (with a suggestion),
  ///   value that is not `off`, `warning` or `error`, and rule that cannot be turned off or re-graded.
  package static func load(path: String) throws(Invalid) -> LintConfiguration {
    let bytes: [UInt8]
    do throws(FlowIOError) {
      bytes = try FlowFiles.readBytes(path: path)
    } catch {
      throw Invalid(diagnostics: [Diagnostic(.error, error.reason, file: path, at: .unknown)])
    }
    let node: Node
    do throws(LoadError) {
      node = try FlowLoader.parse(bytes: bytes, file: path)
    } catch {
      throw Invalid(diagnostics: [error.diagnostic])
    }
    var reader = Reader(file: path)
    var configuration = reader.read(node)
    if !reader.problems.isEmpty { throw Invalid(diagnostics: reader.problems) }
    configuration.root = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return configuration
  }

  /// Checks a configuration document, collecting every problem.
  struct Reader {
    let file: String
    var problems: [Diagnostic] = []

    mutating func problem(_ message: String, at location: SourceLocation) {
      problems.append(Diagnostic(.error, message, file: file, at: location))
    }

    mutating func read(_ node: Node) -> LintConfiguration {
      var configuration = LintConfiguration()
      if case .null = node.content { return configuration }
      guard let entries = node.entries else {
        problem("a \(fileName) holds a mapping with 'rules' and 'exclude'", at: node.location)
        return configuration
      }
      for entry in entries {
        switch entry.key {
        case "rules": configuration.rules = readRules(entry.value)
        case "exclude": configuration.exclude = readExclude(entry.value)
        default:
          problem(
            "unknown key '\(entry.key)'\(Suggestion.didYouMean(entry.key, in: ["rules", "exclude"])) "
              + "(allowed: 'exclude', 'rules')", at: entry.keyLocation)
        }
      }
      return configuration
    }

    mutating func readRules(_ node: Node) -> [String: Setting] {
      guard let entries = node.entries else {
        problem("'rules' must be a mapping of rule ids to off, warning or error", at: node.location)
        return [:]
      }
      var rules: [String: Setting] = [:]
      for entry in entries {
        guard let rule = RuleRegistry.description(of: entry.key) else {
          problem(
            "unknown rule '\(entry.key)'\(Suggestion.didYouMean(entry.key, in: RuleRegistry.ids)) "
              + "('flowlint --list-rules' lists them)", at: entry.keyLocation)
          continue
        }
        guard let text = entry.value.string, let setting = Setting(rawValue: text) else {
          problem("'\(entry.key)' must be off, warning or error", at: entry.value.location)
          continue
        }
        if !rule.isSuppressible && setting.rawValue != rule.severity.rawValue {
          problem(UnsuppressibleRuleRule.refusal(of: rule.id, "turned off or re-graded"), at: entry.value.location)
          continue
        }
        rules[rule.id] = setting
      }
      return rules
    }

    mutating func readExclude(_ node: Node) -> [String] {
      guard case .sequence(let items) = node.content, items.allSatisfy({ $0.string?.isEmpty == false }) else {
        problem("'exclude' must be a list of path patterns such as 'flows/drafts/**'", at: node.location)
        return []
      }
      return items.compactMap(\.string)
    }
  }

  /// `path` made absolute against the working directory, without `.` and `..` components or repeated and
  /// trailing slashes (symbolic links are left as they are): `/repo/flows/a.yaml` for `flows/./a.yaml`.
  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var components: [Substring] = []
    for component in full.split(separator: "/") where component != "." {
      if component == ".." { _ = components.popLast() } else { components.append(component) }
    }
    // Appended as strings one by one: `joined(separator:)` and `+=` on substrings are generic calls resolved at
    // run time (about 250,000 instructions).
    var result = ""
    for component in components { result += "/" + String(component) }
    return result.isEmpty ? "/" : result
  }

  static func components(_ path: String) -> [Substring] {
    path.split(separator: "/").filter { $0 != "." }
  }

  /// Whether the pattern's components match the path's: `**` any number of components, other components
  /// as `fnmatch` patterns. One pass over the pattern, keeping how many of the path's components each prefix of
  /// it can match: trying every split for every `**` took exponential time, and a `.flowlint.yml` with sixteen
  /// `**` hung flowlint on a file 25 folders deep.
  static func matches(_ pattern: [Substring], _ path: ArraySlice<Substring>) -> Bool {
    let path = Array(path)
    // matched[j]: the pattern's components so far can match exactly the path's first j components.
    var matched = [Bool](repeating: false, count: path.count + 1)
    matched[0] = true
    for component in pattern {
      var next = [Bool](repeating: false, count: path.count + 1)
      if component == "**" {
        var before = false
        for j in 0...path.count {
          before = before || matched[j]
          next[j] = before
        }
      } else {
        for j in path.indices where matched[j] && fnmatch(String(component), String(path[j]), 0) == 0 {
          next[j + 1] = true
        }
      }
      matched = next
    }
    return matched[path.count]
  }
}
