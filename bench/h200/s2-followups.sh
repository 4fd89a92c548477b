#!/bin/bash
# The three short device calls after s2-run2.sh (2026-11-27, same H200 kind, each its own
# `run` call; .dev/ held the release kiln, the stripped GPU test binary and the loader debs).
# 1. s2-standalone-4096.txt: matmul 4096^3 f32 and f16 alone, twice, then every
#    cooperative-matrix grid of the f16 one timed by `kiln tune --dry-run`.
for i in 1 2; do for p in matmul_4096:32 matmul_4096_f16:16; do f=${p%:*}; s=${p#*:}
  kiln bench bench/programs/$f.mlir --input @/tmp/a$s.npy --input @/tmp/b$s.npy --runs 20 --no-iree
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader; done; done
kiln tune bench/programs/matmul_4096_f16.mlir --input @/tmp/a16.npy --input @/tmp/b16.npy --runs 3 --dry-run
# 2. s2-standalone-vs-set.txt, s2-set-again.txt: 4096^3 f32 alone on uniform and normal
#    inputs, the whole set (no IREE), nvidia-smi's clock-event reasons, 4096^3 alone again.
for d in u n u; do kiln bench bench/programs/matmul_4096.mlir --input @/tmp/a$d.npy --input @/tmp/b$d.npy --runs 20 --no-iree; done
kiln bench --no-iree --runs 20 > set.txt; nvidia-smi -q -d PERFORMANCE
kiln bench bench/programs/matmul_4096.mlir --input @/tmp/au.npy --input @/tmp/bu.npy --runs 20 --no-iree
# 3. s2-gputests-without-bench-limits.txt: the GPU tests skipping bench_limits, abi_ and
#    amber_errors (stopped by its 55 s limit inside deserialize_corpus).
gputest --test-threads=1 --skip cpu_ --skip filecheck --skip mlir_compare --skip amber_files --skip bench_limits --skip abi_ --skip amber_errors
