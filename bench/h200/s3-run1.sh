#!/bin/bash
# Device run 1 of 2026-11-30 (third H200 session): correctness of today's kiln on an NVIDIA
# GPU (GPU tests with the validation layer, each in a process of its own; the tensor corpus
# with cooperative matrices on; ONNX's node tests; random programs against the reference
# evaluator), then speed (the set beside cuBLAS with the GPU's clocks sampled, the 4096^3
# rows alone, the 4-bit matvec, the decode example).
# Carried: .gl (the loader's debs), .dev/bin (release kiln and decode, the stripped GPU test
# binary, xz), .dev/vvl and .dev/tools (Debian 12's validation layer, spirv-tools, glslang,
# vulkan-tools). No LLVM 19 there: the CPU runner's tests are left out.
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
kiln devices 2>&1 | head -12; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
python3 -c "import onnx, onnxruntime, torch, numpy; print('onnx', onnx.__version__, 'ort', onnxruntime.__version__, 'torch', torch.__version__, 'numpy', numpy.__version__)"

t "bench set beside cuBLAS (clocks sampled each 100 ms)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,temperature.gpu --format=csv -lms 100 > $OUT/clocks.csv 2>&1 & SMI=$!
timeout 170 kiln bench --no-iree --runs 20 --json-out $OUT/bench.json > $OUT/bench.txt 2>&1; echo "BENCH-RC $?" >> $OUT/bench.txt
kill $SMI
grep -A1 "^matmul\|BENCH-RC\|^note: limits" $OUT/bench.txt | cut -c1-150

t "4096^3 alone"
python3 -c "
import numpy as np; r=np.random.default_rng(0)
for n in (4096,):
  for k in 'ab':
    x=r.standard_normal((n,n),dtype=np.float32); np.save('/tmp/%s32.npy'%k, x); np.save('/tmp/%s16.npy'%k, x.astype(np.float16))"
for i in 1; do for p in matmul_4096:32 matmul_4096_f16:16; do f=${p%:*}; s=${p#*:}
  timeout 40 kiln bench bench/programs/$f.mlir --input @/tmp/a$s.npy --input @/tmp/b$s.npy --runs 20 --no-iree 2>&1 | grep -E "kiln|RC|error" | cut -c1-120
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader; done; done

t "4-bit matvec beside the read bandwidth"
(KILN=$PWD/.dev/bin/kiln timeout 60 bash bench/quant/run.sh 2>&1)

t "decode example: the check, then tokens/s"
timeout 60 decode 2>&1 | tail -4
timeout 90 decode --bench 2>&1 | tail -6

t "correctness, four suites at once (16 cores; nothing timed from here)"
corpus() {
ls gpu-tests/tests/tensor/*.mlir | xargs -P 4 -I{} sh -c 'timeout 60 kiln run --no-timing {} > /tmp/$(basename {}).out 2>&1; echo "CORPUS {} rc=$?"' > /tmp/corpus.txt
{ echo "corpus (kiln run, no layer, cooperative matrices on): $(grep -c 'rc=0' /tmp/corpus.txt) of $(grep -c CORPUS /tmp/corpus.txt) pass"
for f in $(grep -v 'rc=0' /tmp/corpus.txt | awk '{print $2}'); do echo "--- $f"; tail -12 /tmp/$(basename $f).out; done; } > /tmp/corpus-summary.txt
}
gputests() {
cd gpu-tests
gputest --list --format terse 2>/dev/null | sed -n 's/: test$//p' |
  grep -v -E '^(cpu_|tensor_cpu_differential|runner_mlir_compare|filecheck|amber_files|tensor_generic_form|tensor_random)' > /tmp/tests.txt
mkdir -p /tmp/gt
xargs -P 6 -I{} sh -c 'timeout 120 gputest --exact "{}" --test-threads=1 > "/tmp/gt/{}.log" 2>&1; echo "GPUTEST {} rc=$?"' < /tmp/tests.txt > /tmp/gputests.txt
cd ..
{ echo "GPU tests (validation layer on): $(grep -c 'rc=0' /tmp/gputests.txt) of $(grep -c GPUTEST /tmp/gputests.txt) pass"; grep -v 'rc=0' /tmp/gputests.txt; for n in $(grep -v 'rc=0' /tmp/gputests.txt | awk '{print $2}'); do echo "=== $n"; grep -v "^test \|^$\|^running" "/tmp/gt/$n.log" | head -40; done; } > $OUT/gputests.txt
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
echo; echo "all non-passing:"; grep -v ^PASS /tmp/nt.txt; } | cut -c1-300 > $OUT/nodetests.txt
}
corpus & c1=$!; gputests & c2=$!; random & c3=$!; nodetests & c4=$!; wait $c1 $c2 $c3 $c4
cat /tmp/corpus-summary.txt; head -3 $OUT/gputests.txt; grep -v "rc=0" /tmp/gputests.txt | head -20
grep "^tensor_random\|RANDOM-RC" $OUT/random.txt | tail -3; head -25 $OUT/nodetests.txt
cat /tmp/corpus-summary.txt >> $OUT/gputests.txt
t done
