package import FlowCore
import Foundation
import Synchronization

/// The persisted store as a JSON object in one file, written atomically: a temporary file in the same
/// directory is written, flushed to disk and renamed over the old one, so a crash at any point leaves either
/// the old or the new file, never a torn one.
package final class FileStore: KeyValueStore, Sendable {
  package let path: String
  private let values = Mutex<[String: Value]?>(nil)

  package init(path: String) {
    self.path = path
  }

  package func load() async throws(StoreError) -> [String: Value] {
    Self.removeStaleTemporaries(of: path)
    let loaded = try Self.read(path: path)
    values.withLock { $0 = loaded }
    return loaded
  }

  package func set(_ key: String, to value: Value) async throws(StoreError) {
    let snapshot = values.withLock { stored -> [String: Value] in
      var current = stored ?? [:]
      current[key] = value
      stored = current
      return current
    }
    try Self.write(snapshot, to: path)
  }

  package func remove(_ key: String) async throws(StoreError) {
    let snapshot = values.withLock { stored -> [String: Value] in
      var current = stored ?? [:]
      current[key] = nil
      stored = current
      return current
    }
    try Self.write(snapshot, to: path)
  }

  /// The temporary file a write goes through: beside the store, named after the writing process.
  static func temporaryPath(of path: String, pid: Int32 = getpid()) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(pid)"
  }

  /// Removes temporary files left by writers that were killed mid-write (their process no longer exists).
  static func removeStaleTemporaries(of path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    let prefix = ".\((path as NSString).lastPathComponent).tmp-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)
    else { return }
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      unlink(temporaryPath(of: path, pid: pid))
    }
  }

  /// Reads a store file; a missing file is an empty store.
  package static func read(path: String) throws(StoreError) -> [String: Value] {
    guard FileManager.default.fileExists(atPath: path) else { return [:] }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StoreError("\(path): cannot read the store file")
    }
    if data.isEmpty { throw StoreError("\(path): the store file is empty") }
    let node: Node
    do {
      node = try JSONReader.read(bytes: [UInt8](data), file: path)
    } catch {
      throw StoreError("\(error.description)")
    }
    guard let entries = node.entries else {
      throw StoreError("\(path):\(node.location): the store must be a JSON object; found \(node.kindDescription)")
    }
    var values: [String: Value] = [:]
    for entry in entries {
      guard let value = Value(node: entry.value) else {
        throw StoreError(
          "\(path):\(entry.value.location): the value of '\(entry.key)' has a number with a fraction; stored values "
            + "are booleans, integers, strings, lists and maps")
      }
      values[entry.key] = value
    }
    return values
  }

  /// Writes `values` to `path` atomically (temporary file, fsync, rename, fsync of the directory).
  package static func write(_ values: [String: Value], to path: String) throws(StoreError) {
    let text = Value.map(values).jsonText + "\n"
    let directory = (path as NSString).deletingLastPathComponent
    let temporary = temporaryPath(of: path)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw StoreError("\(path): cannot write the store (\(String(cString: strerror(errno))))") }
    var ok = true
    Array(text.utf8).withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = Foundation.write(fd, base + offset, buffer.count - offset)
        if written <= 0 {
          ok = false
          return
        }
        offset += written
      }
    }
    if fsync(fd) != 0 { ok = false }
    close(fd)
    guard ok, rename(temporary, path) == 0 else {
      unlink(temporary)
      throw StoreError("\(path): cannot write the store (\(String(cString: strerror(errno))))")
    }
    let dirfd = open(directory.isEmpty ? "." : directory, O_RDONLY)
    if dirfd >= 0 {
      fsync(dirfd)
      close(dirfd)
    }
  }
}
