/// A URI reference split into its RFC 3986 parts, with reference resolution: enough to resolve `$id` and
/// `$ref` values against a base URI. No percent-decoding or case normalisation beyond what RFC 3986 §5 asks.
struct URIReference: Hashable, Sendable {
  var scheme: String?
  var authority: String?
  var path: String
  var query: String?
  var fragment: String?

  init(_ text: String) {
    var rest = Substring(text)
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
    }
    if let question = rest.firstIndex(of: "?") {
      query = String(rest[rest.index(after: question)...])
      rest = rest[..<question]
    }
    if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
      scheme = String(rest[..<colon])
      rest = rest[rest.index(after: colon)...]
    }
    if rest.hasPrefix("//") {
      let afterSlashes = rest.dropFirst(2)
      let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
      authority = String(afterSlashes[..<end])
      rest = afterSlashes[end...]
    }
    path = String(rest)
  }

  private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
    self.scheme = scheme
    self.authority = authority
    self.path = path
    self.query = query
    self.fragment = fragment
  }

  /// The reference without its fragment.
  var withoutFragment: URIReference {
    var copy = self
    copy.fragment = nil
    return copy
  }

  var text: String {
    var result = ""
    if let scheme { result += scheme + ":" }
    if let authority { result += "//" + authority }
    result += path
    if let query { result += "?" + query }
    if let fragment { result += "#" + fragment }
    return result
  }

  /// This reference resolved against `base` (RFC 3986 §5.2.2).
  func resolved(against base: URIReference) -> URIReference {
    if scheme != nil {
      return URIReference(
        scheme: scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
        fragment: fragment)
    }
    if authority != nil {
      return URIReference(
        scheme: base.scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
        fragment: fragment)
    }
    if path.isEmpty {
      return URIReference(
        scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
        fragment: fragment)
    }
    let merged: String
    if path.hasPrefix("/") {
      merged = path
    } else if base.authority != nil && base.path.isEmpty {
      merged = "/" + path
    } else if let slash = base.path.lastIndex(of: "/") {
      merged = base.path[...slash] + path
    } else {
      merged = path
    }
    return URIReference(
      scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(merged), query: query,
      fragment: fragment)
  }

  private static func isScheme(_ text: Substring) -> Bool {
    guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
    return text.unicodeScalars.allSatisfy {
      $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
    }
  }

  /// RFC 3986 §5.2.4.
  private static func removingDotSegments(_ path: String) -> String {
    guard path.contains(".") else { return path }
    var output: [Substring] = []
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
      let isLast = index == segments.count - 1
      switch segment {
      case ".":
        if isLast { output.append("") }
      case "..":
        if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
        if isLast { output.append("") }
      default:
        output.append(segment)
      }
    }
    var result = output.joined(separator: "/")
    if path.hasPrefix("/") && !result.hasPrefix("/") { result = "/" + result }
    return result
  }
}

extension Unicode.Scalar {
  fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
