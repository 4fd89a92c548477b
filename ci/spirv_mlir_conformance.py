#!/usr/bin/env python3
"""kiln's spv level against MLIR 19's own SPIR-V test files.

    ci/spirv_mlir_conformance.py DIR [DIR...] [--kiln target/debug/kiln]
                                 [--tsv OUT.tsv] [--allow ci/spirv_mlir_differences.txt]

Each DIR holds MLIR test files (`mlir/test/Dialect/SPIRV/IR`,
`mlir/test/Target/SPIRV`, `mlir/test/Conversion/SPIRVToLLVM` of an
llvm-project 19 source tree: never committed to kiln). Every file is cut at
`// -----` as `--split-input-file` does, and each piece goes through

* the referee: MLIR 19 on the piece alone, with the tool its RUN line names
  (`mlir-opt-19` with the RUN line's pass, or `mlir-translate-19
  -no-implicit-module -test-spirv-roundtrip`), always with
  `--verify-diagnostics` semantics: a piece with `expected-error` is one
  MLIR refuses (and the referee checks it refuses it as annotated); a
  piece without one is one MLIR accepts;
* kiln: `kiln opt` (Dialect tests), `kiln translate --test-roundtrip`
  (Target tests), `kiln opt --convert-spirv-to-llvm` (conversion tests).
  Target pieces MLIR accepts are also serialized by `mlir-translate-19`
  and imported by kiln (`kiln translate --deserialize` then `--serialize`):
  where `spirv-val` accepts MLIR's binary it must accept kiln's
  re-serialization too.

Classes: `both-accept`, `both-refuse` (an expected-error piece kiln
refuses), `kiln-refuses` (MLIR accepts; kiln's error is shown),
`kiln-accepts-invalid` (an expected-error piece kiln accepts), `crash`
(kiln panicked, was killed or timed out), `import-invalid` (kiln's
re-serialization of MLIR's binary fails spirv-val where MLIR's passes, or
the import fails), `referee-fails` (MLIR 19 itself does not do what the
annotations say: not counted), `skipped` (a RUN line naming a pass kiln
does not model). Pieces listed in the allow file (`DIR/FILE:PIECE CLASS
reason`, e.g. `Target/ocl-ops.mlir:0`, pieces numbered from 0 in
MLIR 19.1.7's files; `:*` for every piece of a file) are differences
kiln has chosen; they are shown as `chosen`.

Exit status 1 when a crash occurs or an unlisted difference remains.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

SPLIT = "// -----"
TIMEOUT = 30


def run_lines(text):
    """The RUN lines of a test file, continuation lines joined."""
    lines, cur = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:(.*)$", line)
        if not m:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    return lines


def split_pieces(text):
    """As kiln_core::text::split_input: each piece padded to its lines."""
    pieces, start, before = [], 0, 0
    while True:
        at = text.find(SPLIT, start)
        if at < 0:
            pieces.append("\n" * before + text[start:])
            return pieces
        chunk = text[start:at]
        pieces.append("\n" * before + chunk)
        before += chunk.count("\n")
        start = at + len(SPLIT)


def mode_of(run):
    """(mode, referee argv) of the first RUN line, or (None, reason)."""
    first = run[0] if run else ""
    tool_part = first.split("|")[0]
    if "test-spirv-roundtrip" in tool_part or "serialize-spirv" in tool_part:
        if "debug" in tool_part:
            return None, "test-spirv-roundtrip-debug (OpLine round trip)"
        return "translate", ["mlir-translate-19", "-no-implicit-module", "-test-spirv-roundtrip"]
    m = re.search(r"-convert-spirv-to-llvm(=\S+|='[^']*')?", tool_part)
    if m:
        return "llvm", ["mlir-opt-19", m.group(0).replace("'", "")]
    if "mlir-opt" in tool_part:
        for unsupported in ("lower-host-to-llvm", "test-spirv-op-availability",
                            "test-spirv-target-env", "canonicalize", "spirv-"):
            if unsupported in tool_part.replace("-split-input-file", ""):
                return None, f"pass {unsupported}"
        extra = ["-allow-unregistered-dialect"] if "allow-unregistered-dialect" in tool_part else []
        return "opt", ["mlir-opt-19"] + extra
    return None, "no mlir-opt/mlir-translate RUN line"


def sh(argv, stdin=None):
    try:
        p = subprocess.run(argv, input=stdin, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", "timed out"


def first_error(stderr):
    for line in stderr.splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def kiln_crashed(rc, stderr):
    return rc == "timeout" or rc not in (0, 1) or "panicked" in stderr


def spirv_val(path):
    """spirv-val under the universal env of the binary's version."""
    with open(path, "rb") as f:
        words = f.read(8)
    version = int.from_bytes(words[4:8], "little")
    env = f"spv1.{(version >> 8) & 0xFF}"
    rc, _, err = sh(["spirv-val", "--target-env", env, path])
    return rc == 0, first_error(err)


