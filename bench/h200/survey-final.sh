#!/bin/bash
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vvl && dpkg -x .dev/vvl/*.deb /tmp/vvl
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
export XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache
K=$PWD/.dev/bin/kiln; gunzip -f .dev/bin/kiln.gz; chmod +x $K .dev/iree-tools/*
$K devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$OUT/corpus.txt
for f in gpu-tests/tests/tensor/*.mlir; do
  timeout 60 $K run --validation --no-timing $f > /tmp/o 2>&1; rc=$?
  echo "TENSOR $f rc=$rc" >> $C; [ $rc != 0 ] && tail -15 /tmp/o >> $C
done
echo "corpus: $(grep -c 'rc=0' $C) of $(grep -c TENSOR $C) pass $(date +%T)"
timeout 100 $K bench --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere --runs 20 --json-out $OUT/bench.json > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
grep -A1 "sum 16M\|transformer\|matmul 1024" $OUT/bench.txt | head -12
echo "done $(date +%T)"
