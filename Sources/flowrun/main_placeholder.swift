@main struct FlowRunMain { static func main() { print("flowrun: not built yet") } }
