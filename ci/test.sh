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

# Clippy checks under the test profile: the build-script run that compiles
# SPIRV-Tools' C++ (about 6 minutes on 2 cores) is then shared with the test
# build below instead of running once per profile.
step "clippy"
cargo clippy -q --workspace --all-targets --profile test -- -D warnings

step "tests"
cargo test --workspace --exclude kiln-gpu-tests --exclude kiln-examples
# The GPU tests (and the examples' tests, which open devices too) run one
# at a time. The Khronos validation layer Debian 12
# ships (1.3.239) looks up its per-handle state in a process-wide map that
# creating an instance or device writes without a lock
# (KhronosGroup/Vulkan-ValidationLayers#4391): with tests opening contexts on
# parallel threads, about one run in twenty crashed inside the layer
# (SIGSEGV in vkGetDeviceQueue or vkUpdateDescriptorSets while another
# thread created an instance). One thread costs about 6 s here.
step "GPU tests (one test thread)"
cargo test -p kiln-gpu-tests -p kiln-examples -- --test-threads=1
