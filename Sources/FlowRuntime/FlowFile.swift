public import FlowCore
import FlowYAML
import Foundation

/// Loads a flow file for running: parse, check against the schema, compile and lint.
package enum FlowFile {
  package struct Loaded: Sendable {
    package var flow: Flow?
    package var diagnostics: [Diagnostic]
  }

  package static func load(path: String) -> Loaded {
    // TODO(lead): switch to FlowLint's FlowLoader (schema + lint) once it lands.
    guard let data = FileManager.default.contents(atPath: path) else {
      return Loaded(flow: nil, diagnostics: [Diagnostic(.error, "cannot read the flow file", file: path, at: .unknown)])
    }
    do {
      let bytes = [UInt8](data)
      let node = path.hasSuffix(".json") ? try JSONReader.read(bytes: bytes, file: path)
        : try YAMLLoader.load(bytes: bytes, file: path)
      let (flow, diagnostics) = FlowCompiler.compile(node, file: path)
      return Loaded(flow: flow, diagnostics: diagnostics)
    } catch {
      return Loaded(flow: nil, diagnostics: [error.diagnostic])
    }
  }
}

/// `HH:MM` <-> seconds since midnight.
package enum ClockText {
  package static func seconds(_ text: String) -> Double? {
    let parts = text.split(separator: ":")
    guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]),
      let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
    else { return nil }
    return Double(hour * 3600 + minute * 60)
  }
}
