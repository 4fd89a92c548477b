#!/usr/bin/env bash
# ONNX's backend node tests on lavapipe: the onnx wheel (pinned, in a venv)
# materialises them (onnx/tests/gen_node_tests.py; nothing is committed),
# and `kiln onnx-test` runs the ones listed in onnx/tests/node_tests_lavapipe.txt
# (those that pass on lavapipe today: a failure is a regression) in two
# processes, one per core, sharing the runtime's kernel cache.
#
#   ci/onnx_node_tests.sh [KILN_BINARY]
#
# Cost measured on the 2-core workplace machine: see the commit adding it.
set -euo pipefail
cd "$(dirname "$0")/.."

kiln=$(realpath "${1:-target/debug/kiln}")
venv=${KILN_ONNX_VENV:-target/onnx-venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check onnx==1.23.2 onnxruntime==1.32.0

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$venv/bin/python" onnx/tests/gen_node_tests.py "$dir/tests" >/dev/null

list=onnx/tests/node_tests_lavapipe.txt
mapfile -t names < <(grep -v '^#' "$list" | grep -v '^$')
half=$(( (${#names[@]} + 1) / 2 ))
run_part() {
  local out=$1; shift
  (cd "$dir/tests" && "$kiln" onnx-test "$@") >"$out" 2>&1
}
run_part "$dir/a.txt" "${names[@]:0:$half}" & a=$!
run_part "$dir/b.txt" "${names[@]:$half}" & b=$!
status=0
wait $a || status=1
wait $b || status=1
grep -h -v '^PASS' "$dir/a.txt" "$dir/b.txt" || true
# onnxruntime's contrib ops kiln imports (com.microsoft.MatMulNBits) and an
# INT4 blocked DequantizeLinear feeding MatMul, their
# expected outputs from onnxruntime (onnx/tests/gen_contrib_tests.py): all
# must pass, on lavapipe with the validation layer (about 4 s, most of it
# onnxruntime's import).
"$venv/bin/python" onnx/tests/gen_contrib_tests.py "$dir/contrib"
"$kiln" onnx-test --validation "$dir/contrib" >"$dir/c.txt" 2>&1 || status=1
grep -h -v '^PASS' "$dir/c.txt" || true
exit $status
