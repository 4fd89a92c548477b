#!/bin/bash
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache
K=$PWD/.dev/bin/kiln
gunzip -f .dev/bin/kiln.gz; chmod +x $K
$K devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
M="bench/programs/matmul_1024.mlir --input 1024x1024xf32=1 --input 1024x1024xf32=1"
A=$(cat .dev/trargs)
nvidia-smi --query-gpu=clocks.sm,clocks.mem --format=csv
for r in 20 400; do echo "== matmul runs $r"; timeout 40 $K bench $M --runs $r --no-iree 2>&1 | tail -1; nvidia-smi --query-gpu=clocks.sm --format=csv,noheader; done
echo "== profile matmul"; timeout 30 $K profile $M --runs 50 2>&1 | tail -6
for r in 20 400; do echo "== transformer runs $r"; timeout 40 $K bench examples/models/transformer.mlir $A --runs $r --no-iree 2>&1 | tail -1; done
echo "== profile transformer"; timeout 30 $K profile examples/models/transformer.mlir $A --runs 100 2>&1 | head -3
echo "done $(date +%T)"
