#!/usr/bin/env bash
# Installs IREE 3.13.0 (iree-compile, iree-benchmark-module, iree-run-module)
# from the Python package index into a virtual environment, for the IREE
# columns of `kiln bench`. Not part of CI (benchmarks do not run there).
# Idempotent: does nothing when the venv already has both packages.
#
#   bash ci/setup-iree.sh            # installs into $KILN_IREE_VENV
#
# KILN_IREE_VENV defaults to ~/.cache/kiln/iree-venv; `kiln bench` looks there
# too (and on PATH). About 600 MB on disk.
set -euo pipefail

venv="${KILN_IREE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/kiln/iree-venv}"
version=3.13.0

# The version pip reports for package $1 in the venv (empty if missing).
installed() {
  "$venv/bin/python" -m pip show "$1" 2>/dev/null | sed -n 's/^Version: //p'
}

if [ -x "$venv/bin/python" ] &&
   [ "$(installed iree-base-compiler)" = "$version" ] &&
   [ "$(installed iree-base-runtime)" = "$version" ]; then
  echo "IREE $version ready in $venv"
  exit 0
fi

command -v python3 >/dev/null || { echo "ci/setup-iree.sh: python3 is needed" >&2; exit 1; }
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
  "iree-base-compiler==$version" "iree-base-runtime==$version" numpy
echo "IREE $version installed in $venv"
