#!/bin/bash
# Device run 1 (2026-11-27 afternoon): correctness of the texel-era build on an NVIDIA GPU,
# cooperative matrices (first time on a device), cuBLAS beside kiln at 4096^3, bench set, tune.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s); t() { echo "== $1 at +$(( $(date +%s) - T0 )) s"; }
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vvl /tmp/tools && dpkg -x .dev/vvl/*.deb /tmp/vvl && for f in .dev/tools/*.deb; do dpkg -x $f /tmp/tools; done
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu
export PATH=$PATH:/tmp/tools/usr/bin XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache PYTHONUNBUFFERED=1
gunzip -f .dev/bin/*.gz; chmod +x .dev/bin/* .dev/iree-tools/*; K=$PWD/.dev/bin/kiln
$K devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e /work/main ] || { mkdir -p /work; ln -s $PWD /work/main; }
$K devices > $OUT/devices.txt 2>&1; grep -o "Cooperative[A-Za-z]*\|cooperative_matrix_properties_khr = \[[^]]*\]" $OUT/devices.txt | sort -u | head -5
t corpus-validation; C=$OUT/corpus.txt
for f in gpu-tests/tests/tensor/*.mlir; do
  timeout 60 $K run --validation --no-timing $f > /tmp/o 2>&1; rc=$?
  echo "TENSOR $f rc=$rc" >> $C; [ $rc != 0 ] && tail -15 /tmp/o >> $C
done
echo "corpus (validation): $(grep -c 'rc=0' $C) of $(grep -c TENSOR $C)"; grep "rc=[1-9]" $C
t corpus-novalidation
for f in gpu-tests/tests/tensor/*.mlir; do
  timeout 60 $K run --no-timing $f > /tmp/o 2>&1; rc=$?
  echo "NOVAL $f rc=$rc" >> $C; [ $rc != 0 ] && tail -15 /tmp/o >> $C
done
echo "corpus (no validation, coop on): $(grep -c 'NOVAL.*rc=0' $C) of $(grep -c NOVAL $C)"; grep "NOVAL.*rc=[1-9]" $C
$K run gpu-tests/tests/tensor/matmul_f16_tiles.mlir 2>&1 | tail -8
$K compile --device default --explain -o /tmp/x.spv bench/programs/matmul_512_f16.mlir 2>&1 | grep "distribution\|why" | head -3
t inputs; python3 .dev/mkin.py
t cublas; timeout 90 python3 .dev/blas.py $OUT/cublas.json
t kiln-4096; B=$OUT/big.txt
sed 's/512/4096/g' bench/programs/matmul_512_f16.mlir > /tmp/mm4096_f16.mlir
for n in 1024 4096; do sed "s/4096/$n/g" .dev/mm4096.mlir > /tmp/mm$n.mlir
  timeout 60 $K bench /tmp/mm$n.mlir --input @/tmp/in/a$n.npy --input @/tmp/in/b$n.npy --runs 20 --no-iree >> $B 2>&1; echo "RC $?" >> $B; done
timeout 60 $K bench /tmp/mm4096_f16.mlir --input @/tmp/in/a4096_f16.npy --input @/tmp/in/b4096_f16.npy --runs 20 --no-iree >> $B 2>&1; echo "RC $?" >> $B
cat $B
t bench-set; timeout 150 $K bench --iree .dev/iree-tools --iree-modules .dev/iree --iree-target vulkan --iree-flag=--iree-vulkan-target=ampere --runs 20 --json-out $OUT/bench.json --chart $OUT/chart.svg > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
grep -A1 "matmul\|BENCH-RC" $OUT/bench.txt | head -20
t gpu-tests; (cd gpu-tests && timeout 170 ../.dev/bin/gputest --test-threads=1 --skip cpu_ --skip filecheck --skip mlir_compare --skip amber_files > $OUT/gputests.txt 2>&1; echo "GPUTESTS-RC $?" >> $OUT/gputests.txt)
grep "test result\|FAILED\|panicked\|GPUTESTS-RC" $OUT/gputests.txt | head -30
t tune; timeout 100 $K tune /tmp/mm4096.mlir --input @/tmp/in/a4096.npy --input @/tmp/in/b4096.npy --runs 3 > $OUT/tune.txt 2>&1; echo "TUNE-RC $?" >> $OUT/tune.txt; tail -30 $OUT/tune.txt
timeout 40 $K bench /tmp/mm4096.mlir --input @/tmp/in/a4096.npy --input @/tmp/in/b4096.npy --runs 20 --no-iree 2>&1 | tail -2
t done
