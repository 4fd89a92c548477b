#!/usr/bin/env python3
"""JAX programs as kiln end-to-end tests: the framework path users take.

Each program below is a small JAX function with seeded random weights. It is
lowered with `jax.jit(f).lower(*args).as_text()` to StableHLO, converted to
linalg on tensors by IREE's input pipeline (`iree-compile
--iree-input-type=stablehlo --compile-to=input`, the conversion IREE itself
runs), and its `util.func`/`util.return` are renamed to `func.func`/`return`
(the only edit). The result is wrapped as a test in IREE's end-to-end format
by `ci/onnx_node_linalg.py`'s `wrap`: the inputs become
`util.unfoldable_constant`s and JAX's own outputs, computed by XLA on the
CPU, become `check.expect_almost_eq_const` / `check.expect_eq_const`. The
expected values are JAX's, never kiln's.

XLA's CPU backend flushes denormals to zero, IEEE does not: inputs avoid
denormals so that both sides follow IEEE.

Writes `jax_NAME.mlir` beside this script. Needs a venv with
`jax==0.10.2 jaxlib==0.10.2 iree-base-compiler==3.13.0` (not needed in CI:
the written files are committed and the GPU tests run them on lavapipe, on
the CPU runner and in the reference evaluator, as the tensor corpus):

    python3 -m venv /work/venvs/jax
    /work/venvs/jax/bin/pip install jax==0.10.2 jaxlib==0.10.2 iree-base-compiler==3.13.0
    /work/venvs/jax/bin/python gpu-tests/tests/frameworks/gen_jax.py [NAME...]
"""

import os
import shutil
import subprocess
import sys
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "ci"))
import onnx_node_linalg  # noqa: E402  (wrap: the e2e test around a function)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_platforms", "cpu")


def rand(rng, *shape, scale=1.0, dtype=np.float32):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def mlp(rng):
    """Two dense layers, ReLU, softmax; weights are arguments."""

    def f(x, w1, b1, w2, b2):
        h = jax.nn.relu(x @ w1 + b1)
        return jax.nn.softmax(h @ w2 + b2, axis=-1)

    args = [rand(rng, 4, 16), rand(rng, 16, 32, scale=0.3), rand(rng, 32, scale=0.1),
            rand(rng, 32, 8, scale=0.3), rand(rng, 8, scale=0.1)]
    return f, args, 1e-5


def cnn(rng):
    """NHWC convs (SAME, strided with padding), GELU, max pooling, global
    mean, dense, log-softmax; weights are constants in the program."""
    k1 = rand(rng, 3, 3, 3, 8, scale=0.3)
    k2 = rand(rng, 3, 3, 8, 8, scale=0.2)
    wd = rand(rng, 8, 5, scale=0.3)
    dn = ("NHWC", "HWIO", "NHWC")

    def f(x):
        y = jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn)
        y = jax.nn.gelu(y)
        y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        y = jax.lax.conv_general_dilated(y, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=dn)
        y = jnp.mean(y, axis=(1, 2))
        return jax.nn.log_softmax(y @ wd)

    return f, [rand(rng, 2, 12, 12, 3)], 1e-4


def attention(rng):
    """Layer norm, then causal multi-head self-attention (two heads)."""
    wq, wk, wv = (rand(rng, 16, 16, scale=0.25) for _ in range(3))

    def heads(t):
        return t.reshape(2, 6, 2, 8).transpose(0, 2, 1, 3)

    def f(x):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        x = (x - m) * jax.lax.rsqrt(v + 1e-5)
        q, k, vv = heads(x @ wq), heads(x @ wk), heads(x @ wv)
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(8.0)
        s = jnp.where(jnp.tril(jnp.ones((6, 6), bool)), s, -1e9)
        p = jax.nn.softmax(s, -1)
        return jnp.einsum("bhqk,bhkd->bhqd", p, vv).transpose(0, 2, 1, 3).reshape(2, 6, 16)

    return f, [rand(rng, 2, 6, 16)], 1e-5


