#!/usr/bin/env bash
# Installs the system packages kiln needs on Debian 12 (bookworm).
# Idempotent and quiet when everything is already installed.
#
#   mesa-vulkan-drivers     lavapipe, the CPU Vulkan device used in CI
#   libvulkan1              the Vulkan loader ash opens at run time
#   vulkan-validationlayers the Khronos validation layer, on in GPU tests
#   vulkan-tools            vulkaninfo, compared with `kiln devices` in tests
#   spirv-tools             spirv-val / spirv-dis, the reference validator
#   spirv-headers           the machine-readable SPIR-V grammar (table generator)
#   glslang-tools           glslangValidator, the block-layout oracle
#   mlir-19-tools           mlir-opt-19 / mlir-translate-19, the syntax oracle
#   llvm-19                 llc-19 (the CPU runner compiles kernels' LLVM IR to
#                           objects it links with its C harness) and llvm-as-19
#                           (tests check the LLVM IR kiln prints)
#   llvm-19-tools           FileCheck-19, for the LLVM conversion's lit-style tests
#   cmake, python3, g++     build the SPIRV-Tools C++ sources of the spirv-tools crate;
#                           gcc (with g++) also builds the CPU runner's C harness
#   python3-numpy           gpu-tests/tests/tensor/gen.py computes the tensor tests' expected values
#   python3-venv            ci/onnx_node_tests.sh and ci/python.sh make their venvs
set -euo pipefail

packages=(
  mesa-vulkan-drivers libvulkan1 vulkan-validationlayers vulkan-tools
  spirv-tools spirv-headers glslang-tools mlir-19-tools llvm-19 llvm-19-tools
  cmake python3 g++ pkg-config python3-numpy python3-venv
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "ci/setup.sh: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq >/dev/null
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
