"""Small ONNX models with random weights for the tests and the README.

    python python/tests/models.py OUT_DIR   # writes mlp.onnx and cnn.onnx

Built with onnx.helper (no download); onnxruntime is the oracle the tests
compare kiln with.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def mlp(seed=0, batch="batch"):
    """784 -> 128 (ReLU) -> 10 (softmax), a symbolic batch dim."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((784, 128)) * 0.05).astype(np.float32)
    b1 = (rng.standard_normal(128) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((128, 10)) * 0.1).astype(np.float32)
    b2 = (rng.standard_normal(10) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h0"]),
        helper.make_node("Add", ["h0", "b1"], ["h1"]),
        helper.make_node("Relu", ["h1"], ["h2"]),
        helper.make_node("MatMul", ["h2", "w2"], ["l0"]),
        helper.make_node("Add", ["l0", "b2"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
    ]
    g = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 784])],
        [
            helper.make_tensor_value_info("probs", TensorProto.FLOAT, [batch, 10]),
            helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 10]),
        ],
        [_init("w1", w1), _init("b1", b1), _init("w2", w2), _init("b2", b2)],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def cnn(seed=1):
    """A 1x3x16x16 image: Conv 3x3 (8) -> Relu -> MaxPool 2 -> Flatten ->
    Gemm (10); static shapes."""
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((8, 3, 3, 3)) * 0.2).astype(np.float32)
    b = (rng.standard_normal(8) * 0.1).astype(np.float32)
    fw = (rng.standard_normal((10, 8 * 8 * 8)) * 0.05).astype(np.float32)
    fb = (rng.standard_normal(10) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["img", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "fw", "fb"], ["out"], transB=1),
    ]
    g = helper.make_graph(
        nodes,
        "cnn",
        [helper.make_tensor_value_info("img", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 10])],
        [_init("w", w), _init("b", b), _init("fw", fw), _init("fb", fb)],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def two_inputs():
    """z = x * y + 1 (int64 inputs broadcast), y is a [3] vector."""
    nodes = [
        helper.make_node("Mul", ["x", "y"], ["m"]),
        helper.make_node("Add", ["m", "one"], ["z"]),
    ]
    g = helper.make_graph(
        nodes,
        "two_inputs",
        [
            helper.make_tensor_value_info("x", TensorProto.INT64, [2, 3]),
            helper.make_tensor_value_info("y", TensorProto.INT64, [3]),
        ],
        [helper.make_tensor_value_info("z", TensorProto.INT64, [2, 3])],
        [_init("one", np.array(1, dtype=np.int64))],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    for name, m in [("mlp", mlp()), ("cnn", cnn())]:
        onnx.save(m, os.path.join(out, f"{name}.onnx"))
        print(os.path.join(out, f"{name}.onnx"))
