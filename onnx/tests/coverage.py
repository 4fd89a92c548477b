#!/usr/bin/env python3
"""Regenerates onnx/COVERAGE.md from a run of `kiln onnx-test --json` over
ONNX's node tests (materialised by gen_node_tests.py).

    python coverage.py NODE_TEST_DIR DEVICE.json [OTHER_ENGINE.json...] > onnx/COVERAGE.md

The table is of the first result; the others add a summary line each.

Each test is filed under the op it tests: the op type of its model's node
whose name the test name carries (`test_softmax_axis_0_expanded` ->
Softmax, expanded), else its first node's.
"""

import collections
import json
import re
import os
import sys

import onnx


def op_of(test_dir, name):
    m = onnx.load(os.path.join(test_dir, "model.onnx"), load_external_data=False)
    # A function's expansion names its nodes `<Op>_<test name>_...`.
    for n in m.graph.node:
        if n.name and "_" + name + "_" in n.name:
            return n.name.split("_" + name + "_")[0]
    squashed = name.lower().replace("_", "")
    best = None
    for n in m.graph.node:
        t = n.op_type.lower()
        if squashed.startswith("test" + t) and (best is None or len(t) > len(best.lower())):
            best = n.op_type
    if best is None:
        best = m.graph.node[0].op_type if m.graph.node else "?"
    return best


STRING_OPS = {"StringSplit", "StringNormalizer", "StringConcat", "RegexFullMatch",
              "TfIdfVectorizer", "LabelEncoder"}
SEQUENCE_OPS = {"SequenceMap", "SequenceLength", "SequenceInsert", "SequenceAt", "SequenceConstruct",
                "SequenceEmpty", "SequenceErase", "SplitToSequence", "ConcatFromSequence",
                "Optional", "OptionalHasElement", "OptionalGetElement"}
TRAINING_OPS = {"Adagrad", "Adam", "Momentum", "Gradient"}
RANDOM_OPS = {"Bernoulli", "RandomUniformLike", "RandomNormalLike", "RandomUniform", "RandomNormal",
              "Multinomial"}
VALUE_SHAPED_OPS = {"NonZero", "Unique", "NonMaxSuppression"}


def classify(t, ref):
    """The class of a test that does not pass: `tolerance`, `kiln bug` or
    `out of scope` / `not implemented` with the reason."""
    name, status, reason = t["name"], t["status"], t["reason"]
    if status == "FAIL":
        if "kiln panicked" in reason:
            return "kiln bug: kiln panicked: " + short(reason)[:60]
        if "elements differ" in reason and any(k in name for k in ("fp16", "bf16", "float16")):
            return "tolerance: 16-bit float result 1-3 ulp past ONNX's rtol 1e-3"
        m = re.search(r"element \d+: (\S+), expected (\S+)$", reason)
        if m and "elements differ" in reason:
            g, w = float(m.group(1)), float(m.group(2))
            if abs(g) < 1e-6 and abs(w) < 1e-6:
                return ("tolerance: a near-zero element past ONNX's atol 1e-7 (the expected file "
                        "holds float32 noise of an exact 0: numpy in f64 gives ~1e-15)")
        if ref.get(name) == "PASS":
            return "kiln bug: wrong value on this engine, the reference evaluator passes"
        return "kiln bug: " + short(reason)[:60]
    m = re.search(r"unsupported node\(s\): (\w+) \(domain ([\w.]+)", reason)
    if m:
        op, domain = m.group(1), m.group(2)
        if op in STRING_OPS:
            return "out of scope: string tensors (kiln has no string type)"
        if op in SEQUENCE_OPS:
            return "out of scope: sequence and optional values (tensors only)"
        if op in TRAINING_OPS or domain.startswith("ai.onnx.preview.training"):
            return "out of scope: training ops (inference only)"
        if op in RANDOM_OPS:
            return "out of scope: random ops (no reproducible oracle)"
        if op in VALUE_SHAPED_OPS:
            return "out of scope: output shape depends on tensor values"
        if op == "ImageDecoder":
            return "out of scope: image decoding"
        if domain == "ai.onnx.ml":
            return "not implemented: ai.onnx.ml ops"
        return f"not implemented: {op}"
    if "non-tensor type" in reason:
        return "out of scope: sequence and optional values (tensors only)"
    if "element type STRING" in reason:
        return "out of scope: string tensors (kiln has no string type)"
    if "Loop is unrolled at import" in reason:
        return ("out of scope: a Loop whose trip count or condition is computed while running "
                "(Loop is unrolled at import)")
    if "must be known before running" in reason:
        return ("out of scope: sizes computed from a graph input's values "
                "(specialised only where an op reads them as sizes)")
    if "training_mode" in reason:
        return "out of scope: training ops (inference only)"
    return "not implemented: " + re.sub(r"^node \S+ \((\w+)\): ", r"\1: ", short(reason))[:70]


