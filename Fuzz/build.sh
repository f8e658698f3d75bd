#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets/*.swift into $FUZZ_BUILD (default .build-fuzz/) as
# $FUZZ_BUILD/bin/fuzz-<name>.
#
# Why swiftc and not SwiftPM: the readers the targets drive (FlowSchema, FlowLoading, FlowLint, FlowRuntime,
# FlowYAML) are not products of Package.swift, and much of their API is `package`-level, which another
# package cannot see. So this script compiles each library module straight from Sources/ with the same package
# name, language mode and upcoming features as Package.swift, instrumented with `-sanitize=fuzzer,address`, then links one
# executable per target (libFuzzer supplies `main`; each target defines `LLVMFuzzerTestOneInput`).
#
# Usage: Fuzz/build.sh [TARGET...]   (no arguments: every target)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${FUZZ_BUILD:-$root/.build-fuzz}
mods=$out/modules
mkdir -p "$mods" "$out/bin"

# Library modules in dependency order (as in Package.swift).
modules=(FlowCore FlowYAML FlowSchema FlowLoading FlowLint FlowTestSupport FlowRuntime)

common=(
  -swift-version 6 -package-name flowkit -O -g -use-ld=lld
  -sanitize=fuzzer,address
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -I "$mods" -I "$root/Sources/CLibYAML"
)

# Rebuilds a module when any of its sources, or this script, is newer than its object file.
build_module() {
  local name=$1 object=$mods/$1.o
  local sources
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  if [ -f "$object" ] && [ -z "$(find "Sources/$name" "$0" -newer "$object" -print -quit)" ] \
    && [ "$(cat "$mods/$name.deps" 2>/dev/null)" = "$deps_stamp" ]; then
    return
  fi
  echo "fuzz build: $name (${#sources[@]} files)" >&2
  swiftc "${common[@]}" -suppress-warnings -parse-as-library -wmo -module-name "$name" \
    -emit-module -emit-module-path "$mods/$name.swiftmodule" \
    -c -o "$object" "${sources[@]}"
  echo "$deps_stamp" >"$mods/$name.deps"
}

deps_stamp=""
for m in "${modules[@]}"; do
  build_module "$m"
  # A module is rebuilt when one it depends on was rebuilt: stamp with the objects built so far.
  deps_stamp="$deps_stamp $(stat -c %Y "$mods/$m.o")"
done

objects=()
for m in "${modules[@]}"; do objects+=("$mods/$m.o"); done

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in Fuzz/Targets/*.swift; do targets+=("$(basename "$f" .swift)"); done
fi
for t in "${targets[@]}"; do
  src=Fuzz/Targets/$t.swift
  bin=$out/bin/fuzz-$t
  [ -f "$src" ] || { echo "fuzz build: no target '$t' (expected $src)" >&2; exit 2; }
  if [ -f "$bin" ] && [ -z "$(find "$src" "${objects[@]}" -newer "$bin" -print -quit)" ]; then continue; fi
  echo "fuzz build: fuzz-$t" >&2
  swiftc "${common[@]}" -parse-as-library -module-name "Fuzz_$t" "$src" "${objects[@]}" -lyaml -o "$bin"
done
