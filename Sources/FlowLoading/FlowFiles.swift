internal import Foundation

/// A path that could not be read at all (missing, a directory, no permission): not a finding about a flow,
/// so tools exit with status 2 rather than 1.
package struct FlowIOError: Error, Hashable, Sendable, CustomStringConvertible {
  package var path: String
  package var reason: String

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: error: reason`
  package var description: String { "\(path): error: \(reason)" }
}

/// Reading flow files from disk: the one place the command-line tools turn a path into bytes.
package enum FlowFiles {
  /// The bytes of the file at `path`.
  ///
  /// - Throws: ``FlowIOError`` when the path does not exist, is a directory or cannot be read.
  package static func readBytes(path: String) throws(FlowIOError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw FlowIOError(path: path, reason: "no such file or directory")
    }
    if isDirectory.boolValue { throw FlowIOError(path: path, reason: "is a directory, not a flow file") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FlowIOError(path: path, reason: "cannot read the file (permission denied?)")
    }
    return [UInt8](data)
  }

  /// The flow files named by `paths`: files as given, and every `*.yaml`, `*.yml` and `*.json` under a
  /// directory (recursively, sorted).
  ///
  /// - Throws: ``FlowIOError`` for a path that does not exist.
  package static func paths(in paths: [String]) throws(FlowIOError) -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw FlowIOError(path: path, reason: "no such file or directory")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      var found: [String] = []
      try collect(in: path, depth: 0, into: &found)
      files += found.sorted()
    }
    return files
  }

  /// Flow files under `directory`, following symbolic links up to a depth of 32.
  private static func collect(in directory: String, depth: Int, into found: inout [String]) throws(FlowIOError) {
    guard depth < 32 else { return }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw FlowIOError(path: directory, reason: "cannot read the directory")
    }
    for name in names where !name.hasPrefix(".") {
      let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue {
        try collect(in: full, depth: depth + 1, into: &found)
      } else {
        let lower = name.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") || lower.hasSuffix(".json") { found.append(full) }
      }
    }
  }
}
