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
# Usage: Fuzz/build.sh [TARGET...]   (no arguments: every target; FUZZ_BUILD=DIR, FUZZ_BUILD_JOBS=N)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${FUZZ_BUILD:-$root/.build-fuzz}
mods=$out/modules
mkdir -p "$mods" "$out/bin"

# Library modules by dependency level (as in Package.swift): each module depends only on modules of earlier
# levels, so the modules of one level compile at the same time.
levels=("FlowCore" "FlowYAML FlowSchema FlowTestSupport" "FlowLoading" "FlowLint FlowRuntime")
modules=()
for level in "${levels[@]}"; do read -ra names <<<"$level" && modules+=("${names[@]}"); done
# How many compilers run at once (the modules of a level, then the targets), and the code generation threads of
# each module: one per core unless FUZZ_BUILD_JOBS says.
jobs=${FUZZ_BUILD_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz build: FUZZ_BUILD_JOBS must be a positive whole number, not '$jobs'" >&2; exit 2; }

common=(
  -swift-version 6 -package-name flowkit -O -g -use-ld=lld
  -sanitize=fuzzer,address
  -enable-upcoming-feature ExistentialAny
  -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -I "$mods" -I "$root/Sources/CLibYAML" -I "$root/Sources/CMemoryHints/include"
)

# Rebuilds a module when any of its sources, or this script, is newer than its stamp. A module is compiled whole
# (-wmo) with LLVM's code generation on $jobs threads, one object per source file, in $mods/NAME/.
build_module() {
  local name=$1 stamp=$mods/$1.stamp
  local sources source map index=0
  mapfile -t sources < <(find "$root/Sources/$name" -name '*.swift' | sort)
  if [ -f "$stamp" ] && [ -z "$(find "Sources/$name" "$0" -newer "$stamp" -print -quit)" ] \
    && [ "$(cat "$mods/$name.deps" 2>/dev/null)" = "$deps_stamp" ]; then
    return
  fi
  echo "fuzz build: $name (${#sources[@]} files)" >&2
  rm -rf "${mods:?}/$name" "$stamp"
  mkdir -p "$mods/$name"
  map=$mods/$name/output-file-map.json
  {
    echo "{"
    for source in "${sources[@]}"; do
      index=$((index + 1))
      printf '  "%s": {"object": "%s"}%s\n' "$source" "$mods/$name/$index.o" "$([ "$index" -lt "${#sources[@]}" ] && echo ,)"
    done
    echo "}"
  } >"$map"
  swiftc "${common[@]}" -suppress-warnings -parse-as-library -wmo -num-threads "$jobs" -module-name "$name" \
    -emit-module -emit-module-path "$mods/$name.swiftmodule" \
    -c -output-file-map "$map" "${sources[@]}"
  echo "$deps_stamp" >"$mods/$name.deps"
  touch "$stamp"
}

# Runs "$@" in the background once fewer than $jobs commands run; a failed one fails the build.
run_limited() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  "$@" &
}
# Waits for every command started by run_limited; fails when one failed.
wait_all() {
  local pid
  for pid in $(jobs -p); do wait "$pid"; done
}

deps_stamp=""
for level in "${levels[@]}"; do
  read -ra names <<<"$level"
  for m in "${names[@]}"; do run_limited build_module "$m"; done
  wait_all
  # A module is rebuilt when one of an earlier level was rebuilt: its .deps holds their stamps' times.
  for m in "${names[@]}"; do deps_stamp="$deps_stamp $(stat -c %Y "$mods/$m.stamp")"; done
done

objects=()
for m in "${modules[@]}"; do objects+=("$mods/$m"/*.o); done

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
  run_limited swiftc "${common[@]}" -parse-as-library -module-name "Fuzz_$t" "$src" "${objects[@]}" -lyaml -o "$bin"
done
wait_all
