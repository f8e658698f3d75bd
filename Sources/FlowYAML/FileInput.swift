package import FlowCore

#if canImport(FoundationEssentials)
  internal import FoundationEssentials
  internal import Glibc
#else
  internal import Foundation
#endif

/// Why a file the user named could not be read, in words that fit the path: a folder, a named pipe, a link
/// that loops, no permission, or too large.
package struct FileInputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure.
  package enum Kind: Hashable, Sendable {
    /// Nothing is at the path (not even a symbolic link).
    case missing
    /// The path is not a regular file, or cannot be opened or read.
    case unreadable
    /// The file is a regular file larger than the limit; it was not read.
    case tooLarge(size: Int, limit: Int)
  }

  package var path: String
  package var reason: String
  package var kind: Kind

  package init(path: String, reason: String, kind: Kind = .unreadable) {
    self.path = path
    self.reason = reason
    self.kind = kind
  }

  /// `path: reason`
  package var description: String { "\(path): \(reason)" }

  /// Whether the file was refused by its size alone (a finding about the file rather than an unreadable path).
  package var isTooLarge: Bool { if case .tooLarge = kind { true } else { false } }

  /// The error as a load error at 1:1, for readers that report document problems as diagnostics.
  package var loadError: LoadError {
    LoadError(
      isTooLarge ? .tooLarge : .unsupported, reason, file: path, at: SourceLocation(line: 1, column: 1))
  }
}

