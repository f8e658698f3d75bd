import FlowCore
import Testing

/// How `open` cuts a deep link into the entry it names and its query (`DeepLink`).
struct DeepLinkTests {
  @Test(arguments: [
    ("anicca://referral?code=A%201&days=3", "referral", ["code": "A 1", "days": "3"]),
    // An https link's host is not the entry; the fragment is dropped; the scheme's case does not matter.
    ("HTTPS://anicca.app/referral/x?code=Z+Z#top", "referral", ["code": "Z Z"]),
    ("http://anicca.app", "", [:]),
    ("anicca://", "", [:]),
    // A repeated item keeps its last value; empty items are skipped; an item without '=' is an empty value.
    ("anicca://referral?code=1&code=2&&flag", "referral", ["code": "2", "flag": ""]),
    // Only the first '=' splits an item.
    ("anicca://referral?a==b=c", "referral", ["a": "=b=c"]),
    // Percent escapes are decoded as UTF-8; an invalid or cut escape is kept as written.
    ("anicca://caf%C3%A9?q=%E2%9C%93&bad=%zz&cut=%4", "café", ["q": "✓", "bad": "%zz", "cut": "%4"]),
    ("anicca://%FF", "\u{FFFD}", [:]),
    // Text that is not ASCII passes through; only the ASCII delimiters cut.
    ("anicca://café/x?名前=値", "café", ["名前": "値"]),
    // A '?' after the fragment mark belongs to the fragment.
    ("anicca://r#frag?x=1", "r", [:]),
    // Without "://" there is no scheme: the path starts at once.
    ("referral/x?y=1", "referral", ["y": "1"]),
    ("mailto:x?y=1", "mailto:x", ["y": "1"]),
    ("", "", [:]),
  ])
  func aLinkIsCutIntoItsEntryAndQuery(_ url: String, _ entry: String, _ query: [String: String]) {
    let link = DeepLink(url)
    #expect(link.entry == entry)
    #expect(link.query == query)
  }
}
