"""ONNX's own backend test runner against kiln.onnx_backend.

CI runs a subset of the node tests (a few seconds);
KILN_ONNX_BACKEND_ALL=1 runs every node test of the installed onnx (1,884
on the CPU device) and the simple, pytorch-converted and pytorch-operator
model tests (140): minutes, never in CI.
"""

import os

import onnx.backend.test
import pytest

import kiln
import kiln.onnx_backend

backend_test = onnx.backend.test.BackendTest(kiln.onnx_backend, __name__)
if os.environ.get("KILN_ONNX_BACKEND_ALL"):
    backend_test.include(r"_cpu$")
else:
    backend_test.include(
        r"^test_(abs|add|add_bcast|relu|sigmoid|tanh|matmul_2d|matmul_3d|softmax_axis_1"
        r"|transpose_default|reshape_reduced_dims|concat_2d_axis_0|gemm_default_single_elem_vector_bias"
        r"|where_example|equal|clip|reduce_sum_keepdims_example|conv_with_strides_padding"
        r"|maxpool_2d_default|cast_FLOAT_to_FLOAT16|not_2d|string_concat_broadcasting"
        # ml_dtypes' types in and out: 4-bit (packed by ONNX, a byte each in
        # numpy), 2-bit, float8.
        r"|cast_FLOAT_to_INT4|dequantizelinear_uint2|quantizelinear_e4m3fn)_cpu$"
    )
# Not the "real" ones: they generate expected outputs of large models with
# onnx's reference evaluator (minutes each).
suites = ["OnnxBackendNodeModelTest"]
if os.environ.get("KILN_ONNX_BACKEND_ALL"):
    suites += [
        "OnnxBackendSimpleModelTest",
        "OnnxBackendPyTorchConvertedModelTest",
        "OnnxBackendPyTorchOperatorModelTest",
    ]
for suite in suites:
    globals()[suite] = backend_test.test_cases[suite]


def test_run_node():
    import numpy as np
    from onnx import helper

    node = helper.make_node("Add", ["a", "b"], ["c"])
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    (c,) = kiln.onnx_backend.run_node(node, [a, a])
    np.testing.assert_array_equal(c, a + a)
    assert kiln.onnx_backend.supports_device("CPU")
    assert not kiln.onnx_backend.supports_device("CUDA")
