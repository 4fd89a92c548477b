#!/bin/bash
# Times a matvec program with each given strategy choice forced through a
# tuning file (interleaved rounds, GPU time from timestamps).
# usage: choices.sh FILE KEY INPUT_A INPUT_B ROUNDS CHOICE...
#   e.g. choices.sh matvec_4096x4096.mlir "contraction 4096 r4096 f32" \
#          4096x4096xf32=1 4096xf32=1 3 "wg 64 rows 1" "wg 64 rows 8" "wg 64 points 1"
# KILN: the kiln binary (default ../../target/debug/kiln: the GPU time is the
# driver's, not kiln's); TUNE_FILE: the device's tuning file name (lavapipe's
# on the machine these figures come from).
cd "$(dirname "$0")"
KILN=${KILN:-../../target/debug/kiln}
TUNE_FILE=${TUNE_FILE:-10005-0000-2cd68639f5eebe44.tune}
F=$1; KEY=$2; A=$3; B=$4; R=$5; shift 5
export KILN_CACHE_DIR=${KILN_CACHE_DIR:-/tmp/kiln-matvec-cache}; mkdir -p $KILN_CACHE_DIR/tuning
for round in $(seq $R); do for c in "$@"; do
  echo "$KEY = $c" > $KILN_CACHE_DIR/tuning/$TUNE_FILE
  r=$($KILN bench $F --input $A --input $B --no-iree --runs 10 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin)['benchmarks'][0]; print('gpu_median', round(d['gpu_median_ms'],2), 'min', round(d['min_ms'],2))")
  echo "$round $F [$c] $r"
done; done
