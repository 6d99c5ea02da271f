#!/usr/bin/env bash
# Runs the whole test suite (the README's test command). Debug build; tests needing
# ../shared/models or a GPU adapter skip loudly when those are absent, unless
# ANGLERPOSE_REQUIRE_GPU=1.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --no-fail-fast "$@"
