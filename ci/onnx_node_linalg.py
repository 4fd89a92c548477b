#!/usr/bin/env python3
"""ONNX node tests through torch-mlir's linalg lowering into kiln.

Builds ONNX's backend node tests in memory (onnx.backend.test.case.node),
imports each with `iree-import-onnx`, lowers it with `iree-opt
--torch-onnx-to-torch-backend-pipeline
--torch-backend-to-linalg-on-tensors-backend-pipeline` (torch-mlir's passes),
wraps the lowered function in a test in IREE's end-to-end format (inputs as
`util.unfoldable_constant`, ONNX's expected outputs as
`check.expect_almost_eq_const` with the test's own rtol / atol) and runs it
with `kiln run` (`--reference`, the device, and `--cpu` as asked). Prints one
line per test and the counts per stage. The expected values are ONNX's
(numpy), never kiln's.

Needs a venv with `onnx==1.23.2` and `iree-base-compiler==3.13.0`:

    python3 -m venv /work/venvs/onnx
    /work/venvs/onnx/bin/pip install onnx==1.23.2 iree-base-compiler==3.13.0
    /work/venvs/onnx/bin/python ci/onnx_node_linalg.py --kiln target/debug/kiln \
        --filter 'layer_norm' --modes reference,device,cpu

The generated files go to a scratch folder (--work, default a temp dir); none
of them belongs in the repository.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np

BIN = os.path.dirname(sys.executable)
IMPORT = os.path.join(BIN, "iree-import-onnx")
OPT = os.path.join(BIN, "iree-opt")
PIPELINE = [
    "--torch-onnx-to-torch-backend-pipeline",
    "--torch-backend-to-linalg-on-tensors-backend-pipeline",
]

FLOAT_BITS = {"f16": (np.float16, np.uint16, 4), "f32": (np.float32, np.uint32, 8), "f64": (np.float64, np.uint64, 16)}
try:  # onnx depends on ml_dtypes, numpy's bfloat16
    import ml_dtypes

    FLOAT_BITS["bf16"] = (ml_dtypes.bfloat16, np.uint16, 4)
except ImportError:
    pass
INT_TYPES = {"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "si8", "si16", "si32", "si64"}


def element_type(ty):
    """The element type of `tensor<AxBxT>` (or a scalar type)."""
    m = re.fullmatch(r"tensor<(.*)>", ty.strip())
    inner = m.group(1) if m else ty.strip()
    return inner.split("x")[-1]


def float_literal(x):
    """A float in MLIR's literal syntax (a digit before and after the point)."""
    s = repr(float(x))
    if "e" in s and "." not in s.split("e")[0]:
        s = s.replace("e", ".0e")
    return s


def scalar_literal(v, elt):
    if elt == "i1":
        return "true" if bool(v) else "false"
    if elt in INT_TYPES:
        return str(int(v))
    fty, uty, digits = FLOAT_BITS[elt]
    f = fty(v)
    if np.isfinite(f):
        return float_literal(f)
    return "0x%0*X" % (digits, int(np.array(f, dtype=fty).view(uty)))


def dense(arr, elt):
    """A dense attribute holding `arr` exactly."""
    arr = np.asarray(arr)

    def rec(a):
        if a.ndim == 0:
            return scalar_literal(a.item() if elt in INT_TYPES else a, elt)
        return "[" + ", ".join(rec(x) for x in a) + "]"

    if arr.size == 0:
        return "dense<>"
    if arr.ndim == 0:
        return "dense<%s>" % rec(arr)
    return "dense<%s>" % rec(arr)


