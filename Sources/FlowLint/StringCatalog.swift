package import FlowCore

/// A flow's texts as an Xcode String Catalog (`.xcstrings`), and the check that a catalog has every key a flow
/// uses in every locale the flow declares.
///
/// The catalog is written as Xcode writes one, so that opening and saving it in Xcode changes nothing: keys
/// sorted, two-space indentation, `" : "` between a key and its value, no newline at the end. Each key is
/// marked `"extractionState" : "manual"` (Xcode keeps such keys instead of marking them stale when no Swift
/// code uses them), and each text is `translated` with its value as the flow gives it, `{name}` placeholders
/// included, since FlowKit fills them itself; a text with plural forms is a `plural` variation with one form per
/// CLDR category. The source language is the flow's first locale.
package struct StringCatalog: Sendable {
  /// The catalog's keys, each with its position and the locales it has a localization for.
  package var keys: [String: (location: SourceLocation, locales: Set<String>)]

  /// The String Catalog text of every string the flow defines, in every locale that defines it.
  package static func text(of flow: Flow) -> String {
    var localizations: [String: [Node.Entry]] = [:]
    for locale in flow.locales {
      for (key, text) in flow.strings[locale] ?? [:] {
        func unit(_ value: String) -> Node {
          mapping([("stringUnit", mapping([("state", Node(.string("translated"))), ("value", Node(.string(value)))]))])
        }
        // A text with plural forms is a plural variation, one form per CLDR category, as Xcode writes them.
        let localization =
          if let forms = flow.plurals[locale]?[key] {
            mapping([
              (
                "variations",
                mapping([("plural", mapping(forms.map { ($0.key.rawValue, unit($0.value)) }.sorted { $0.0 < $1.0 }))])
              )
            ])
          } else {
            unit(text.value)
          }
        localizations[key, default: []].append(entry(locale, localization))
      }
    }
    let strings = localizations.keys.sorted().map { key in
      let byLocale = localizations[key, default: []].sorted { $0.key < $1.key }
      return entry(
        key, mapping([("extractionState", Node(.string("manual"))), ("localizations", Node(.mapping(byLocale)))]))
    }
    let catalog = mapping([
      ("sourceLanguage", Node(.string(flow.locales.first ?? "en"))), ("strings", Node(.mapping(strings))),
      ("version", Node(.string("1.0"))),
    ])
    return JSONWriter.write(catalog, pretty: true, keySeparator: " : ")
  }

  /// Reads a String Catalog.
  ///
  /// - Throws: a positioned `LoadError` when the text is not JSON, or (code `unsupported`) not a String
  ///   Catalog: no `strings` object, or a key or localization that is not an object.
  package static func read(bytes: [UInt8], file: String) throws(LoadError) -> StringCatalog {
    let root = try JSONReader.read(bytes: bytes, file: file)
    func notACatalog(_ what: String, at node: Node) -> LoadError {
      LoadError(.unsupported, "\(what); this is not a String Catalog", file: file, at: node.location)
    }
    guard root.entries != nil else {
      throw notACatalog("the catalog is \(root.kindDescription), not an object", at: root)
    }
    guard let strings = root["strings"] else {
      throw notACatalog("the catalog has no 'strings' object", at: root)
    }
    guard let entries = strings.entries else {
      throw notACatalog("'strings' is \(strings.kindDescription), not an object", at: strings)
    }
    var keys: [String: (location: SourceLocation, locales: Set<String>)] = [:]
    for entry in entries {
      guard entry.value.entries != nil else {
        throw notACatalog("string '\(entry.key)' is \(entry.value.kindDescription), not an object", at: entry.value)
      }
      let localizations = entry.value["localizations"] ?? Node(.mapping([]))
      guard let locales = localizations.entries else {
        throw notACatalog(
          "'localizations' of '\(entry.key)' is \(localizations.kindDescription), not an object", at: localizations)
      }
      for locale in locales where locale.value.entries == nil {
        throw notACatalog(
          "localization '\(locale.key)' of '\(entry.key)' is \(locale.value.kindDescription), not an object",
          at: locale.value)
      }
      keys[entry.key] = (entry.keyLocation, Set(locales.map(\.key)))
    }
    return StringCatalog(keys: keys)
  }

  /// An error at each text of `flow` whose key the catalog lacks, or lacks in one of the flow's locales.
  ///
  /// - Parameters:
  ///   - file: the flow's path, for the diagnostics' positions.
  ///   - catalogName: how the messages name the catalog (`Localizable.xcstrings`).
  package func check(_ flow: Flow, file: String, catalogName: String) -> [Diagnostic] {
    var findings: [Diagnostic] = []
    for text in FlowWalk(flow).texts {
      let problems: [String]
      if let found = keys[text.key] {
        problems = flow.locales.filter { !found.locales.contains($0) }.map {
          "string '\(text.key)' has no '\($0)' localization in \(catalogName)"
        }
      } else {
        problems = ["string '\(text.key)' is not in \(catalogName)"]
      }
      for problem in problems {
        findings.append(
          Diagnostic(.error, problem, file: file, at: text.location, rule: StringsCatalogRule.description.id))
      }
    }
    return findings
  }

  private static func entry(_ key: String, _ value: Node) -> Node.Entry {
    Node.Entry(key: key, keyLocation: .unknown, value: value)
  }

  private static func mapping(_ pairs: [(String, Node)]) -> Node {
    Node(.mapping(pairs.map { entry($0.0, $0.1) }))
  }
}
