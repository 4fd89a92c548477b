#!/usr/bin/env python3
"""Writes test cases of onnxruntime's contrib ops (domain com.microsoft) in
the ONNX backend-test layout, for `kiln onnx-test`:

    python gen_contrib_tests.py OUT_DIR

writes OUT_DIR/<name>/model.onnx and
OUT_DIR/<name>/test_data_set_0/{input,output}_K.pb. The expected outputs are
onnxruntime's (the oracle, pinned: onnxruntime==1.32.0 beside onnx==1.23.2);
each is also recomputed by numpy here (unpacking the bytes with its own bit
operations, dequantizing in float64) and the script fails when the two
disagree, so neither kiln nor a single implementation decides what is right.
Nothing it writes is committed. About 2 s on the 2-core machine.

The cases: com.microsoft.MatMulNBits with 4- and 8-bit weights, without
zero points, with packed ones and with zero points of A's type, a K that is not a multiple of the block size
(the last block padded), a bias, A of rank 3 (a prefill) and a single row
(a decoding step's matvec), FLOAT and FLOAT16; and ai.onnx's
DequantizeLinear of INT4 weights with a block size feeding MatMul.
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def quantize(w, bits, block, with_zp, rng):
    """Codes, scales and zero points of w (N, K) as MatMulNBits stores
    them: B (N, k_blocks, blob) uint8, scales (N * k_blocks,), packed zero
    points (N * ceil(k_blocks * bits / 8),) uint8 or None."""
    n, k = w.shape
    kb = -(-k // block)
    pad = np.zeros((n, kb * block), np.float32)
    pad[:, :k] = w
    blocks = pad.reshape(n, kb, block)
    top = (1 << bits) - 1
    lo, hi = blocks.min(axis=2), blocks.max(axis=2)
    if with_zp:
        scale = np.maximum(hi - lo, 1e-3) / top
        zp = np.clip(np.round(-lo / scale), 0, top).astype(np.int64)
    else:
        scale = np.maximum(np.abs(lo), np.abs(hi)) / (1 << (bits - 1))
        zp = np.full((n, kb), 1 << (bits - 1), np.int64)
    scale = scale.astype(np.float32)
    codes = np.clip(np.round(blocks / scale[:, :, None]) + zp[:, :, None], 0, top)
    codes = codes.astype(np.uint8).reshape(n, kb * block)
    # Random codes where the rounding would leave them all near the middle.
    codes = np.where(rng.random(codes.shape) < 0.25,
                     rng.integers(0, top + 1, codes.shape), codes).astype(np.uint8)
    if bits == 4:
        packed = codes[:, 0::2] | (codes[:, 1::2] << 4)
    else:
        packed = codes
    b = packed.reshape(n, kb, block * bits // 8)
    zpp = None
    if with_zp == "float":
        zpp = zp.astype(np.float32).reshape(-1)
    elif with_zp:
        if bits == 4:
            zb = -(-kb // 2)
            zz = np.zeros((n, 2 * zb), np.uint8)
            zz[:, :kb] = zp
            zpp = (zz[:, 0::2] | (zz[:, 1::2] << 4)).reshape(-1)
        else:
            zpp = zp.astype(np.uint8).reshape(-1)
    return b, scale.reshape(-1), zpp


def numpy_dequant(b, scales, zpp, n, k, bits, block):
    """The weights (N, K) in float64 from the stored bytes."""
    kb = -(-k // block)
    raw = b.reshape(n, -1)
    if bits == 4:
        codes = np.empty((n, raw.shape[1] * 2), np.int64)
        codes[:, 0::2] = raw & 15
        codes[:, 1::2] = raw >> 4
    else:
        codes = raw.astype(np.int64)
    if zpp is None:
        zp = np.full((n, kb), 1 << (bits - 1), np.int64)
    elif zpp.dtype != np.uint8:
        zp = zpp.reshape(n, kb).astype(np.float64)
    elif bits == 4:
        zr = zpp.reshape(n, -1)
        zp = np.empty((n, zr.shape[1] * 2), np.int64)
        zp[:, 0::2] = zr & 15
        zp[:, 1::2] = zr >> 4
        zp = zp[:, :kb]
    else:
        zp = zpp.reshape(n, kb).astype(np.int64)
    s = scales.reshape(n, kb).astype(np.float64)
    w = (codes[:, :kb * block] - np.repeat(zp, block, axis=1)) * np.repeat(s, block, axis=1)
    return w[:, :k]


def case(out_dir, name, a_shape, n, bits, block, with_zp, bias, dtype, seed):
    rng = np.random.default_rng(seed)
    k = a_shape[-1]
    w = rng.standard_normal((n, k)).astype(np.float32) * 0.5
    b, scales, zpp = quantize(w, bits, block, with_zp, rng)
    a = rng.standard_normal(a_shape).astype(np.float32)
    elem = TensorProto.FLOAT if dtype == np.float32 else TensorProto.FLOAT16
    a = a.astype(dtype)
    scales = scales.astype(dtype)
    inits = [numpy_helper.from_array(b, "B"), numpy_helper.from_array(scales, "scales")]
    names = ["A", "B", "scales"]
    if with_zp:
        z = zpp.astype(dtype) if with_zp == "float" else zpp
        inits.append(numpy_helper.from_array(z, "zero_points"))
        names.append("zero_points")
    bv = None
    if bias:
        bv = (rng.standard_normal((n,)) * 0.1).astype(dtype)
        inits.append(numpy_helper.from_array(bv, "bias"))
        names += [""] * (5 - len(names)) + ["bias"]
    node = helper.make_node("MatMulNBits", names, ["Y"], domain="com.microsoft",
                            K=k, N=n, bits=bits, block_size=block)
    out_shape = list(a_shape[:-1]) + [n]
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("A", elem, a_shape)],
                              [helper.make_tensor_value_info("Y", elem, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                    helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 10
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    y = sess.run(None, {"A": a})[0]
    # numpy, independently.
    wd = numpy_dequant(b, scales.astype(np.float32), zpp, n, k, bits, block)
    ref = a.astype(np.float64) @ wd.T
    if bias:
        ref = ref + bv.astype(np.float64)
    tol = 2e-2 if dtype == np.float16 else 1e-4
    err = np.abs(y.astype(np.float64) - ref).max() / max(1.0, np.abs(ref).max())
    if err > tol:
        sys.exit(f"{name}: onnxruntime and numpy differ by {err:.3g} (relative)")
    write(out_dir, name, model, a, y)


def dq_matmul_case(out_dir, name, m, k, n, block, seed):
    """DequantizeLinear of INT4 weights (K, N) blocked along K, then MatMul:
    the standard-domain form of a 4-bit linear layer. onnxruntime's default
    optimizations fuse the pair into an approximate kernel (0.05 off here,
    onnxruntime 1.32); its unoptimized graph is the oracle, as elsewhere."""
    rng = np.random.default_rng(seed)
    q = rng.integers(-8, 8, (k, n)).astype(np.int8)
    s = (rng.random((k // block, n)) * 0.1 + 0.01).astype(np.float32)
    a = rng.standard_normal((m, k)).astype(np.float32)
    wq = helper.make_tensor("Wq", TensorProto.INT4, [k, n], q.flatten().tolist())
    nodes = [helper.make_node("DequantizeLinear", ["Wq", "S"], ["W"], axis=0, block_size=block),
             helper.make_node("MatMul", ["A", "W"], ["Y"])]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("A", TensorProto.FLOAT, [m, k])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [m, n])],
                              [wq, numpy_helper.from_array(s, "S")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    y = sess.run(None, {"A": a})[0]
    ref = a.astype(np.float64) @ (q * np.repeat(s.astype(np.float64), block, axis=0))
    err = np.abs(y - ref).max() / max(1.0, np.abs(ref).max())
    if err > 1e-4:
        sys.exit(f"{name}: onnxruntime and numpy differ by {err:.3g} (relative)")
    write(out_dir, name, model, a, y)


def write(out_dir, name, model, a, y):
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, arr, nm in (("input", a, "A"), ("output", y, "Y")):
        with open(os.path.join(d, "test_data_set_0", f"{kind}_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(arr, nm).SerializeToString())


CASES = [
    # name, A shape, N, bits, block, zero points, bias, dtype
    ("test_matmul_nbits_4bit", (5, 64), 24, 4, 16, False, False, np.float32),
    ("test_matmul_nbits_4bit_zero_points", (5, 96), 40, 4, 32, True, False, np.float32),
    ("test_matmul_nbits_4bit_decode_row", (1, 256), 64, 4, 32, True, False, np.float32),
    ("test_matmul_nbits_4bit_ragged_k_bias_rank3", (2, 3, 72), 20, 4, 32, True, True, np.float32),
    ("test_matmul_nbits_8bit", (4, 64), 16, 8, 32, False, False, np.float32),
    ("test_matmul_nbits_8bit_zero_points_bias", (3, 128), 32, 8, 64, True, True, np.float32),
    ("test_matmul_nbits_4bit_float16", (3, 64), 16, 4, 32, True, False, np.float16),
    ("test_matmul_nbits_4bit_float_zero_points", (2, 64), 12, 4, 16, "float", False, np.float32),
]


def main():
    out_dir = sys.argv[1]
    for i, c in enumerate(CASES):
        case(out_dir, *c, seed=100 + i)
    dq_matmul_case(out_dir, "test_dequantize_linear_int4_blocked_matmul", 5, 64, 24, 32, seed=200)


if __name__ == "__main__":
    main()
