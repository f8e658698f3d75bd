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
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xlinker -ltinfo -Xlinker -lbsd -Xlinker -lmd "$@"
