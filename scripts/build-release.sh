#!/usr/bin/env bash
# Builds FlowKit's tools as they are installed and measured (README's install section, Benchmarks/compare.sh):
# `swift build -c release` with every library linked in, a fully static executable that starts like a C program.
#
#   bash scripts/build-release.sh --product flowlint             # into .build/release
#   bash scripts/build-release.sh --product flowrun --scratch-path .build-rel
#   bash scripts/build-release.sh --show-bin-path                 # any other `swift build` argument passes through
#
# - `--static-swift-stdlib -static-executable`: the Swift runtime, Foundation, libyaml, libedit and the C library
#   linked in (`ldd` says "not a dynamic executable"), so nothing is loaded or relocated at start-up and the
#   binary runs without the Swift toolchain or libyaml/libedit installed. libedit's own dependencies (terminfo,
#   libbsd, libmd) are named because a static link does not follow pkg-config's dynamic dependencies.
# - `-disable-concrete-type-metadata-mangled-name-accessors`: code asks for the metadata of a generic type such as
#   `[ActionName: ActionDeclaration]` through its metadata accessor, with the conformances it needs at hand,
#   instead of by mangled name, which makes the runtime look the `Hashable` conformance up by scanning every
#   conformance record in the binary (thousands of them) once per type: about 3 million instructions of each
#   flowlint run.
# - `-use-ld=lld`, `-function-sections` and `--symbol-ordering-file=scripts/startup-order/PRODUCT.txt`: the
#   functions that the product's everyday commands run, then the data they touch, are placed first and together
#   (scripts/startup-order.py lists them), so a process maps fewer pages as it starts; lld, the toolchain's
#   linker, is the one that takes such a list. docs/benchmarks-history.md ("A seed flow") has what it gains. A
#   product without a list is linked in lld's own order; a name a list has and the code no longer has is skipped.
# - Before building, it checks that the C compiler finds the static libraries the link needs, and when one is
#   missing says which and the apt-get line that installs it (exit 1), where the linker would only say "unable to
#   find library -lbsd" after the whole build.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v "${CC:-cc}" >/dev/null 2>&1; then
  missing=()
  for library in yaml edit tinfo bsd md; do
    [ "$("${CC:-cc}" -print-file-name="lib$library.a")" = "lib$library.a" ] && missing+=("lib$library.a")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "scripts/build-release.sh: a static build links libyaml, libedit and the libraries libedit needs; this machine lacks ${missing[*]}." >&2
    echo "Install them with: apt-get install -y libyaml-dev libedit-dev   (libedit-dev brings libncurses-dev, libbsd-dev and libmd-dev)" >&2
    exit 1
  fi
fi
product=""
previous=""
for argument in "$@"; do
  case "$argument" in --product=*) product=${argument#--product=} ;; esac
  [ "$previous" = --product ] && product=$argument
  previous=$argument
done
order=()
if [ -n "$product" ] && [ -f "scripts/startup-order/$product.txt" ]; then
  order=(-Xlinker --symbol-ordering-file="$PWD/scripts/startup-order/$product.txt" -Xlinker --no-warn-symbol-ordering)
fi
exec swift build -c release --static-swift-stdlib -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections "${order[@]}" \
  -Xlinker -ltinfo -Xlinker -lbsd -Xlinker -lmd "$@"
