// swift-tools-version:6.1
import PackageDescription

// An app's package that embeds FlowKit: `Onboarding` is the app's onboarding module (its providers, the
// SwiftUI view bound to FlowApp's observable session model, the flow it ships), `onboarding-host` a command-line stand-in
// for the app that CI runs on Linux.
let package = Package(
  name: "HostApp",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "FlowKit", path: "../..")],
  targets: [
    .target(
      name: "Onboarding",
      dependencies: [.product(name: "FlowCore", package: "FlowKit"), .product(name: "FlowApp", package: "FlowKit")],
      resources: [.process("flows")],
      plugins: [.plugin(name: "FlowLintPlugin", package: "FlowKit")]),
    .executableTarget(
      name: "onboarding-host",
      dependencies: [
        "Onboarding", .product(name: "FlowCore", package: "FlowKit"), .product(name: "FlowApp", package: "FlowKit"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
