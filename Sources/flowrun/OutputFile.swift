import FlowLoading

/// A file flowrun writes when asked (`--record`, `--emit-scenarios`, `strings export -o`): one that exists is
/// replaced only with `--force`, and a command that works before writing (a session, an exploration) checks that
/// first, so that no work is lost to it.
enum OutputFile {
  /// What stops `path` from being written when it exists, and what to do instead; nil when it may be written.
  static func refusal(_ path: String, force: Bool, otherwise: String) -> String? {
    force || !TextFile.exists(path) ? nil : "'\(path)' exists; \(forceAdvice), or \(otherwise)"
  }

  /// What a file that exists asks for.
  static let forceAdvice = "add --force to replace it"

  /// What stops `path` from being written because its folder is not there (`--record`, which does not make
  /// folders); nil when the folder is there.
  static func missingFolder(of path: String) -> String? {
    let folder = FilePaths.directory(of: path)
    guard !folder.isEmpty, FlowFiles.isFolder(folder) != true else { return nil }
    return "cannot write '\(path)': there is no folder '\(folder)'; make it first, or write to another file"
  }

  /// What stops files from being written into `folder` because something else is there (`--emit-scenarios`,
  /// which makes the folder when it is missing); nil when it is a folder or nothing.
  static func notAFolder(_ folder: String) -> String? {
    !TextFile.exists(folder) || FlowFiles.isFolder(folder) == true
      ? nil : "'\(folder)' is not a folder; name a folder to write into"
  }

  /// A failed write as flowrun says it: a file that exists (created meanwhile, or without `--force`) names `--force`.
  static func message(_ error: TextFile.WriteError) -> String {
    "\(error)" + (error.exists ? "; \(forceAdvice)" : "")
  }
}
