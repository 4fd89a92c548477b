#!/bin/bash
# Device run 2 of 2026-11-30 (third H200 session): after run 1's fixes (DenormPreserve, the
# zero-length softmax row, the empty-dimension index, h/nvrt's runtime fixes) and h/coopstage's
# staged cooperative-matrix kernels: the device's target env (its float controls), the staged
# kernels' checks and timings against the direct ones (bench/h200/s3-coopstage.sh, tune time
# bounded), h/q4's matvec and prefill, the set once more with the clocks sampled (warm-up calls
# for 250 ms now: run 1's clocks showed the SM clock idling at 345 MHz), then the correctness
# suites as in run 1. Also divisions refined (inexact_division) and h/mmT's transposed tiles.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s); t() { echo "== $1 at +$(( $(date +%s) - T0 )) s"; }
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/vvl /tmp/tools && dpkg -x .dev/vvl/*.deb /tmp/vvl && for f in .dev/tools/*.deb; do dpkg -x $f /tmp/tools; done
export VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu:/tmp/tools/usr/lib/x86_64-linux-gnu
export PATH=$PWD/.dev/bin:$PATH:/tmp/tools/usr/bin XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache PYTHONUNBUFFERED=1
xz -d .dev/bin/*.xz; chmod +x .dev/bin/*
kiln devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e /work/main ] || { mkdir -p /work; ln -s $PWD /work/main; }
kiln devices --target-env-only > $OUT/h200.env 2>&1; tr ',' '\n' < $OUT/h200.env | grep -E "preserve_widths|Denorm"

t "staged cooperative matrices (h/coopstage's script, tune time bounded)"
sed -e 's/timeout 240 kiln tune/timeout 75 kiln tune/' bench/h200/s3-coopstage.sh > /tmp/coop.sh
bash /tmp/coop.sh > $OUT/coopstage.txt 2>&1; echo "COOP-RC $?" >> $OUT/coopstage.txt
grep -vE "^\s+(wg|\*)" $OUT/coopstage.txt | cut -c1-160 | head -70

t "4-bit matvec and prefill matmul beside the read bandwidth (h/q4), decode example"
(KILN=$PWD/.dev/bin/kiln timeout 90 bash bench/quant/run.sh 2>&1) | tee $OUT/quant.txt
timeout 60 decode 2>&1 | grep "match\|error\|token" | cut -c1-200 | tee -a $OUT/quant.txt
timeout 90 decode --bench 2>&1 | tail -6 | tee -a $OUT/quant.txt

t "the set beside cuBLAS (warm-up calls now 250 ms; clocks sampled each 100 ms)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,temperature.gpu --format=csv -lms 100 > $OUT/clocks.csv 2>&1 & SMI=$!
KILN_CACHE_DIR=/tmp/kcache-set timeout 170 kiln bench --no-iree --runs 20 --json-out /tmp/bench.json > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
kill $SMI
grep -A1 "^matmul\|BENCH-RC\|^note: limits" $OUT/bench.txt | cut -c1-150

t "correctness, four suites at once (nothing timed from here)"
corpus() {
ls gpu-tests/tests/tensor/*.mlir | xargs -P 4 -I{} sh -c 'timeout 60 kiln run --no-timing {} > /tmp/$(basename {}).out 2>&1; echo "CORPUS {} rc=$?"' > /tmp/corpus.txt
{ echo "corpus (kiln run, no layer, cooperative matrices on): $(grep -c 'rc=0' /tmp/corpus.txt) of $(grep -c CORPUS /tmp/corpus.txt) pass"
for f in $(grep -v 'rc=0' /tmp/corpus.txt | awk '{print $2}'); do echo "--- $f"; grep -B3 -A8 "Failure\|FAILED\|error" /tmp/$(basename $f).out | cut -c1-400 | head -120; done; } > /tmp/corpus-summary.txt
}
gputests() {
cd gpu-tests
gputest --list --format terse 2>/dev/null | sed -n 's/: test$//p' |
  grep -v -E '^(cpu_|tensor_cpu_differential|runner_mlir_compare|filecheck|amber_files|tensor_generic_form|tensor_random)' > /tmp/tests.txt
mkdir -p /tmp/gt
KILN_DIFF_NO_CPU=1 xargs -P 6 -I{} sh -c 'timeout 120 gputest --exact "{}" --test-threads=1 --nocapture > "/tmp/gt/{}.log" 2>&1; echo "GPUTEST {} rc=$?"' < /tmp/tests.txt > /tmp/gputests.txt
cd ..
{ echo "GPU tests (validation layer on): $(grep -c 'rc=0' /tmp/gputests.txt) of $(grep -c GPUTEST /tmp/gputests.txt) pass"; grep -v 'rc=0' /tmp/gputests.txt; for n in $(grep -v 'rc=0' /tmp/gputests.txt | awk '{print $2}'); do echo "=== $n"; grep -v "^test \|^$\|^running\|^\[ RUN\|^\[       OK" "/tmp/gt/$n.log" | head -60 | cut -c1-400; done; } > $OUT/gputests.txt
}
random() {
(cd gpu-tests && KILN_DIFF_NO_CPU=1 KILN_DIFF_SEEDS=300 KILN_DIFF_START=20000 timeout 110 gputest --exact tensor_random::tensor_random_differential --nocapture > $OUT/random.txt 2>&1; echo "RANDOM-RC $?" >> $OUT/random.txt)
}
nodetests() {
python3 onnx/tests/gen_node_tests.py /tmp/nt > /dev/null 2>&1
ls -d /tmp/nt/* > /tmp/ntall.txt; split -n r/4 /tmp/ntall.txt /tmp/ntpart.
pids=; for p in /tmp/ntpart.??; do (timeout 100 kiln onnx-test $(cat $p) > $p.out 2>&1) & pids="$pids $!"; done; wait $pids
cat /tmp/ntpart.??.out | grep -E "^(PASS|FAIL|ERROR|SKIP)" | sort > /tmp/nt.txt
grep -v '^#' onnx/tests/node_tests_lavapipe.txt | grep -v '^$' | sort > /tmp/lp.txt
{ echo "node tests (no layer): $(grep -c ^PASS /tmp/nt.txt) pass of $(wc -l < /tmp/nt.txt) reported, $(wc -l < /tmp/ntall.txt) generated; lavapipe list $(wc -l < /tmp/lp.txt)"
echo "lavapipe-passing tests that do not pass here:"; grep -v ^PASS /tmp/nt.txt | while read -r st name rest; do n="${name%:}"; grep -qx "$n" /tmp/lp.txt && echo "$st $n $rest"; done
echo; echo "all failing:"; grep -E "^(FAIL|ERROR)" /tmp/nt.txt; } | cut -c1-300 > $OUT/nodetests.txt
}
corpus & c1=$!; gputests & c2=$!; random & c3=$!; nodetests & c4=$!; wait $c1 $c2 $c3 $c4
cat /tmp/corpus-summary.txt >> $OUT/gputests.txt; head -1 /tmp/corpus-summary.txt; grep "^---" /tmp/corpus-summary.txt; head -1 $OUT/gputests.txt; grep "^GPUTEST" $OUT/gputests.txt
grep "^tensor_random\|RANDOM-RC\|^seed" $OUT/random.txt | tail -6; head -16 $OUT/nodetests.txt
cat $OUT/random.txt >> $OUT/gputests.txt; rm -f $OUT/random.txt
t done
