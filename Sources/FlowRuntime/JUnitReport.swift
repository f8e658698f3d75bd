/// Scenario results as JUnit XML, the format CI dashboards read (`flowrun test --format junit`): one
/// `testsuite` per table file, one `testcase` per row with its name, file and line. A failing row has a
/// `failure` whose message is the row's position and the first line of its first failure and whose text lists every failure; a
/// row that does not fit its flow, or a table that cannot be run, is an `error`. No timings, so the same results
/// give the same bytes.
package enum JUnitReport {
  package static func xml(_ tables: [ScenarioSuite.TableResult]) -> String {
    var suites: [String] = []
    var totals = (tests: 0, failures: 0, errors: 0)
    for table in tables {
      var cases: [String] = []
      var counts = (tests: 0, failures: 0, errors: 0)
      if let error = table.error {
        counts.tests += 1
        counts.errors += 1
        cases.append(
          "    <testcase classname=\(attribute(table.path)) name=\(attribute(table.path)) file=\(attribute(table.path))>\n"
            + "      <error message=\(attribute("\(table.path): \(firstLine(error))"))>\(text(error))</error>\n"
            + "    </testcase>")
      }
      for row in table.cases {
        counts.tests += 1
        let opening =
          "    <testcase classname=\(attribute(table.path)) name=\(attribute(row.name)) "
          + "file=\(attribute(table.path)) line=\"\(row.line)\""
        guard let first = row.failures.first else {
          cases.append(opening + "/>")
          continue
        }
        let element = row.isError ? "error" : "failure"
        if row.isError { counts.errors += 1 } else { counts.failures += 1 }
        let message = row.isError ? firstLine(first) : "\(table.path):\(row.line): \(firstLine(first))"
        cases.append(
          opening + ">\n"
            + "      <\(element) message=\(attribute(message))>\(text(row.failures.joined(separator: "\n")))</\(element)>\n"
            + "    </testcase>")
      }
      totals = (totals.tests + counts.tests, totals.failures + counts.failures, totals.errors + counts.errors)
      suites.append(
        "  <testsuite name=\(attribute(table.path)) tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" "
          + "errors=\"\(counts.errors)\">\n" + cases.map { $0 + "\n" }.joined() + "  </testsuite>")
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<testsuites name=\"flowrun test\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" "
      + "errors=\"\(totals.errors)\">\n" + suites.map { $0 + "\n" }.joined() + "</testsuites>\n"
  }

  private static func firstLine(_ text: String) -> String {
    String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
  }

  /// `value` as a quoted XML attribute value.
  static func attribute(_ value: String) -> String { "\"" + escaped(value, inAttribute: true) + "\"" }

  /// `value` as XML character data.
  static func text(_ value: String) -> String { escaped(value, inAttribute: false) }

  /// Escapes markup characters (and, in attributes, quotes and line breaks); drops the control characters XML
  /// 1.0 cannot hold.
  private static func escaped(_ value: String, inAttribute: Bool) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where inAttribute: out += "&quot;"
      case "\n" where inAttribute: out += "&#10;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case "\u{00}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
