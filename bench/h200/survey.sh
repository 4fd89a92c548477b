#!/bin/bash
# Second device run: correctness after the GPU heuristics, bench, runtime, tune.
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vvl && dpkg -x .dev/vvl/*.deb /tmp/vvl
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
export XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache
K=$PWD/.dev/bin/kiln
gunzip -f .dev/bin/*.gz; chmod +x .dev/bin/* .dev/iree-tools/*
$K devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$OUT/corpus.txt
for f in gpu-tests/tests/tensor/*.mlir; do
  s=$(date +%s%N); timeout 60 $K run --validation --no-timing $f > /tmp/o 2>&1; rc=$?
  echo "TENSOR $f rc=$rc $(( ($(date +%s%N)-s)/1000000 )) ms" >> $C; [ $rc != 0 ] && tail -15 /tmp/o >> $C
done
echo "survey: tensor corpus done $(date +%T)"
B=$OUT/bench.txt
timeout 200 $K bench --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere --runs 20 --json-out $OUT/bench.json --chart $OUT/chart.svg > $B 2>&1; echo "BENCH-RC $?" >> $B
echo "survey: bench done $(date +%T)"
R=$OUT/runtime.txt
KILN_BENCH_RUNS=15 timeout 100 .dev/bin/runtime-bench >> $R 2>&1; echo "RUNTIME-RC $?" >> $R
echo "survey: runtime done $(date +%T)"
KILN_BENCH_RUNS=9 timeout 60 .dev/bin/transformer-start >> $R 2>&1; echo "START-RC $?" >> $R
timeout 60 .dev/bin/transformer >> $R 2>&1; echo "TRANSFORMER-RC $?" >> $R
timeout 60 .dev/bin/mlp >> $R 2>&1; echo "MLP-RC $?" >> $R
A=$(cat .dev/trargs)
T=$OUT/tune.txt
timeout 30 $K profile examples/models/transformer.mlir --runs 20 $A >> $T 2>&1; echo "PROFILE-RC $?" >> $T
echo "survey: profile done $(date +%T)"
sed 's/1024/4096/g' bench/programs/matmul_1024.mlir > /tmp/mm4096.mlir
timeout 60 $K tune bench/programs/matmul_1024.mlir --input 1024x1024xf32=1 --input 1024x1024xf32=1 --runs 5 --dry-run >> $T 2>&1; echo "TUNE1024-RC $?" >> $T
timeout 80 $K tune /tmp/mm4096.mlir --input 4096x4096xf32=1 --input 4096x4096xf32=1 --runs 3 --dry-run >> $T 2>&1; echo "TUNE4096-RC $?" >> $T
timeout 60 $K bench .dev/mm4096.mlir --input 4096x4096xf32=1 --input 4096x4096xf32=1 --runs 5 --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere >> $T 2>&1; echo "BENCH4096-RC $?" >> $T
timeout 60 $K tune bench/programs/conv2d_56x56x64_3x3x64.mlir --input 1x56x56x64xf32=1 --input 3x3x64x64xf32=1 --runs 5 --dry-run >> $T 2>&1; echo "TUNECONV-RC $?" >> $T
echo "survey: tunes done $(date +%T)"
timeout 100 $K tune examples/models/transformer.mlir $A >> $T 2>&1; echo "TUNE-RC $?" >> $T
timeout 40 $K bench examples/models/transformer.mlir $A --runs 20 --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere >> $T 2>&1; echo "TUNED-BENCH-RC $?" >> $T
echo "survey: all done $(date +%T)"
