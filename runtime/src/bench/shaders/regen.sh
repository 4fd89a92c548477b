#!/usr/bin/env bash
# Regenerates the committed SPIR-V of the hand-written limit kernels from
# their GLSL (glslangValidator from glslang-tools, ci/setup.sh). The GPU test
# bench_limits::committed_spirv_is_fresh_and_valid fails when they differ.
set -euo pipefail
cd "$(dirname "$0")"
for src in *.comp; do
  glslangValidator -V --target-env vulkan1.1 -o "${src%.comp}.spv" "$src" >/dev/null
  spirv-val --target-env vulkan1.1 "${src%.comp}.spv"
done