/// Reads files the user named, safely: only regular files are read (a symbolic link is followed only to a
/// regular file), the size is checked with `fstat` before reading, and reading stops at the limit, so a
/// named pipe never blocks, a device is never read, and a 1 GB file costs nothing.
package enum FileInput {
  /// The whole content of the regular file at `path`, at most `limit` bytes.
  ///
  /// - Throws: ``FileInputError`` naming the path: missing, a folder, a named pipe, a device, a socket, a
  ///   symbolic link that loops or leads nowhere, no permission, or larger than `limit` (`.tooLarge`).
  package static func read(_ path: String, limit: Int = LoadLimits.default.maxBytes) throws(FileInputError) -> [UInt8] {
    let fd = try openRegularFile(path)
    defer { close(fd) }
    return try read(descriptor: fd, path: path, limit: limit)
  }

  /// `bytes` as text: UTF-8, with a leading UTF-8 byte order mark dropped.
  ///
  /// - Throws: ``FileInputError`` for UTF-16 or UTF-32 (named by their byte order marks) and for bytes that are
  ///   not UTF-8, with the byte offset.
  package static func text(of bytes: [UInt8], path: String) throws(FileInputError) -> String {
    if let encoding = otherEncoding(bytes) {
      throw FileInputError(
        path: path, reason: "the file is \(encoding) (it starts with its byte order mark); save it as UTF-8")
    }
    let body = bytes.starts(with: utf8ByteOrderMark) ? bytes.dropFirst(3) : bytes[...]
    guard let text = String(validating: body, as: UTF8.self) else {
      throw FileInputError(path: path, reason: "the file is not valid UTF-8 text; save it as UTF-8")
    }
    return text
  }

  /// The UTF-8 byte order mark, EF BB BF.
  package static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// The encoding a UTF-16 or UTF-32 byte order mark at the start of `bytes` names, or nil.
  package static func otherEncoding(_ bytes: [UInt8]) -> String? {
    if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 (big-endian)" }
    if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 (little-endian)" }
    if bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16 (big-endian)" }
    if bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16 (little-endian)" }
    return nil
  }

  /// Opens the regular file at `path` for reading (symbolic links followed), without blocking on a named
  /// pipe and refusing anything that is not a regular file.
  package static func openRegularFile(_ path: String, flags: Int32 = O_RDONLY) throws(FileInputError) -> Int32 {
    var link = stat()
    if lstat(path, &link) != 0 && errno == ENOENT {
      throw FileInputError(path: path, reason: describe(errno: ENOENT, path: path), kind: .missing)
    }
    if let kind = kindOfNonRegularFile(at: path) {
      throw FileInputError(path: path, reason: kind)
    }
    let fd = open(path, flags | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw FileInputError(path: path, reason: describe(errno: errno, path: path)) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw FileInputError(path: path, reason: "is not a regular file (it changed while being opened)")
    }
    // Back to blocking reads now that it is known to be a regular file.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }

  /// Reads an open regular file to its end: the size is checked with `fstat` first and reading stops one
  /// byte past `limit`, so a file that grows meanwhile is refused too.
  package static func read(descriptor fd: Int32, path: String, limit: Int) throws(FileInputError) -> [UInt8] {
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw FileInputError(path: path, reason: describe(errno: errno, path: path)) }
    let size = Int(status.st_size)
    if size > limit { throw tooLarge(path: path, size: size, limit: limit) }
    var bytes = [UInt8](repeating: 0, count: min(size, limit) + 1)
    var count = 0
    while true {
      if count == bytes.count {
        if count > limit { throw tooLarge(path: path, size: count, limit: limit) }
        bytes.append(contentsOf: repeatElement(0, count: min(max(count, 4096), limit + 1 - count)))
      }
      let got = bytes.withUnsafeMutableBytes { buffer in
        readBytes(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw FileInputError(path: path, reason: "cannot read it (\(String(cString: strerror(errno))))")
      }
      if got == 0 { break }
      count += got
    }
    if count > limit { throw tooLarge(path: path, size: count, limit: limit) }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

  /// Whether `path` (followed through symbolic links) is a folder; nil when there is nothing there to stat.
  package static func isDirectory(_ path: String) -> Bool? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT == S_IFDIR
  }

  /// Why `path` is not a regular file that can be opened, or nil when it is one (or when the only problem
  /// is one `open` reports better, such as no permission).
  package static func kindOfNonRegularFile(at path: String) -> String? {
    var link = stat()
    guard lstat(path, &link) == 0 else { return describe(errno: errno, path: path) }
    var status = stat()
    if link.st_mode & S_IFMT == S_IFLNK {
      guard stat(path, &status) == 0 else {
        let error = errno
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " '\($0)'" } ?? ""
        switch error {
        case ELOOP: return "is a symbolic link that loops (too many levels of symbolic links)"
        case ENOENT: return "is a symbolic link to\(target), which does not exist"
        default: return describe(errno: error, path: path)
        }
      }
    } else {
      status = link
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory, not a file"
    case S_IFIFO: return "is a named pipe (FIFO), not a regular file; only regular files are read"
    case S_IFCHR, S_IFBLK: return "is a device, not a regular file; only regular files are read"
    case S_IFSOCK: return "is a socket, not a regular file; only regular files are read"
    default: return "is not a regular file"
    }
  }

  /// The files under `directory` whose names end with one of `extensions` (compared without case), sorted.
  ///
  /// Hidden names (starting with `.`) are skipped. A symbolic link to a file is listed, a symbolic link to a
  /// folder is not followed (so a link to a parent cannot make the walk endless), and a file reached twice
  /// (through links, or hard links) is listed once: files are told apart by device and inode.
  ///
  /// - Throws: ``FileInputError`` when `directory` or a folder under it cannot be listed.
  package static func files(under directory: String, extensions: [String]) throws(FileInputError) -> [String] {
    var found: [String] = []
    var seen: Set<FileIdentity> = []
    try collect(directory, extensions: extensions.map { $0.lowercased() }, seen: &seen, into: &found)
    return found.sorted()
  }

  struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static func collect(
    _ directory: String, extensions: [String], seen: inout Set<FileIdentity>, into found: inout [String]
  ) throws(FileInputError) {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
    } catch {
      throw FileInputError(
        path: directory, reason: "cannot list the folder (\(describe(errno: errno, path: directory)))")
    }
    for name in names.sorted() where !name.hasPrefix(".") {
      let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      var status = stat()
      guard lstat(full, &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        try collect(full, extensions: extensions, seen: &seen, into: &found)
      case S_IFREG, S_IFLNK:
        let lower = name.lowercased()
        guard extensions.contains(where: { lower.hasSuffix($0) }) else { continue }
        // A link counts only when it leads to a regular file; its target identifies it.
        guard stat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
        let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        if seen.insert(identity).inserted { found.append(full) }
      default:
        continue
      }
    }
  }

  /// Words for an `errno` from opening or examining `path`.
  package static func describe(errno error: Int32, path: String) -> String {
    switch error {
    case ENOENT: "no such file or directory"
    case EACCES, EPERM: "permission denied: cannot read it"
    case ELOOP: "is a symbolic link that loops (too many levels of symbolic links)"
    case ENOTDIR: "a part of the path is not a directory"
    case EISDIR: "is a directory, not a file"
    case ENAMETOOLONG: "the path is too long"
    default: "cannot open it (\(String(cString: strerror(error))))"
    }
  }

  static func tooLarge(path: String, size: Int, limit: Int) -> FileInputError {
    FileInputError(
      path: path, reason: "the input is \(size) bytes, more than the limit of \(limit) bytes",
      kind: .tooLarge(size: size, limit: limit))
  }
}

/// The C library's `read`, which `FileInput.read(descriptor:path:limit:)` shadows inside the type.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
