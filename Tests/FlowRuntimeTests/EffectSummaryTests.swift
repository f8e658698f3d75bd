import FlowCore
import Testing

@testable import FlowRuntime

/// The one-line form of each effect, as traces and scenario rows (`effects:`, `events:`) write it.
struct EffectSummaryTests {
  @Test(arguments: [
    (RuntimeEffect.set(variable: "goal", value: .string("sleep better")), #"set goal "sleep better""#),
    (.persist(key: "onboarding.step", value: .int(3)), "persist onboarding.step 3"),
    (.remove(key: "draft"), "remove draft"),
    (.track(event: "onboarding_started", properties: TrackProperties()), "track onboarding_started"),
    (
      .track(event: "step_viewed", properties: ["step": "welcome", "first visit": true, "index": 0]),
      #"track step_viewed {step: "welcome", "first visit": true, index: 0}"#
    ),
    (.userProperty(name: "plan", value: .list(["a", "b\"c"])), #"userProperty plan ["a", "b\"c"]"#),
    (.requestReview, "requestReview"),
    (.syncProfile(userID: .null), "syncProfile null"),
    (.placement("paywall_main"), "placement paywall_main"),
    (.completeOnboarding, "completeOnboarding"),
    (.log("line 1\nline 2"), #"log "line 1\nline 2""#),
    (
      .perform(action: "request-permission", permission: "notifications", arguments: [:]),
      "perform request-permission notifications"
    ),
    (.perform(action: "sign-in-with-apple", permission: nil, arguments: [:]), "perform sign-in-with-apple"),
    (
      .perform(action: "fetch-plan", permission: nil, arguments: ["tier": "pro", "days": 7]),
      #"perform fetch-plan {days: 7, tier: "pro"}"#
    ),
    (.custom(name: "haptic", arguments: [:]), "haptic"),
    (.custom(name: "confetti", arguments: ["count": .decimal(2.5)]), "confetti {count: 2.5}"),
  ])
  func summary(_ effect: RuntimeEffect, _ line: String) {
    #expect(effect.summary == line)
  }
}
