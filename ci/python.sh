#!/usr/bin/env bash
# The Python package in CI: a venv with pinned packages (made once, kept
# under ~/.cache/kiln/python-venv or $KILN_PYTHON_VENV), the wheel built
# with the dev profile (whose settings equal the test profile's, so it
# reuses every dependency `cargo test` built: only kiln-python compiles),
# installed into the venv, and pytest run against the installed wheel.
#
#   bash ci/python.sh            # set up, build, install, test
#   bash ci/python.sh --setup    # only the venv
#   bash ci/python.sh --install  # the venv, then build and install the wheel
#   bash ci/python.sh --test     # only pytest against the installed wheel
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${KILN_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/python-venv}"
pins=(maturin==1.16.0 numpy==2.4.6 pytest==9.2.0 onnx==1.23.2 onnxruntime==1.32.0)

if ! "$venv/bin/python" -m pip freeze 2>/dev/null | grep -qx "onnxruntime==1.32.0"; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${pins[@]}"
fi
mode="${1:-all}"
[ "$mode" = "--setup" ] && exit 0

if [ "$mode" != "--test" ]; then
  wheels="$(mktemp -d)"
  trap 'rm -rf "$wheels"' EXIT
  (cd python && "$venv/bin/maturin" build -q --profile dev -i "$venv/bin/python" -o "$wheels")
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/kiln-*.whl
fi
[ "$mode" = "--install" ] && exit 0

# From outside the repo so that `import kiln` is the installed wheel.
tests="$PWD/python/tests"
(cd "$(mktemp -d)" && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$tests")
