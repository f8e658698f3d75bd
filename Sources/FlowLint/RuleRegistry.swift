/// Every rule, in the order `--list-rules` and the documentation show them.
package enum RuleRegistry {
  package static let all: [any LintRule] = [
    LoadRule(), SchemaRule(), FlowShapeRule(), UnknownStepRule(), UnknownVariableRule(), UnknownStringRule(),
    MissingTranslationRule(), UnknownPermissionRule(), UncataloguedPermissionRule(),
    UnknownActionRule(), ActionArgumentsRule(), UnknownOutcomeRule(), ResultFieldRule(),
    UnknownTerminalOutcomeRule(), DottedStoreKeyRule(),
    UnhandledOutcomeRule(), UnreachableStepRule(), UnreachableTerminalRule(), DeadEndRule(), TrapRule(),
    SkipWithoutNextRule(),
    AutomaticLoopRule(), ExpressionSyntaxRule(), ExpressionTypeRule(), RetiredTargetRule(), DuplicateRawValueRule(),
    UnusedVariableRule(), UnusedSuppressionRule(), UnknownRuleRule(), UnsuppressibleRuleRule(), VersionResumeRule(),
    ElseCoversNewOutcomeRule(),
    StringsCatalogRule(), ScenarioTableRule(), UnknownVariantRule(), SingleVariantRule(), VariantWeightRule(),
  ]

  package static let descriptions: [RuleDescription] = all.map(\.ruleDescription)

  package static let ids: Set<String> = Set(descriptions.map(\.id))

  package static func description(of id: String) -> RuleDescription? { descriptions.first { $0.id == id } }
}
