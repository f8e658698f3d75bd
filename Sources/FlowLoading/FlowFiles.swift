package import FlowCore
internal import FlowYAML

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// A path that could not be read at all (missing, a directory, no permission): not a finding about a flow,
/// so tools exit with status 2 rather than 1.
package struct FlowIOError: Error, Hashable, Sendable, CustomStringConvertible {
  package var path: String
  package var reason: String
  /// For a file over the size limit: the error to report as the file's diagnostic (tools treat it as a
  /// finding about the file, like any other load error).
  package var tooLarge: LoadError?

  package init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: error: reason`
  package var description: String { "\(path): error: \(reason)" }
}

/// Reading flow files from disk: the one place the command-line tools turn a path into bytes.
package enum FlowFiles {
  /// The bytes of the regular file at `path`, at most `limit` bytes (the size is checked before reading).
  ///
  /// - Throws: ``FlowIOError`` naming what the path is when it cannot be read: missing, a folder, a named
  ///   pipe, a device, a symbolic link that loops, no permission; for a file over `limit`, one whose
  ///   ``FlowIOError/tooLarge`` holds the load error to report instead.
  package static func readBytes(path: String, limit: Int = LoadLimits.default.maxBytes) throws(FlowIOError)
    -> [UInt8]
  {
    do {
      return try FileInput.read(path, limit: limit)
    } catch {
      var failure = FlowIOError(path: path, reason: error.reason)
      if error.isTooLarge { failure.tooLarge = error.loadError }
      throw failure
    }
  }

  /// Whether `path` (followed through symbolic links) is a folder; nil when nothing is there.
  package static func isFolder(_ path: String) -> Bool? { FileInput.isDirectory(path) }

  /// The flow files named by `paths`: files as given, and every `*.yaml`, `*.yml` and `*.json` under a
  /// directory (recursively, sorted; see ``FileInput/files(under:extensions:)`` for links and hidden names).
  /// A file named twice is listed once.
  ///
  /// - Throws: ``FlowIOError`` for a path that does not exist or a folder that cannot be listed.
  package static func paths(in paths: [String]) throws(FlowIOError) -> [String] {
    var files: [String] = []
    var listed: Set<String> = []
    for path in paths {
      guard let isDirectory = FileInput.isDirectory(path) else {
        throw FlowIOError(path: path, reason: FileInput.kindOfNonRegularFile(at: path) ?? "no such file or directory")
      }
      let found: [String]
      do {
        found =
          isDirectory ? try FileInput.files(under: path, extensions: [".yaml", ".yml", ".json"]) : [path]
      } catch {
        throw FlowIOError(path: error.path, reason: error.reason)
      }
      for file in found where listed.insert(file).inserted { files.append(file) }
    }
    return files
  }
}
