// A release-mode benchmark harness: `swift run -c release flowbench`. Prints one line per measurement.
// Not a test: numbers depend on the machine; the README records what they were on ours.
import FlowBenchmarkSupport
import FlowCore
import FlowSchema
import FlowYAML
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
  var result = Double.infinity
  for _ in 0..<runs { result = min(result, try seconds(body)) }
  return result
}

func peakMemoryMB() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let digits = line.filter(\.isNumber)
    return (Double(digits) ?? 0) / 1024
  }
  return 0
}

/// The work of `flowbench events`, `explore` and `explore-file`, run by ``measured()``.
nonisolated(unsafe) var measuredWork: () throws -> Void = {}

/// Runs ``measuredWork``. scripts/perf-guard.py has callgrind count only this function and what it calls
/// (`--toggle-collect=flowbench_measured`), so loading the flow and starting the process are left out.
@inline(never) @_silgen_name("flowbench_measured")
func measured() throws { try measuredWork() }

let arguments = CommandLine.arguments.dropFirst()
let command = arguments.first ?? "all"

switch command {
case "generate":
  let steps = Int(arguments.dropFirst().first ?? "") ?? 10_000
  print(FlowGenerator.yaml(steps: steps), terminator: "")

case "schema-program":
  // Sources/FlowSchema/EmbeddedSchemaPrograms.swift: the embedded flow schema compiled (scripts/embed-schemas.sh).
  do {
    print(try JSONSchema.embeddedProgramsFile(), terminator: "")
  } catch {
    FileHandle.standardError.write(Data("flowbench: the embedded flow schema does not compile: \(error)\n".utf8))
    exit(1)
  }

case "prelude-declarations":
  // Sources/FlowCore/Model/EmbeddedPreludeDeclarations.swift: the embedded prelude compiled (scripts/embed-schemas.sh).
  guard let file = Prelude.embeddedDeclarationsFile() else {
    FileHandle.standardError.write(
      Data("flowbench: the embedded prelude does not compile: \(Prelude.compile().diagnostics)\n".utf8))
    exit(1)
  }
  print(file, terminator: "")

case "generate-chain":
  // The chain of N screens that `flowbench engine` drives, as a flow file (Benchmarks/compare.sh explores it).
  let steps = Int(arguments.dropFirst().first ?? "") ?? 10_000
  print(FlowGenerator.chainYAML(steps: steps), terminator: "")

case "engine", "all":
  // One `next` per step through a chain of N screens: events per second, and the load time of the chain. Each
  // `next` here is a plain move (Engine.takesPlainMoves); the general path's rate is printed beside it.
  for steps in [100, 1_000, 10_000] {
    let yaml = FlowGenerator.chainYAML(steps: steps)
    var flow: Flow?
    let load = try best(of: 3) { flow = try FlowGenerator.compile(yaml, file: "chain.yaml") }
    var rates: [Double] = []
    for takesPlainMoves in [true, false] {
      var engine = Engine(flow: flow!)
      engine.takesPlainMoves = takesPlainMoves
      var events = 0
      let rounds = max(1, 1_000_000 / steps)
      let elapsed = try best(of: 3) {
        events = 0
        // One array of records for every event, as an app or explore handling event after event keeps it.
        var records: [Record] = []
        for _ in 0..<rounds {
          var state = RunState()
          try engine.handle(.launch(Launch()), in: &state, records: &records)
          for _ in 0..<steps {
            try engine.handle(.next, in: &state, records: &records)
            events += 1
          }
        }
      }
      rates.append(Double(events) / elapsed)
    }
    print(
      String(
        format: "engine chain N=%-6d %10.0f events/s   load %.4f s   (general path %.0f events/s)", steps, rates[0],
        load, rates[1]))
  }
  if command == "engine" { break }
  fallthrough

case "load":
  let steps = 10_000
  let yaml = FlowGenerator.yaml(steps: steps)
  let bytes = Array(yaml.utf8)
  let parse = try best(of: 3) { _ = try YAMLLoader.load(bytes: bytes, file: "gen.yaml") }
  let full = try best(of: 3) { _ = try FlowGenerator.compile(yaml, file: "gen.yaml") }
  print(
    String(
      format: "load %d-step flow (%.1f MB): parse %.4f s, parse+compile %.4f s, peak memory %.0f MB",
      steps, Double(bytes.count) / 1e6, parse, full, peakMemoryMB()))

case "parse":
  // Our YAML loader on FILE, read into memory once; best of 5. Benchmarks/compare.sh sets it beside a bare
  // libyaml event scan of the same file (Benchmarks/reference/yamlscan.c).
  guard let path = arguments.dropFirst().first, let data = FileManager.default.contents(atPath: path) else {
    print("usage: flowbench parse FILE")
    exit(2)
  }
  let bytes = [UInt8](data)
  let parse = try best(of: 5) { _ = try YAMLLoader.load(bytes: bytes, file: path) }
  print(String(format: "%.6f", parse))

case "events":
  // Exactly COUNT (default 100,000) `next` events through a chain of 1,000 screens, launching again at its end.
  // `general` after COUNT: every event takes the engine's general path, as a tap on a button with an effect
  // does, not the plain-`next` shortcut.
  let count = Int(arguments.dropFirst().first ?? "") ?? 100_000
  var chainEngine = Engine(flow: try FlowGenerator.compile(FlowGenerator.chainYAML(steps: 1_000), file: "chain.yaml"))
  chainEngine.takesPlainMoves = arguments.dropFirst(2).first != "general"
  let engine = chainEngine
  var handled = 0
  measuredWork = {
    var state = RunState()
    var records: [Record] = []
    while handled < count {
      if state.current == nil || state.ended != nil {
        try engine.handle(.launch(Launch()), in: &state, records: &records)
      }
      try engine.handle(.next, in: &state, records: &records)
      handled += 1
    }
  }
  try measured()
  print("events: \(handled) handled")

case "scenarios":
  // Every row of the scenario tables under PATH (default Tests/Scenarios), tables and flows loaded once: the
  // time of running the rows (engine, scripted providers, the rows' checks), best of 3.
  let path = arguments.dropFirst().first ?? "Tests/Scenarios"
  let rows = try ScenarioBenchmark.rows(at: path)
  let (elapsed, cpu, passed) = ScenarioBenchmark.measureWaiting(rows)
  print(
    String(
      format: "scenarios: %d rows (%d passed) in %.1f ms (%.1f ms of CPU), best of 3", rows.count, passed,
      elapsed * 1000, cpu * 1000))

case "explore-file":
  // `flowrun explore FILE`'s work in process: explore the flow and write the text report (the YAML is compiled
  // without the schema check, outside the measured part).
  // JOBS (default 1) is `--jobs`: under `valgrind --tool=callgrind --separate-threads=yes`, how the work
  // divides between the exploring thread and the others.
  let jobs = arguments.dropFirst(2).first.map { Int($0) } ?? 1
  guard let path = arguments.dropFirst().first, let data = FileManager.default.contents(atPath: path),
    let jobs, ExploreBenchmark.jobsRange.contains(jobs)
  else {
    print("usage: flowbench explore-file FILE [JOBS]")
    exit(2)
  }
  let flow = try FlowGenerator.compile(String(decoding: data, as: UTF8.self), file: path)
  var summary = ""
  var (reused, made) = (0, 0)
  measuredWork = {
    let report = ExploreBenchmark.report(of: flow, jobs: jobs)
    summary = String(report.text.prefix { $0 != "\n" })
    (reused, made) = (report.reused, report.made)
  }
  try measured()
  print(summary)
  if reused + made > 0 {
    print(
      String(
        format: "moves reused: %d of %d (%.1f%%)", reused, reused + made, Double(reused) * 100 / Double(reused + made)))
  }

case "explore":
  // Exhaustive exploration of a generated flow with (about) STATES distinct states: the state space
  // Benchmarks/compare.sh also gives SPIN.
  let states = Int(arguments.dropFirst().first ?? "") ?? 1_000_000
  var measurement: ExploreBenchmark.Measurement?
  measuredWork = { measurement = try ExploreBenchmark.measure(states: states) }
  try measured()
  print(measurement!)

default:
  print(
    "usage: flowbench [all|engine|load|explore [STATES]|events [COUNT [general]]|scenarios [PATH]|explore-file FILE [JOBS]|"
      + "generate N|generate-chain N|parse FILE]")
}
