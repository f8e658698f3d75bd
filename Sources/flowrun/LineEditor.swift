import CLibEdit

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// The prompt on a terminal: libedit's `readline`, so a command can be edited in place (arrows, Ctrl-A, Ctrl-E,
/// Ctrl-W …) and earlier commands recalled with ↑ and ↓. The history is kept in memory for the session only.
/// Standard input that is not a terminal is read plainly, without libedit (``CommandSource/standardInput``).
enum LineEditor {
  /// libedit set up once, before the first line is read. libedit reads and draws multibyte text (the `›`
  /// prompt, Japanese input) only under a UTF-8 character type, and crashes on it under the "C" locale a Swift
  /// program starts in: the user's locale is taken when it is UTF-8, C.UTF-8 otherwise.
  private static let initialized: Void = {
    if setlocale(LC_CTYPE, "") == nil || String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
      setlocale(LC_CTYPE, "C.UTF-8")
    }
    rl_initialize()
    using_history()
  }()

  /// Shows `prompt`, reads one edited line and adds it to the history unless it is blank; nil at end of input
  /// (Ctrl-D).
  static let read: @Sendable (String) -> String? = { prompt in
    _ = initialized
    guard let line = readline(prompt) else { return nil }
    defer { free(line) }
    if !String(cString: line).allSatisfy(\.isWhitespace) { add_history(line) }
    return String(cString: line)
  }
}
