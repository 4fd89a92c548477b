#!/bin/bash
# Interleaved GPU-time comparison of two kiln binaries on the matvec
# programs: OLD (before row slices) and NEW (with them); the GPU time is
# the driver's, so a debug NEW compares with a release OLD.
cd "$(dirname "$0")"
OLD=${OLD:?the kiln binary before row slices}; NEW=${NEW:-../../target/debug/kiln}
for round in 1 2 3; do
for f in matvec_4096x4096:4096x4096xf32=1:4096xf32=1 matvec_1024x16384:1024x16384xf32=1:16384xf32=1 matmul_4096x4096x1:4096x4096xf32=1:4096x1xf32=1; do
  IFS=: read n a b <<< "$f"
  for which in OLD NEW; do
    K=${!which}
    r=$($K bench $n.mlir --input $a --input $b --no-iree --runs 10 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin)[\"benchmarks\"][0]; print(\"gpu_median\", round(d[\"gpu_median_ms\"],2), \"min\", round(d[\"min_ms\"],2))")
    echo "$round $n $which $r"
  done
done; done
