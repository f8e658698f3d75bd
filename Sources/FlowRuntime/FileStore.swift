package import FlowCore
import FlowLoading
internal import FlowYAML
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// The persisted store in one file, treated as the user's data.
///
/// The file is a JSON object `{"flowkitStore": 1, "values": {...}}`; a plain JSON object of values (the format
/// before the marker) is read too and upgraded on the next write. Every key is kept on write, declared by
/// the flow or not.
///
/// A session opens the store with ``open(path:persistedKeys:reset:)``, which:
/// - refuses anything but a regular file (a symbolic link is followed to a regular file and kept as a link);
/// - refuses a file that is not a FlowKit store (a flow, YAML, JSON without the marker and without any of the
///   flow's stored keys), and never moves or writes it;
/// - refuses a damaged store unless `reset` is set, which first moves it aside to a named backup;
/// - holds an advisory `flock` on the store until the session ends, so a second writer is refused.
///
/// Writes are atomic: a temporary file created with `O_CREAT|O_EXCL|O_NOFOLLOW` beside the store, `fsync`,
/// `rename` over the store, `fsync` of the folder. A crash leaves the old or the new file, never a torn one.
package final class FileStore: KeyValueStore, Sendable {
  /// The path as the user gave it, used in every message.
  package let path: String
  /// The file read and replaced: `path`, or the regular file a symbolic link at `path` leads to.
  package let target: String
  private let state: Mutex<State>

  struct State {
    var values: [String: Value]
    /// An open descriptor of the current store file, holding the session's `flock`.
    var lock: Int32
  }

  /// The key that marks a file as a FlowKit store.
  package static let marker = "flowkitStore"
  /// The store format this version writes and reads (it also reads the unmarked format before it).
  package static let format = 1
  /// The largest store file read, in bytes.
  package static var maxBytes: Int { LoadLimits.default.maxBytes }

  private init(path: String, target: String, values: [String: Value], lock: Int32) {
    self.path = path
    self.target = target
    self.state = Mutex(State(values: values, lock: lock))
  }

  deinit {
    state.withLock { if $0.lock >= 0 { close($0.lock) } }
  }

  // MARK: - KeyValueStore

  /// The values read when the store was opened, with every write of the session applied.
  package func load() async throws(StoreError) -> [String: Value] {
    state.withLock { $0.values }
  }

  package func set(_ key: String, to value: Value) async throws(StoreError) {
    try update { $0[key] = value }
  }

  package func remove(_ key: String) async throws(StoreError) {
    try update { $0[key] = nil }
  }

  private func update(_ change: (inout [String: Value]) -> Void) throws(StoreError) {
    let result = state.withLock { state -> Result<Void, StoreError> in
      var values = state.values
      change(&values)
      do throws(StoreError) {
        let descriptor = try Self.replace(target, shownAs: path, with: values, creating: false)
        close(state.lock)
        state.lock = descriptor
        state.values = values
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }
}

// MARK: - Opening

extension FileStore {
  /// What opening a store found, for the user: nil, or a line saying the old file was moved aside.
  package struct Opened: Sendable {
    package var store: FileStore
    package var notice: String?
  }

  /// Opens the store at `path` for a session, creating an empty store when nothing is there.
  ///
  /// - Parameters:
  ///   - persistedKeys: the flow's store keys; a marker-less JSON object is read as a store only when it is
  ///     empty or holds one of them.
  ///   - reset: move an existing store, readable or damaged, aside to a backup and start empty.
  /// - Throws: ``StoreError`` naming the path and what to do; the file is then unchanged.
  package static func open(path: String, persistedKeys: Set<String>, reset: Bool = false) throws(StoreError)
    -> Opened
  {
    let target = try resolve(path)
    removeStaleTemporaries(of: target)
    for _ in 0..<10 {
      if access(target, F_OK) != 0 && errno == ENOENT {
        do throws(StoreError) {
          let lock = try replace(target, shownAs: path, with: [:], creating: true)
          return Opened(store: FileStore(path: path, target: target, values: [:], lock: lock), notice: nil)
        } catch {
          // Another process created it meanwhile: open what it made.
          if access(target, F_OK) == 0 { continue }
          throw error
        }
      }
      let fd: Int32
      do {
        fd = try FileInput.openRegularFile(target)
      } catch {
        if error.kind == .missing { continue }
        throw StoreError("\(path): \(error.reason)")
      }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
        let error = errno
        close(fd)
        if error == EWOULDBLOCK {
          throw StoreError(
            "\(path): the store is in use by another flowrun (it holds the store's lock); "
              + "wait for it to end, or give this run another --state file")
        }
        throw StoreError("\(path): cannot lock the store (\(String(cString: strerror(error))))")
      }
      // The file may have been replaced between open and flock: lock the file that is there now.
      var opened = stat()
      var current = stat()
      guard fstat(fd, &opened) == 0, stat(target, &current) == 0, opened.st_ino == current.st_ino,
        opened.st_dev == current.st_dev
      else {
        close(fd)
        continue
      }
      let contents: Contents
      do {
        contents = classify(
          try FileInput.read(descriptor: fd, path: path, limit: maxBytes), path: path,
          persistedKeys: persistedKeys)
      } catch {
        contents = .damaged(error.isTooLarge ? error.loadError.description : "\(path): \(error.reason)")
      }
      switch contents {
      case .notAStore(let reason):
        close(fd)
        throw StoreError(
          "\(reason)\n\(path) is not a FlowKit store, so flowrun leaves it as it is (even with --reset-state); "
            + "give --state a new file or an existing store")
      case .damaged(let reason) where !reset:
        close(fd)
        throw StoreError(
          "\(reason)\nthe store cannot be read, and flowrun does not overwrite it; to start fresh, run again with "
            + "--reset-state (it moves the file aside to a backup first)")
      case .store(let values) where !reset:
        return Opened(store: FileStore(path: path, target: target, values: values, lock: fd), notice: nil)
      case .store, .damaged:
        defer { close(fd) }
        let backup = try moveAside(target, shownAs: path)
        let lock = try replace(target, shownAs: path, with: [:], creating: true)
        return Opened(
          store: FileStore(path: path, target: target, values: [:], lock: lock),
          notice: "flowrun: moved the old store \(path) aside to \(backup); starting from the flow's defaults")
      }
    }
    throw StoreError("\(path): the store keeps being replaced by another process; try again")
  }

  /// The file behind `path`: itself, or the regular file (or nothing yet) a symbolic link leads to.
  static func resolve(_ path: String) throws(StoreError) -> String {
    var link = stat()
    guard lstat(path, &link) == 0 else {
      if errno == ENOENT { return path }
      throw StoreError("\(path): \(FileInput.describe(errno: errno, path: path))")
    }
    guard link.st_mode & S_IFMT == S_IFLNK else { return path }
    guard let resolved = realpath(path, nil) else {
      let error = errno
      let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      if error == ENOENT {
        throw StoreError(
          "\(path): is a symbolic link to '\(destination)', which does not exist; flowrun writes a store only "
            + "through a link to an existing store")
      }
      throw StoreError("\(path): \(FileInput.describe(errno: error, path: path))")
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Moves the file at `target` to an unused `NAME.backup-YYYYMMDD-HHMMSS[-N]` beside it; returns that path.
  static func moveAside(_ target: String, shownAs path: String) throws(StoreError) -> String {
    let stem = "\(target).backup-\(localTimestamp())"
    for attempt in 0..<100 {
      let backup = attempt == 0 ? stem : "\(stem)-\(attempt)"
      // link fails when the backup exists, so no earlier backup is ever replaced.
      if link(target, backup) == 0 {
        unlink(target)
        return backup
      }
      if errno == EEXIST { continue }
      // A file system without hard links: rename, after checking that the name is free.
      if access(backup, F_OK) != 0, rename(target, backup) == 0 { return backup }
      throw StoreError("\(path): cannot move the store aside to \(backup) (\(String(cString: strerror(errno))))")
    }
    throw StoreError("\(path): cannot move the store aside: 100 backups of this minute exist")
  }
}

// MARK: - Reading

extension FileStore {
  /// What a store file holds.
  enum Contents: Equatable {
    case store([String: Value])
    /// A store (or something that was one) that cannot be read: moving it aside is safe.
    case damaged(String)
    /// Something else the user keeps (a flow, YAML, other JSON): never moved or written.
    case notAStore(String)
  }

  /// Reads the store file at `path`, outside a session (no lock); a missing file is an empty store.
  ///
  /// - Throws: ``StoreError`` naming the path when the file is not a regular file, too large, damaged or not a
  ///   store.
  package static func read(path: String) throws(StoreError) -> [String: Value] {
    let bytes: [UInt8]
    do {
      bytes = try FileInput.read(path, limit: maxBytes)
    } catch {
      if error.kind == .missing { return [:] }
      throw StoreError(error.isTooLarge ? error.loadError.description : error.description)
    }
    switch classify(bytes, path: path, persistedKeys: nil) {
    case .store(let values): return values
    case .damaged(let reason), .notAStore(let reason): throw StoreError(reason)
    }
  }

  /// Decides what `bytes` read from `path` are. With `persistedKeys` nil, any JSON object of values is a store.
  static func classify(_ bytes: [UInt8], path: String, persistedKeys: Set<String>?) -> Contents {
    if bytes.isEmpty { return .damaged("\(path): the store file is empty") }
    let hasMarker = bytes.count >= marker.utf8.count && String(decoding: bytes, as: UTF8.self).contains(marker)
    let startsAsObject = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    let node: Node
    do {
      node = try JSONReader.read(bytes: bytes, file: path)
    } catch {
      return hasMarker || startsAsObject ? .damaged(error.description) : .notAStore(error.description)
    }
    guard let entries = node.entries else {
      return .notAStore("\(path):\(node.location): the store must be a JSON object; found \(node.kindDescription)")
    }
    let object: Node
    if let format = node[marker] {
      guard format.int == Self.format else {
        return .notAStore(
          "\(path):\(format.location): the store's format is \(format.int.map(String.init) ?? format.kindDescription) "
            + "and this flowrun reads format \(Self.format); another version of FlowKit wrote it")
      }
      if let extra = entries.first(where: { $0.key != marker && $0.key != "values" }) {
        return .damaged("\(path):\(extra.value.location): unexpected key '\(extra.key)' in the store")
      }
      guard let values = node["values"], values.entries != nil else {
        return .damaged("\(path):\(node.location): the store has no \"values\" object")
      }
      object = values
    } else {
      if let persistedKeys, !entries.isEmpty, !entries.contains(where: { persistedKeys.contains($0.key) }) {
        return .notAStore(
          "\(path): has no \"\(marker)\" marker and none of the flow's stored keys"
            + (persistedKeys.isEmpty ? "" : " (\(persistedKeys.sorted().joined(separator: ", ")))"))
      }
      object = node
    }
    var values: [String: Value] = [:]
    for entry in object.entries ?? [] {
      do {
        values[entry.key] = try Value(exactly: entry.value)
      } catch {
        return .damaged(
          "\(path):\(error.location): the value of '\(entry.key)' has a number too large to hold (\(error.number)); "
            + "stored values are booleans, numbers, strings, lists and maps")
      }
    }
    return .store(values)
  }

  /// The text of a store holding `values`.
  static func text(of values: [String: Value]) -> String {
    "{\"\(marker)\":\(format),\"values\":\(Value.map(values).jsonText)}\n"
  }
}

// MARK: - Writing

extension FileStore {
  /// Writes `values` to `path` atomically, outside a session (tests and tools).
  package static func write(_ values: [String: Value], to path: String) throws(StoreError) {
    let target = try resolve(path)
    removeStaleTemporaries(of: target)
    close(try replace(target, shownAs: path, with: values, creating: false))
  }

  /// The temporary file a write goes through: beside the store, named after the writing process.
  static func temporaryPath(of path: String, pid: Int32 = getpid()) -> String {
    let directory = FilePaths.directory(of: path)
    return (directory.isEmpty ? "." : directory) + "/.\(FilePaths.name(of: path)).tmp-\(pid)"
  }

  /// Replaces (or, with `creating`, creates only if absent) the file at `target` with a store of `values`,
  /// through a locked temporary file. Returns an open descriptor of the new file holding the `flock`.
  static func replace(_ target: String, shownAs path: String, with values: [String: Value], creating: Bool)
    throws(StoreError) -> Int32
  {
    // A temporary file of this process left by a write that failed half-way.
    unlink(temporaryPath(of: target))
    func failure(_ what: String, _ error: Int32) -> StoreError {
      StoreError("\(path): cannot write the store: \(what) (\(String(cString: strerror(error))))")
    }
    let temporary = temporaryPath(of: target)
    var existing = stat()
    let mode = stat(target, &existing) == 0 ? mode_t(existing.st_mode & 0o7777) : 0o644
    let fd = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { throw failure("cannot create \(temporary)", errno) }
    var ok = false
    defer {
      if !ok {
        close(fd)
        unlink(temporary)
      }
    }
    if mode != 0o644 { fchmod(fd, mode) }
    // Nobody else knows this file yet, so the lock is ours; it moves with the file when it is renamed.
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { throw failure("cannot lock \(temporary)", errno) }
    let bytes = Array(text(of: values).utf8)
    let written = bytes.withUnsafeBytes { writeAll(fd, $0) }
    guard written == 0 else { throw failure("cannot write \(temporary)", written) }
    guard fsync(fd) == 0 else { throw failure("cannot flush \(temporary) to disk", errno) }
    if creating {
      // link fails when a file appeared at the target meanwhile: it is never replaced unread.
      guard link(temporary, target) == 0 else { throw failure("cannot create it", errno) }
      unlink(temporary)
    } else {
      guard rename(temporary, target) == 0 else { throw failure("cannot replace it with \(temporary)", errno) }
    }
    ok = true
    let directory = FilePaths.directory(of: target)
    let directoryDescriptor = openFile(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      // Some file systems cannot flush a folder (EINVAL); the rename itself has happened.
      let result = fsync(directoryDescriptor)
      let error = errno
      close(directoryDescriptor)
      if result != 0 && error != EINVAL && error != EROFS {
        close(fd)
        throw failure("cannot flush the folder \(directory.isEmpty ? "." : directory)", error)
      }
    }
    return fd
  }

  /// Removes temporary files left by writers that were killed mid-write (their process no longer exists).
  static func removeStaleTemporaries(of path: String) {
    let directory = FilePaths.directory(of: path)
    let prefix = ".\(FilePaths.name(of: path)).tmp-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)
    else { return }
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count)) else { continue }
      guard pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) else { continue }
      unlink(temporaryPath(of: path, pid: pid))
    }
  }
}

/// The C library's `open`, which `FileStore`'s own `open` shadows inside the type.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// The local time now as `YYYYMMDD-HHMMSS`, the stamp in a moved-aside store's name.
private func localTimestamp() -> String {
  var now = time(nil)
  var parts = tm()
  var buffer = [CChar](repeating: 0, count: 32)
  guard localtime_r(&now, &parts) != nil, strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts) > 0 else {
    return "\(now)"
  }
  return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
