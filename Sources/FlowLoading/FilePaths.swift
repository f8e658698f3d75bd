/// The few path manipulations the tools make, on `/`-separated POSIX paths as plain strings: what `NSString`'s
/// path methods did, without needing all of Foundation (the tools link only FoundationEssentials, and start faster
/// for it).
package enum FilePaths {
  /// The path without its last component: `"flows"` for `"flows/a.yaml"`, `"/"` for `"/a.yaml"`, `""` for
  /// `"a.yaml"`. Trailing slashes are not a component.
  package static func directory(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let head = withoutTrailingSlashes(String(trimmed[..<slash]))
    return head.isEmpty ? "/" : head
  }

  /// The last component: `"a.yaml"` for `"flows/a.yaml"` and for `"flows/a.yaml/"`; `"/"` for `"/"`.
  package static func name(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    let name = String(trimmed[trimmed.index(after: slash)...])
    return name.isEmpty ? "/" : name
  }

  /// `path` without the extension of its last component: `"a.test"` for `"a.test.yaml"`; a component that starts
  /// with its only dot (`".hidden"`) has no extension.
  package static func removingExtension(_ path: String) -> String {
    let nameStart = path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
    guard let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart else { return path }
    return String(path[..<dot])
  }

  /// `component` inside `directory`, with one slash between them; `component` alone when `directory` is empty.
  package static func appending(_ component: String, to directory: String) -> String {
    if directory.isEmpty { return component }
    return directory.hasSuffix("/") ? directory + component : directory + "/" + component
  }

  /// `path` with repeated slashes, trailing slashes and `.` components removed (a leading `./` stays), and in an
  /// absolute path each `..` with the component before it (`/..` is `/`). A relative path keeps its `..`: what it
  /// climbs out of may be a symbolic link. The file system is not consulted.
  package static func standardized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      switch part {
      case "." where !(parts.isEmpty && !absolute && path.hasPrefix("./")): continue
      case ".." where absolute: _ = parts.popLast()
      default: parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : joined
  }

  private static func withoutTrailingSlashes(_ path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    return String(path)
  }
}
