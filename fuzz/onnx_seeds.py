#!/usr/bin/env python3
"""Seeds and a dictionary for the onnx_import fuzz target, made at seed time
(nothing here is committed as data: ONNX's test files are a reference, not
part of kiln).

    /work/venvs/onnx/bin/python onnx/tests/gen_node_tests.py /tmp/nodetests
    python3 fuzz/onnx_seeds.py /tmp/nodetests fuzz/logs/seeds/onnx_import

copies into OUT_DIR (made empty first) the `model.onnx` of ONNX's node tests,
at most PER_OP (2) per op (the smallest first, each under 8 KB, the op taken
from the test name up to its first `_` that is followed by a lower-case
variant word), then the real models of ~/.cache/kiln/models under 4 MB
(ocr_cls, silero_vad, ...) when there. ci/fuzz.sh adds OUT_DIR to the
committed seeds of fuzz/corpus/onnx_import when it exists.

    python3 fuzz/onnx_seeds.py --dict NODE_TESTS_DIR > fuzz/onnx_import.dict

(with the onnx venv's python) prints a libFuzzer dictionary: the op types,
attribute names and domains the node tests' models use.

    /work/venvs/onnx/bin/python fuzz/onnx_seeds.py --kiln fuzz/corpus/onnx_import

writes the committed seeds made by kiln (kiln-*.onnx, a few hundred bytes
each); the others there (node-*.onnx) are 36 of the smallest node-test
models, copied by hand.
"""

import os
import shutil
import sys

PER_OP = 2
MAX_SEED = 8 * 1024
MAX_REAL = 4 * 1024 * 1024


def op_of(test_name):
    """`test_conv_with_strides_padding` -> `conv_with_strides_padding`'s first word."""
    name = test_name[len("test_"):] if test_name.startswith("test_") else test_name
    return name.split("_")[0]


def node_models(root):
    """(op, size, path) of each node test's model.onnx."""
    out = []
    for d in sorted(os.listdir(root)):
        p = os.path.join(root, d, "model.onnx")
        if os.path.isfile(p):
            out.append((op_of(d), os.path.getsize(p), p))
    return out


def seeds(root, out_dir):
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    by_op = {}
    for op, size, p in node_models(root):
        if size <= MAX_SEED:
            by_op.setdefault(op, []).append((size, p))
    n = 0
    for op in sorted(by_op):
        for size, p in sorted(by_op[op])[:PER_OP]:
            test = os.path.basename(os.path.dirname(p))
            shutil.copy(p, os.path.join(out_dir, f"{test}.onnx"))
            n += 1
    real = os.path.expanduser("~/.cache/kiln/models")
    if os.path.isdir(real):
        for f in sorted(os.listdir(real)):
            p = os.path.join(real, f)
            if f.endswith(".onnx") and os.path.getsize(p) <= MAX_REAL:
                shutil.copy(p, os.path.join(out_dir, f"real-{f}"))
                n += 1
    print(f"{n} seeds in {out_dir}", file=sys.stderr)


def names(graph, words):
    """Op types, domains and attribute names of `graph` and its subgraphs."""
    for n in graph.node:
        words.add(n.op_type)
        if n.domain:
            words.add(n.domain)
        for a in n.attribute:
            words.add(a.name)
            if a.HasField("g"):
                names(a.g, words)
            for g in a.graphs:
                names(g, words)


def dictionary(root):
    import onnx  # the venv's (/work/venvs/onnx)

    words = set()
    for _, _, p in node_models(root):
        m = onnx.load(p)
        names(m.graph, words)
        for o in m.opset_import:
            if o.domain:
                words.add(o.domain)
    for w in sorted(words):
        print(f'"{w}"')


def kiln_seeds(out):
    """The committed seeds kiln-*.onnx of fuzz/corpus/onnx_import: weights
    as initializers, a shape subgraph the importer folds, external data, a
    symbolic dimension."""
    import numpy as np
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    def save(name, g, opset=17):
        m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
        open(f"{out}/kiln-{name}.onnx", "wb").write(m.SerializeToString())
    # Weights as initializers, a shape initializer, a Constant node.
    w = nh.from_array((np.arange(12, dtype=np.float32).reshape(3, 4) / 7), "w")
    shape = nh.from_array(np.array([4, 2], dtype=np.int64), "shape")
    g = h.make_graph([
        h.make_node("MatMul", ["x", "w"], ["y"]),
        h.make_node("Constant", [], ["c"], value=nh.from_array(np.array([0.5, -1], dtype=np.float32))),
        h.make_node("Reshape", ["y", "shape"], ["r"]),
        h.make_node("Add", ["r", "c"], ["z"]),
    ], "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
       [h.make_tensor_value_info("z", T.FLOAT, [4, 2])], initializer=[w, shape])
    save("weights-reshape", g)
    # A shape subgraph folded at import: Shape -> Gather -> Concat -> Reshape.
    g = h.make_graph([
        h.make_node("Shape", ["x"], ["s"]),
        h.make_node("Gather", ["s", "i"], ["d"], axis=0),
        h.make_node("Concat", ["d", "m1"], ["ns"], axis=0),
        h.make_node("Reshape", ["x", "ns"], ["y"]),
    ], "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
       [h.make_tensor_value_info("y", T.FLOAT, None)],
       initializer=[nh.from_array(np.array([0], dtype=np.int64), "i"),
                    nh.from_array(np.array([-1], dtype=np.int64), "m1")])
    save("shape-subgraph", g)
    # External data (never read by the fuzz target).
    t = nh.from_array(np.ones((2, 3), dtype=np.float32), "w")
    t.ClearField("raw_data")
    t.data_location = T.EXTERNAL
    for k, v in [("location", "weights.bin"), ("offset", "0"), ("length", "24")]:
        e = t.external_data.add(); e.key = k; e.value = v
    g = h.make_graph([h.make_node("Add", ["x", "w"], ["y"])], "g",
       [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
       [h.make_tensor_value_info("y", T.FLOAT, [2, 3])], initializer=[t])
    save("external-data", g)
    # Symbolic dims.
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g",
       [h.make_tensor_value_info("x", T.FLOAT, ["N", 3])],
       [h.make_tensor_value_info("y", T.FLOAT, ["N", 3])])
    save("symbolic-dims", g)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--kiln":
        kiln_seeds(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--dict":
        dictionary(sys.argv[2])
    elif len(sys.argv) == 3:
        seeds(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
