#!/bin/sh
# Counts the public declarations of a module (default FlowCore) from its symbol graph: what an app that
# imports it can see. Synthesized members (Equatable's ==, Hashable's hash(into:)) are left out.
# Usage: scripts/count-public-api.sh [MODULE]
set -eu
module=${1:-FlowCore}
cd "$(dirname "$0")/.."
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1
file=$(find .build -path '*symbolgraph*' -name "$module.symbols.json" | head -1)
python3 - "$file" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
own = [s for s in symbols if "::SYNTHESIZED::" not in s["identifier"]["precise"]]
print(len(own))
PY
