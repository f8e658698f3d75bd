#!/bin/sh
# Builds Examples/HostApp (an app's package that depends on FlowKit by path) and runs its command-line host
# once on the flow it ships, with the answers in Examples/HostApp/ci/input.txt; the whole output must be
# Examples/HostApp/ci/expected-output.txt. Run from anywhere; CI runs it.
# Usage: scripts/check-host-example.sh [--update]   (--update rewrites the expected output)
set -eu
cd "$(dirname "$0")/../Examples/HostApp"
swift build --quiet
actual=$(mktemp)
"$(swift build --show-bin-path)/onboarding-host" <ci/input.txt >"$actual"
if [ "${1:-}" = --update ]; then cp "$actual" ci/expected-output.txt; fi
diff -u ci/expected-output.txt "$actual"
echo "Examples/HostApp: the host ran the flow as ci/expected-output.txt shows"

# README's "Embedding FlowKit in an app" shows main.swift whole (its leading comment left out).
python3 - <<'PY'
import re, sys
readme = open("../../README.md", encoding="utf-8").read()
shown = re.search(r"<!-- Examples/HostApp/Sources/onboarding-host/main.swift -->\n```swift\n(.*?)```", readme, re.S)
code = "".join(line for line in open("Sources/onboarding-host/main.swift", encoding="utf-8").readlines()
               if not line.startswith("//"))
if not shown or shown.group(1) != code:
    sys.exit("README.md: the embedding sample is not Examples/HostApp/Sources/onboarding-host/main.swift")
print(f"README.md shows main.swift ({code.count(chr(10))} lines)")
PY
