#!/bin/sh
# Type-checks Tests/FlowCoreTests/EmbeddingTests.swift as an app would see FlowCore: outside the package, so
# only public declarations are visible (inside the package, tests also see `package` ones). Run after
# `swift build --build-tests`.
set -eu
cd "$(dirname "$0")/.."
swiftc -typecheck -swift-version 6 -I .build/debug/Modules Tests/FlowCoreTests/EmbeddingTests.swift
echo "EmbeddingTests.swift uses FlowCore's public API only"
