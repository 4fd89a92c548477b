#!/bin/bash
# Device run 2 (final of 2026-11-27 afternoon): bench set with IREE and cuBLAS columns and
# the 4096^3 rows, corpus under validation, every cooperative-matrix grid tuned against the
# heuristic's result, GPU tests with a high open-file limit.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s); t() { echo "== $1 at +$(( $(date +%s) - T0 )) s"; }
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vvl /tmp/tools && dpkg -x .dev/vvl/*.deb /tmp/vvl && for f in .dev/tools/*.deb; do dpkg -x $f /tmp/tools; done
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
export PATH=$PATH:/tmp/tools/usr/bin XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache PYTHONUNBUFFERED=1
gunzip -f .dev/bin/*.gz; chmod +x .dev/bin/* .dev/iree-tools/*; K=$PWD/.dev/bin/kiln
$K devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e /work/main ] || { mkdir -p /work; ln -s $PWD /work/main; }
$K devices 2>&1 | head -8; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
t bench; timeout 200 $K bench --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere --runs 20 --json-out $OUT/bench.json --chart $OUT/chart.svg > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
grep -A2 "^matmul" $OUT/bench.txt | cut -c1-150
t corpus; C=$OUT/corpus.txt
for f in gpu-tests/tests/tensor/*.mlir; do
  timeout 30 $K run --validation --no-timing $f > /tmp/o 2>&1; rc=$?
  echo "TENSOR $f rc=$rc" >> $C; [ $rc != 0 ] && tail -15 /tmp/o >> $C
done
timeout 30 $K run --no-timing gpu-tests/tests/tensor/matmul_f16_tiles.mlir > /tmp/o 2>&1; echo "NOVAL matmul_f16_tiles rc=$?" >> $C
echo "corpus (validation): $(grep -c 'TENSOR.*rc=0' $C) of $(grep -c TENSOR $C); $(grep NOVAL $C)"
t tune-coop; python3 -c "
import numpy as np; r=np.random.default_rng(0)
for k in 'ab': np.save('/tmp/%s.npy'%k, r.standard_normal((512,512),dtype=np.float32).astype(np.float16))"
timeout 45 $K tune bench/programs/matmul_512_f16.mlir --input @/tmp/a.npy --input @/tmp/b.npy --runs 3 --dry-run > $OUT/tune.txt 2>&1; echo "TUNE-RC $?" >> $OUT/tune.txt
grep -A30 "^main_dispatch_0 " $OUT/tune.txt | head -34
t gpu-tests; ulimit -n; ulimit -n 1048576; ulimit -n
(cd gpu-tests && timeout 90 ../.dev/bin/gputest --test-threads=1 --skip cpu_ --skip filecheck --skip mlir_compare --skip amber_files > $OUT/gputests.txt 2>&1; echo "GPUTESTS-RC $?" >> $OUT/gputests.txt)
grep "test result\|FAILED\|GPUTESTS-RC" $OUT/gputests.txt | head -30
t done
