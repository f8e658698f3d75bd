#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A text file a tool writes because the user named it (`flowrun strings -o`, `flowrun --record`,
/// `flowrun explore --emit-scenarios`): written whole to a temporary file beside it first, so a reader never sees
/// half of it and a failed write leaves the old file as it was.
package enum TextFile {
  /// Why a file could not be written, said for the user.
  package struct WriteError: Error, Sendable, CustomStringConvertible {
    /// The file that was to be written.
    package var path: String
    /// True when the file exists and `replacing` was false: nothing was changed.
    package var exists: Bool
    /// What went wrong, from the system's error.
    package var reason: String

    package var description: String { exists ? "'\(path)' exists" : "cannot write '\(path)': \(reason)" }
  }

  /// Whether something is at `path`: a file, a folder, or a symbolic link (even one that leads nowhere), which a
  /// write without `replacing` would refuse. A command checks before its work, so as not to lose it at the end.
  package static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Writes `text` to `path` through a temporary file beside it: renamed over the file with `replacing`, else
  /// linked to the new name, which fails rather than replace a file that exists (even one created meanwhile).
  package static func write(_ text: String, to path: String, replacing: Bool) throws(WriteError) {
    func failure(_ error: Int32) -> WriteError {
      WriteError(path: path, exists: error == EEXIST && !replacing, reason: String(cString: strerror(error)))
    }
    let directory = FilePaths.directory(of: path)
    let temporary = (directory.isEmpty ? "." : directory) + "/.\(FilePaths.name(of: path)).tmp-\(getpid())"
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure(errno) }
    defer { unlink(temporary) }
    var text = text
    let written = text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    let closed = close(fd) == 0 ? 0 : errno
    if written != 0 || closed != 0 { throw failure(written != 0 ? written : closed) }
    guard replacing ? rename(temporary, path) == 0 : link(temporary, path) == 0 else { throw failure(errno) }
  }
}
