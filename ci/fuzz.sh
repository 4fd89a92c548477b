#!/usr/bin/env bash
# Long fuzzing runs of kiln's cargo-fuzz targets (fuzz/) — not part of CI,
# which replays the committed corpora instead (core/tests/core/fuzz_replay.rs,
# cli/src/commands/bufspec.rs). Needs a nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`).
#
#   ci/fuzz.sh                      every target, 10^7 executions each
#   RUNS=1000000 ci/fuzz.sh binary_deserialize
#
# Targets run one at a time at the lowest priority (nice 19): the machines
# this runs on are shared. Each run fails on a panic, a timeout (> 1 s for
# one input) or more than 2 GiB of memory; the input is left in
# fuzz/artifacts/TARGET/ — add it to fuzz/regressions/TARGET/ (the replay
# test then fails until the bug is fixed). After a clean run the corpus is
# minimized (cargo fuzz cmin) and the last statistics line of each target
# (executions, coverage `cov`, features `ft`, corpus size, peak RSS) is
# appended to fuzz/logs/summary.txt.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
RUNS=${RUNS:-10000000}
if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=(spv_text kernel_text target_env run_spv_bufspec binary_reflect binary_deserialize)
fi
mkdir -p logs
nice -n 19 cargo +nightly fuzz build -s none "${targets[@]/#/}" 2>&1 | tail -3 || \
    nice -n 19 cargo +nightly fuzz build -s none
for t in "${targets[@]}"; do
    case "$t" in
        binary_*) max_len=131072 ;;
        *) max_len=16384 ;;
    esac
    mkdir -p "corpus/$t" "artifacts/$t"
    echo "== $t: $RUNS executions"
    nice -n 19 cargo +nightly fuzz run -s none "$t" "corpus/$t" -- \
        -runs="$RUNS" -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len="$max_len" -print_final_stats=1 > "logs/$t.log" 2>&1 || {
        echo "$t failed: see fuzz/logs/$t.log and fuzz/artifacts/$t/" >&2
        exit 1
    }
    stats=$(grep -E '^#[0-9]+\s+DONE' "logs/$t.log" | tail -1)
    peak=$(grep -E '^stat::peak_rss_mb' "logs/$t.log" | tail -1)
    echo "$(date -u +%F) $t $stats $peak" | tee -a logs/summary.txt
    nice -n 19 cargo +nightly fuzz cmin -s none "$t" "corpus/$t" > "logs/$t.cmin.log" 2>&1
done
