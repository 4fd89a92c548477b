#!/usr/bin/env bash
# The whole test suite, as CI runs it on a fresh Debian 12 machine with no GPU:
# GPU tests run on lavapipe with the Khronos validation layer on.
set -euo pipefail
cd "$(dirname "$0")/.."

bash ci/setup.sh

# A CI run builds everything once: incremental caches would only cost disk.
export CARGO_INCREMENTAL=0

step() { printf '\n== %s\n' "$*" >&2; }

step "generated grammar tables are fresh"
cargo run -q -p xtask -- gen-grammar --check

step "formatting"
cargo fmt --all -- --check

step "clippy"
cargo clippy -q --workspace --all-targets -- -D warnings

step "tests"
cargo test --workspace
