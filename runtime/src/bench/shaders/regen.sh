#!/usr/bin/env bash
# Regenerates the committed SPIR-V of the hand-written limit kernels from
# their GLSL (glslangValidator from glslang-tools, ci/setup.sh). The GPU test
# bench_limits::committed_spirv_is_fresh_and_valid fails when they differ.
#
# The *_texel.comp and *_words.comp kernels read uniform texel buffers (`textureBuffer`), whose
# image format GLSL leaves `Unknown`; kiln creates each buffer view with the
# format the module names, so their `OpTypeImage ... Buffer 0 0 0 1 Unknown`
# becomes `... Rgba32f` (disassembled with raw ids and reassembled with the
# ids kept: only the format operand and the generator word change).
set -euo pipefail
cd "$(dirname "$0")"
for src in *.comp; do
  spv="${src%.comp}.spv"
  glslangValidator -V --target-env vulkan1.1 -o "$spv" "$src" >/dev/null
  case "$src" in
    *_texel.comp | *_words.comp)
      spirv-dis --raw-id "$spv" \
        | sed 's/\(OpTypeImage %[0-9]* Buffer 0 0 0 1\) Unknown/\1 Rgba32f/' \
        | spirv-as --preserve-numeric-ids --target-env vulkan1.1 -o "$spv" -
      ;;
  esac
  spirv-val --target-env vulkan1.1 "$spv"
done