def gather_argmax(rng):
    """argmax, take with indices, one-hot, clip, power, variance, max."""

    def f(x, i):
        a = jnp.argmax(x, axis=1)
        g = jnp.take(x, i, axis=1)
        t = jnp.clip(x, -0.5, 0.5) ** 3 + jnp.tanh(x) * jnp.sign(x)
        e = jax.nn.one_hot(a, 7) * jnp.exp(x) + jnp.maximum(x, 0.1) / (1 + jnp.abs(x))
        return a, g, t, e, jnp.max(x), jnp.var(x, axis=0)

    return f, [rand(rng, 3, 7), np.array([0, 6, 3, 3], np.int32)], 1e-5


def integers(rng):
    """Integer floor division and modulo with negative operands, shifts,
    wrapping arithmetic, comparisons, conversion."""

    def f(a, b):
        return (a // b, a % b, a >> 2, a * b + 7, jnp.minimum(a, b),
                (a > b).astype(np.int32), a.astype(np.float32) / 3)

    a = rng.integers(-100, 100, (5, 6)).astype(np.int32)
    b = rng.choice([-7, -3, 2, 5, 9], (5, 6)).astype(np.int32)
    return f, [a, b], 1e-6


def specials(rng):
    """IEEE special values through elementwise functions: ±0, ±inf, NaN,
    huge values (no denormals: XLA's CPU backend flushes them)."""

    def f(x):
        return (jax.nn.softplus(x), jax.scipy.special.logsumexp(x, axis=1), jnp.log1p(x),
                jnp.expm1(x), jnp.sqrt(x), jnp.arctan2(x, x[::-1]), jnp.round(x), jnp.floor(x),
                x * 0.0, 1.0 / x, jnp.isnan(x), jnp.nan_to_num(x))

    x = np.array([[0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 2.5],
                  [-2.5, 3.5, 1e38, -1e38, 0.5, -0.5, 1.0, -1.0]], np.float32)
    return f, [x], 1e-5


def half(rng):
    """f16 matmul with SiLU, a bf16 matmul, an f16 column sum."""
    w = rand(rng, 16, 24, scale=0.3, dtype=np.float16)
    w2 = rand(rng, 24, 8, scale=0.3).astype(jnp.bfloat16)

    def f(x):
        h = jax.nn.silu(x @ w)
        y = h.astype(jnp.bfloat16) @ w2
        return y.astype(np.float32), jnp.sum(h, axis=0)

    # f16/bf16 rounding of intermediate values differs with the order of
    # a dot product's sums: tolerance of a few bf16 units.
    return f, [rand(rng, 4, 16, dtype=np.float16)], 3e-2


def odd_shapes(rng):
    """A 65x129 by 129x67 matmul, a 10,100-element sum, a row max over
    101 columns, a mean (sizes no tile divides)."""
    b = rand(rng, 129, 67, scale=0.2)

    def f(x, y):
        return x @ b, jnp.sum(y, axis=0), jnp.max(y.reshape(100, 101), axis=1), jnp.mean(y)

    return f, [rand(rng, 65, 129, scale=0.2), rand(rng, 10100)], 1e-4


def convs(rng):
    """Depthwise conv (feature_group_count), dilated conv, transposed conv
    with stride 2, average pooling with SAME padding."""
    kdw = rand(rng, 3, 3, 1, 6, scale=0.3)
    kdil = rand(rng, 3, 3, 6, 5, scale=0.3)
    kt = rand(rng, 3, 3, 6, 4, scale=0.3)
    dn = ("NHWC", "HWIO", "NHWC")

    def f(x):
        dw = jax.lax.conv_general_dilated(x, kdw, (1, 1), "SAME", dimension_numbers=dn,
                                          feature_group_count=6)
        dil = jax.lax.conv_general_dilated(x, kdil, (1, 1), "VALID", rhs_dilation=(2, 2),
                                           dimension_numbers=dn)
        tr = jax.lax.conv_transpose(x, kt, (2, 2), "SAME", dimension_numbers=dn)
        avg = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9
        return dw, dil, tr, avg

    return f, [rand(rng, 2, 9, 9, 6)], 1e-4


