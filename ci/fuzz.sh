#!/usr/bin/env bash
# Long fuzzing runs of kiln's cargo-fuzz targets (fuzz/) — not part of CI,
# which replays the committed corpora instead (core/tests/core/fuzz_replay.rs,
# amber/tests/amber/fuzz_replay.rs, onnx/tests/onnx/fuzz_replay.rs,
# cli/src/commands/bufspec.rs). Needs a
# nightly toolchain and cargo-fuzz (ci/setup-fuzz.sh installs both).
#
#   ci/fuzz.sh                              every target, 10^7 executions each
#   RUNS=1000000 ci/fuzz.sh binary_deserialize
#   MAX_TIME=420 ci/fuzz.sh                 stop each target after 420 s
#                                           (whichever of RUNS and MAX_TIME
#                                           comes first)
#
# Targets run one at a time at the lowest priority (nice 19; NICE=0 ci/fuzz.sh
# on a machine of your own): the machines this runs on are shared. Each run starts from the committed seeds
# (fuzz/corpus/TARGET, read only) and grows a scratch corpus in
# fuzz/logs/corpus/TARGET (ignored by git). A run fails on a panic, a
# timeout (> 1 s for one input) or more than 2 GiB of memory; the input is
# left in fuzz/artifacts/TARGET/ — add it to fuzz/regressions/TARGET/ (the
# replay test then fails until the bug is fixed). The final statistics
# line of each target (executions, coverage `cov` in edges, features
# `ft`, corpus size, peak RSS) is appended to fuzz/logs/summary.txt;
# fuzz/RESULTS.md records the figures of the last long runs.
#
# onnx_import: its committed seeds are a few tiny models; the few hundred
# node-test models and the real models it is meant to start from are made
# at seed time into fuzz/logs/seeds/onnx_import (fuzz/onnx_seeds.py says
# how), used when that folder exists, with the dictionary
# fuzz/onnx_import.dict (op types, attribute names, domains).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
RUNS=${RUNS:-10000000}
MAX_TIME=${MAX_TIME:-0}
NICE=${NICE:-19}
# libFuzzer's per-input limit counts wall-clock time: on a loaded machine
# an input waiting for a core can pass 1 s (TIMEOUT=5 there; a hang still
# fails).
TIMEOUT=${TIMEOUT:-1}
if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=(spv_text kernel_text tensor_text tensor_compile tensor_eval amber_script
        target_env run_spv_bufspec binary_reflect binary_deserialize program_archive onnx_import)
fi
mkdir -p logs
nice -n "$NICE" cargo +nightly fuzz build -s none >logs/build.log 2>&1 || {
    tail -20 logs/build.log >&2
    exit 1
}
for t in "${targets[@]}"; do
    case "$t" in
        binary_* | program_archive) max_len=131072 ;;
        tensor_*) max_len=32768 ;;
        # Whole real models (ocr_cls 0.59 MB, silero_vad 2.3 MB).
        onnx_import) max_len=4194304 ;;
        *) max_len=16384 ;;
    esac
    mkdir -p "logs/corpus/$t" "artifacts/$t"
    extra=()
    if [ -d "logs/seeds/$t" ]; then extra+=("logs/seeds/$t"); fi
    if [ -f "$t.dict" ]; then extra+=(-- "-dict=$t.dict"); else extra+=(--); fi
    echo "== $t: up to $RUNS executions${MAX_TIME:+, at most $MAX_TIME s}"
    start=$(date +%s)
    nice -n "$NICE" cargo +nightly fuzz run -s none "$t" "logs/corpus/$t" "corpus/$t" "${extra[@]}" \
        -runs="$RUNS" -max_total_time="$MAX_TIME" -timeout="$TIMEOUT" -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
        -artifact_prefix="artifacts/$t/" >"logs/$t.log" 2>&1 || {
        echo "$t failed: see fuzz/logs/$t.log and fuzz/artifacts/$t/" >&2
        exit 1
    }
    secs=$(($(date +%s) - start))
    execs=$(grep -E '^stat::number_of_executed_units' "logs/$t.log" | awk '{print $2}')
    stats=$(grep -E '^#[0-9]+\s+(DONE|pulse|NEW|REDUCE)' "logs/$t.log" | tail -1)
    peak=$(grep -E '^stat::peak_rss_mb' "logs/$t.log" | awk '{print $2}')
    echo "$(date -u +%FT%TZ) $t execs=$execs secs=$secs peak_rss_mb=$peak last: $stats" |
        tee -a logs/summary.txt
done
