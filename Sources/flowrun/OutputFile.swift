import FlowLoading

/// A file flowrun writes when asked (`--record`, `--emit-scenarios`, `strings export -o`): one that exists is
/// replaced only with `--force`, and a command that works before writing (a session, an exploration) checks that
/// first, so that no work is lost to it.
enum OutputFile {
  /// What stops `path` from being written when it exists, and what to do instead; nil when it may be written.
  static func refusal(_ path: String, force: Bool, otherwise: String) -> String? {
    force || !TextFile.exists(path) ? nil : "'\(path)' exists; add --force to replace it, or \(otherwise)"
  }

  /// A failed write as flowrun says it: a file that exists (created meanwhile, or without `--force`) names `--force`.
  static func message(_ error: TextFile.WriteError) -> String {
    "\(error)" + (error.exists ? "; add --force to replace it" : "")
  }
}
