#if canImport(SwiftUI)
  public import SwiftUI
  import FlowApp
  import FlowCore

  /// Shows the current step of a `FlowSessionModel` (FlowApp): its texts, its options (tap to choose) and its buttons,
  /// enabled as the flow says. The app shows it on first launch:
  ///
  /// ```swift
  /// let (flow, _) = FlowCompiler.compile(json: try bundledFlowJSON(), file: "onboarding.json")
  /// OnboardingView(model: FlowSessionModel(flow: flow!, providers: AppProviders.make(...)))
  /// ```
  public struct OnboardingView: View {
    @State private var model: FlowSessionModel
    @State private var selection: Set<String> = []

    public init(model: FlowSessionModel) { _model = State(initialValue: model) }

    public var body: some View {
      VStack(alignment: .leading, spacing: 16) {
        if let screen = model.screen {
          if let title = screen.title { Text(title).font(.largeTitle.bold()) }
          if let body = screen.body { Text(body) }
          ForEach(screen.options, id: \.id) { option in
            Button {
              choose(option.id, on: screen)
            } label: {
              Label(option.label, systemImage: chosen(option) ? "checkmark.circle.fill" : "circle")
            }
          }
          if screen.isMultipleChoice {
            Button("Continue") { send(.choose(Array(selection))) }.disabled(selection.isEmpty)
          }
          Spacer()
          ForEach(screen.buttons, id: \.name) { button in
            Button(button.label) { send(button.event) }
              .buttonStyle(.borderedProminent)
              .disabled(!button.isEnabled)
          }
          if screen.canGoBack { Button("Back") { send(.back) } }
        } else {
          ProgressView()
        }
        if let error = model.error { Text("\(error)").foregroundStyle(.red) }
      }
      .padding()
      .task { await model.start() }
    }

    private func chosen(_ option: Screen.Option) -> Bool { option.isSelected || selection.contains(option.id) }

    private func choose(_ id: String, on screen: Screen) {
      guard screen.isMultipleChoice else { return send(.choose([id])) }
      if selection.remove(id) == nil { selection.insert(id) }
    }

    private func send(_ event: FlowEvent) {
      selection = []
      Task { await model.send(event) }
    }
  }
#endif
