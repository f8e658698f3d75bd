import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLint
import FlowLoading

#if canImport(FoundationEssentials)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// `flowlint FLOW --strings CATALOG.xcstrings`: every text key each flow uses, in the String Catalog, for every
/// locale the flow declares.
enum StringsMode {
  /// Reads the catalog at `path`; prints why and throws exit status 2 when it cannot be read, is not JSON or is
  /// not a String Catalog.
  static func catalog(at path: String) throws(ExitCode) -> StringCatalog {
    guard let data = FileManager.default.contents(atPath: path) else {
      printError("flowlint: error: cannot read the String Catalog '\(path)'")
      throw ExitStatus.unusable.exitCode
    }
    do {
      return try StringCatalog.read(bytes: Array(data), file: path)
    } catch {
      printError(error.description)
      throw ExitStatus.unusable.exitCode
    }
  }

  /// Adds a finding per text whose key `catalog` lacks, or lacks in one of the flow's locales, at the text, to
  /// each report of a flow without errors.
  static func check(_ outcome: inout RunOutcome, against catalog: StringCatalog, at catalogPath: String) {
    for index in outcome.reports.indices {
      let report = outcome.reports[index]
      guard !report.diagnostics.contains(where: { $0.severity == .error }),
        let flow = report.loaded?.flow
      else { continue }
      outcome.reports[index].diagnostics += catalog.check(flow, file: report.file, catalogName: catalogPath)
    }
  }
}
