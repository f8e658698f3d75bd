// swift-tools-version:6.1
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
  name: "FlowKit",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    // What an app embeds: the model, expressions and the engine. No libyaml, no command-line code.
    .library(name: "FlowCore", targets: ["FlowCore"]),
    // What an app adds on top: the @Observable session model a SwiftUI view binds to, the UserDefaults store.
    .library(name: "FlowApp", targets: ["FlowApp"]),
    // Scripted fakes of every provider, for an app's own tests.
    .library(name: "FlowTestSupport", targets: ["FlowTestSupport"]),
    .executable(name: "flowlint", targets: ["flowlint"]),
    .executable(name: "flowrun", targets: ["flowrun"]),
    // Lint a target's flow files (in a `flows` folder) during `swift build`, and `swift package flowlint`.
    .plugin(name: "FlowLintPlugin", targets: ["FlowLintPlugin"]),
    .plugin(name: "FlowLintCommand", targets: ["FlowLintCommand"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Test only: the randomized session search (CrashSearchTests).
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // Documentation only: `swift package generate-documentation --target FlowCore` (adds a plugin, no library).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(name: "FlowCore"),
    .target(name: "FlowApp", dependencies: ["FlowCore"]),
    .systemLibrary(
      name: "CLibYAML", pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    .target(name: "FlowYAML", dependencies: ["FlowCore", "CLibYAML", "CMemoryHints"]),
    // Line editing and history at flowrun's prompt.
    .systemLibrary(
      name: "CLibEdit", pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
    .target(name: "FlowSchema", dependencies: ["FlowCore"]),
    // load -> validate -> compile: bytes or a path to a compiled flow with positioned diagnostics.
    .target(name: "FlowLoading", dependencies: ["FlowCore", "FlowYAML", "FlowSchema"]),
    .target(name: "FlowLint", dependencies: ["FlowCore", "FlowLoading"]),
    .target(name: "FlowTestSupport", dependencies: ["FlowCore"]),
    // Memory hints in inline C functions: a cache prefetch and huge pages for the explorer's hash table, and
    // huge pages for the reader of a large document.
    .target(name: "CMemoryHints"),
    .target(
      name: "FlowRuntime", dependencies: ["FlowCore", "FlowYAML", "FlowSchema", "FlowLoading", "CMemoryHints"]),
    // What flowlint and flowrun share: exit statuses, loading a flow named on the command line or exiting.
    .target(name: "FlowCommandLine", dependencies: ["FlowCore", "FlowLoading", "FlowLint", argumentParser]),
    .executableTarget(
      name: "flowlint",
      dependencies: [
        "FlowCore", "FlowSchema", "FlowLoading", "FlowLint", "FlowRuntime", "FlowCommandLine", argumentParser,
      ]),
    .executableTarget(
      name: "flowrun",
      dependencies: [
        "FlowCore", "FlowLoading", "FlowLint", "FlowRuntime", "FlowCommandLine", "CLibEdit", argumentParser,
      ]),
    .plugin(name: "FlowLintPlugin", capability: .buildTool(), dependencies: ["flowlint"]),
    .plugin(
      name: "FlowLintCommand",
      capability: .command(
        intent: .custom(
          verb: "flowlint", description: "Lint the package's flow files (or the paths given) with flowlint")),
      dependencies: ["flowlint"]),
    // Generated flows and measurements for flowbench and the tests that need them; not part of any product.
    .target(
      name: "FlowBenchmarkSupport", dependencies: ["FlowCore", "FlowYAML", "FlowRuntime"],
      path: "Benchmarks/FlowBenchmarkSupport"),
    .executableTarget(
      name: "flowbench", dependencies: ["FlowCore", "FlowYAML", "FlowSchema", "FlowBenchmarkSupport"],
      path: "Benchmarks/flowbench"),

    .testTarget(name: "FlowCoreTests", dependencies: ["FlowCore", "FlowTestSupport"]),
    .testTarget(name: "FlowAppTests", dependencies: ["FlowApp", "FlowCore", "FlowTestSupport"]),
    .testTarget(name: "FlowYAMLTests", dependencies: ["FlowYAML", "FlowCore"]),
    .testTarget(name: "FlowSchemaTests", dependencies: ["FlowSchema", "FlowYAML", "FlowLoading", "FlowLint"]),
    .testTarget(name: "FlowLoadingTests", dependencies: ["FlowLoading"]),
    .testTarget(name: "FlowLintTests", dependencies: ["FlowLoading", "FlowLint"]),
    .testTarget(
      name: "FlowRuntimeTests", dependencies: ["FlowRuntime", "FlowTestSupport", "FlowYAML", "FlowLoading", "FlowLint"]),
    .testTarget(name: "FlowCommandLineTests", dependencies: ["FlowCommandLine"]),
    .testTarget(name: "FlowBenchmarkSupportTests", dependencies: ["FlowBenchmarkSupport", "FlowRuntime"]),
    .testTarget(name: "EndToEndTests", dependencies: ["FlowRuntime", "FlowCommandLine", "FlowLoading"]),
    .testTarget(
      name: "CrashSearchTests",
      dependencies: [
        "FlowCore", "FlowLoading", "FlowRuntime", .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && target.type != .plugin {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