def normalize_and_move(rng):
    """Batch statistics, reflect padding, concatenation, strided slices,
    flip, roll."""

    def f(x):
        y = (x - x.mean((0, 1, 2))) / jnp.sqrt(x.var((0, 1, 2)) + 1e-3)
        p = jnp.pad(y, ((0, 0), (1, 2), (2, 1), (0, 0)), mode="reflect")
        return p, jnp.concatenate([y, -y], axis=3)[:, ::2, 1::3, :], jnp.flip(x, 1), jnp.roll(x, 2, axis=2)

    return f, [rand(rng, 2, 5, 7, 3)], 1e-4


def scan_sort_scatter(rng):
    """Cumulative sums (f32 along rows, i32 along columns), a sort with
    ties, -0.0 and NaN, a stable argsort, top_k, index updates with
    .at[].set (unique indices, one negative) and .at[].add (duplicates add
    up): IREE's iree_linalg_ext scan, sort, topk and scatter."""

    def f(x, s, n, i, j, u):
        return (jnp.cumsum(x, axis=1), jnp.cumsum(n, axis=0), jnp.sort(s, axis=1),
                jnp.argsort(s, axis=1), *jax.lax.top_k(x, 3), x.at[i].set(u), x.at[j].add(u))

    x = rand(rng, 4, 9)
    s = np.round(rand(rng, 3, 8), 0).astype(np.float32)
    s[0, 1], s[0, 5], s[1, 2], s[2, 0] = -0.0, np.nan, 0.0, np.nan
    n = rng.integers(-50, 50, (6, 5)).astype(np.int32)
    i = np.array([2, 0, -1, 1], np.int32)
    j = np.array([1, 3, 1, 1], np.int32)
    return f, [x, s, n, i, j, rand(rng, 4, 9)], 1e-5


PROGRAMS = {
    "mlp": mlp,
    "cnn": cnn,
    "attention": attention,
    "gather_argmax": gather_argmax,
    "integers": integers,
    "specials": specials,
    "half": half,
    "odd_shapes": odd_shapes,
    "convs": convs,
    "normalize_and_move": normalize_and_move,
    "scan_sort_scatter": scan_sort_scatter,
}


def iree_compile():
    exe = os.path.join(os.path.dirname(sys.executable), "iree-compile")
    return exe if os.path.exists(exe) else shutil.which("iree-compile")


def build(name, work):
    f, args, tol = PROGRAMS[name](np.random.default_rng(zlib.crc32(name.encode())))
    hlo = os.path.join(work, name + ".stablehlo.mlir")
    linalg = os.path.join(work, name + ".linalg.mlir")
    with open(hlo, "w") as fh:
        fh.write(jax.jit(f).lower(*args).as_text())
    subprocess.run([iree_compile(), "--iree-input-type=stablehlo", "--compile-to=input", hlo,
                    "-o", linalg], check=True)
    text = open(linalg).read().replace("util.func public", "func.func").replace("util.return", "return")
    outs = jax.jit(f)(*args)
    outs = [np.asarray(o) for o in (outs if isinstance(outs, tuple) else (outs,))]
    test = onnx_node_linalg.wrap(text, "main", args, outs, tol, tol)
    doc = (PROGRAMS[name].__doc__ or "").split("\n")
    header = ["// Generated by gen_jax.py (JAX %s, IREE input conversion); do not edit." % jax.__version__,
              "// " + " ".join(line.strip() for line in doc).strip()]
    with open(os.path.join(HERE, "jax_%s.mlir" % name), "w") as fh:
        fh.write("\n".join(header) + "\n" + test)


def main():
    names = sys.argv[1:] or list(PROGRAMS)
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            build(name, work)
            print("wrote jax_%s.mlir" % name)


if __name__ == "__main__":
    main()
