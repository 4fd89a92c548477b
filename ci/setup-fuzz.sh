#!/usr/bin/env bash
# Installs what the long fuzzing runs (ci/fuzz.sh) need: a nightly Rust
# toolchain and cargo-fuzz. Not part of CI (ci/test.sh replays the
# committed corpora on stable instead). Idempotent: does nothing when
# both are there. On the development machine (27 November 2026) the
# cargo-fuzz install took about 75 s.
#
#   ci/setup-fuzz.sh && MAX_TIME=600 ci/fuzz.sh binary_deserialize
set -euo pipefail

if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2
fi
cargo fuzz --version
