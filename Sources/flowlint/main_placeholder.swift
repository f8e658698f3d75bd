@main struct FlowLintMain { static func main() { print("flowlint: not built yet") } }
