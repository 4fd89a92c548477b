#!/usr/bin/env python3
"""IREE's TOSA end-to-end tests through MLIR 19's TOSA-to-linalg into kiln.

Takes IREE's tests from a git mirror of IREE at one commit
(`tests/e2e/tosa_ops/*.mlir`; `--suite linalg` or `tensor_ops` for those
folders), lowers each file with `mlir-opt-19` through the upstream passes of
IREE's TOSA input pipeline of that time, and runs every `func.func` test with
`kiln run` on the engines asked (`--reference`, the Vulkan device, `--cpu`).
Prints one line per test and the counts per stage and engine. The expected
values are IREE's own `check.expect_*` constants, never kiln's output.

The commit: IREE f109f663ce (2024-08-06, "Integrate LLVM at
llvm/llvm-project@1119a080"), two weeks after LLVM's release/19.x branch
(2024-07-23). Its tests/e2e/tosa_ops are those of 6145b65a80 (2024-07-30,
"Simplify tests/e2e/tosa_ops"), unchanged until 6052a1d14c (2025-01-17)
rewrote pad.mlir for TOSA's newer spellings; newer versions use TOSA 1.0
(`tosa.mul` with a shift operand, `values =`) that MLIR 19 does not parse.

The pipeline mirrors `buildTOSAInputConversionPassPipeline` of that commit
(compiler/plugins/input/TOSA/InputConversion/Passes.cpp) with upstream passes
only: tosa-to-mlprogram, tosa-to-scf, inline, tosa-make-broadcastable,
tosa-to-arith, tosa-to-tensor, canonicalize, then MLIR 19's
`addTosaToLinalgPasses` (tosa-optional-decompositions, canonicalize,
tosa-infer-shapes, tosa-make-broadcastable, tosa-to-linalg-named with
prefer-conv2d-kernel-layout-hwcf as IREE sets it, canonicalize,
tosa-layerwise-constant-fold, tosa-make-broadcastable, tosa-to-linalg), then
tosa-to-arith, tosa-to-tensor, canonicalize, and the tosa-to-arith with
include-apply-rescale and use-32-bit that IREE's SPIR-V codegen runs
(Codegen/SPIRV/Passes.cpp) for the tosa.apply_scale tosa-to-linalg leaves.
IREE's own passes are left out:
TosaToLinalgExt (tosa.scatter), Converti48Toi64, StripSignedness, and the
quantized matmul/conv rewrites (none of the ops they touch is in these tests
except as noted in gpu-tests/tests/frameworks/TOSA.md).

MLIR 19 does not register IREE's `util` and `check` dialects, and an
unregistered op is parsed only in MLIR's generic form, so the script writes
the tests' `util.unfoldable_constant V : T`, `util.optimization_barrier`,
`check.expect_*(%x, V) : T`, `check.expect_true(%x) : T`,
`flow.tensor.tie_shape` and `flow.tensor.dynamic_constant` in generic form before lowering (`"util.
unfoldable_constant"() {value = V} : () -> T`); mlir-opt prints them back in
generic form, and kiln reads that (its generic-form reader).

    python3 ci/tosa_e2e.py --iree /work/.mirror/iree-org+iree/repo \\
        --kiln target/debug/kiln --modes reference,device,cpu

The extracted and lowered files go to a scratch folder (--work, default a
temp dir); none of them belongs in the repository.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

COMMIT = "f109f663ce"
PIPELINE = (
    "builtin.module("
    "tosa-to-mlprogram,"
    "func.func(tosa-to-scf),"
    "inline,"
    "func.func("
    "tosa-make-broadcastable, tosa-to-arith, tosa-to-tensor, canonicalize,"
    "tosa-optional-decompositions, canonicalize, tosa-infer-shapes, tosa-make-broadcastable,"
    "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}, canonicalize,"
    "tosa-layerwise-constant-fold, tosa-make-broadcastable, tosa-to-linalg,"
    "tosa-to-arith, tosa-to-tensor, canonicalize,"
    # IREE's SPIR-V codegen lowers the tosa.apply_scale that tosa-to-linalg
    # leaves (Codegen/SPIRV/Passes.cpp: createTosaToArith(true, true)).
    "tosa-to-arith{include-apply-rescale=true use-32-bit=true}))"
)
# Passes for the linalg and tensor_ops suites: IREE compiles them as they
# are; canonicalize alone checks that MLIR 19 parses and verifies them.
PLAIN_PIPELINE = "builtin.module(func.func(canonicalize))"


def split_top(text, sep):
    """Split `text` at `sep` outside brackets and quotes."""
    out, depth, cur, quote, i = [], 0, "", False, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quote = not quote
        elif not quote and ch in "<([{":
            depth += 1
        elif not quote and ch in ">)]}" and not (ch == ">" and text[i - 1 : i] == "-"):
            depth -= 1
        if not quote and depth == 0 and text.startswith(sep, i):
            out.append(cur)
            cur = ""
            i += len(sep)
            continue
        cur += ch
        i += 1
    out.append(cur)
    return out


UNFOLDABLE = re.compile(r"^(\s*%[\w.$-]+\s*=\s*)util\.unfoldable_constant\s+(.*)$", re.S)
BARRIER = re.compile(r"^(\s*%[\w.$:-]+\s*=\s*)util\.optimization_barrier\s+(.*?)\s*:\s*(\S.*)$", re.S)
TIE_SHAPE = re.compile(r"^(\s*%[\w.$-]+\s*=\s*)flow\.tensor\.tie_shape\s+(%[\w.$-]+)\s*:\s*(.*)\{(.*)\}\s*$", re.S)
DYNAMIC_CONSTANT = re.compile(r"^(\s*%[\w.$-]+\s*=\s*)flow\.tensor\.dynamic_constant\s+(.*)->\s*(\S.*)$", re.S)
CHECK = re.compile(r"^(\s*)check\.(expect_[a-z_]+)\((.*)\)\s*:\s*(\S.*)$", re.S)


def to_generic(line):
    """IREE's custom syntax of a `util`/`check` op in MLIR's generic form."""
    m = UNFOLDABLE.match(line)
    if m:
        parts = split_top(m.group(2).strip(), " : ")
        if len(parts) < 2:
            raise ValueError("untyped util.unfoldable_constant: " + line.strip())
        ty = parts[-1].strip()
        return '%s"util.unfoldable_constant"() {value = %s} : () -> %s' % (m.group(1), m.group(2).strip(), ty)
    m = TIE_SHAPE.match(line)
    if m:
        lead, t, ty, dims = m.groups()
        dims = [d.strip() for d in dims.split(",") if d.strip()]
        return '%s"flow.tensor.tie_shape"(%s) : (%s) -> %s' % (
            lead, ", ".join([t] + dims), ", ".join([ty.strip()] + ["index"] * len(dims)), ty.strip())
    m = DYNAMIC_CONSTANT.match(line)
    if m:
        return '%s"flow.tensor.dynamic_constant"() {value = %s} : () -> %s' % (
            m.group(1), m.group(2).strip(), m.group(3).strip())
    m = BARRIER.match(line)
    if m:
        types = [t.strip() for t in split_top(m.group(3), ",")]
        return '%s"util.optimization_barrier"(%s) : (%s) -> (%s)' % (
            m.group(1), m.group(2).strip(), ", ".join(types), ", ".join(types))
    m = CHECK.match(line)
    if m:
        indent, op, args, ty = m.groups()
        args = [a.strip() for a in split_top(args, ",")]
        operands = [a for a in args if a.startswith("%")]
        attrs = [a for a in args if not a.startswith("%")]
        types = ", ".join(ty.strip() for _ in operands)
        attr = " {value = %s}" % attrs[0] if attrs else ""
        if len(attrs) > 1:
            raise ValueError("unexpected check op: " + line.strip())
        return '%s"check.%s"(%s)%s : (%s) -> ()' % (indent, op, ", ".join(operands), attr, types)
    if re.search(r"\b(util|check|flow)\.", line) and not line.lstrip().startswith("//"):
        raise ValueError("unhandled util/check/flow op: " + line.strip())
    return line


def depth_change(line):
    """Open minus closed brackets on `line` (`->` is no bracket)."""
    text = line.replace("->", "")
    return sum(text.count(c) for c in "<([{") - sum(text.count(c) for c in ">)]}")


def rewrite(src):
    """`src` with every `util`/`check` op (one or more lines) in generic form."""
    out, lines, i = [], src.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if re.search(r"\b(util|check|flow)\.", line) and not line.lstrip().startswith("//"):
            depth = depth_change(line)
            while depth > 0 and i < len(lines):
                line += " " + lines[i].strip()
                depth += depth_change(lines[i])
                i += 1
            line = to_generic(line)
        out.append(line)
    return "\n".join(out) + "\n"


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timeout"


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower() or "FAILED" in line or "mismatch" in line.lower():
            return line.strip()[:200]
    return text.strip().splitlines()[-1][:200] if text.strip() else ""


def test_names(text):
    """The public `func.func` names of a module, in order."""
    return re.findall(r"^\s*func\.func @([\w$.-]+)\(", text, re.M)


def results(out, names):
    """Per test: 'ok', 'FAIL' (a check failed) or None (no result line)."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"\[\s*(OK|FAILED)\s*\] \w+\.([\w$.-]+)(?: \(|$)", line)
        if m and m.group(2) in names:
            got[m.group(2)] = "ok" if m.group(1) == "OK" else "FAIL"
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iree", required=True, help="IREE git directory (a bare mirror is fine)")
    ap.add_argument("--commit", default=COMMIT)
    ap.add_argument("--suite", default="tosa_ops", help="tests/e2e folder: tosa_ops, linalg, tensor_ops")
    ap.add_argument("--kiln", default="target/debug/kiln")
    ap.add_argument("--mlir-opt", default="mlir-opt-19")
    ap.add_argument("--filter", default="", help="regex on FILE:TEST")
    ap.add_argument("--modes", default="reference,device,cpu", help="comma list of reference, device, cpu")
    ap.add_argument("--work", default=None, help="scratch folder (kept); default a temp dir (removed)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--verbose", action="store_true", help="print each failure's first error line")
    a = ap.parse_args()
    modes = [m for m in a.modes.split(",") if m]
    work = a.work or tempfile.mkdtemp(prefix="tosa_e2e_")
    os.makedirs(work, exist_ok=True)
    folder = "tests/e2e/%s" % a.suite
    git = ["git", "--git-dir", a.iree]
    rc, listing = run(git + ["ls-tree", "--name-only", "%s:%s" % (a.commit, folder)], 60)
    if rc:
        sys.exit("cannot list %s at %s: %s" % (folder, a.commit, listing.strip()))
    files = sorted(f for f in listing.split() if f.endswith(".mlir"))
    pipeline = PIPELINE if a.suite == "tosa_ops" else PLAIN_PIPELINE
    counts = collections.Counter()
    reasons = collections.Counter()
    for f in files:
        stem = f[: -len(".mlir")]
        rc, src = run(git + ["show", "%s:%s/%s" % (a.commit, folder, f)], 60)
        if rc:
            sys.exit("cannot read %s: %s" % (f, src.strip()))
        names = [n for n in test_names(src) if re.search(a.filter, "%s:%s" % (stem, n))]
        if not names:
            continue
        counts["tests"] += len(names)
        orig = os.path.join(work, f)
        open(orig, "w").write(src)
        try:
            generic = rewrite(src)
        except ValueError as e:
            for n in names:
                print("%s:%s: cannot rewrite util/check ops: %s" % (stem, n, e))
            continue
        gen = os.path.join(work, stem + ".generic.mlir")
        lowered = os.path.join(work, stem + ".linalg.mlir")
        open(gen, "w").write(generic)
        cmd = [a.mlir_opt, "--allow-unregistered-dialect", "--pass-pipeline=" + pipeline, gen, "-o", lowered]
        rc, out = run(cmd, a.timeout)
        if rc:
            for n in names:
                print("%s:%s: mlir-opt-19 failed: %s" % (stem, n, first_error(out)))
            continue
        counts["lowered"] += len(names)
        text = open(lowered).read()
        if re.search(r"\btosa\.", text):
            counts["tosa left"] += len(names)
        per_mode = {}
        for mode in modes:
            flag = {"reference": ["--reference"], "device": ["--no-timing"], "cpu": ["--cpu"]}[mode]
            rc, out = run([a.kiln, "run", *flag, lowered], a.timeout)
            per_mode[mode] = (results(out, names), first_error(out).replace(lowered + ":", ""), rc)
        for n in names:
            status, notes = [], []
            for mode in modes:
                got, err, rc = per_mode[mode]
                r = got.get(n) or ("timeout" if rc == 124 else "ERR")
                counts["%s ok" % mode] += r == "ok"
                status.append("%s=%s" % (mode, r))
                if r != "ok":
                    why = err if r != "FAIL" else "check failed"
                    reasons[(mode, re.sub(r"\d+", "N", why)[:100])] += 1
                    if a.verbose:
                        notes.append("  [%s] %s" % (mode, why))
            print("%s:%s: %s%s" % (stem, n, " ".join(status), "".join(notes)))
    print()
    for k in ["tests", "lowered"] + ["%s ok" % m for m in modes]:
        print("%-14s %d" % (k, counts[k]))
    print()
    for (mode, why), n in reasons.most_common(40):
        print("%4d %-9s %s" % (n, mode, why))
    if not a.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
