#!/bin/bash
# Device run 3 of 2026-11-30 (third H200 session, short): run 2's staged cooperative-matrix
# kernels failed to launch (an unused kernel argument got a buffer); with that fixed, the staged
# kernels timed against the direct ones (h/coopstage's script, tune bounded), the set's matmul
# rows with 250 ms of warm-up, and the FLOAT4E2M1 / DynamicQuantizeLinear node tests.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s); t() { echo "== $1 at +$(( $(date +%s) - T0 )) s"; }
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export PATH=$PWD/.dev/bin:$PATH XDG_RUNTIME_DIR=/tmp KILN_CACHE_DIR=/tmp/kcache PYTHONUNBUFFERED=1
xz -d .dev/bin/*.xz; chmod +x .dev/bin/*
kiln devices > /dev/null 2>&1 || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
t "ONNX node tests: the narrow casts and DynamicQuantizeLinear"
python3 onnx/tests/gen_node_tests.py /tmp/nt > /dev/null 2>&1
kiln onnx-test $(ls -d /tmp/nt/test_cast* /tmp/nt/test_dynamicquantize* /tmp/nt/test_quantizelinear* /tmp/nt/test_dequantizelinear*) 2>&1 | grep -v "^PASS" | tee $OUT/nodetests.txt
t "staged cooperative matrices"
sed -e 's/timeout 240 kiln tune/timeout $([ $n = 4096 ] \&\& echo 100 || echo 25) kiln tune/' bench/h200/s3-coopstage.sh > /tmp/coop.sh
bash /tmp/coop.sh > $OUT/coopstage.txt 2>&1; echo "COOP-RC $?" >> $OUT/coopstage.txt
grep -vE "^\s+(wg|\*)" $OUT/coopstage.txt | grep -v "^note\|^times\|^IREE\|^$\|^benchmark " | cut -c1-160 | head -60
t "the set beside cuBLAS (clocks sampled)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu --format=csv -lms 100 > $OUT/clocks.csv 2>&1 & SMI=$!
KILN_CACHE_DIR=/tmp/kcache-set timeout 100 kiln bench --no-iree --runs 20 > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
kill $SMI
grep -A1 "^matmul\|BENCH-RC\|^note: limits" $OUT/bench.txt | cut -c1-150
t done
