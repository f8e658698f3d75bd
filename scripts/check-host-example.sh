#!/bin/sh
# Builds Examples/HostApp (an app's package that depends on FlowKit by path) and runs its command-line host
# once on the flow it ships, with the answers in Examples/HostApp/ci/input.txt; the whole output must be
# Examples/HostApp/ci/expected-output.txt. Then checks README's sample, `swift package flowlint`, and that a
# copy of the example with a broken flow fails its build (FlowLintPlugin). Run from anywhere; CI runs it.
# Usage: scripts/check-host-example.sh [--update]   (--update rewrites the expected output)
set -eu
cd "$(dirname "$0")/../Examples/HostApp"
# The copy below is built in this scratch folder too: neither build may reuse the other's cached build plan.
swift build --quiet --disable-build-manifest-caching
actual=$(mktemp)
"$(swift build --show-bin-path)/onboarding-host" <ci/input.txt >"$actual"
if [ "${1:-}" = --update ]; then cp "$actual" ci/expected-output.txt; fi
diff -u ci/expected-output.txt "$actual"
echo "Examples/HostApp: the host ran the flow as ci/expected-output.txt shows"

# The command plugin, from a package that depends on FlowKit: `swift package flowlint` lints its flows.
linted=$(swift package flowlint 2>/dev/null | tail -1)
[ "$linted" = "flowlint: checked 1 file: no findings" ] || { echo "swift package flowlint: $linted"; exit 1; }
echo "Examples/HostApp: swift package flowlint (FlowLintCommand) checked its flow"

# README's "Embedding FlowKit in an app" and the DocC article on embedding show main.swift whole (its leading
# comment left out).
python3 - <<'PY'
import re, sys
code = "".join(line for line in open("Sources/onboarding-host/main.swift", encoding="utf-8").readlines()
               if not line.startswith("//"))
for page in ["README.md", "Sources/FlowCore/FlowCore.docc/EmbeddingInAnApp.md"]:
    text = open("../../" + page, encoding="utf-8").read()
    shown = re.search(r"<!-- Examples/HostApp/Sources/onboarding-host/main.swift -->\n```swift\n(.*?)```", text, re.S)
    if not shown or shown.group(1) != code:
        sys.exit(f"{page}: the embedding sample is not Examples/HostApp/Sources/onboarding-host/main.swift")
    print(f"{page} shows main.swift ({code.count(chr(10))} lines)")
PY

# The build-tool plugin fails the build on a broken flow, with the line Xcode shows on the flow's line: a copy
# of the package with a misspelled step, built in the same scratch folder (so only the copy's own targets build).
copy=$(mktemp -d)
trap 'rm -rf "$copy" "$actual"' EXIT
cp -R Package.swift Sources "$copy/"
sed -i.orig "s|path: \"../..\"|path: \"$(cd ../.. && pwd)\"|" "$copy/Package.swift"
sed -i.orig 's/"next": "account"/"next": "acount"/' "$copy/Sources/Onboarding/flows/onboarding.json"
rm "$copy"/Package.swift.orig "$copy"/Sources/Onboarding/flows/onboarding.json.orig
if swift build --package-path "$copy" --scratch-path .build --disable-build-manifest-caching >"$actual" 2>&1; then
  cat "$actual"; echo "Examples/HostApp: a copy with a broken flow built"; exit 1
fi
expected="$copy/Sources/Onboarding/flows/onboarding.json:128:15: error: unknown step 'acount'; expected one of"
grep -F "$expected" "$actual" || { cat "$actual"; echo "Examples/HostApp: no '$expected' line"; exit 1; }
echo "Examples/HostApp: a broken flow fails the build (FlowLintPlugin)"
