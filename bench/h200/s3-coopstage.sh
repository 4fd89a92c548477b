#!/bin/bash
# h/coopstage on an H200: cooperative-matrix f16 matmuls with whole blocks staged in workgroup
# memory (the heuristic's new default) against tiles loaded straight from memory (the
# 2026-11-27 kernels). Release `kiln` in PATH, run from the repository root, validation off
# (cooperative matrices are only enabled without Debian 12's layer). About 3 minutes.
set -u; export KILN_CACHE_DIR=/tmp/kc-coopstage; rm -rf "$KILN_CACHE_DIR"
T0=$(date +%s); t() { echo "== $1 at +$(( $(date +%s) - T0 )) s"; }
python3 -c "
import numpy as np; r = np.random.default_rng(0)
for n in (512, 4096):
    for k in 'ab': np.save('/tmp/%s%d.npy' % (k, n), r.standard_normal((n, n), dtype=np.float32).astype(np.float16))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
t "1. correctness on the matrix units (numpy checks of the corpus files)"
for f in matmul_f16_coop_staged matmul_f16_coop matmul_f16_tiles matmul_f16_bf16; do
  echo "$f: $(timeout 60 kiln run --no-timing gpu-tests/tests/tensor/$f.mlir 2>&1 | tail -1)"; done
t "2. the heuristic (no tuning file): staged, 32 steps of K, double-buffered"
for n in 4096 512; do
  kiln compile --explain --device 0 bench/programs/matmul_${n}_f16.mlir -o /tmp/mm.spv | grep -E "distribution:|workgroup memory:"
  kiln bench bench/programs/matmul_${n}_f16.mlir --input @/tmp/a$n.npy --input @/tmp/b$n.npy --runs 20 --no-iree; done
t "3. every candidate, timed and checked: staged (32/64, single/double) and direct; fastest written"
for n in 4096 512; do
  timeout 240 kiln tune bench/programs/matmul_${n}_f16.mlir --input @/tmp/a$n.npy --input @/tmp/b$n.npy --runs 3 > /tmp/tune$n.txt 2>/dev/null
  echo "tune $n rc=$? ($(grep -cE ' [0-9.]+ ms' /tmp/tune$n.txt) timed)"; grep -E '^\S|\*|heuristic' /tmp/tune$n.txt
  grep -E ' [0-9.]+ ms' /tmp/tune$n.txt | sed -E 's/^(.* ([0-9.]+) ms.*)$/\2 \1/' | sort -n | head -12 | cut -d' ' -f2-
  grep -E "coopmatrix 16x16x16 4x2 2x2 +[0-9]" /tmp/tune$n.txt; echo "rejected: $(grep -c rejected /tmp/tune$n.txt)"; grep rejected /tmp/tune$n.txt | head -5; done
t "4. kiln bench with the tuned (fastest) choices"
for n in 4096 512; do
  kiln bench bench/programs/matmul_${n}_f16.mlir --input @/tmp/a$n.npy --input @/tmp/b$n.npy --runs 20 --no-iree; done
t "5. kiln bench of 4096^3 forced to the 2026-11-27 direct kernel (4x2 tiles, 2x2 subgroups)"
f=$(ls "$KILN_CACHE_DIR"/tuning/*.tune); sed -i -E '/^contraction 4096x4096 /s/= wg [^#]*/= wg 128 coopmatrix 16x16x16 4x2 2x2 /' "$f"; grep 4096 "$f"
kiln compile --explain --device 0 bench/programs/matmul_4096_f16.mlir -o /tmp/mm.spv | grep -E "distribution:|tuned"
kiln bench bench/programs/matmul_4096_f16.mlir --input @/tmp/a4096.npy --input @/tmp/b4096.npy --runs 20 --no-iree
t done
