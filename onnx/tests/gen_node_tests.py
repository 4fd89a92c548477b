#!/usr/bin/env python3
"""Materialises ONNX's backend node tests in the standard layout.

    python gen_node_tests.py OUT_DIR

writes OUT_DIR/<test name>/model.onnx and
OUT_DIR/<test name>/test_data_set_0/{input,output}_K.pb (TensorProto files),
from `onnx.backend.test.case.node.collect_testcases()` of the installed
`onnx` (pinned: onnx==1.23.2 in /work/venvs/onnx). Nothing it writes is
committed: ONNX's test files are a reference, not part of kiln.

The whole run, as measured on the 2-core workplace machine:

    python -m venv /work/venvs/onnx && /work/venvs/onnx/bin/pip install onnx==1.23.2
    /work/venvs/onnx/bin/python onnx/tests/gen_node_tests.py /tmp/nodetests   # ~15 s, 56 MB
    kiln onnx-test --json /tmp/nodetests > device.json             # lavapipe, 1-3 min
    kiln onnx-test --reference --json /tmp/nodetests > ref.json    # ~10 s
    kiln onnx-test --cpu --json /tmp/nodetests > cpu.json          # ~13 min
    /work/venvs/onnx/bin/python onnx/tests/coverage.py /tmp/nodetests device.json ref.json cpu.json > onnx/COVERAGE.md

An optional CI step would cost the 9 MB onnx wheel (a few seconds to
install from a cache), ~15 s to materialise and a few minutes on lavapipe.
"""

import os
import sys

import onnx
from onnx import numpy_helper
from onnx.backend.test.case.node import collect_testcases


def write_case(out_dir, case):
    d = os.path.join(out_dir, case.name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(case.model.SerializeToString())
    for k, (inputs, outputs) in enumerate(case.data_sets or []):
        sd = os.path.join(d, f"test_data_set_{k}")
        os.makedirs(sd, exist_ok=True)
        graph = case.model.graph
        for i, v in enumerate(inputs):
            name = graph.input[i].name if i < len(graph.input) else f"input_{i}"
            write_value(os.path.join(sd, f"input_{i}.pb"), v, name)
        for i, v in enumerate(outputs):
            name = graph.output[i].name if i < len(graph.output) else f"output_{i}"
            write_value(os.path.join(sd, f"output_{i}.pb"), v, name)


def write_value(path, value, name):
    if isinstance(value, onnx.TensorProto):
        proto = onnx.TensorProto()
        proto.CopyFrom(value)
        proto.name = name
    elif isinstance(value, list):
        proto = numpy_helper.from_list(value, name)
    elif isinstance(value, dict):
        proto = numpy_helper.from_dict(value, name)
    elif value is None:
        proto = onnx.OptionalProto()
        proto.name = name
    else:
        proto = numpy_helper.from_array(value, name)
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    n = 0
    for case in collect_testcases():
        try:
            write_case(out, case)
            n += 1
        except Exception as e:  # noqa: BLE001 — report and go on
            print(f"cannot write {case.name}: {e}", file=sys.stderr)
    print(f"{n} node tests written to {out}")


if __name__ == "__main__":
    main()