def split_types(text):
    """Split a comma-separated list of types at depth 0."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def signature(mlir, name):
    """Argument and result types of `func.func @name`."""
    i = mlir.index("func.func @%s(" % name)
    j = i + len("func.func @%s(" % name)
    depth, k = 1, j
    while depth:
        if mlir[k] == "(":
            depth += 1
        elif mlir[k] == ")":
            depth -= 1
        k += 1
    args = [a.split(":", 1)[1].strip() for a in split_types(mlir[j : k - 1])]
    rest = mlir[k:].lstrip()
    results = []
    if rest.startswith("->"):
        rest = rest[2:].lstrip()
        if rest.startswith("("):
            depth, e = 1, 1
            while depth:
                if rest[e] == "(":
                    depth += 1
                elif rest[e] == ")":
                    depth -= 1
                e += 1
            results = split_types(rest[1 : e - 1])
        else:
            results = [rest.split("{", 1)[0].strip()]
    return args, results


def wrap(mlir, name, inputs, outputs, rtol, atol):
    """The lowered module plus a test function calling it on ONNX's data."""
    args, results = signature(mlir, name)
    if len(args) != len(inputs) or len(results) != len(outputs):
        raise ValueError("signature does not match the data set")
    body = mlir.replace("func.func @%s(" % name, "func.func private @%s(" % name, 1).rstrip()
    assert body.endswith("}")
    lines = ["  func.func @check_%s() {" % name]
    for i, (ty, a) in enumerate(zip(args, inputs)):
        lines.append("    %%in%d = util.unfoldable_constant %s : %s" % (i, dense(a, element_type(ty)), ty))
    names = ", ".join("%%out%d" % i for i in range(len(results)))
    call = "    %s = func.call @%s(%s) : (%s) -> (%s)" % (
        names,
        name,
        ", ".join("%%in%d" % i for i in range(len(args))),
        ", ".join(args),
        ", ".join(results),
    )
    lines.append(call if results else call.split("= ", 1)[1])
    for i, (ty, a) in enumerate(zip(results, outputs)):
        elt = element_type(ty)
        # The constant's type is static (the expected array's shape) even
        # where the result's is dynamic (`tensor<?xf32>`).
        static = "tensor<%s>" % "x".join([str(n) for n in np.shape(a)] + [elt])
        if elt in INT_TYPES:
            lines.append("    check.expect_eq_const(%%out%d, %s : %s) : %s" % (i, dense(a, elt), static, ty))
        else:
            lines.append(
                "    check.expect_almost_eq_const(%%out%d, %s : %s, atol %s, rtol %s) : %s"
                % (i, dense(a, elt), static, float_literal(max(atol, 1e-6)), float_literal(max(rtol, 1e-5)), ty)
            )
    lines.append("    return")
    lines.append("  }")
    return body[:-1] + "\n".join(lines) + "\n}\n"


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timeout"


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower() or "FAILED" in line:
            return line.strip()[:200]
    return text.strip().splitlines()[-1][:200] if text.strip() else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kiln", default="target/debug/kiln")
    ap.add_argument("--filter", default="", help="regex on the test name")
    ap.add_argument("--modes", default="reference,device,cpu", help="comma list of reference, device, cpu")
    ap.add_argument("--work", default=None, help="scratch folder (kept); default a temp dir (removed)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=1, help="tests run at once")
    ap.add_argument(
        "--reuse", action="store_true", help="keep a test already wrapped in --work (skip import and lowering)"
    )
    ap.add_argument("--verbose", action="store_true", help="print each failure's first error line")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    work = a.work or tempfile.mkdtemp(prefix="onnx_node_linalg_")
    os.makedirs(work, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import onnx
        from onnx.backend.test.case.node import collect_testcases

        cases = [c for c in collect_testcases() if re.search(a.filter, c.name)]
    counts = collections.Counter()
    reasons = collections.Counter()

    def one(c):
        """Import, lower, wrap and run one test; returns its line, counts and reasons."""
        cnt, why = collections.Counter(), collections.Counter()
        cnt["generated"] += 1
        d = os.path.join(work, c.name)
        os.makedirs(d, exist_ok=True)
        test = os.path.join(d, "test.mlir")
        if not (a.reuse and os.path.exists(test)):
            model = os.path.join(d, "model.onnx")
            onnx.save(c.model, model)
            torch_mlir = os.path.join(d, "model.torch.mlir")
            linalg = os.path.join(d, "model.linalg.mlir")
            rc, out = run([IMPORT, model, "-o", torch_mlir], a.timeout)
            if rc:
                return "%s: import failed" % c.name, cnt, why
            cnt["imported"] += 1
            rc, out = run([OPT, *PIPELINE, torch_mlir, "-o", linalg], a.timeout)
            if rc:
                return "%s: lowering to linalg failed" % c.name, cnt, why
            cnt["linalg"] += 1
            text = open(linalg).read()
            m = re.search(r"func\.func @([\w$.]+)\(", text)
            if not m or not c.data_sets:
                return "%s: no function or data" % c.name, cnt, why
            inputs, outputs = c.data_sets[0]
            try:
                if not all(isinstance(x, np.ndarray) for x in list(inputs) + list(outputs)):
                    raise ValueError("non-tensor inputs or outputs")
                prog = wrap(text, m.group(1), inputs, outputs, c.rtol, c.atol)
            except (ValueError, KeyError) as e:
                return "%s: cannot wrap: %s" % (c.name, e), cnt, why
            open(test, "w").write(prog)
        else:
            cnt["imported"] += 1
            cnt["linalg"] += 1
        cnt["wrapped"] += 1
        status = []
        for mode in modes:
            flag = {"reference": ["--reference"], "device": [], "cpu": ["--cpu"]}[mode]
            rc, out = run([a.kiln, "run", *flag, test], a.timeout)
            ok = rc == 0
            cnt[mode + " ok"] += ok
            status.append("%s=%s" % (mode, "ok" if ok else "FAIL"))
            if not ok:
                err = first_error(out).replace(test + ":", "")
                why[(mode, re.sub(r"\d+", "N", err)[:90])] += 1
                if a.verbose:
                    status.append("  [%s] %s" % (mode, err))
        return "%s: %s" % (c.name, " ".join(status)), cnt, why

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for line, cnt, why in pool.map(one, cases):
            print(line, flush=True)
            counts.update(cnt)
            reasons.update(why)
    print()
    for k in ["generated", "imported", "linalg", "wrapped"] + [m + " ok" for m in modes]:
        print("%-14s %d" % (k, counts[k]))
    print()
    for (mode, why), n in reasons.most_common(40):
        print("%4d %-9s %s" % (n, mode, why))
    if not a.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