def check_import(kiln, piece_path, tmp):
    """MLIR's binary imported and re-serialized by kiln; None if fine."""
    mlir_bin = os.path.join(tmp, "mlir.spv")
    rc, _, err = sh(["mlir-translate-19", "-no-implicit-module", "-serialize-spirv",
                     piece_path, "-o", mlir_bin])
    if rc != 0:
        return None
    ok, _ = spirv_val(mlir_bin)
    text = os.path.join(tmp, "kiln.mlir")
    rc, _, err = sh([kiln, "translate", "--deserialize", mlir_bin, "-o", text])
    if kiln_crashed(rc, err):
        return ("crash", "import: " + first_error(err))
    if rc != 0:
        # Refusing a binary spirv-val refuses too is no difference.
        return ("import-invalid", "import: " + first_error(err)) if ok else None
    kiln_bin = os.path.join(tmp, "kiln.spv")
    rc, _, err = sh([kiln, "translate", "--serialize", text, "-o", kiln_bin])
    if kiln_crashed(rc, err):
        return ("crash", "re-serialize: " + first_error(err))
    if rc != 0:
        return ("import-invalid", "re-serialize: " + first_error(err))
    if ok:
        ok2, msg = spirv_val(kiln_bin)
        if not ok2:
            return ("import-invalid", "spirv-val on kiln's re-serialization: " + msg)
    return None


def classify(kiln, mode, referee, path, index, piece):
    with tempfile.TemporaryDirectory() as tmp:
        piece_path = os.path.join(tmp, "piece.mlir")
        with open(piece_path, "w") as f:
            f.write(piece)
        expects_error = "expected-error" in piece
        rc, _, err = sh(referee + ["--verify-diagnostics", piece_path])
        if rc != 0:
            return "referee-fails", first_error(err)
        kiln_argv = {
            "opt": [kiln, "opt", piece_path, "-o", os.devnull],
            "translate": [kiln, "translate", "--test-roundtrip", piece_path, "-o", os.devnull],
            "llvm": [kiln, "opt", "--convert-spirv-to-llvm", piece_path, "-o", os.devnull],
        }[mode]
        rc, _, err = sh(kiln_argv)
        if kiln_crashed(rc, err):
            return "crash", first_error(err) or f"exit {rc}"
        if expects_error:
            return ("both-refuse", first_error(err)) if rc != 0 else ("kiln-accepts-invalid", "")
        if rc != 0:
            return "kiln-refuses", first_error(err)
        if mode == "translate":
            bad = check_import(kiln, piece_path, tmp)
            if bad:
                return bad
        return "both-accept", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--kiln", default="target/debug/kiln")
    ap.add_argument("--tsv")
    ap.add_argument("--allow", default=os.path.join(os.path.dirname(__file__),
                                                    "spirv_mlir_differences.txt"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    kiln = os.path.realpath(args.kiln)

    allowed = {}
    if os.path.exists(args.allow):
        for line in open(args.allow):
            line = line.split("#")[0].strip()
            if line:
                key, cls, *_ = line.split(None, 2)
                allowed[key] = cls

    jobs = []
    skipped = []
    for d in args.dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".mlir"):
                continue
            text = open(os.path.join(d, name)).read()
            mode, referee = mode_of(run_lines(text))
            key_dir = os.path.basename(os.path.normpath(d))
            if mode is None:
                skipped.append((key_dir, name, referee))
                continue
            pieces = split_pieces(text) if "split-input-file" in run_lines(text)[0] else [text]
            for i, piece in enumerate(pieces):
                jobs.append((key_dir, name, i, mode, referee, piece))

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(classify, kiln, m, r, n, i, p): (d, n, i)
                for d, n, i, m, r, p in jobs}
        for fut in concurrent.futures.as_completed(futs):
            d, n, i = futs[fut]
            cls, msg = fut.result()
            key = f"{d}/{n}:{i}"
            chosen = allowed.get(key) or allowed.get(f"{d}/{n}:*")
            if cls not in ("both-accept", "both-refuse", "referee-fails") and chosen == cls:
                cls = "chosen"
            results.append((d, n, i, cls, msg))
    results.sort()

    counts = collections.defaultdict(collections.Counter)
    for d, n, i, cls, msg in results:
        counts[d][cls] += 1
    for d, n, why in skipped:
        counts[d]["skipped-files"] += 1
    order = ["both-accept", "both-refuse", "kiln-refuses", "kiln-accepts-invalid",
             "import-invalid", "crash", "chosen", "referee-fails", "skipped-files"]
    print("dir\t" + "\t".join(order))
    for d in sorted(counts):
        print(d + "\t" + "\t".join(str(counts[d][c]) for c in order))
    bad = [r for r in results
           if r[3] in ("kiln-refuses", "kiln-accepts-invalid", "import-invalid", "crash")]
    for d, n, i, cls, msg in bad if args.verbose else []:
        print(f"{d}/{n}:{i}\t{cls}\t{msg}")
    if args.tsv:
        with open(args.tsv, "w") as f:
            for d, n, i, cls, msg in results:
                f.write(f"{d}\t{n}\t{i}\t{cls}\t{msg}\n")
            for d, n, why in skipped:
                f.write(f"{d}\t{n}\t-\tskipped-file\t{why}\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
