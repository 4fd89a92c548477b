#!/usr/bin/env bash
# Regenerates the SPIR-V binaries of kiln's deserializer corpus from their
# committed sources, with the producers ci/setup.sh installs:
#
#   glsl/NAME.comp      glslangValidator FLAGS (first line: `// glslang: FLAGS`)
#   mlir/NAME.mlir      mlir-translate-19 --serialize-spirv --no-implicit-module
#   spvasm/NAME.spvasm  spirv-as --target-env ENV (first line: `; target-env: ENV`)
#
# into spv/glsl-NAME.spv, spv/mlir-NAME.spv and spv/asm-NAME.spv, and
# checks every binary with spirv-val for its environment. A `run:` comment
# in a source makes the GPU test dispatch the compute shader (see
# gpu-tests/tests/gpu/deserialize_corpus.rs). Run from anywhere:
#   bash core/tests/binaries/regen.sh
set -euo pipefail
shopt -s nullglob
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
mkdir -p spv
rm -f spv/*.spv

env_of_version() { # SPIR-V binary -> spirv-val environment
    local v
    v=$(od -An -tx1 -j5 -N2 "$1" | tr -d ' ')
    case "$v" in
        0001) echo vulkan1.0 ;; 0101|0201|0301) echo vulkan1.1 ;;
        0401) echo vulkan1.1spv1.4 ;; 0501) echo vulkan1.2 ;; 0601) echo vulkan1.3 ;;
        *) echo "unknown SPIR-V version bytes $v in $1" >&2; exit 1 ;;
    esac
}

for src in glsl/*.comp; do
    name=$(basename "$src" .comp)
    flags=$(sed -n '1s|^// glslang: ||p' "$src")
    [ -n "$flags" ] || { echo "$src: first line must be '// glslang: FLAGS'" >&2; exit 1; }
    # shellcheck disable=SC2086
    glslangValidator $flags -o "spv/glsl-$name.spv" "$src" > /tmp/kiln-regen.log \
        || { cat /tmp/kiln-regen.log >&2; exit 1; }
done
for src in mlir/*.mlir; do
    name=$(basename "$src" .mlir)
    mlir-translate-19 --no-implicit-module --serialize-spirv "$src" -o "spv/mlir-$name.spv"
done
for src in spvasm/*.spvasm; do
    name=$(basename "$src" .spvasm)
    env=$(sed -n '1s|^; target-env: ||p' "$src")
    [ -n "$env" ] || { echo "$src: first line must be '; target-env: ENV'" >&2; exit 1; }
    spirv-as --target-env "$env" "$src" -o "spv/asm-$name.spv"
done
for bin in spv/*.spv; do
    spirv-val --target-env "$(env_of_version "$bin")" "$bin" || { echo "spirv-val rejects $bin" >&2; exit 1; }
done
echo "$(ls spv/*.spv | wc -l) binaries in $here/spv"
