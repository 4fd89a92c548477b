#!/bin/bash
# The 4-bit matvec beside the device's read bandwidth over the same stored
# bytes (9,437,184: 4-bit codes and f16 block scales of a 4096x4096 matrix),
# and a prefill's 64-row matmul with Q4_0 weights beside the same matmul
# with f16 weights, interleaved, three rounds; GPU median ms of 10 calls
# each (the GPU time is the driver's, so a debug kiln measures the same
# kernels as a release one).
#   KILN=target/release/kiln bash bench/quant/run.sh
#   KILN_BEFORE=/path/to/older/kiln bash bench/quant/run.sh   # also an older
#     kiln's kernels, interleaved with this one's (a before/after pair)
cd "$(dirname "$0")"
K=${KILN:-../../target/debug/kiln}
MV=matvec_q4_0_4096x4096.mlir
MM=matmul_q4_0_64x2048x2048.mlir
kilns="$K"
[ -n "$KILN_BEFORE" ] && kilns="$KILN_BEFORE $K"
for round in 1 2 3; do
  for f in "$MV q4_0_matvec 9437184 --input 4096x2048xi8=17 --input 4096x128xf16=0.01 --input 4096xf32=1" \
           "$MV q4_words_matvec 9437184 --input 4096x512xi32=286331153 --input 4096x128xf16=0.01 --input 4096xf32=1" \
           "$MV read_sum_same_bytes 9437184 --input 2359296xf32=1" \
           "$MM q4_0_matmul 2359296 --input 64x2048xf32=1 --input 2048x1024xi8=17 --input 2048x64xf16=0.01" \
           "$MM f16_matmul 8388608 --input 64x2048xf32=1 --input 2048x2048xf16=0.01"; do
    set -- $f
    file=$1 name=$2 bytes=$3
    shift 3
    list=$kilns
    [ "$name" = read_sum_same_bytes ] && list=$K
    for k in $list; do
      label=
      [ "$list" != "$K" ] && { [ "$k" = "$KILN_BEFORE" ] && label=' (before)' || label=' (after)'; }
      ms=$($k bench $file --function "$name" "$@" --no-iree --runs 10 --json 2>/dev/null |
        python3 -c "import json,sys; d=json.load(sys.stdin)['benchmarks'][0]; print(d['gpu_median_ms'])")
      python3 -c "print('$round', '$name$label', 'GPU median %.2f ms' % $ms, '%.2f GB/s of stored weight bytes' % ($bytes / $ms / 1e6))"
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