def short(reason):
    reason = reason.split(": ", 1)[-1] if reason.startswith("import: ") else reason
    return reason[:90]


def main():
    test_dir, result = sys.argv[1], sys.argv[2]
    others = [json.load(open(p)) for p in sys.argv[3:]]
    data = json.load(open(result))
    rows = collections.OrderedDict()
    for t in data["tests"]:
        op = op_of(os.path.join(test_dir, t["name"]), t["name"])
        r = rows.setdefault(op, {"tests": 0, "PASS": 0, "FAIL": 0, "SKIP": 0, "reasons": collections.Counter()})
        r["tests"] += 1
        r[t["status"]] += 1
        if t["status"] != "PASS":
            r["reasons"][f'{t["status"]}: {short(t["reason"])}'] += 1
    print("# kiln-onnx: ONNX node-test coverage")
    print()
    print("DO NOT EDIT: regenerated by `onnx/tests/coverage.py` from `kiln onnx-test --json`")
    print(f'over the {len(data["tests"])} node tests of onnx 1.23.2 (`onnx/tests/gen_node_tests.py`),')
    print(f'engine `{data["engine"]}`: {data["passed"]} passed, {data["failed"]} failed, {data["skipped"]} skipped.')
    for o in others:
        print(f'Engine `{o["engine"]}`: {o["passed"]} passed, {o["failed"]} failed, {o["skipped"]} skipped.')
    print()
    ref = {}
    for o in others:
        if o["engine"] == "reference":
            ref = {t["name"]: t["status"] for t in o["tests"]}
    classes = collections.Counter()
    listed = []
    for t in data["tests"]:
        if t["status"] != "PASS":
            k = classify(t, ref)
            classes[k] += 1
            listed.append((k, t["name"], t["status"]))
    print("## Tests not passing on this engine, by class")
    print()
    print("| class | tests |")
    print("|---|---:|")
    for k, v in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {k} | {v} |")
    print()
    for o in others:
        bad = [t for t in o["tests"] if t["status"] == "FAIL"]
        if bad:
            print(f'Failures on `{o["engine"]}`:')
            for t in bad:
                print(f'- `{t["name"]}`: {classify(t, {})} ({short(t["reason"])[:80]})')
            print()
    print("## By op")
    print()
    print("| op | tests | passed | failed | skipped | most common reason |")
    print("|---|---:|---:|---:|---:|---|")
    for op in sorted(rows, key=str.lower):
        r = rows[op]
        reason = r["reasons"].most_common(1)[0][0].replace("|", "\\|") if r["reasons"] else ""
        print(f'| {op} | {r["tests"]} | {r["PASS"]} | {r["FAIL"]} | {r["SKIP"]} | {reason} |')
    print()
    print("## Every test not passing on this engine")
    print()
    print("| test | status | class |")
    print("|---|---|---|")
    for k, name, status in sorted(listed, key=lambda x: x[1]):
        print(f"| {name} | {status} | {k} |")


if __name__ == "__main__":
    main()
