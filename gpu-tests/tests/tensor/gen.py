#!/usr/bin/env python3
"""Writes kiln's tensor-level end-to-end tests (this folder's *.mlir and
README.md) from the Python description of each file below, with every
expected value computed here by numpy, independently of kiln.

    python3 gen.py              write the files
    python3 gen.py --check      regenerate in memory; fail if a committed file
                                differs, then parse and verify the standard
                                part of every file with mlir-opt-19, check
                                the errors/ folder (see check_errors_folder)
                                and that every op of the issue's section 1
                                and every element type is covered
    python3 gen.py --run-mlir   (alone or with --check) also compile every
                                file with MLIR 19's own CPU pipeline and run
                                it with mlir-cpu-runner-19: every check must
                                pass there too (a second, independent oracle
                                for the expected values)
    python3 gen.py --only NAME  restrict --check / --run-mlir to files whose
                                name contains NAME
    python3 gen.py --standard DIR  write the standard form of every committed
                                file to DIR (for kiln's generic-form test)

numpy (>= 1.24) and mlir-opt-19 are needed; --check and --run-mlir fail with
a message saying so when either is missing, never pass silently.

The format is IREE's end-to-end test format (iree/tests/e2e): each file holds
`func.func @name()` functions with no arguments and no results. Inputs come
from `util.unfoldable_constant` (a constant the compiler may not fold),
`arith.constant`, or `flow.tensor.dynamic_constant` (a constant whose static
type is erased to `?` dims, so the program is compiled for dynamic shapes);
`util.optimization_barrier` stops folding across it. Checks are IREE's
`check` ops:
    check.expect_eq(%a, %b) : T             bytes equal (IREE compares the
    check.expect_eq_const(%a, ATTR) : T     buffers byte for byte: -0.0 is
                                            not 0.0)
    check.expect_almost_eq(%a, %b[, atol X][, rtol Y]) : T
    check.expect_almost_eq_const(%a, ATTR[, atol X][, rtol Y]) : T
        each element: actual == expected, or expected is finite and
        |actual - expected| <= atol + rtol * |expected|, computed in f64 after
        widening f16/bf16 to f32 (IREE's iree_math_fuzzy_compare_f64). The
        defaults are IREE's: atol 1.0e-4 (an f32 attribute), rtol 0.
    check.expect_true(%v) : iN / check.expect_false(%v) : iN   (scalars)

How each expected value is computed
-----------------------------------
* Inputs come from a SplitMix64 generator seeded with the file and function
  name (no dependence on numpy's random streams, so every numpy version
  writes the same files). Float inputs are rounded to their element type
  first (f32 via numpy float32, f16 via numpy float16, bf16 with
  round-to-nearest-even on the top 16 bits, done here); the printed literal
  is the shortest decimal that MLIR reads back (decimal -> double -> type,
  and also decimal -> type directly) as exactly that value.
* Integer results follow MLIR's arith semantics: two's complement wrap-around
  for add/sub/mul/shl, divsi/remsi round toward zero (remainder takes the
  dividend's sign), divui/remui/shrui/cmpi u* on the unsigned bit pattern,
  extsi/extui/trunci on bit patterns. Tests overflow on purpose; none divides
  by zero or computes INT_MIN / -1 (undefined in MLIR).
* Float contractions (matmul, conv, dot, reductions) whose inputs are dyadic
  (k / 2^n) are computed exactly with integers and then rounded once to the
  output type: the exact answer. When every partial sum in any order is
  representable in the accumulator type (checked here), every summation
  order gives that answer, so those tests use exact checks (expect_eq_const).
  Other float results are computed in float64 (math functions in float64
  numpy, sums with math.fsum) and rounded once to the output type.
* f16/bf16 values are stored as f16/bf16 and computed in f32 (an arith.extf
  to f32 in the region, arith.truncf back), as real programs do; numpy does
  the same (f32 arithmetic on float32 arrays, then the rounding).

Tolerances
----------
* expect_eq / expect_eq_const: integers, i1, data movement (copy, transpose,
  slices, pads, concat, reshapes, broadcast, fill), single correctly rounded
  float ops (add, sub, mul, neg, max, min, select, compare) and
  order-independent exact float sums (see above).
* IREE's default (atol 1e-4, rtol 0): float results of magnitude below ~10
  after a few correctly rounded ops or a short sum of non-dyadic values
  (error below 1e-5).
* Explicit atol/rtol, chosen from Vulkan's precision rules for SPIR-V
  (Vulkan spec, "Precision and Operation of SPIR-V Instructions") and from
  accumulation order:
    - f32 division (2.5 ulp): rtol 1e-6.
    - exp/exp2/log/log2/pow/tanh/erf/softmax/gelu (3+2|x| ulp, or
      "inherited" from exp/log): rtol 1e-4 with a small atol 1e-6 near zero.
    - sin/cos: Vulkan allows an absolute error of 2^-11: atol 5e-4.
    - sqrt (inherited from 1/inversesqrt) and rsqrt (2 ulp): rtol 1e-5.
    - contractions of random (non-dyadic) f32 data with up to ~64 terms per
      output (matmul, conv, dot, matvec): IREE's default; the worst-case
      error of any order, n * 2^-24 * sum|terms|, stays below 1e-5 there.
      Row / column sums of 37..53 random terms: atol 1e-5, rtol 1e-5.
    - the one long non-exact sum (1,000,000 tenths): rtol 5e-3, which covers
      a plain sequential f32 loop (0.24% off on that data) while losing or
      repeating one 65,535-element chunk (6.5%) still fails.
    - f16 / bf16 results of a computation that is not exact: one ulp of the
      type, rtol 2^-10 (f16) or 2^-7 (bf16), on top of the f32 tolerance.
      f16 softmax (MLIR's decomposition computes max, exp and the sum in
      f16): atol 1e-3, rtol 2e-2.

Every expected value is also confirmed by MLIR itself: `--run-mlir` (below)
runs each file through MLIR 19's CPU pipeline, where every check passes.

mlir-opt-19 check
-----------------
Each file is rewritten to standard MLIR (`util.unfoldable_constant` ->
`arith.constant`, `util.optimization_barrier` -> an identity `tensor.cast`,
`flow.tensor.dynamic_constant` -> `arith.constant` + `tensor.cast` to the
dynamic type, each check -> a call to a generated function that counts the
mismatching elements with IREE's comparison rule) and parsed and verified by
mlir-opt-19. The IREE ops' own type rules (the value's type equals the
checked operand's type, almost_eq only on float tensors, the erased type of
a dynamic constant matches its value) are checked here while rewriting.
--run-mlir lowers that standard module with MLIR's passes (one-shot
bufferization, linalg to loops, LLVM), runs it with mlir-cpu-runner-19 and
requires every check to pass.
"""
import argparse
import collections
import itertools
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from fractions import Fraction

try:
    import numpy as np
except ImportError:  # reported by main(), never silently skipped
    np = None

HERE = os.path.dirname(os.path.abspath(__file__))
MLIR_OPT = 'mlir-opt-19'
MLIR_RUNNER = 'mlir-cpu-runner-19'

# ---------------------------------------------------------------------------
# Element types and exact rounding.
# ---------------------------------------------------------------------------

# precision (significand bits, hidden bit included), min normal exponent,
# max exponent
FLOAT_FORMATS = {'f32': (24, -126, 127), 'f16': (11, -14, 15), 'bf16': (8, -126, 127),
                 'f64': (53, -1022, 1023)}
INT_BITS = {'i1': 1, 'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64}
ELEMENT_TYPES = ['f32', 'f16', 'bf16', 'i1', 'i8', 'i16', 'i32', 'i64']
INF_BITS = {'f32': (0x7F800000, 8), 'f16': (0x7C00, 4), 'bf16': (0x7F80, 4),
            'f64': (0x7FF0000000000000, 16)}
STORAGE_BITS = {'f32': 32, 'f16': 16, 'bf16': 16, 'f64': 64, 'i1': 8, 'i8': 8, 'i16': 16, 'i32': 32,
                'i64': 64}


def is_float(et):
    return et in FLOAT_FORMATS


def round_ratio(n, d, et):
    """The value of `et` nearest n / d (integers, d > 0), ties to even, as a
    Python float (exact: every f32/f16/bf16 value is a double)."""
    p, emin, emax = FLOAT_FORMATS[et]
    if n == 0:
        return 0.0
    sign = -1.0 if n < 0 else 1.0
    n = abs(n)
    e = n.bit_length() - d.bit_length()  # 2^e <= n/d < 2^(e+2)
    if (n << max(0, -e)) < (d << max(0, e)):
        e -= 1
    e = max(e, emin)
    sh = e - (p - 1)  # the ulp is 2^sh
    num, den = (n, d << sh) if sh >= 0 else (n << -sh, d)
    r, rem = divmod(num, den)
    if 2 * rem > den or (2 * rem == den and r & 1):
        r += 1
    if r.bit_length() + sh > emax + 1:  # 2^(emax + 1) or more
        return sign * math.inf
    return sign * math.ldexp(r, sh)


def round_fraction(q, et):
    """The value of `et` nearest the rational `q` (ties to even)."""
    q = Fraction(q)
    return round_ratio(q.numerator, q.denominator, et)


def bf16_from_f64(x):
    """float64 array -> float32 array of bf16 values, rounded once (ties to
    even), subnormals, overflow to infinity, signed zeros and NaN included."""
    x = np.asarray(x, dtype=np.float64)

    def one(v):
        if math.isnan(v) or math.isinf(v) or v == 0:
            return v
        return round_fraction(Fraction(v), 'bf16')
    out = np.array([one(v) for v in x.reshape(-1).tolist()], dtype=np.float64)
    return out.reshape(x.shape).astype(np.float32)


def bf16_from_f32(x):
    """arith.truncf f32 -> bf16: round to nearest even on the top 16 bits."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return (b & 0xFFFFFFFF).astype(np.uint32).view(np.float32)


def wrap_int(x, bits):
    """Two's complement wrap of Python/numpy integers to `bits` bits (signed)."""
    if bits == 1:
        return np.asarray(x).astype(np.int64) & 1
    a = np.asarray(x, dtype=object)
    m = 1 << bits
    h = 1 << (bits - 1)
    f = np.frompyfunc(lambda v: ((int(v) + h) % m) - h, 1, 1)
    return f(a)


NP_INT = {'i8': 'int8', 'i16': 'int16', 'i32': 'int32', 'i64': 'int64'}


def store(et, x):
    """`x` in the numpy representation of `et` storage: float32 (f32, and
    bf16 values held exactly in float32), float16, bool (i1) or intN.
    Floats are rounded once from float64; integers wrap (two's complement,
    i1 keeps the low bit)."""
    if et == 'f32':
        return f64(x).astype(np.float32)
    if et == 'f64':
        return f64(x)
    if et == 'f16':
        return f64(x).astype(np.float16)
    if et == 'bf16':
        return bf16_from_f64(f64(x))
    a = np.asarray(x)
    if a.dtype == bool:
        a = a.astype(np.int64)
    bits = INT_BITS[et]
    if a.dtype.kind in 'iu' and a.dtype != np.uint64:
        a = a.astype(np.int64)
        if bits < 64:
            h = 1 << (bits - 1)
            a = ((a + h) & ((1 << bits) - 1)) - h
    else:
        h = 1 << (bits - 1)
        m = 1 << bits
        a = np.array([((int(v) + h) % m) - h for v in a.reshape(-1).tolist()],
                     dtype=np.int64).reshape(a.shape)
    if et == 'i1':
        return a != 0
    return a.astype(NP_INT[et])


def f64(a):
    a = np.asarray(a)
    if a.dtype == object:
        return np.array([float(v) for v in a.reshape(-1).tolist()]).reshape(a.shape)
    return a.astype(np.float64)


def exactly(et, x):
    """`store(et, x)` after checking that `x` is representable exactly (the
    generator's claim behind an exact float check)."""
    s = store(et, x)
    if is_float(et):
        assert np.array_equal(f64(s), f64(x), equal_nan=True), 'value not exact in ' + et
    return s


# ---------------------------------------------------------------------------
# Printing literals the way MLIR reads them back.
# ---------------------------------------------------------------------------

def mlir_float_text(s):
    if 'e' in s:
        m, e = s.split('e')
        if '.' not in m:
            m += '.0'
        return m + 'e' + e
    if '.' not in s:
        s += '.0'
    return s


def reads_back(et, s, v):
    """MLIR 19 reads a decimal float literal as a double, then converts it to
    the element type (ties to even). Accept `s` only when that, and also the
    direct decimal -> type rounding, give exactly `v`."""
    via_double = round_fraction(Fraction(float(s)), et)
    direct = round_fraction(Fraction(s), et)
    return via_double == v and direct == v


_FMT_CACHE = {}


def fmt_float(et, v):
    v = float(v)
    key = (et, v, math.copysign(1.0, v))
    hit = _FMT_CACHE.get(key)
    if hit is not None:
        return hit
    if math.isnan(v):
        # the quiet NaN (sign clear, top mantissa bit set), as hex bits
        bits, nd = INF_BITS[et]
        s = '0x%0*X' % (nd, bits | (bits & -bits) >> 1)
        _FMT_CACHE[key] = s
        return s
    if math.isinf(v):
        bits, nd = INF_BITS[et]
        if v < 0:
            bits |= 1 << (4 * nd - 1)
        s = '0x%0*X' % (nd, bits)
    elif v == 0:
        s = '-0.0' if math.copysign(1.0, v) < 0 else '0.0'
    else:
        assert round_fraction(v, et) == v, (et, v)
        conv = {'f32': np.float32, 'f16': np.float16, 'bf16': lambda x: bf16_from_f64(x),
                'f64': np.float64}[et]
        # One errstate around the search (entering one costs more than
        # the conversion it guards).
        with np.errstate(over='ignore'):
            for p in range(1, 18):
                s = mlir_float_text('%.*g' % (p, v))
                # cheap filter first, then the exact test of both reading paths
                quick = float(conv(float(s))) == v
                if quick and reads_back(et, s, v):
                    break
            else:
                raise AssertionError('no literal for %r' % v)
    _FMT_CACHE[key] = s
    return s


def fmt_scalar(et, v):
    if is_float(et):
        return fmt_float(et, v)
    if et == 'i1':
        return 'true' if bool(v) else 'false'
    return str(int(v))


def fmt_attr_float(x):
    """atol / rtol values (F32Attr)."""
    return fmt_float('f32', float(np.float32(x)))


def dense(a, et, width=100):
    """`dense<...>` literal of the numpy array `a` (storage representation of
    `et`): a splat when all elements are equal, else nested lists wrapped to
    `width` columns with one innermost row per line for rank >= 2."""
    a = np.asarray(a)
    flat = a.reshape(-1)
    if flat.size == 0:
        raise ValueError('empty tensors are not used')
    if is_float(et):
        bits = flat.view({np.dtype(np.float32): np.uint32,
                          np.dtype(np.float64): np.uint64}.get(flat.dtype, np.uint16))
        splat = bool((bits == bits[0]).all())
    else:
        splat = bool((flat == flat[0]).all())
    if a.ndim == 0 or splat:
        return 'dense<%s>' % fmt_scalar(et, flat[0])
    cache = {}
    words = []
    for x in flat.tolist():
        k = (x, math.copysign(1.0, x)) if is_float(et) else x  # -0.0 == 0.0 as a key
        w = cache.get(k)
        if w is None:
            w = cache[k] = fmt_scalar(et, x)
        words.append(w)
    shape = a.shape
    rank = len(shape)
    inner = shape[-1]
    # Tokens: the opening brackets before element i, the closing after it.
    out = ['dense<']
    line_len = 6
    blocks = []  # elements under one bracket of each nesting depth
    acc = 1
    for d in reversed(shape):
        acc *= d
        blocks.insert(0, acc)
    for i, w in enumerate(words):
        opens = sum(1 for b in blocks if i % b == 0)
        closes = sum(1 for b in blocks if (i + 1) % b == 0)
        piece = '[' * opens + w + ']' * closes
        if i + 1 < len(words):
            piece += ','
        new_row = rank >= 2 and i % inner == 0 and i != 0
        if new_row or (line_len + len(piece) + 1 > width and i != 0):
            indent = 4 if new_row or rank == 1 else 6
            out.append('\n' + ' ' * indent)
            line_len = indent
        elif i != 0:
            out.append(' ')
            line_len += 1
        out.append(piece)
        line_len += len(piece)
    out.append('>')
    return ''.join(out)


def ttype(shape, et, dyn=()):
    dims = ['?' if i in dyn else str(d) for i, d in enumerate(shape)]
    return 'tensor<' + ''.join(d + 'x' for d in dims) + et + '>'


# ---------------------------------------------------------------------------
# Deterministic inputs.
# ---------------------------------------------------------------------------

M64 = (1 << 64) - 1


class Rng:
    """SplitMix64 seeded by a name: the same numbers on every machine."""

    def __init__(self, name):
        self.state = zlib.crc32(name.encode())

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def ints(self, shape, lo, hi):
        """Integers uniform in [lo, hi], int64 array."""
        n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
        span = hi - lo + 1
        return np.array([lo + self.next() % span for _ in range(n)],
                        dtype=np.int64).reshape(shape)

    def bits64(self, shape):
        n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
        return np.array([self.next() - (1 << 63) for _ in range(n)], dtype=np.int64).reshape(shape)

    def uniform(self, shape, lo, hi):
        n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
        u = np.array([(self.next() >> 11) * 2.0 ** -53 for _ in range(n)])
        return (lo + (hi - lo) * u).reshape(shape)

    def floats(self, shape, et, lo=-1.0, hi=1.0):
        """Uniform values rounded to `et` (storage representation)."""
        return store(et, self.uniform(shape, lo, hi))

    def dyadic(self, shape, et, lo, hi, denom):
        """Integers in [lo, hi] divided by `denom` (a power of two), exact in
        `et`: partial sums of their products stay exact."""
        return exactly(et, self.ints(shape, lo, hi) / float(denom))


# ---------------------------------------------------------------------------
# Exact contractions (matmul, conv, dot, sums) of float data.
# ---------------------------------------------------------------------------

def to_scaled_ints(a):
    """A float array as (integers as a Python-int object array, s) with
    a == ints * 2^-s exactly."""
    a64 = f64(a)
    s = 0
    for v in np.unique(np.abs(a64)):
        if v == 0:
            continue
        m, e = math.frexp(float(v))
        # v = m * 2^e, m has at most 53 significant bits
        mant = int(m * (1 << 53))
        tz = (mant & -mant).bit_length() - 1
        s = max(s, 53 - e - tz)
    scaled = np.ldexp(a64, s)  # exact: a power-of-two scaling
    if np.abs(scaled).max(initial=0) < 2.0 ** 53:
        return scaled.astype(np.int64).astype(object), s
    ints = np.array([int(Fraction(float(v)) * (1 << s)) for v in a64.reshape(-1)],
                    dtype=object).reshape(a64.shape)
    return ints, s


def einsum_exact(spec, *arrays):
    """np.einsum on float inputs computed exactly: returns (object array of
    Fractions' numerators, scale) pairs folded into Fractions."""
    ints = []
    scale = 0
    for a in arrays:
        i, s = to_scaled_ints(a)
        ints.append(i)
        scale += s
    bound = 1
    for i in ints:
        m = max((abs(int(v)) for v in i.reshape(-1)), default=0)
        bound *= max(m, 1)
    terms = 1
    lhs, out = spec.split('->')
    sizes = {}
    for lab, a in zip(lhs.split(','), arrays):
        sizes.update(zip(lab, np.shape(a)))
    for ch, d in sizes.items():
        if ch not in out:
            terms *= d
    if (bound * terms).bit_length() < 63:
        res = np.einsum(spec, *[i.astype(np.int64) for i in ints])
        res = res.astype(object)
    else:
        res = einsum_object(spec, *ints)
    return np.asarray(res, dtype=object), scale


def einsum_object(spec, *arrays):
    """einsum for Python-int object arrays (exact, slow; small inputs only)."""
    ins, out = spec.split('->')
    ins = ins.split(',')
    letters = sorted(set(''.join(ins)))
    sizes = {}
    for lab, a in zip(ins, arrays):
        for ch, d in zip(lab, a.shape):
            sizes[ch] = d
    result = np.zeros([sizes[c] for c in out], dtype=object)
    result[...] = 0
    import itertools
    for idx in itertools.product(*[range(sizes[c]) for c in letters]):
        env = dict(zip(letters, idx))
        term = 1
        for lab, a in zip(ins, arrays):
            term *= a[tuple(env[c] for c in lab)]
        result[tuple(env[c] for c in out)] += term
    return result


def exact_result(et, num, scale):
    """Round the exact values num * 2^-scale to `et` once."""
    num = np.asarray(num, dtype=object)
    if all(abs(int(n)) < (1 << 53) for n in num.reshape(-1)):
        # each value is exactly a double: one rounding from there
        return store(et, np.ldexp(num.astype(np.int64).astype(np.float64), -scale))
    flat = [round_ratio(int(n), 1 << scale, et) for n in num.reshape(-1)]
    return store(et, np.array(flat, dtype=np.float64).reshape(num.shape))


def contract(spec, et, *arrays):
    """einsum(spec, *arrays) computed exactly and rounded once to `et`."""
    num, scale = einsum_exact(spec, *arrays)
    return exact_result(et, num, scale)


def order_free(spec, et, *arrays, init=None):
    """True when every partial sum of the contraction, in any order, is
    exactly representable in `et` (so all summation orders agree): the sum
    of the absolute values of the terms, as an integer multiple of the
    finest scale, has at most `precision` bits."""
    num, scale = einsum_exact(spec, *[np.abs(f64(a)) for a in arrays])
    worst = max(int(v) for v in np.asarray(num).reshape(-1))
    if init is not None:
        worst += int(np.abs(f64(init)).max() * (1 << scale))
    p = FLOAT_FORMATS[et][0]
    return worst < (1 << p)


def fsum_axis(a, axis):
    """Correctly rounded (math.fsum) float64 sum along `axis`."""
    return np.apply_along_axis(lambda v: math.fsum(v.tolist()), axis, f64(a))


# ---------------------------------------------------------------------------
# Writing a test function.
# ---------------------------------------------------------------------------

class V:
    """An SSA value: a tensor (shape, element type, dynamic dims) or a
    scalar (shape None)."""

    def __init__(self, name, et, shape=None, dyn=()):
        self.name, self.et, self.shape, self.dyn = name, et, shape, tuple(dyn)

    @property
    def ty(self):
        if self.shape is None:
            return self.et
        return ttype(self.shape, self.et, self.dyn)

    def __str__(self):
        return self.name

    def __format__(self, spec):
        return self.name


def amap(text):
    return 'affine_map<%s>' % text


def ident(rank):
    ds = ', '.join('d%d' % i for i in range(rank))
    return '(%s) -> (%s)' % (ds, ds)


class Fn:
    """One `func.func @name()` of a test file. Values get fresh names ending
    in a number; names inside regions written by the tests end in a letter,
    so the two never collide."""

    def __init__(self, name, comment=None):
        self.name = name
        self.comment = comment
        self.lines = []
        self.counts = collections.Counter()
        self.index_consts = {}
        self.scalar_consts = {}
        self.checks = 0

    # -- text --------------------------------------------------------------
    def fresh(self, hint):
        assert re.fullmatch(r'[a-z_]+', hint), hint
        self.counts[hint] += 1
        return '%%%s%d' % (hint, self.counts[hint])

    def emit(self, text):
        self.lines.append(text.strip('\n'))

    def op(self, rhs, et, shape=None, dyn=(), hint='t'):
        v = V(self.fresh(hint), et, shape, dyn)
        self.emit('%s = %s' % (v.name, rhs))
        return v

    def render(self):
        out = []
        if self.comment:
            out += ['// ' + c for c in self.comment.strip().split('\n')]
        out.append('func.func @%s() {' % self.name)
        for text in self.lines:
            out += ['  ' + ln if ln else '' for ln in text.split('\n')]
        out.append('  return')
        out.append('}')
        assert self.checks > 0, self.name + ' checks nothing'
        return '\n'.join(out) + '\n'

    # -- inputs ------------------------------------------------------------
    def const(self, a, et, how='unfoldable', dyn=None, hint='in'):
        """A tensor input holding `a` (storage representation of `et`):
        how = 'unfoldable' (util.unfoldable_constant), 'arith'
        (arith.constant) or 'dynamic' (flow.tensor.dynamic_constant with the
        dims in `dyn` erased; all of them when dyn is None)."""
        a = np.asarray(a)
        st = ttype(a.shape, et)
        lit = dense(a, et)
        if how == 'dynamic':
            d = tuple(range(a.ndim)) if dyn is None else tuple(dyn)
            return self.op('flow.tensor.dynamic_constant %s : %s -> %s'
                           % (lit, st, ttype(a.shape, et, d)), et, a.shape, d, hint)
        opname = {'unfoldable': 'util.unfoldable_constant', 'arith': 'arith.constant'}[how]
        return self.op('%s %s : %s' % (opname, lit, st), et, a.shape, (), hint)

    def splat_const(self, value, shape, et, how='unfoldable', dyn=None, hint='in'):
        """A splat input without building the array (for huge shapes)."""
        lit = 'dense<%s>' % fmt_scalar(et, value)
        st = ttype(shape, et)
        if how == 'dynamic':
            d = tuple(range(len(shape))) if dyn is None else tuple(dyn)
            return self.op('flow.tensor.dynamic_constant %s : %s -> %s'
                           % (lit, st, ttype(shape, et, d)), et, tuple(shape), d, hint)
        opname = {'unfoldable': 'util.unfoldable_constant', 'arith': 'arith.constant'}[how]
        return self.op('%s %s : %s' % (opname, lit, st), et, tuple(shape), (), hint)

    def scalar(self, value, et, how='arith'):
        key = (et, fmt_scalar(et, value), how)
        if key not in self.scalar_consts:
            opname = {'unfoldable': 'util.unfoldable_constant', 'arith': 'arith.constant'}[how]
            # a bool attribute carries its type: `arith.constant true`
            typed = key[1] if et == 'i1' else '%s : %s' % (key[1], et)
            self.scalar_consts[key] = self.op('%s %s' % (opname, typed), et, hint='cst')
        return self.scalar_consts[key]

    def idx(self, n):
        if n not in self.index_consts:
            self.index_consts[n] = self.op('arith.constant %d : index' % n, 'index', hint='c')
        return self.index_consts[n]

    def barrier(self, v):
        assert v.shape is not None
        return self.op('util.optimization_barrier %s : %s' % (v, v.ty), v.et, v.shape, v.dyn,
                       'b')

    def dim(self, v, i):
        return self.op('tensor.dim %s, %s : %s' % (v, self.idx(i), v.ty), 'index', hint='d')

    def sizes_of(self, v):
        """index values of the dynamic dims of `v` (tensor.dim)."""
        return {i: self.dim(v, i) for i in v.dyn}

    def empty(self, shape, et, dyn=(), sizes=None):
        dyn = tuple(dyn)
        args = ', '.join(str(sizes[i]) for i in dyn)
        return self.op('tensor.empty(%s) : %s' % (args, ttype(shape, et, dyn)), et,
                       tuple(shape), dyn, 'e')

    def fill(self, scalar, t):
        return self.op('linalg.fill ins(%s : %s) outs(%s : %s) -> %s'
                       % (scalar, scalar.ty, t, t.ty, t.ty), t.et, t.shape, t.dyn, 'f')

    def full(self, value, shape, et, dyn=(), sizes=None):
        """tensor.empty + linalg.fill with `value`."""
        return self.fill(self.scalar(value, et), self.empty(shape, et, dyn, sizes))

    def cast(self, v, dyn):
        """tensor.cast to the same shape with the dims in `dyn` dynamic."""
        t = ttype(v.shape, v.et, dyn)
        return self.op('tensor.cast %s : %s to %s' % (v, v.ty, t), v.et, v.shape, dyn, 'cast')

    def generic(self, ins, outs, maps, iters, body, hint='g'):
        """linalg.generic with the given affine map texts, iterator kinds
        ('p' / 'r') and region text (from `^bb0(...)` on)."""
        its = ', '.join('"%s"' % {'p': 'parallel', 'r': 'reduction'}[c] for c in iters)
        head = 'linalg.generic {indexing_maps = [%s], iterator_types = [%s]}' % (
            ', '.join(amap(m) for m in maps), its)
        if ins:
            head += ' ins(%s : %s)' % (', '.join(v.name for v in ins),
                                       ', '.join(v.ty for v in ins))
        head += ' outs(%s : %s) {' % (', '.join(v.name for v in outs),
                                      ', '.join(v.ty for v in outs))
        body = '\n'.join('  ' + ln.strip() if not ln.strip().startswith('^') else ln.strip()
                         for ln in body.strip().split('\n'))
        if len(outs) == 1:
            res = outs[0].ty
        else:
            res = '(%s)' % ', '.join(v.ty for v in outs)
        name = self.fresh(hint)
        lhs = name if len(outs) == 1 else '%s:%d' % (name, len(outs))
        self.emit('%s = %s\n%s\n} -> %s' % (lhs, head, body, res))
        if len(outs) == 1:
            o = outs[0]
            return V(name, o.et, o.shape, o.dyn)
        return [V('%s#%d' % (name, i), o.et, o.shape, o.dyn) for i, o in enumerate(outs)]

    def elementwise(self, ins, out_et, body, hint='g', out=None):
        """A parallel linalg.generic over the shape of ins[0] (identity maps)
        writing a new tensor.empty of `out_et`."""
        v0 = ins[0]
        if out is None:
            sizes = self.sizes_of(v0) if v0.dyn else None
            out = self.empty(v0.shape, out_et, v0.dyn, sizes)
        r = len(v0.shape)
        return self.generic(ins, [out], [ident(r)] * (len(ins) + 1), 'p' * r, body, hint)

    # -- checks ------------------------------------------------------------
    def static(self, v):
        """IREE's way to check a dynamic result: barrier, then tensor.cast to
        the static type."""
        if not v.dyn:
            return v
        b = self.barrier(v)
        return self.cast(b, ())

    def _check_value(self, v, expected, exact):
        """The expected array in `v`'s storage: exact checks require the
        values to be representable; others round once from float64."""
        expected = np.asarray(expected)
        assert tuple(expected.shape) == tuple(v.shape), (self.name, expected.shape, v.shape)
        if exact:
            return exactly(v.et, expected)
        return store(v.et, f64(expected))

    def expect_eq_const(self, v, expected):
        v = self.static(v)
        e = self._check_value(v, expected, True)
        self.emit('check.expect_eq_const(%s, %s : %s) : %s' % (v, dense(e, v.et), v.ty, v.ty))
        self.checks += 1

    def expect_almost_eq_const(self, v, expected, atol=None, rtol=None):
        assert is_float(v.et)
        v = self.static(v)
        e = self._check_value(v, expected, False)
        self.emit('check.expect_almost_eq_const(%s, %s : %s%s) : %s'
                  % (v, dense(e, v.et), v.ty, tol_text(atol, rtol), v.ty))
        self.checks += 1

    def expect_eq(self, a, b):
        a, b = self.static(a), self.static(b)
        assert a.ty == b.ty
        self.emit('check.expect_eq(%s, %s) : %s' % (a, b, a.ty))
        self.checks += 1

    def expect_almost_eq(self, a, b, atol=None, rtol=None):
        a, b = self.static(a), self.static(b)
        assert a.ty == b.ty and is_float(a.et)
        self.emit('check.expect_almost_eq(%s, %s%s) : %s' % (a, b, tol_text(atol, rtol), a.ty))
        self.checks += 1

    def expect_true(self, v):
        assert v.shape is None and v.et in INT_BITS
        self.emit('check.expect_true(%s) : %s' % (v, v.et))
        self.checks += 1

    def expect_false(self, v):
        assert v.shape is None and v.et in INT_BITS
        self.emit('check.expect_false(%s) : %s' % (v, v.et))
        self.checks += 1

    def expect_index(self, v, n):
        """An index value equals n: arith.cmpi + check.expect_true."""
        c = self.op('arith.cmpi eq, %s, %s : index' % (v, self.idx(n)), 'i1', hint='ok')
        self.expect_true(c)


def tol_text(atol, rtol):
    s = ''
    if atol is not None:
        s += ', atol %s' % fmt_attr_float(atol)
    if rtol is not None:
        s += ', rtol %s' % fmt_attr_float(rtol)
    return s


# ---------------------------------------------------------------------------
# Test files.
# ---------------------------------------------------------------------------

FILES = collections.OrderedDict()


class File:
    def __init__(self, name, doc):
        self.name, self.doc, self.fns = name, doc, []
        self.prelude = []  # top-level ops before the functions (ml_program.global)
        self.epilogue = []  # lines after the functions (a {-# dialect_resources #-} section)

    def fn(self, name, comment=None):
        assert all(f.name != name for f in self.fns), name
        f = Fn(name, comment)
        f.rng = Rng(self.name + '/' + name)
        self.fns.append(f)
        return f

    def render(self):
        head = ['// Generated by gen.py (its description of %s); do not edit by hand.'
                % self.name]
        head += ['// ' + ln if ln else '//' for ln in self.doc.strip().split('\n')]
        top = ''.join(ln + '\n' for ln in self.prelude) + ('\n' if self.prelude else '')
        tail = ('\n' + ''.join(ln + '\n' for ln in self.epilogue)) if self.epilogue else ''
        return ('\n'.join(head) + '\n\n' + top + '\n'.join(f.render() for f in self.fns)
                + tail)


def testfile(name, doc):
    """Registers a function that fills File(name) with test functions."""
    def deco(build):
        assert name not in FILES, name
        FILES[name] = (doc, build)
        return build
    return deco


def build_file(name):
    doc, build = FILES[name]
    f = File(name, doc)
    build(f)
    return f


# ---------------------------------------------------------------------------
# Standard MLIR form of a test file (mlir-opt-19 check, MLIR CPU run).
# ---------------------------------------------------------------------------

IREE_OPS = ('util.unfoldable_constant', 'util.optimization_barrier', 'util.assume.int',
            'flow.tensor.dynamic_constant', 'check.expect_eq_const', 'check.expect_eq',
            'check.expect_almost_eq_const', 'check.expect_almost_eq', 'check.expect_true',
            'check.expect_false')
IREE_OP_RE = re.compile(r'^(?P<indent>[ \t]*)(?:(?P<lhs>%[\w]+) = )?(?P<op>'
                        + '|'.join(re.escape(o) for o in IREE_OPS) + r')(?![\w.])', re.M)
TENSOR_TYPE_RE = re.compile(r'tensor<((?:[0-9?]+x)*)([A-Za-z0-9]+)>')


class FormatError(Exception):
    pass


def bracket_walk(text, pos=0):
    """(index, char, depth) for each character from `pos`, where depth
    counts the open (), [], {}, <> around it (the `->` arrow is skipped)."""
    depth = 0
    i, n = pos, len(text)
    while i < n:
        c = text[i]
        if c == '-' and text[i + 1:i + 2] == '>':
            i += 2
            continue
        if c in ')]}>':
            depth -= 1
        yield i, c, depth
        if c in '([{<':
            depth += 1
        i += 1


def statement_end(text, pos):
    """End of the statement starting at `pos`: the first newline outside
    brackets."""
    for i, c, depth in bracket_walk(text, pos):
        if c == '\n' and depth == 0:
            return i
    return len(text)


def split_top(s, sep=','):
    """`s` split at the `sep` characters outside brackets, parts stripped."""
    parts, start = [], 0
    for i, c, depth in bracket_walk(s):
        if c == sep and depth == 0:
            parts.append(s[start:i].strip())
            start = i + 1
    parts.append(s[start:].strip())
    return parts


def attr_and_type(s):
    """'dense<...> : tensor<..>' -> (attr text, type text)."""
    k = s.rfind(' : ')
    if k < 0:
        raise FormatError('expected `ATTR : TYPE` in %r' % s[:80])
    return s[:k].strip(), s[k + 3:].strip()


def parse_tensor_type(t):
    m = TENSOR_TYPE_RE.fullmatch(t)
    if not m:
        return None
    dims = [d for d in m.group(1).split('x') if d]
    return dims, m.group(2)


class StdWriter:
    """Rewrites one file's text to standard MLIR: IREE ops replaced, each
    test function returning the number (1-based) of its first failing check
    or 0, and a @main returning 1000 * (function number) + that number for
    the first function that fails, or 0."""

    def __init__(self, name):
        self.name = name
        self.helpers = collections.OrderedDict()  # key -> (name, text)

    def helper(self, kind, ty, atol, rtol):
        key = (kind, ty, atol, rtol)
        if key in self.helpers:
            return self.helpers[key][0]
        name = '@__check%d' % len(self.helpers)
        parsed = parse_tensor_type(ty)
        if parsed is None:
            raise FormatError('%s needs a tensor type, got %s' % (kind, ty))
        dims, et = parsed
        if '?' in dims:
            raise FormatError('%s on a dynamic type %s' % (kind, ty))
        rank = len(dims)
        ds = ', '.join('d%d' % i for i in range(rank))
        idm = 'affine_map<(%s) -> (%s)>' % (ds, ds)
        red = 'affine_map<(%s) -> ()>' % ds
        its = ', '.join(['"reduction"'] * rank)
        if kind == 'eq':
            if is_float(et):
                w = STORAGE_BITS[et]
                cmp = ('%%xb = arith.bitcast %%x : %s to i%d\n'
                       '    %%yb = arith.bitcast %%y : %s to i%d\n'
                       '    %%bad = arith.cmpi ne, %%xb, %%yb : i%d' % (et, w, et, w, w))
            else:
                cmp = '%%bad = arith.cmpi ne, %%x, %%y : %s' % et
        else:
            if not re.fullmatch(r'b?f\d+\w*', et):
                raise FormatError('almost_eq on non-float type %s' % ty)
            widen = []
            for v in ('x', 'y'):
                if et == 'f64':
                    widen.append('%%%sd = arith.addf %%%s, %%negzero : f64' % (v, v))
                elif et == 'f32':
                    widen.append('%%%sd = arith.extf %%%s : f32 to f64' % (v, v))
                else:
                    widen.append('%%%sw = arith.extf %%%s : %s to f32' % (v, v, et))
                    widen.append('%%%sd = arith.extf %%%sw : f32 to f64' % (v, v))
            a = float(np.float32(atol if atol is not None else 1e-4))
            r = float(np.float32(rtol if rtol is not None else 0.0))
            if et == 'f64':  # x + -0.0 is x, bit for bit
                widen.insert(0, '%negzero = arith.constant -0.0 : f64')
            cmp = '\n    '.join(widen + [
                '%%atol = arith.constant %r : f64' % a,
                '%%rtol = arith.constant %r : f64' % r,
                '%inf = arith.constant 0x7FF0000000000000 : f64',
                '%same = arith.cmpf oeq, %xd, %yd : f64',
                '%diff = arith.subf %xd, %yd : f64',
                '%adiff = math.absf %diff : f64',
                '%ay = math.absf %yd : f64',
                '%rel = arith.mulf %rtol, %ay : f64',
                '%tol = arith.addf %atol, %rel : f64',
                '%close = arith.cmpf ole, %adiff, %tol : f64',
                '%finite = arith.cmpf one, %ay, %inf : f64',
                '%near = arith.andi %close, %finite : i1',
                '%good = arith.ori %same, %near : i1',
                '%true = arith.constant true',
                '%bad = arith.xori %good, %true : i1'])
        text = '''func.func private %s(%%a: %s, %%b: %s) -> i32 {
  %%zero = arith.constant 0 : i32
  %%e = tensor.empty() : tensor<i32>
  %%init = linalg.fill ins(%%zero : i32) outs(%%e : tensor<i32>) -> tensor<i32>
  %%n = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} ins(%%a, %%b : %s, %s) outs(%%init : tensor<i32>) {
  ^bb0(%%x: %s, %%y: %s, %%acc: i32):
    %s
    %%one = arith.extui %%bad : i1 to i32
    %%sum = arith.addi %%acc, %%one : i32
    linalg.yield %%sum : i32
  } -> tensor<i32>
  %%r = tensor.extract %%n[] : tensor<i32>
  return %%r : i32
}
''' % (name, ty, ty, idm, idm, red, its, ty, ty, et, et, cmp)
        self.helpers[key] = (name, text)
        return name

    def rewrite(self, text):
        """(rewritten text, test function names)."""
        out, fns = [], []
        for chunk in re.split(r'(?m)^(?=func\.func )', text):
            if not chunk.startswith('func.func'):
                out.append(self.rewrite_ops(chunk))
                continue
            header, rest = chunk.split('\n', 1)
            m = re.fullmatch(r'func\.func @(\w+)\(\) \{', header)
            if not m:
                raise FormatError('test functions take no arguments and return nothing: '
                                  + header)
            fns.append(m.group(1))
            self.checks = 0
            body = self.rewrite_ops(rest)
            body, n = re.subn(r'(?m)^  return$', '  return %%__acc%d : i32' % self.checks, body)
            if n != 1:
                raise FormatError('@%s: expected one `return`' % m.group(1))
            out.append('func.func @%s() -> i32 {\n  %%__zero = arith.constant 0 : i32\n'
                       '  %%__acc0 = arith.constant 0 : i32\n%s' % (m.group(1), body))
        return ''.join(out), fns

    def fail_code(self, indent, fval):
        """Folds one check's mismatch count into %__accN: the number of the
        first failing check of the function, or 0."""
        self.checks += 1
        n = self.checks
        prev = '%%__acc%d' % (n - 1)
        return '\n'.join(indent + ln for ln in [
            '%%__fail%d = arith.cmpi ne, %s, %%__zero : i32' % (n, fval),
            '%%__id%d = arith.constant %d : i32' % (n, n),
            '%%__new%d = arith.select %%__fail%d, %%__id%d, %%__zero : i32' % (n, n, n),
            '%%__has%d = arith.cmpi ne, %s, %%__zero : i32' % (n, prev),
            '%%__acc%d = arith.select %%__has%d, %s, %%__new%d : i32' % (n, n, prev, n)])

    def rewrite_ops(self, text):
        pieces = []
        pos = 0
        for m in IREE_OP_RE.finditer(text):
            if m.start() < pos:
                continue
            end = statement_end(text, m.end())
            stmt = re.sub(r'//[^\n]*', '', text[m.end():end]).strip()
            pieces.append(text[pos:m.start()])
            pieces.append(self.replace(m.group('indent'), m.group('lhs'), m.group('op'), stmt))
            pos = end
        pieces.append(text[pos:])
        return ''.join(pieces)

    def replace(self, indent, lhs, op, stmt):
        if op == 'util.unfoldable_constant':
            return '%s%s = arith.constant %s' % (indent, lhs, stmt)
        if op == 'util.optimization_barrier':
            operand, ty = [p.strip() for p in stmt.split(' : ', 1)]
            if parse_tensor_type(ty) is None:
                raise FormatError('barriers are on tensors here: ' + stmt)
            return '%s%s = tensor.cast %s : %s to %s' % (indent, lhs, operand, ty, ty)
        if op == 'util.assume.int':
            # One operand here: `%v<umin = ..>` or `%v[<..>, <..>]`, an
            # identity on an integer.
            operand = re.match(r'%[\w]+', stmt).group(0)
            ty = stmt.rsplit(' : ', 1)[1].strip()
            if ',' in ty:
                raise FormatError('one assumed value per util.assume.int here: ' + stmt)
            return '%s%s = arith.ori %s, %s : %s' % (indent, lhs, operand, operand, ty)
        if op == 'flow.tensor.dynamic_constant':
            k = stmt.rfind(' -> ')
            attr, st = attr_and_type(stmt[:k])
            dt = stmt[k + 4:].strip()
            ps, pd = parse_tensor_type(st), parse_tensor_type(dt)
            if ps is None or pd is None or ps[1] != pd[1] or len(ps[0]) != len(pd[0]) or any(
                    b != '?' and a != b for a, b in zip(ps[0], pd[0])):
                raise FormatError('dynamic_constant %s -> %s' % (st, dt))
            if '?' in ps[0] or '?' not in pd[0]:
                raise FormatError('dynamic_constant erases no dim: %s -> %s' % (st, dt))
            return ('%s%s_static = arith.constant %s : %s\n%s%s = tensor.cast %s_static : %s to %s'
                    % (indent, lhs, attr, st, indent, lhs, lhs, st, dt))
        # checks
        if lhs:
            raise FormatError('%s has no result' % op)
        if not stmt.startswith('('):
            raise FormatError('expected `(` after ' + op)
        close = statement_end(stmt, 0)  # whole remainder
        depth = 0
        for i, c in enumerate(stmt):
            if c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
                if depth == 0:
                    close = i
                    break
        args = split_top(stmt[1:close])
        rest = stmt[close + 1:].strip()
        if not rest.startswith(':'):
            raise FormatError('expected `: type` after %s(...)' % op)
        ty = rest[1:].strip()
        kind = op[len('check.expect_'):]
        if kind in ('true', 'false'):
            if len(args) != 1 or not re.fullmatch(r'i\d+', ty):
                raise FormatError('%s takes one signless integer: %s' % (op, stmt))
            tag = str(self.checks + 1)
            pred = 'eq' if kind == 'true' else 'ne'
            body = [
                '%%__z%s = arith.constant 0 : %s' % (tag, ty),
                '%%__b%s = arith.cmpi %s, %s, %%__z%s : %s' % (tag, pred, args[0], tag, ty),
                '%%__f%s = arith.extui %%__b%s : i1 to i32' % (tag, tag)]
            return '\n'.join(indent + b for b in body) + '\n' + self.fail_code(indent, '%__f' + tag)
        atol = rtol = None
        const = kind.endswith('_const')
        base = kind[:-len('_const')] if const else kind
        nfixed = 2
        for a in args[nfixed:]:
            m = re.fullmatch(r'(atol|rtol) (\S+)', a)
            if not m or base != 'almost_eq':
                raise FormatError('unexpected argument %r in %s' % (a, op))
            if m.group(1) == 'atol':
                atol = float(m.group(2))
            else:
                rtol = float(m.group(2))
        tag = str(self.checks + 1)
        body = []
        rhs = args[1]
        if const:
            attr, aty = attr_and_type(args[1])
            if aty != ty:
                raise FormatError('%s: value type %s differs from %s' % (op, aty, ty))
            rhs = '%%__exp%s' % tag
            body.append('%s = arith.constant %s : %s' % (rhs, attr, ty))
        helper = self.helper('eq' if base == 'eq' else 'almost', ty, atol, rtol)
        body.append('%%__r%s = func.call %s(%s, %s) : (%s, %s) -> i32'
                    % (tag, helper, args[0], rhs, ty, ty))
        return '\n'.join(indent + b for b in body) + '\n' + self.fail_code(indent, '%__r' + tag)


def standard_module(name, text):
    """(standard MLIR text, test function names) of a test file."""
    w = StdWriter(name)
    body, fns = w.rewrite(text)
    main = ['func.func @main() -> i32 {', '  %z = arith.constant 0 : i32']
    prev = '%z'
    for i, fn in enumerate(fns, 1):
        main += ['  %%r%d = func.call @%s() : () -> i32' % (i, fn),
                 '  %%base%d = arith.constant %d : i32' % (i, 1000 * i),
                 '  %%code%d = arith.addi %%base%d, %%r%d : i32' % (i, i, i),
                 '  %%bad%d = arith.cmpi ne, %%r%d, %%z : i32' % (i, i),
                 '  %%new%d = arith.select %%bad%d, %%code%d, %%z : i32' % (i, i, i),
                 '  %%had%d = arith.cmpi ne, %s, %%z : i32' % (i, prev),
                 '  %%acc%d = arith.select %%had%d, %s, %%new%d : i32' % (i, i, prev, i)]
        prev = '%%acc%d' % i
    main += ['  return %s : i32' % prev, '}']
    helpers = '\n'.join(t for _, t in w.helpers.values())
    return body + '\n' + helpers + '\n'.join(main) + '\n', fns


# ---------------------------------------------------------------------------
# Helpers shared by the tests.
# ---------------------------------------------------------------------------

def named(f, op, ins, outs, attrs='', hint='r'):
    """A named linalg op (`op {attrs} ins(..) outs(..) -> type`)."""
    o = outs[0]
    text = '%s%s ins(%s : %s) outs(%s : %s) -> %s' % (
        op, ' ' + attrs if attrs else '', ', '.join(v.name for v in ins),
        ', '.join(v.ty for v in ins), ', '.join(v.name for v in outs),
        ', '.join(v.ty for v in outs), o.ty)
    return f.op(text, o.et, o.shape, o.dyn, hint)


def conv_attrs(strides, dilations):
    def vec(v):
        if all(x == v[0] for x in v):
            return 'dense<%d> : tensor<%dxi64>' % (v[0], len(v))
        return 'dense<[%s]> : tensor<%dxi64>' % (', '.join('%d' % x for x in v), len(v))
    return '{dilations = %s, strides = %s}' % (vec(dilations), vec(strides))


def windows_nhwc(x, kh, kw, oh, ow, strides, dilations):
    """[N, OH, OW, KH, KW, C] windows of an NHWC array, as convolutions and
    poolings read them: x[n, oh*sh + i*dh, ow*sw + j*dw, c]."""
    sh, sw = strides
    dh, dw = dilations
    n, _, _, c = x.shape
    w = np.empty((n, oh, ow, kh, kw, c), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            w[:, :, :, i, j, :] = x[:, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                    j * dw:j * dw + sw * (ow - 1) + 1:sw, :]
    return w


def out_size(n, k, stride, dilation):
    return (n - dilation * (k - 1) - 1) // stride + 1


def binary_body(op, et, res_et=None):
    res_et = res_et or et
    return '''^bb0(%%a: %s, %%b: %s, %%o: %s):
  %%r = %s %%a, %%b : %s
  linalg.yield %%r : %s''' % (et, et, res_et, op, et, res_et)


def f32_of(a):
    """float32 view of f32/f16/bf16 storage (arith.extf)."""
    return np.asarray(a).astype(np.float32)


def trunc_to(et, a32):
    """arith.truncf f32 -> et (ties to even)."""
    if et == 'f32':
        return np.asarray(a32, dtype=np.float32)
    if et == 'f16':
        return np.asarray(a32, dtype=np.float32).astype(np.float16)
    return bf16_from_f32(a32)


# ---------------------------------------------------------------------------
# The tests, one function per file.
# ---------------------------------------------------------------------------

@testfile('elementwise_f32.mlir', '''
arith on f32 tensors (addf, subf, mulf, divf, negf, maximumf, minimumf) with
static, 0-d, prime-sized and dynamic shapes.''')
def _(F):
    f = F.fn('addf_7')
    a, b = f.rng.floats((7,), 'f32', -4, 4), f.rng.floats((7,), 'f32', -4, 4)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = f.op('arith.addf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    f.expect_eq_const(r, a + b)

    f = F.fn('subf_mulf_13x31', 'Two correctly rounded ops in a row: exact.')
    a, b = f.rng.floats((13, 31), 'f32', -2, 2), f.rng.floats((13, 31), 'f32', -2, 2)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    s = f.op('arith.subf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    m = f.op('arith.mulf %s, %s : %s' % (s, B, A.ty), 'f32', A.shape)
    f.expect_eq_const(m, (a - b) * b)

    f = F.fn('divf_negf_127', 'divf is 2.5 ulp in Vulkan: rtol 1e-6.')
    a = f.rng.floats((127,), 'f32', -8, 8)
    b = f.rng.floats((127,), 'f32', 0.5, 4)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    d = f.op('arith.divf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    n = f.op('arith.negf %s : %s' % (d, d.ty), 'f32', A.shape)
    f.expect_almost_eq_const(n, -(f64(a) / f64(b)), atol=0.0, rtol=1e-6)
    nb = f.op('arith.negf %s : %s' % (B, B.ty), 'f32', B.shape)
    f.expect_eq_const(nb, -b)

    f = F.fn('maximumf_minimumf_31x5')
    a, b = f.rng.floats((31, 5), 'f32', -3, 3), f.rng.floats((31, 5), 'f32', -3, 3)
    b[0, 0] = a[0, 0]
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    mx = f.op('arith.maximumf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    mn = f.op('arith.minimumf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    f.expect_eq_const(mx, np.maximum(a, b))
    f.expect_eq_const(mn, np.minimum(a, b))

    f = F.fn('mulf_0d', 'Rank-0 tensors.')
    A = f.const(np.float32(1.5), 'f32')
    B = f.const(np.float32(-2.25), 'f32', how='arith')
    r = f.op('arith.mulf %s, %s : %s' % (A, B, A.ty), 'f32', ())
    f.expect_eq_const(r, np.float32(-3.375))

    f = F.fn('addf_dynamic_1021', 'arith.addf on tensor<?xf32>.')
    a, b = f.rng.floats((1021,), 'f32', -1, 1), f.rng.floats((1021,), 'f32', -1, 1)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    r = f.op('arith.addf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape, A.dyn)
    f.expect_eq_const(r, a + b)

    f = F.fn('mulf_addf_4x257_default_tolerance',
             'a * b + c: a device may contract it to an fma (one rounding): IREE\'s default\n'
             'tolerance.')
    a, b, c = (f.rng.floats((4, 257), 'f32', -2, 2) for _ in range(3))
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    m = f.op('arith.mulf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    s = f.op('arith.addf %s, %s : %s' % (m, C, A.ty), 'f32', A.shape)
    f.expect_almost_eq_const(s, f64(a) * f64(b) + f64(c))


@testfile('sum_16m_ones.mlir', '''
The sum of 16,777,216 ones is exactly 16777216.0 in f32 (every partial sum is
an integer below 2^24 + 1, all exactly representable), whatever the order; a
device that cuts long loops (lavapipe: 65,535 iterations per invocation)
gets it wrong unless the reduction is split. linalg.reduce, linalg.generic,
a dynamic shape, a 2-D whole-tensor sum and i32.''')
def _(F):
    n = 16777216

    f = F.fn('sum_16777216_ones_reduce')
    x = f.splat_const(1.0, (n,), 'f32')
    init = f.full(0.0, (), 'f32')
    r = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [0]
  (%%in: f32, %%acc: f32) {
    %%s = arith.addf %%in, %%acc : f32
    linalg.yield %%s : f32
  }''' % (x, x.ty, init, init.ty), 'f32', (), (), 'sum')
    f.expect_eq_const(r, np.float32(n))

    f = F.fn('sum_16777216_ones_generic')
    x = f.splat_const(1.0, (n,), 'f32')
    init = f.full(0.0, (), 'f32')
    r = f.generic([x], [init], ['(d0) -> (d0)', '(d0) -> ()'], 'r', '''
^bb0(%in: f32, %acc: f32):
  %s = arith.addf %in, %acc : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(r, np.float32(n))

    f = F.fn('sum_16777216_ones_dynamic')
    x = f.splat_const(1.0, (n,), 'f32', 'dynamic')
    init = f.full(0.0, (), 'f32')
    r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [0]'
             % (x, x.ty, init, init.ty), 'f32', (), (), 'sum')
    f.expect_eq_const(r, np.float32(n))

    f = F.fn('sum_4096x4096_ones')
    x = f.splat_const(1.0, (4096, 4096), 'f32')
    init = f.full(0.0, (), 'f32')
    r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [0, 1]'
             % (x, x.ty, init, init.ty), 'f32', (), (), 'sum')
    f.expect_eq_const(r, np.float32(n))

    f = F.fn('sum_16777216_ones_i32')
    x = f.splat_const(1, (n,), 'i32')
    init = f.full(0, (), 'i32')
    r = f.op('linalg.reduce { arith.addi } ins(%s : %s) outs(%s : %s) dimensions = [0]'
             % (x, x.ty, init, init.ty), 'i32', (), (), 'sum')
    f.expect_eq_const(r, np.int32(n))


def half_body(et, n, compute, result):
    """Region of an elementwise generic over `n` inputs stored as `et`
    (%a, %b, %c): each widened to f32 (%x, %y, %z), the f32 `compute` lines,
    then `result` rounded back to `et` (arith.truncf) and yielded."""
    ins, wide = ['%a', '%b', '%c'][:n], ['%x', '%y', '%z'][:n]
    lines = ['^bb0(%s, %%o: %s):' % (', '.join('%s: %s' % (i, et) for i in ins), et)]
    lines += ['%s = arith.extf %s : %s to f32' % (w, i, et) for i, w in zip(ins, wide)]
    lines += list(compute)
    lines += ['%%t = arith.truncf %s : f32 to %s' % (result, et), 'linalg.yield %%t : %s' % et]
    return '\n'.join(lines)


@testfile('elementwise_f16.mlir', '''
f16 tensors: arith directly on tensor<..xf16>, and the usual form of real
programs, f16 storage with an arith.extf to f32 in the region, compute in
f32, arith.truncf back (ties to even; some inputs sit exactly between two
f16 values).''')
def _(F):
    f = F.fn('addf_f16_exact_13', 'Dyadic inputs: the sums are exact in f16.')
    a, b = f.rng.dyadic((13,), 'f16', -512, 512, 64), f.rng.dyadic((13,), 'f16', -512, 512, 64)
    A, B = f.const(a, 'f16'), f.const(b, 'f16')
    r = f.op('arith.addf %s, %s : %s' % (A, B, A.ty), 'f16', A.shape)
    f.expect_eq_const(r, f64(a) + f64(b))

    f = F.fn('mulf_f16_tensor_31', 'f16 multiply, correctly rounded: one f16 ulp.')
    a, b = f.rng.floats((31,), 'f16', -4, 4), f.rng.floats((31,), 'f16', -4, 4)
    A, B = f.const(a, 'f16'), f.const(b, 'f16')
    r = f.op('arith.mulf %s, %s : %s' % (A, B, A.ty), 'f16', A.shape)
    f.expect_almost_eq_const(r, f64(a) * f64(b), atol=1e-4, rtol=2.0 ** -10)

    f = F.fn('extf_mul_add_truncf_7x13', 'Stored f16, computed in f32: a * b + c.')
    a, b, c = (f.rng.floats((7, 13), 'f16', -3, 3) for _ in range(3))
    A, B, C = f.const(a, 'f16'), f.const(b, 'f16'), f.const(c, 'f16')
    r = f.elementwise([A, B, C], 'f16', half_body(
        'f16', 3, ['%m = arith.mulf %x, %y : f32', '%s = arith.addf %m, %z : f32'], '%s'))
    f.expect_almost_eq_const(r, trunc_to('f16', f32_of(a) * f32_of(b) + f32_of(c)),
                             atol=1e-3, rtol=2.0 ** -10)

    f = F.fn('truncf_f32_to_f16_ties', 'arith.truncf rounds to nearest, ties to even.')
    base = f.rng.floats((16,), 'f16', -8, 8).astype(np.float32)
    # halfway between two f16 values: add half an ulp of f16
    ulp = np.spacing(base.astype(np.float16)).astype(np.float32)
    x = np.concatenate([base, base + ulp / 2, base + ulp / 4]).astype(np.float32)
    X = f.const(x, 'f32')
    r = f.op('arith.truncf %s : %s to %s' % (X, X.ty, ttype(x.shape, 'f16')), 'f16', x.shape)
    f.expect_eq_const(r, x.astype(np.float16))

    f = F.fn('extf_f16_to_f32_dynamic')
    a = f.rng.floats((29,), 'f16', -100, 100)
    A = f.const(a, 'f16', 'dynamic')
    r = f.op('arith.extf %s : %s to %s' % (A, A.ty, ttype(a.shape, 'f32', (0,))), 'f32',
             a.shape, (0,))
    f.expect_eq_const(r, a.astype(np.float32))


@testfile('elementwise_bf16.mlir', '''
bf16 tensors, stored as bf16 and computed in f32 (arith.extf / arith.truncf
in the region, as real programs do). truncf to bf16 rounds to nearest even
on the top 16 bits of the f32 value.''')
def _(F):
    f = F.fn('bf16_mul_add_in_f32_5x11', 'a * b + c computed in f32, one bf16 ulp.')
    a, b, c = (f.rng.floats((5, 11), 'bf16', -3, 3) for _ in range(3))
    A, B, C = f.const(a, 'bf16'), f.const(b, 'bf16'), f.const(c, 'bf16')
    r = f.elementwise([A, B, C], 'bf16', half_body(
        'bf16', 3, ['%m = arith.mulf %x, %y : f32', '%s = arith.addf %m, %z : f32'], '%s'))
    f.expect_almost_eq_const(r, bf16_from_f32(f32_of(a) * f32_of(b) + f32_of(c)),
                             atol=1e-3, rtol=2.0 ** -7)

    f = F.fn('bf16_add_exact_127', 'Dyadic inputs: exact sums.')
    a, b = f.rng.dyadic((127,), 'bf16', -64, 64, 8), f.rng.dyadic((127,), 'bf16', -64, 64, 8)
    A, B = f.const(a, 'bf16'), f.const(b, 'bf16')
    r = f.elementwise([A, B], 'bf16', half_body('bf16', 2, ['%s = arith.addf %x, %y : f32'],
                                                '%s'))
    f.expect_eq_const(r, f64(a) + f64(b))

    f = F.fn('truncf_f32_to_bf16_ties', 'Inputs exactly halfway between bf16 values.')
    base = f.rng.floats((12,), 'bf16', -100, 100)
    bits = base.view(np.uint32)
    x = np.concatenate([base, (bits | 0x8000).view(np.float32),
                        (bits | 0x7FFF).view(np.float32), (bits + 0x18000).view(np.float32)])
    X = f.const(x, 'f32')
    r = f.op('arith.truncf %s : %s to %s' % (X, X.ty, ttype(x.shape, 'bf16')), 'bf16', x.shape)
    f.expect_eq_const(r, bf16_from_f32(x))

    f = F.fn('extf_bf16_to_f32_1x1')
    a = np.array([[-1.5e10]])
    a = store('bf16', a)
    A = f.const(a, 'bf16')
    r = f.op('arith.extf %s : %s to %s' % (A, A.ty, ttype(a.shape, 'f32')), 'f32', a.shape)
    f.expect_eq_const(r, a)

    f = F.fn('bf16_dynamic_scale_2x37')
    a = f.rng.floats((2, 37), 'bf16', -10, 10)
    A = f.const(a, 'bf16', 'dynamic', dyn=(1,))
    k = f.scalar(0.5, 'f32')
    r = f.elementwise([A], 'bf16', half_body('bf16', 1, ['%%m = arith.mulf %%x, %s : f32' % k],
                                             '%m'))
    f.expect_eq_const(r, f64(a) * 0.5)


def int_semantics(op, a, b, bits):
    """MLIR arith semantics of integer binary ops on Python ints (signed
    values in, signed values out, wrapped to `bits`)."""
    mask = (1 << bits) - 1

    def s(v):
        v &= mask
        return v - (1 << bits) if v >> (bits - 1) else v

    def u(v):
        return v & mask

    def tdiv(x, y):
        q = abs(x) // abs(y)
        return q if (x >= 0) == (y >= 0) else -q
    if op == 'addi':
        return s(a + b)
    if op == 'subi':
        return s(a - b)
    if op == 'muli':
        return s(a * b)
    if op == 'divsi':
        return s(tdiv(a, b))
    if op == 'remsi':
        return s(a - b * tdiv(a, b))
    if op == 'divui':
        return s(u(a) // u(b))
    if op == 'remui':
        return s(u(a) % u(b))
    if op == 'andi':
        return s(a & b)
    if op == 'ori':
        return s(a | b)
    if op == 'xori':
        return s(a ^ b)
    if op == 'shli':
        return s(a << b)
    if op == 'shrsi':
        return s(a >> b)
    if op == 'shrui':
        return s(u(a) >> b)
    if op == 'maxsi':
        return max(a, b)
    if op == 'minsi':
        return min(a, b)
    if op == 'maxui':
        return a if u(a) >= u(b) else b
    if op == 'minui':
        return a if u(a) <= u(b) else b
    if op == 'floordivsi':
        return s(a // b)
    if op == 'ceildivsi':
        return s(-((-a) // b))
    raise KeyError(op)


def int_apply(op, a, b, et):
    bits = INT_BITS[et]
    out = [int_semantics(op, int(x), int(y), bits) for x, y in zip(a.reshape(-1).tolist(),
                                                                   b.reshape(-1).tolist())]
    return store(et, np.array(out, dtype=object).reshape(a.shape))


def int_file(F, et, shape):
    bits = INT_BITS[et]
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

    def full_range(f):
        if bits == 64:
            return f.rng.bits64(shape)
        return f.rng.ints(shape, lo, hi)

    def tensor_op(f, op, A, B):
        return f.op('arith.%s %s, %s : %s' % (op, A, B, A.ty), et, A.shape, A.dyn)

    f = F.fn('wrapping_add_sub_mul_%s' % et, 'Full-range inputs: results wrap around.')
    a, b = store(et, full_range(f)), store(et, full_range(f))
    A, B = f.const(a, et), f.const(b, et)
    for op in ('addi', 'subi', 'muli'):
        f.expect_eq_const(tensor_op(f, op, A, B), int_apply(op, a, b, et))

    f = F.fn('div_rem_signed_%s' % et, 'divsi / remsi round toward zero; floordivsi /\n'
             'ceildivsi toward -inf / +inf.')
    a = store(et, full_range(f))
    b = store(et, f.rng.ints(shape, -100, 100))
    b[b == 0] = 7
    a[(a == lo) & (b == -1)] = 5
    a.reshape(-1)[:4] = store(et, [-7, 7, -7, 7])
    b.reshape(-1)[:4] = store(et, [2, -2, -2, 2])
    A, B = f.const(a, et), f.const(b, et)
    for op in ('divsi', 'remsi', 'floordivsi', 'ceildivsi'):
        f.expect_eq_const(tensor_op(f, op, A, B), int_apply(op, a, b, et))

    f = F.fn('div_rem_unsigned_%s' % et, 'Negative values read as large unsigned ones.')
    a, b = store(et, full_range(f)), store(et, full_range(f))
    b[b == 0] = 3
    b.reshape(-1)[:2] = store(et, [3, -3])
    A, B = f.const(a, et), f.const(b, et)
    for op in ('divui', 'remui'):
        f.expect_eq_const(tensor_op(f, op, A, B), int_apply(op, a, b, et))

    f = F.fn('bitwise_and_shifts_%s' % et, 'Shift amounts below the bit width.')
    a, b = store(et, full_range(f)), store(et, full_range(f))
    sh = store(et, f.rng.ints(shape, 0, bits - 1))
    A, B, S = f.const(a, et), f.const(b, et), f.const(sh, et)
    for op in ('andi', 'ori', 'xori'):
        f.expect_eq_const(tensor_op(f, op, A, B), int_apply(op, a, b, et))
    for op in ('shli', 'shrsi', 'shrui'):
        f.expect_eq_const(tensor_op(f, op, A, S), int_apply(op, a, sh, et))

    f = F.fn('shifts_by_the_width_or_more_%s' % et, '''
Shift amounts of the bit width and beyond, and negative ones (read
unsigned): poison in MLIR; kiln gives numpy's and ONNX BitShift's result,
0, or the sign fill for shrsi (Python integers).''')
    a = store(et, full_range(f))
    n = a.size
    pick = f.rng.ints((n,), 0, 3)
    big = f.rng.ints((n,), bits, min(4 * bits, hi))
    small = f.rng.ints((n,), 0, bits - 1)
    neg = f.rng.ints((n,), -bits, -1)
    amounts = np.where(pick == 0, small, np.where(pick == 1, big, neg)).reshape(a.shape)
    amounts.reshape(-1)[:3] = [bits, -1, bits - 1]
    sh = store(et, amounts)
    A, S = f.const(a, et), f.const(sh, et)
    mask = (1 << bits) - 1

    def wide(op, x, s):
        s &= mask  # read unsigned
        if s >= bits:
            return -1 if op == 'shrsi' and x < 0 else 0
        if op == 'shli':
            v = (x << s) & mask
        elif op == 'shrsi':
            return x >> s
        else:
            v = (x & mask) >> s
        return v - (1 << bits) if v >> (bits - 1) else v
    for op in ('shli', 'shrsi', 'shrui'):
        want = [wide(op, int(x), int(s)) for x, s in zip(a.reshape(-1), sh.reshape(-1))]
        f.expect_eq_const(tensor_op(f, op, A, S),
                          store(et, np.array(want, dtype=object).reshape(a.shape)))

    f = F.fn('min_max_%s' % et, 'Signed and unsigned min / max.')
    a, b = store(et, full_range(f)), store(et, full_range(f))
    A, B = f.const(a, et, 'dynamic'), f.const(b, et, 'dynamic')
    for op in ('maxsi', 'minsi', 'maxui', 'minui'):
        f.expect_eq_const(tensor_op(f, op, A, B), int_apply(op, a, b, et))


@testfile('elementwise_i8.mlir', '''
i8 arith on tensors: wrap-around add/sub/mul, signed and unsigned division
and remainder, bitwise ops and shifts, min/max (static 7x13, dynamic).''')
def _(F):
    int_file(F, 'i8', (7, 13))


@testfile('elementwise_i16.mlir', '''
i16 arith on tensors: wrap-around add/sub/mul, signed and unsigned division
and remainder, bitwise ops and shifts, min/max (static 31, dynamic).''')
def _(F):
    int_file(F, 'i16', (31,))


@testfile('elementwise_i32.mlir', '''
i32 arith on tensors: wrap-around add/sub/mul, signed and unsigned division
and remainder, bitwise ops and shifts, min/max (static 3x5x7, dynamic).''')
def _(F):
    int_file(F, 'i32', (3, 5, 7))


@testfile('elementwise_i64.mlir', '''
i64 arith on tensors (values beyond 32 bits): wrap-around add/sub/mul,
signed and unsigned division and remainder, bitwise ops and shifts, min/max;
math.absi across both 32-bit words of an i64 emulated without Int64.''')
def _(F):
    int_file(F, 'i64', (13,))

    f = F.fn('absi_i64', 'Found by gpu tensor_random (seed 1027): '
             'without Int64, math.absi of a negative i64 took the absolute value of '
             'each 32-bit word, adding 2^32.')
    i = np.array([0, 1, -1, 5, -5, 2 ** 32, -2 ** 32, 2 ** 32 + 7, -(2 ** 32) - 7,
                  2 ** 31, -2 ** 31, -2 ** 31 - 1, 2 ** 63 - 1, -2 ** 63 + 1,
                  0x00F0000000000000, -0x00F0000000000000, 0x100, -0x100],
                 dtype=np.int64)
    I = f.const(i, 'i64')
    f.expect_eq_const(unary(f, 'math.absi', I), np.abs(i))


@testfile('bit_count.mlir', '''
math.ctpop, math.ctlz and math.cttz on i8, i16, i32 and i64 tensors: 0, -1,
1, the minimum (the sign bit alone) and maximum, single bits in each word
and random values; zero counts as the width for ctlz / cttz. Vulkan counts
bits of 32-bit words only: kiln counts an i64's two words (native Int64 or
emulated as two words) and a zero-extended i8 / i16. numpy (Python's
integers on the unsigned bit pattern) computes the expected counts.''')
def _(F):
    def counts(vals, bits):
        u = [int(v) & ((1 << bits) - 1) for v in vals.reshape(-1)]
        pop = [bin(x).count('1') for x in u]
        clz = [bits - x.bit_length() for x in u]
        ctz = [bits if x == 0 else (x & -x).bit_length() - 1 for x in u]
        return [np.array(c).reshape(vals.shape) for c in (pop, clz, ctz)]

    for et, shape, how in (('i8', (3, 8), 'unfoldable'), ('i16', (24,), 'unfoldable'),
                           ('i32', (24,), 'unfoldable'), ('i64', (4, 8), 'unfoldable'),
                           ('i64', (20,), 'dynamic')):
        bits = INT_BITS[et]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        name = 'ctpop_ctlz_cttz_%s_%s' % (et, 'x'.join(map(str, shape)))
        if how == 'dynamic':
            name += '_dynamic'
        f = F.fn(name)
        n = int(np.prod(shape))
        edge = [0, -1, 1, lo, hi, lo + 1, 2, 3]
        edge += [1 << k for k in range(bits - 2, 0, -max(1, bits // 6))]
        edge += [-(1 << k) for k in range(1, bits - 1, max(1, bits // 5))]
        if bits == 64:
            edge += [0xFFFFFFFF, 1 << 32, (1 << 32) + 1, 0x0123456789ABCDEF,
                     -(1 << 32), 1 << 31]
        if bits == 64:
            rest = f.rng.bits64((n,))
        else:
            rest = f.rng.ints((n,), lo, hi)
        vals = np.array((edge + [int(v) for v in rest])[:n], dtype=np.int64)
        vals = store(et, vals.reshape(shape))
        X = f.const(vals, et, how)
        pop, clz, ctz = counts(vals, bits)
        f.expect_eq_const(unary(f, 'math.ctpop', X), store(et, pop))
        f.expect_eq_const(unary(f, 'math.ctlz', X), store(et, clz))
        f.expect_eq_const(unary(f, 'math.cttz', X), store(et, ctz))

@testfile('elementwise_i1.mlir', '''
i1 tensors: dense true/false constants, andi/ori/xori, extui/extsi from i1,
trunci to i1 (the low bit), and an i1 tensor driving a select inside a
region on a dynamic shape.''')
def _(F):
    f = F.fn('i1_logic_9')
    a = np.array([True, False, True, True, False, False, True, False, True])
    b = np.array([True, True, False, True, False, True, False, False, True])
    A, B = f.const(a, 'i1'), f.const(b, 'i1', how='arith')
    for op, ref in (('andi', a & b), ('ori', a | b), ('xori', a ^ b)):
        r = f.op('arith.%s %s, %s : %s' % (op, A, B, A.ty), 'i1', A.shape)
        f.expect_eq_const(r, ref)

    f = F.fn('i1_extend_truncate_5x3')
    a = f.rng.ints((5, 3), 0, 1).astype(bool)
    A = f.const(a, 'i1')
    r = f.op('arith.extui %s : %s to %s' % (A, A.ty, ttype(a.shape, 'i32')), 'i32', a.shape)
    f.expect_eq_const(r, a.astype(np.int32))
    r = f.op('arith.extsi %s : %s to %s' % (A, A.ty, ttype(a.shape, 'i8')), 'i8', a.shape)
    f.expect_eq_const(r, -a.astype(np.int8))
    w = store('i16', f.rng.ints((5, 3), -1000, 1000))
    W = f.const(w, 'i16')
    r = f.op('arith.trunci %s : %s to %s' % (W, W.ty, ttype(a.shape, 'i1')), 'i1', a.shape)
    f.expect_eq_const(r, (w & 1).astype(bool))

    f = F.fn('i1_generic_not_select_dynamic_65')
    a = f.rng.ints((65,), 0, 1).astype(bool)
    x = f.rng.ints((65,), -50, 50).astype(np.int32)
    A = f.const(a, 'i1', 'dynamic')
    X = f.const(x, 'i32', 'dynamic')
    t = f.scalar(True, 'i1')
    r = f.elementwise([A, X], 'i32', '''
^bb0(%%p: i1, %%x: i32, %%o: i32):
  %%q = arith.xori %%p, %s : i1
  %%n = arith.subi %%x, %%x : i32
  %%s = arith.select %%q, %%x, %%n : i32
  linalg.yield %%s : i32''' % t)
    f.expect_eq_const(r, np.where(~a, x, 0).astype(np.int32))


@testfile('compare_select.mlir', '''
arith.cmpf / arith.cmpi on tensors (every ordered float predicate, every
integer predicate, signed and unsigned) producing i1 tensors, and
arith.select with a tensor condition and with a scalar condition.''')
def _(F):
    f = F.fn('cmpf_predicates_f32_17')
    a = f.rng.dyadic((17,), 'f32', -4, 4, 2)
    b = f.rng.dyadic((17,), 'f32', -4, 4, 2)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    refs = {'oeq': a == b, 'one': a != b, 'olt': a < b, 'ole': a <= b, 'ogt': a > b,
            'oge': a >= b, 'ueq': a == b, 'une': a != b, 'ord': np.ones(17, bool)}
    for p, ref in refs.items():
        r = f.op('arith.cmpf %s, %s, %s : %s' % (p, A, B, A.ty), 'i1', a.shape)
        f.expect_eq_const(r, ref)

    f = F.fn('cmpi_predicates_i8_3x11')
    a = store('i8', f.rng.ints((3, 11), -128, 127))
    b = store('i8', f.rng.ints((3, 11), -128, 127))
    b[0, :5] = a[0, :5]
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    ua, ub = a.astype(np.uint8), b.astype(np.uint8)
    refs = {'eq': a == b, 'ne': a != b, 'slt': a < b, 'sle': a <= b, 'sgt': a > b,
            'sge': a >= b, 'ult': ua < ub, 'ule': ua <= ub, 'ugt': ua > ub, 'uge': ua >= ub}
    for p, ref in refs.items():
        r = f.op('arith.cmpi %s, %s, %s : %s' % (p, A, B, A.ty), 'i1', a.shape)
        f.expect_eq_const(r, ref)

    f = F.fn('cmpi_predicates_i1', """
Every integer predicate on i1: as an integer of one bit, true is 1 unsigned
and -1 signed (so true <u false is false and true <s false is true).""")
    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    A, B = f.const(a, 'i1'), f.const(b, 'i1')
    ua, ub = a.astype(np.uint8), b.astype(np.uint8)
    sa, sb = -a.astype(np.int8), -b.astype(np.int8)
    refs = {'eq': a == b, 'ne': a != b, 'slt': sa < sb, 'sle': sa <= sb, 'sgt': sa > sb,
            'sge': sa >= sb, 'ult': ua < ub, 'ule': ua <= ub, 'ugt': ua > ub, 'uge': ua >= ub}
    for p, ref in refs.items():
        r = f.op('arith.cmpi %s, %s, %s : %s' % (p, A, B, A.ty), 'i1', a.shape)
        f.expect_eq_const(r, ref)

    f = F.fn('cmpi_i64_of_sign_extended_i32', """
Signed and unsigned comparisons of an i32 sign-extended to i64 with i64
constants inside a region (Mesa's NIR rewrites such a comparison using
-2^31 read as +2^31: on lavapipe extsi(x) > 0 was true for every x).""")
    x = np.array([0, 1, -1, 2, -2, 7, 2147483647, -2147483648], dtype=np.int32)
    X = f.const(x, 'i32')
    xs = x.astype(np.int64)
    for k in [0, 1, -1, 2147483647, -2147483648, 4294967296]:
        for p in ['slt', 'sle', 'sgt', 'sge', 'ult', 'uge']:
            op = {'slt': np.less, 'sle': np.less_equal, 'sgt': np.greater,
                  'sge': np.greater_equal, 'ult': np.less, 'uge': np.greater_equal}[p]
            if p.startswith('u'):
                ref = op(xs.astype(np.uint64), np.array(k).astype(np.int64).astype(np.uint64))
            else:
                ref = op(xs, np.int64(k))
            body = """
^bb0(%%a: i32, %%o: i1):
  %%e = arith.extsi %%a : i32 to i64
  %%k = arith.constant %d : i64
  %%c = arith.cmpi %s, %%e, %%k : i64
  linalg.yield %%c : i1""" % (k, p)
            r = f.elementwise([X], 'i1', body)
            f.expect_eq_const(r, ref)

    f = F.fn('trilu_i64_as_torch_mlir_lowers_it', """
ONNX Trilu through torch-mlir: a linalg.generic keeping x where
col - row <= k (tril) or col - row >= k (triu), the indices cast to i64
(ONNX's test_tril_one_row_neg and test_triu_one_row among them).""")
    for shape, k, upper in [((3, 1, 5), 0, False), ((3, 1, 5), 1, True),
                            ((4, 6), -1, False), ((4, 6), 2, True), ((4, 6), -7, True)]:
        x = f.rng.ints(shape, 1, 9).astype(np.int64)
        X = f.const(x, 'i64')
        r0, r1 = len(shape) - 2, len(shape) - 1
        rows, cols = np.indices(shape[-2:])
        keep = (cols - rows >= k) if upper else (cols - rows <= k)
        body = """
^bb0(%%a: i64, %%o: i64):
  %%r = linalg.index %d : index
  %%c = linalg.index %d : index
  %%ri = arith.index_cast %%r : index to i64
  %%ci = arith.index_cast %%c : index to i64
  %%k = arith.constant %d : i64
  %%z = arith.constant 0 : i64
  %%rk = arith.addi %%ri, %%k : i64
  %%p = arith.cmpi %s, %%ci, %%rk : i64
  %%s = arith.select %%p, %%a, %%z : i64
  linalg.yield %%s : i64""" % (r0, r1, k, 'sge' if upper else 'sle')
        r = f.elementwise([X], 'i64', body)
        f.expect_eq_const(r, np.where(np.broadcast_to(keep, shape), x, 0))

    f = F.fn('select_tensor_condition_f32_and_i64')
    a = f.rng.floats((2, 7), 'f32', -5, 5)
    b = f.rng.floats((2, 7), 'f32', -5, 5)
    x = f.rng.bits64((2, 7))
    y = f.rng.bits64((2, 7))
    A, B, X, Y = f.const(a, 'f32'), f.const(b, 'f32'), f.const(x, 'i64'), f.const(y, 'i64')
    c = f.op('arith.cmpf olt, %s, %s : %s' % (A, B, A.ty), 'i1', a.shape)
    r = f.op('arith.select %s, %s, %s : %s, %s' % (c, A, B, c.ty, A.ty), 'f32', a.shape)
    f.expect_eq_const(r, np.where(a < b, a, b))
    r = f.op('arith.select %s, %s, %s : %s, %s' % (c, X, Y, c.ty, X.ty), 'i64', a.shape)
    f.expect_eq_const(r, np.where(a < b, x, y))

    f = F.fn('select_scalar_condition')
    a = f.rng.ints((6,), -9, 9).astype(np.int16)
    b = f.rng.ints((6,), -9, 9).astype(np.int16)
    A, B = f.const(a, 'i16'), f.const(b, 'i16')
    t = f.scalar(False, 'i1', how='unfoldable')
    r = f.op('arith.select %s, %s, %s : %s' % (t, A, B, A.ty), 'i16', a.shape)
    f.expect_eq_const(r, b)

    f = F.fn('relu_by_cmpf_select_dynamic')
    a = f.rng.floats((3, 19), 'f32', -1, 1)
    A = f.const(a, 'f32', 'dynamic')
    zero = f.const(np.zeros((3, 19), np.float32), 'f32', 'dynamic')
    c = f.op('arith.cmpf ogt, %s, %s : %s' % (A, zero, A.ty), 'i1', a.shape, A.dyn)
    r = f.op('arith.select %s, %s, %s : %s, %s' % (c, A, zero, c.ty, A.ty), 'f32', a.shape,
             A.dyn)
    f.expect_eq_const(r, np.where(a > 0, a, np.float32(0)))


def ieee_max(a, b, num):
    """maximumf (num=False: NaN wins) / maxnumf (num=True: the number
    wins), -0 below +0."""
    if math.isnan(a) or math.isnan(b):
        if num:
            return b if math.isnan(a) else a
        return math.nan
    if a == b == 0:
        return a if math.copysign(1, a) > 0 else b
    return max(a, b)


def ieee_min(a, b, num):
    if math.isnan(a) or math.isnan(b):
        if num:
            return b if math.isnan(a) else a
        return math.nan
    if a == b == 0:
        return a if math.copysign(1, a) < 0 else b
    return min(a, b)


FLOAT_EDGE_OPS = ['addf', 'subf', 'mulf', 'divf', 'remf', 'maximumf', 'minimumf', 'maxnumf',
                  'minnumf']


def float_edge_values(et):
    m, emin, emax = FLOAT_FORMATS[et]
    tiny = 2.0 ** (emin - m + 1)         # the smallest denormal
    big = (2 - 2.0 ** (1 - m)) * 2.0 ** emax
    return [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 1.5, -3.0, 2.0 ** emin,
            -tiny, big, -big]


def round_half_away(v):
    """math.round: to the nearest integer, halves away from zero, exactly
    (floor(|v| + 0.5) would round 0.49999999999999994 up: the sum rounds)."""
    if not math.isfinite(v):
        return v
    r = math.floor(abs(v))
    if abs(v) - r >= 0.5:  # exact: |v| - floor(|v|) is representable
        r += 1
    return math.copysign(float(r), v)


def float_edge_expected(op, et, x, y):
    """float64 results of `op` on the pairs, rounded once to `et` (exact
    for + - * / of f32 and f16: float64 has more than twice their bits)."""
    out = []
    for a, b in zip(x.tolist(), y.tolist()):
        if op == 'remf':
            r = math.nan if (math.isinf(a) or b == 0 or math.isnan(a) or math.isnan(b)) \
                else math.fmod(a, b)
        elif op in ('maximumf', 'maxnumf'):
            r = ieee_max(a, b, op == 'maxnumf')
        elif op in ('minimumf', 'minnumf'):
            r = ieee_min(a, b, op == 'minnumf')
        else:
            with np.errstate(all='ignore'):
                r = float({'addf': np.add, 'subf': np.subtract, 'mulf': np.multiply,
                           'divf': np.divide}[op](np.float64(a), np.float64(b)))
        out.append(r)
    return store(et, np.array(out))


INT_EDGE_OPS = ['addi', 'subi', 'muli', 'divsi', 'divui', 'remsi', 'remui', 'floordivsi',
                'ceildivsi', 'andi', 'ori', 'xori', 'shli', 'shrsi', 'shrui', 'maxsi',
                'minsi', 'maxui', 'minui']


def int_edge_defined(op, a, b, bits):
    """Whether MLIR defines `op` on (a, b): no division by zero, no
    MIN / -1 in signed division, no shift by the width or more (poison)."""
    if op in ('divsi', 'remsi', 'floordivsi', 'ceildivsi', 'divui', 'remui') and b == 0:
        return False
    if op in ('divsi', 'remsi', 'floordivsi', 'ceildivsi') and a == -(1 << (bits - 1)) \
            and b == -1:
        return False
    if op in ('shli', 'shrsi', 'shrui') and not 0 <= b < bits:
        return False
    return True


def edge_functions(F, float_types, int_types, specials_too):
    for et in float_types:
        vals = float_edge_values(et)
        for op in FLOAT_EDGE_OPS:
            f = F.fn('%s_%s_edges' % (op, et))
            pairs = [(a, b) for a in vals for b in vals
                     if not (op in ('maxnumf', 'minnumf') and a == b == 0
                             and math.copysign(1, a) != math.copysign(1, b))]
            x = store(et, np.array([p[0] for p in pairs]))
            y = store(et, np.array([p[1] for p in pairs]))
            X, Y = f.const(x, et), f.const(y, et)
            body = """
^bb0(%%a: %s, %%b: %s, %%o: %s):
  %%r = arith.%s %%a, %%b : %s
  %%u = arith.cmpf uno, %%r, %%r : %s
  %%q = arith.constant %s : %s
  %%s = arith.select %%u, %%q, %%r : %s
  linalg.yield %%s : %s""" % (et, et, et, op, et, et, fmt_float(et, math.nan), et, et, et)
            r = f.elementwise([X, Y], et, body)
            e = float_edge_expected(op, et, f64(x), f64(y))
            f.expect_eq_const(r, e)
    for et in float_types:
        vals = float_edge_values(et) + [2.5, -0.5, {'f32': 0.49999997, 'f16': 0.4998,
                                                    'bf16': 0.498046875,
                                                    'f64': 0.49999999999999994}[et]]
        x = store(et, np.array(vals))
        X = f = None
        f = F.fn('exact_unary_math_%s_edges' % et, """
Unary float ops whose results are exact: negf, absf, floor, ceil, trunc,
round (half away from zero), roundeven, sqrt (correctly rounded in IEEE and
Vulkan), at the edge values.""")
        X = f.const(x, et)
        xf = f64(x)
        with np.errstate(all='ignore'):
            refs = {'arith.negf': -xf, 'math.absf': np.abs(xf), 'math.floor': np.floor(xf),
                    'math.ceil': np.ceil(xf), 'math.trunc': np.trunc(xf),
                    'math.round': np.array([round_half_away(v) for v in xf]),
                    'math.roundeven': np.round(xf), 'math.sqrt': np.sqrt(xf)}
        for op, ref in refs.items():
            body = """
^bb0(%%a: %s, %%o: %s):
  %%r = %s %%a : %s
  %%u = arith.cmpf uno, %%r, %%r : %s
  %%q = arith.constant %s : %s
  %%s = arith.select %%u, %%q, %%r : %s
  linalg.yield %%s : %s""" % (et, et, op, et, et, fmt_float(et, math.nan), et, et, et)
            f.expect_eq_const(f.elementwise([X], et, body), store(et, ref))

        f = F.fn('cmpf_%s_edges' % et, """
Every float predicate at every pair of edge values (NaN unordered).""")
        pairs = [(a, b) for a in float_edge_values(et) for b in float_edge_values(et)]
        x = store(et, np.array([p[0] for p in pairs]))
        y = store(et, np.array([p[1] for p in pairs]))
        X, Y = f.const(x, et), f.const(y, et)
        a, b = f64(x), f64(y)
        uno = np.isnan(a) | np.isnan(b)
        with np.errstate(invalid='ignore'):
            refs = {'oeq': a == b, 'one': (a != b) & ~uno, 'olt': a < b, 'ole': a <= b,
                    'ogt': a > b, 'oge': a >= b, 'ord': ~uno, 'ueq': (a == b) | uno,
                    'une': a != b, 'ult': (a < b) | uno, 'ule': (a <= b) | uno,
                    'ugt': (a > b) | uno, 'uge': (a >= b) | uno, 'uno': uno}
        for p, ref in refs.items():
            r = f.op('arith.cmpf %s, %s, %s : %s' % (p, X, Y, X.ty), 'i1', x.shape)
            f.expect_eq_const(r, ref)

    specials = {} if not specials_too else {
        'math.exp': ([-math.inf, math.inf, 0.0, -0.0, math.nan], np.exp),
        'math.exp2': ([-math.inf, math.inf, 0.0, -0.0, math.nan], np.exp2),
        'math.log': ([0.0, -0.0, math.inf, 1.0, -1.0, -math.inf, math.nan], np.log),
        'math.log2': ([0.0, -0.0, math.inf, 1.0, -1.0, math.nan], np.log2),
        'math.tanh': ([math.inf, -math.inf, 0.0, -0.0, math.nan], np.tanh),
        'math.erf': ([math.inf, -math.inf, 0.0, -0.0, math.nan], np.vectorize(math.erf)),
        'math.sin': ([math.inf, -math.inf, math.nan, 0.0, -0.0], np.sin),
        'math.cos': ([math.inf, -math.inf, math.nan, 0.0], np.cos),
    }
    for op, (vals, fn) in specials.items():
        f = F.fn('%s_f32_special_values' % op.split('.')[1], """
The values IEEE and C fix exactly at the special inputs: exp(-inf) = 0,
exp(inf) = inf, exp(+-0) = 1, log(+-0) = -inf, log(inf) = inf, log(1) = 0,
log(x < 0) = NaN, tanh(+-inf) = +-1, tanh(+-0) = +-0, erf(+-inf) = +-1,
sin/cos(+-inf) = NaN, NaN in NaN out.""")
        x = store('f32', np.array(vals))
        X = f.const(x, 'f32')
        with np.errstate(all='ignore'):
            ref = np.array([float(fn(np.float64(v))) if not (op == 'math.erf' and math.isnan(v))
                            else math.nan for v in f64(x)])
        body = """
^bb0(%%a: f32, %%o: f32):
  %%r = %s %%a : f32
  %%u = arith.cmpf uno, %%r, %%r : f32
  %%q = arith.constant %s : f32
  %%s = arith.select %%u, %%q, %%r : f32
  linalg.yield %%s : f32""" % (op, fmt_float('f32', math.nan))
        f.expect_eq_const(f.elementwise([X], 'f32', body), store('f32', ref))

    for et in int_types:
        bits = INT_BITS[et]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        vals = [0, 1, -1, 2, -2, 7, lo, hi, lo + 1, hi - 1, bits - 1]
        for op in INT_EDGE_OPS:
            f = F.fn('%s_%s_edges' % (op, et))
            pairs = [(a, b) for a in vals for b in vals if int_edge_defined(op, a, b, bits)]
            x = store(et, np.array([p[0] for p in pairs], dtype=object))
            y = store(et, np.array([p[1] for p in pairs], dtype=object))
            X, Y = f.const(x, et), f.const(y, et)
            r = f.elementwise([X, Y], et, binary_body('arith.' + op, et))
            f.expect_eq_const(r, int_apply(op, x, y, et))


@testfile('edge_values.mlir', """
Every binary arith op on every element type at the edge values (f32, f16,
i8, i16, i32, i64; bf16 in edge_values_bf16.mlir), every float predicate, the exactly rounded unary
float ops, and the special values of the transcendental functions: for floats
±0, ±inf, NaN, denormals, the largest finite values (IEEE results; remf is
C's fmod: an infinite divisor gives the dividend, a zero result the
dividend's sign; maximumf/minimumf propagate NaN and order -0 below +0,
maxnumf/minnumf return the number); for integers 0, ±1, the minimum and
maximum and shift counts up to width - 1 (MLIR's wrap-around). Only pairs
MLIR defines are compared (no integer division by zero or MIN / -1, no
shift by the width or more, no maxnumf of -0 and +0). NaN results are
compared as NaN, whatever their bits: the region replaces them by one
quiet NaN.""")
def _(F):
    edge_functions(F, ['f32', 'f16'], ['i8', 'i16', 'i32', 'i64'], True)


@testfile('edge_values_f64.mlir', """
edge_values.mlir's float cases on f64: every binary arith op at every pair
of edge values (±0, ±inf, NaN, the smallest denormal, the smallest normal,
the largest finite value), every float predicate, and the exactly rounded
unary ops, IEEE results computed by numpy in float64 (exact: one IEEE
operation each); NaN compared as NaN.""")
def _(F):
    edge_functions(F, ['f64'], [], False)


@testfile('edge_values_bf16.mlir', """
edge_values.mlir's float cases on bf16 computed directly (arith on bf16
values: f32 arithmetic rounded once to bf16). A file of its own: MLIR 19's
CPU pipeline lowers bf16 arithmetic to calls of compiler-rt's __truncsfbf2,
which its JIT does not have, so gen.py --run-mlir cannot run it.""")
def _(F):
    edge_functions(F, ['bf16'], [], False)


def row_select(lines, et, n):
    """Appends the choice among `%r0v` .. `%r{n-1}v` by output row `%i`
    (`%r{k}v` for row k) to a region's `lines`; the value chosen."""
    acc = '%r0v'
    for k in range(1, n):
        lines.append('%%k%dv = arith.constant %d : index' % (k, k))
        lines.append('%%e%dv = arith.cmpi eq, %%i, %%k%dv : index' % (k, k))
        lines.append('%%s%dv = arith.select %%e%dv, %%r%dv, %s : %s' % (k, k, k, acc, et))
        acc = '%%s%dv' % k
    return acc


def yield_nan_canonical(lines, et, acc):
    """A region's `lines` ended by yielding `acc` with any NaN made the
    canonical one; the region's text."""
    nan = fmt_float(et, math.nan)
    lines.append('%%u = arith.cmpf uno, %s, %s : %s' % (acc, acc, et))
    lines.append('%%q = arith.constant %s : %s' % (nan, et))
    lines.append('%%n = arith.select %%u, %%q, %s : %s' % (acc, et))
    lines.append('linalg.yield %%n : %s' % et)
    return '\n'.join(lines)


def const_operand_region(et, op, consts, a_first):
    """A region computing `op` of the input and each constant in `consts`
    (an `arith.constant` right there, so the SPIR-V has an OpConstant
    operand: the one a driver may fold), the constant second (`a_first`) or
    first, and yielding the result of output row `linalg.index 0`."""
    lines = ['^bb0(%%a: %s, %%o: %s):' % (et, et), '%i = linalg.index 0 : index']
    for k, c in enumerate(consts):
        lines.append('%%c%dv = arith.constant %s : %s' % (k, fmt_float(et, c), et))
        x, y = ('%a', '%%c%dv' % k) if a_first else ('%%c%dv' % k, '%a')
        lines.append('%%r%dv = arith.%s %s, %s : %s' % (k, op, x, y, et))
    acc = row_select(lines, et, len(consts))
    if op in ('maxnumf', 'minnumf'):
        # the sign of a zero result of maxnumf(-0, +0) is unspecified: zeros
        # compare as +0 (a compare, which no driver folds away)
        lines.append('%%z = arith.constant %s : %s' % (fmt_float(et, 0.0), et))
        lines.append('%%y = arith.cmpf oeq, %s, %%z : %s' % (acc, et))
        lines.append('%%w = arith.select %%y, %%z, %s : %s' % (acc, et))
        acc = '%w'
    return yield_nan_canonical(lines, et, acc)


def const_fma_region(et, consts, fused):
    """`x * y + c` (two arith ops, or `math.fma` when `fused`) of two inputs
    and each constant `c` of `consts`, selected by output row."""
    lines = ['^bb0(%%a: %s, %%b: %s, %%o: %s):' % (et, et, et),
             '%i = linalg.index 0 : index']
    if not fused:
        lines.append('%%m = arith.mulf %%a, %%b : %s' % et)
    for k, c in enumerate(consts):
        lines.append('%%c%dv = arith.constant %s : %s' % (k, fmt_float(et, c), et))
        if fused:
            lines.append('%%r%dv = math.fma %%a, %%b, %%c%dv : %s' % (k, k, et))
        else:
            lines.append('%%r%dv = arith.addf %%m, %%c%dv : %s' % (k, k, et))
    acc = row_select(lines, et, len(consts))
    return yield_nan_canonical(lines, et, acc)


def exact_sum(p, c, et):
    """p + c rounded once to `et` (p, c exact values of `et`)."""
    if not (math.isfinite(p) and math.isfinite(c)) or p + c == 0 or p == 0 or c == 0:
        with np.errstate(all='ignore'):
            return float(np.float64(p) + np.float64(c))  # IEEE: exact specials, signed zeros
    return round_fraction(Fraction(p) + Fraction(c), et)


@testfile('edge_values_constant_operand.mlir', """
Every binary float arith op (addf, subf, mulf, divf, remf, maximumf,
minimumf, maxnumf, minnumf) on f32, f64 and f16 with one operand an
arith.constant at an edge value (±0, ±inf, NaN, ±1, 1.5, -3, the smallest
normal, the smallest denormal, the largest finite value), first and second,
the other operand an unfoldable edge value; and x * y + c (arith.mulf then
arith.addf, and math.fma) with a constant addend c. A driver that folds
x * 0.0 to +0, x + 0.0 to x or 0.0 - x to -x (Mesa's NIR does unless the
kernel declares SignedZeroInfNanPreserve for the width) gives -1 * 0.0 = +0,
inf * 0.0 = 0, -0 + 0.0 = -0. Row k of a result holds the op with constant k
(one result with the constant second, one with it first); expected values are
numpy's float64 results rounded once to the type (exact: one IEEE operation
each), x * y + c from exact rationals; NaN compared as NaN, and the sign of a
zero maxnumf / minnumf result (unspecified for -0 and +0) is not compared.""")
def _(F):
    with np.errstate(over='ignore'):
        constant_operand_functions(F)


def constant_operand_functions(F):
    for et in ['f32', 'f64', 'f16']:
        vals = float_edge_values(et)
        x = store(et, np.array(vals))
        consts = [float(v) for v in f64(x)]
        for op in FLOAT_EDGE_OPS:
            f = F.fn('%s_%s_constant_operand' % (op, et))
            X = f.const(x, et)
            rows = []
            for a_first in (True, False):
                for c in consts:
                    cs = store(et, np.array([c] * len(consts)))
                    e = float_edge_expected(op, et, f64(x), f64(cs)) if a_first \
                        else float_edge_expected(op, et, f64(cs), f64(x))
                    if op in ('maxnumf', 'minnumf'):
                        e = np.where(f64(e) == 0, 0.0, f64(e))
                    rows.append(f64(e))
            n = len(consts)
            for half, a_first in enumerate((True, False)):
                r = f.generic([X], [f.empty((n, n), et)], ['(d0, d1) -> (d1)', ident(2)],
                              'pp', const_operand_region(et, op, consts, a_first))
                f.expect_eq_const(r, store(et, np.array(rows[half * n:(half + 1) * n])))
        small = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1.5, -3.0]
        pairs = [(a, b) for a in small for b in small]
        xs = store(et, np.array([p[0] for p in pairs]))
        ys = store(et, np.array([p[1] for p in pairs]))
        for fused in (False, True):
            f = F.fn('%s_%s_constant_addend' % ('fma' if fused else 'mul_add', et))
            X, Y = f.const(xs, et), f.const(ys, et)
            with np.errstate(all='ignore'):
                prods = (f64(xs) * f64(ys)).tolist()  # exact: small operands
            e = [[exact_sum(p, c, et) for p in prods] for c in consts]
            r = f.generic([X, Y], [f.empty((len(consts), len(pairs)), et)],
                          ['(d0, d1) -> (d1)', '(d0, d1) -> (d1)', ident(2)], 'pp',
                          const_fma_region(et, consts, fused))
            f.expect_eq_const(r, store(et, np.array(e)))


def c99_pow(x, y):
    """pow(x, y) where C99 Annex F.9.4.4 (and IEEE 754's pow) fixes the
    value, else None; written from the standard's list, independently of
    numpy. pow(-1, y) for a finite integer y is +-1, exactly."""
    odd = math.isfinite(y) and y == math.floor(y) and math.fmod(y, 2.0) != 0
    if y == 0 or x == 1:
        return 1.0                               # even for a NaN operand
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == 0:                                   # the sign of an odd power
        mag = math.inf if y < 0 else 0.0
        return math.copysign(mag, x) if odd else mag
    if x == -1 and math.isinf(y):
        return 1.0
    if math.isinf(y):                            # |x| != 1
        return math.inf if (abs(x) < 1) == (y < 0) else 0.0
    if math.isinf(x):
        mag = 0.0 if y < 0 else math.inf
        return math.copysign(mag, x) if odd else mag
    if x < 0 and y != math.floor(y):
        return math.nan                          # finite x < 0, non-integer y
    if x == -1:
        return -1.0 if odd else 1.0
    return None


def pow64(x, y):
    """pow(x, y) in float64, the same under every numpy version: C99 Annex
    F's value where it fixes one (c99_pow), else the C library's pow
    (Python's math.pow) with overflow to a signed infinity. numpy 2.x's
    power gives sqrt's values at y = 0.5 (pow(-0, 0.5) = -0 and
    pow(-inf, 0.5) = NaN, where C99 says +0 and +inf)."""
    c = c99_pow(x, y)
    if c is not None:
        return c
    try:
        return math.pow(x, y)
    except OverflowError:                        # finite x, |result| > DBL_MAX
        odd = y == math.floor(y) and math.fmod(y, 2.0) != 0
        return -math.inf if x < 0 and odd else math.inf


def powf_edge_functions(F, et, rtol):
    """math.powf at every pair of the edge values, plus bases and exponents
    that tell the C99 cases apart (even and odd integers of both signs, a
    negative non-integer, |x| < 1)."""
    vals = float_edge_values(et) + [2.0, -2.0, 3.0, 0.5, -0.5]
    pairs = [(a, b) for a in vals for b in vals]
    x = store(et, np.array([p[0] for p in pairs]))
    y = store(et, np.array([p[1] for p in pairs]))
    ref = np.array([pow64(a, b) for a, b in zip(f64(x).tolist(), f64(y).tolist())])
    special = [i for i, (a, b) in enumerate(zip(f64(x).tolist(), f64(y).tolist()))
               if c99_pow(a, b) is not None]
    # Finite results within a factor 2 of overflow are left out: GLSL's Pow
    # inherits the precision of exp2(y log2 x), and log2 x of f32's largest
    # value rounds to 128 (lavapipe: pow(FLT_MAX, 1) = inf).
    m, _, emax = FLOAT_FORMATS[et]
    top = (2 - 2.0 ** (1 - m)) * 2.0 ** emax
    regular = [i for i in range(len(pairs)) if i not in special
               and not top / 2 < abs(float(ref[i])) <= top]
    body = """
^bb0(%%a: %s, %%b: %s, %%o: %s):
  %%r = math.powf %%a, %%b : %s
  %%u = arith.cmpf uno, %%r, %%r : %s
  %%q = arith.constant %s : %s
  %%s = arith.select %%u, %%q, %%r : %s
  linalg.yield %%s : %s""" % (et, et, et, et, et, fmt_float(et, math.nan), et, et, et)
    f = F.fn('powf_%s_special_values' % et, """
The %d pairs of edge values whose power C99 Annex F fixes exactly (exact
check, signed zeros and infinities included).""" % len(special))
    X = f.const(x[special], et)
    Y = f.const(y[special], et)
    f.expect_eq_const(f.elementwise([X, Y], et, body), store(et, ref[special]))
    f = F.fn('powf_%s_edges' % et, """
The other pairs (finite non-zero operands, |x| != 1; %d of them, the
results within a factor 2 of overflow left out: Vulkan's precision for Pow
lets them overflow): overflow to inf, underflow to 0, NaN for a negative
base and a non-integer exponent, the sign of odd powers, denormal bases;
float64 numpy, rtol %g.""" % (len(regular), rtol))
    X = f.const(x[regular], et)
    Y = f.const(y[regular], et)
    with np.errstate(over='ignore'):  # float64 results beyond the type: inf
        want = store(et, ref[regular])
    f.expect_almost_eq_const(f.elementwise([X, Y], et, body), want, atol=1e-6, rtol=rtol)


@testfile('edge_values_powf.mlir', """
math.powf on f32 and f16 at every pair of edge values (±0, ±inf, NaN, ±1,
denormals, the largest finite values, even and odd integers of both signs,
non-integers, |x| < 1). The pairs C99 Annex F.9.4.4 fixes are checked
exactly: pow(x, ±0) = 1 and pow(1, y) = 1 even for NaN, pow(-1, ±inf) = 1,
pow(±0, y < 0) = inf (±inf for odd y), pow(±0, y > 0) = 0 (±0 for odd y),
|x| < 1 to -inf is inf, to +inf 0 (and conversely for |x| > 1), pow(-inf, y)
by y's sign and parity, NaN for a finite negative base and a non-integer
exponent, NaN in NaN out otherwise (gen.py's own table, which numpy's
float64 power matches at every pair). The others against float64 numpy
(rtol 1e-4 on f32, as math_f32.mlir's powf; 2^-9 on f16), except results
within a factor 2 of overflow (pow(FLT_MAX, 1): Vulkan's Pow precision,
that of exp2(y log2 x), lets them overflow). GLSL.std.450 leaves Pow
undefined for x < 0 and for x = 0, y <= 0.""")
def _(F):
    powf_edge_functions(F, 'f32', 1e-4)
    powf_edge_functions(F, 'f16', 2.0 ** -9)


@testfile('casts.mlir', '''
Conversions on tensors: sitofp / uitofp (rounding to nearest even above
2^24), fptosi / fptoui (toward zero), extsi / extui / trunci between every
integer width, extf / truncf, bitcast f32 <-> i32.''')
def _(F):
    f = F.fn('int_to_float')
    a = np.array([0, 1, -1, 16777217, -16777219, 2147483647, -2147483648, 123456789],
                 dtype=np.int32)
    A = f.const(a, 'i32')
    r = f.op('arith.sitofp %s : %s to %s' % (A, A.ty, ttype(a.shape, 'f32')), 'f32', a.shape)
    f.expect_eq_const(r, a.astype(np.float64).astype(np.float32))
    b = store('i8', [0, 1, -1, 127, -128, 100])
    B = f.const(b, 'i8')
    r = f.op('arith.uitofp %s : %s to %s' % (B, B.ty, ttype(b.shape, 'f32')), 'f32', b.shape)
    f.expect_eq_const(r, b.astype(np.uint8).astype(np.float32))
    c = np.array([3, -1000, 2049, 2051, 65504], dtype=np.int64)
    C = f.const(c, 'i64')
    r = f.op('arith.sitofp %s : %s to %s' % (C, C.ty, ttype(c.shape, 'f16')), 'f16', c.shape)
    f.expect_eq_const(r, store('f16', [3, -1000, 2048, 2052, 65504]))

    f = F.fn('float_to_int')
    a = store('f32', [0.0, 0.99, -0.99, 2.5, -2.5, 1e9, -1e9, 123.75])
    A = f.const(a, 'f32')
    r = f.op('arith.fptosi %s : %s to %s' % (A, A.ty, ttype(a.shape, 'i32')), 'i32', a.shape)
    f.expect_eq_const(r, np.trunc(f64(a)).astype(np.int64))
    b = store('f32', [0.0, 1.5, 127.9, 200.0, 255.0])
    B = f.const(b, 'f32')
    r = f.op('arith.fptoui %s : %s to %s' % (B, B.ty, ttype(b.shape, 'i8')), 'i8', b.shape)
    f.expect_eq_const(r, store('i8', np.trunc(f64(b)).astype(np.int64)))
    h = store('f16', [-3.75, 1000.5, 7.0])
    H = f.const(h, 'f16')
    r = f.op('arith.fptosi %s : %s to %s' % (H, H.ty, ttype(h.shape, 'i16')), 'i16', h.shape)
    f.expect_eq_const(r, np.trunc(f64(h)).astype(np.int64))

    f = F.fn('int_widths')
    a = store('i8', f.rng.ints((11,), -128, 127))
    A = f.const(a, 'i8')
    for to in ('i16', 'i32', 'i64'):
        r = f.op('arith.extsi %s : %s to %s' % (A, A.ty, ttype(a.shape, to)), to, a.shape)
        f.expect_eq_const(r, a.astype(np.int64))
        r = f.op('arith.extui %s : %s to %s' % (A, A.ty, ttype(a.shape, to)), to, a.shape)
        f.expect_eq_const(r, a.astype(np.uint8).astype(np.int64))
    w = f.rng.bits64((11,))
    W = f.const(w, 'i64')
    for to in ('i32', 'i16', 'i8'):
        r = f.op('arith.trunci %s : %s to %s' % (W, W.ty, ttype(w.shape, to)), to, w.shape)
        f.expect_eq_const(r, store(to, w))
    s = store('i16', f.rng.ints((11,), -32768, 32767))
    S = f.const(s, 'i16', 'dynamic')
    r = f.op('arith.extsi %s : %s to %s' % (S, S.ty, ttype(s.shape, 'i64', (0,))), 'i64',
             s.shape, (0,))
    f.expect_eq_const(r, s.astype(np.int64))

    f = F.fn('bitcast_f32_i32')
    a = store('f32', [1.0, -2.0, 0.1, 3.4e38, 0.0, -0.0])
    A = f.const(a, 'f32')
    r = f.op('arith.bitcast %s : %s to %s' % (A, A.ty, ttype(a.shape, 'i32')), 'i32', a.shape)
    f.expect_eq_const(r, a.view(np.int32))
    back = f.op('arith.bitcast %s : %s to %s' % (r, r.ty, A.ty), 'f32', a.shape)
    f.expect_eq(back, A)

    f = F.fn('extf_truncf_chain')
    a = f.rng.floats((9,), 'f32', -1000, 1000)
    A = f.const(a, 'f32')
    h = f.op('arith.truncf %s : %s to %s' % (A, A.ty, ttype(a.shape, 'f16')), 'f16', a.shape)
    bb = f.op('arith.truncf %s : %s to %s' % (A, A.ty, ttype(a.shape, 'bf16')), 'bf16', a.shape)
    he = f.op('arith.extf %s : %s to %s' % (h, h.ty, A.ty), 'f32', a.shape)
    be = f.op('arith.extf %s : %s to %s' % (bb, bb.ty, A.ty), 'f32', a.shape)
    f.expect_eq_const(he, a.astype(np.float16).astype(np.float32))
    f.expect_eq_const(be, bf16_from_f32(a))


def sat_float_to_int(v, bits, signed):
    """arith.fptosi / fptoui as kiln defines them where MLIR leaves the
    result undefined: truncate toward zero, NaN -> 0, saturate at the
    type's range (Rust's `as`, LLVM's fptosi.sat)."""
    if math.isnan(v):
        return 0
    lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
              else (0, (1 << bits) - 1))
    if math.isinf(v):
        return hi if v > 0 else lo
    return min(max(int(math.trunc(v)), lo), hi)


def round_to(et, v):
    """IEEE conversion of a float or integer to `et`, ties to even, NaN and
    infinities kept, overflow to infinity, subnormals of `et` exact."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return v
    if v == 0:
        return v  # signed zeros kept (floats); integer 0 -> +0.0
    return round_fraction(Fraction(v), et)


def cast_body(ops, src, dst):
    """A region applying the cast chain `ops` (op text with %%s for the
    operand, type pairs), float results with NaN replaced by one quiet NaN."""
    lines = ['^bb0(%%a: %s, %%o: %s):' % (src, dst)]
    cur = '%a'
    for i, op in enumerate(ops):
        lines.append('  %%c%d = %s' % (i, op % cur))
        cur = '%%c%d' % i
    if is_float(dst):
        lines += ['  %%u = arith.cmpf uno, %s, %s : %s' % (cur, cur, dst),
                  '  %%q = arith.constant %s : %s' % (fmt_float(dst, math.nan), dst),
                  '  %%s = arith.select %%u, %%q, %s : %s' % (cur, dst)]
        cur = '%s'
    lines.append('  linalg.yield %s : %s' % (cur, dst))
    return '\n'.join(lines)


def float_to_int_edges(F, defined):
    """fptosi / fptoui from f16, f32, f64 to i1..i64 at the edge values
    whose result MLIR defines (`defined`: the truncated value fits the
    type) or at the others (out of range, ±inf, NaN: kiln's saturation)."""
    for ft in ('f16', 'f32', 'f64'):
        f = F.fn('float_to_int_%s_edges' % ft)
        m, emin, emax = FLOAT_FORMATS[ft]
        big = (2 - 2.0 ** (1 - m)) * 2.0 ** emax
        base = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, -1.0, 0.999, big, -big, math.inf, -math.inf,
                math.nan, 2.0 ** (emin - m + 1)]
        for it in ['i1', 'i8', 'i16', 'i32', 'i64']:
            bits = INT_BITS[it]
            edges = []
            for e in (bits - 1, bits):
                for d in (-1, 0, 1):
                    for sgn in (1, -1):
                        edges.append(sgn * (2 ** e + d))
            vals = base + [round_to(ft, float(v)) for v in edges]
            for op, signed in (('fptosi', True), ('fptoui', False)):
                lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                          else (0, (1 << bits) - 1))
                pick = [v for v in vals if (math.isfinite(v) and lo <= math.trunc(v) <= hi)
                        == defined]
                if not pick:
                    continue
                x = store(ft, np.array(pick))
                X = f.const(x, ft)
                r = f.elementwise([X], it, cast_body(['arith.%s %%s : %s to %s' % (op, ft, it)],
                                                     ft, it))
                f.expect_eq_const(r, store(it, np.array(
                    [sat_float_to_int(v, bits, signed) for v in f64(x).tolist()], dtype=object)))


@testfile('edge_values_casts_saturating.mlir', """
fptosi / fptoui where MLIR leaves the result undefined (poison): the
truncated value out of the integer type's range, ±inf, NaN, from f16, f32
and f64 to i1, i8, i16, i32 and i64. kiln defines them on every backend
alike (the device, the CPU runner, the reference evaluator) as Rust's `as`,
LLVM's fptosi.sat and WebAssembly's trunc_sat do: saturation at the type's
range, NaN -> 0. Not run by gen.py --run-mlir: MLIR's own lowering leaves
them to the machine (x86 gives the "integer indefinite" minimum).""")
def _(F):
    float_to_int_edges(F, False)


@testfile('edge_values_casts.mlir', """
Conversions at their edge values, on every backend alike. fptosi / fptoui
from f16, f32 and f64 to i1, i8, i16, i32 and i64 at ±0, ±0.5, ±1.5, the
integer type's bounds and the floats next to them and a denormal, where
the result is defined (truncation toward zero; the undefined cases are in
edge_values_casts_saturating.mlir). sitofp / uitofp from i1, i8, i32 and i64 to f16, f32 and f64
at the rounding points (ties to even) and the integer extremes. truncf
f64 -> f32 / f16 and f32 -> f16 / bf16 at ±inf, NaN, overflow, ties and
denormals of the target; extf of denormals, infinities and NaN. bitcast
f64 <-> i64 and f16 <-> i16 (bit patterns kept; NaN payloads are compared
through the integer side only). index_cast / index_castui through index
(sign- and zero-extension, truncation). Expected values: IEEE rounding
computed exactly with Python fractions; NaN compared as NaN.""")
def _(F):
    ints = ['i1', 'i8', 'i16', 'i32', 'i64']
    float_to_int_edges(F, True)

    f = F.fn('int_to_float_edges')
    for it in ints:
        bits = INT_BITS[it]
        vals = [0, 1, -1, 2, 3, -(1 << (bits - 1)), (1 << (bits - 1)) - 1]
        for k in (11, 12, 24, 25, 53, 54):  # around f16 / f32 / f64 significands
            if k < bits - 1:
                vals += [(1 << k) + 1, (1 << k) + 3, -((1 << k) + 1), (1 << k) - 1]
        vals = sorted(set(wrap_int(v, bits) if bits > 1 else v & 1 for v in vals))
        a = store(it, np.array(vals, dtype=object))
        A = f.const(a, it)
        sv = [int(v) for v in np.asarray(a).astype(np.int64).tolist()]
        if it == 'i1':
            sv = [-v for v in sv]  # true is -1 signed
        uv = [v % (1 << bits) for v in sv]
        for ft in ('f16', 'f32', 'f64'):
            for op, vs in (('sitofp', sv), ('uitofp', uv)):
                r = f.elementwise([A], ft, cast_body(['arith.%s %%s : %s to %s' % (op, it, ft)],
                                                     it, ft))
                f.expect_eq_const(r, store(ft, np.array([round_to(ft, v) for v in vs])))

    f = F.fn('truncf_extf_edges')
    for src, dst in (('f64', 'f32'), ('f64', 'f16'), ('f32', 'f16'), ('f32', 'bf16')):
        m, emin, emax = FLOAT_FORMATS[dst]
        dmax = (2 - 2.0 ** (1 - m)) * 2.0 ** emax
        dtiny = 2.0 ** (emin - m + 1)
        half_ulp_max = 2.0 ** (emax - m)
        vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, dmax, -dmax,
                dmax + half_ulp_max, dmax + half_ulp_max / 2, dtiny, -dtiny, dtiny / 2,
                dtiny * 0.75, dtiny * 1.5, dtiny * 2.5, 2.0 ** emin, 2.0 ** emin * 0.999,
                1.0 + 2.0 ** -m, 1.0 + 3 * 2.0 ** -m, 1.0 / 3]
        x = store(src, np.array(vals))
        X = f.const(x, src)
        body = cast_body(['arith.truncf %%s : %s to %s' % (src, dst)], src, dst)
        r = f.elementwise([X], dst, body)
        f.expect_eq_const(r, store(dst, np.array([round_to(dst, v) for v in f64(x).tolist()])))
    for src, dst in (('f16', 'f32'), ('f16', 'f64'), ('f32', 'f64'), ('bf16', 'f32')):
        m, emin, emax = FLOAT_FORMATS[src]
        vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 2.0 ** (emin - m + 1),
                -(2.0 ** (emin - m + 1)) * 3, (2 - 2.0 ** (1 - m)) * 2.0 ** emax, 2.0 ** emin]
        x = store(src, np.array(vals))
        X = f.const(x, src)
        r = f.elementwise([X], dst, cast_body(['arith.extf %%s : %s to %s' % (src, dst)],
                                              src, dst))
        f.expect_eq_const(r, store(dst, f64(x)))

    f = F.fn('bitcast_edges')
    w = np.array([0, 1, -1, 0x7FF0000000000000, -0x10000000000000, 0x7FF8000000000001,
                  0x000FFFFFFFFFFFFF, -(1 << 63), (1 << 63) - 1], dtype=np.int64)
    W = f.const(w, 'i64')
    d = f.op('arith.bitcast %s : %s to %s' % (W, W.ty, ttype(w.shape, 'f64')), 'f64', w.shape)
    back = f.op('arith.bitcast %s : %s to %s' % (d, d.ty, W.ty), 'i64', w.shape)
    f.expect_eq(back, W)
    fin = np.array([1.0, -2.5, 5e-324, -0.0, 1.7976931348623157e308])
    FI = f.const(fin, 'f64')
    r = f.op('arith.bitcast %s : %s to %s' % (FI, FI.ty, ttype(fin.shape, 'i64')), 'i64',
             fin.shape)
    f.expect_eq_const(r, fin.view(np.int64))
    h = store('i16', np.array([0, 1, -1, 0x7C00, -1024, 0x7E01, 0x03FF, -32768, 32767]))
    H = f.const(h, 'i16')
    hf = f.op('arith.bitcast %s : %s to %s' % (H, H.ty, ttype(h.shape, 'f16')), 'f16', h.shape)
    back = f.op('arith.bitcast %s : %s to %s' % (hf, hf.ty, H.ty), 'i16', h.shape)
    f.expect_eq(back, H)

    f = F.fn('index_cast_edges')
    a = np.array([0, 1, -1, 2147483647, -2147483648, 65535, -65536], dtype=np.int32)
    A = f.const(a, 'i32')
    r = f.elementwise([A], 'i64', cast_body(['arith.index_cast %s : i32 to index',
                                             'arith.index_cast %s : index to i64'], 'i32', 'i64'))
    f.expect_eq_const(r, a.astype(np.int64))
    r = f.elementwise([A], 'i64', cast_body(['arith.index_castui %s : i32 to index',
                                             'arith.index_castui %s : index to i64'], 'i32',
                                            'i64'))
    f.expect_eq_const(r, a.astype(np.int64) & 0xFFFFFFFF)
    r = f.elementwise([A], 'i8', cast_body(['arith.index_cast %s : i32 to index',
                                            'arith.index_cast %s : index to i8'], 'i32', 'i8'))
    f.expect_eq_const(r, store('i8', a.astype(np.int64)))
    b = store('i1', np.array([0, 1, 1, 0]))
    B = f.const(b, 'i1')
    r = f.elementwise([B], 'i64', cast_body(['arith.index_cast %s : i1 to index',
                                             'arith.index_cast %s : index to i64'], 'i1', 'i64'))
    f.expect_eq_const(r, -b.astype(np.int64))
    r = f.elementwise([B], 'i64', cast_body(['arith.index_castui %s : i1 to index',
                                             'arith.index_castui %s : index to i64'], 'i1',
                                            'i64'))
    f.expect_eq_const(r, b.astype(np.int64))


def unary(f, op, X, et=None):
    et = et or X.et
    return f.op('%s %s : %s' % (op, X, X.ty), et, X.shape, X.dyn)


@testfile('math_f32.mlir', '''
math on f32 tensors, each against float64 numpy with the tolerance Vulkan's
precision rules allow: exp/exp2/log/log2 (atol 1e-6, rtol 1e-5), tanh/erf and
asinh/acosh/atanh (atol 1e-5, rtol 1e-4), sqrt/rsqrt (rtol 1e-5), sin/cos (atol 5e-4), powf
and fpowi (rtol 1e-4), fma (default); exact rounding functions (floor, ceil, trunc,
round, roundeven), absf, copysign, absi.''')
def _(F):
    f = F.fn('exp_log_31x7')
    x = f.rng.floats((31, 7), 'f32', -10, 10)
    y = f.rng.floats((31, 7), 'f32', 0.01, 100)
    X, Y = f.const(x, 'f32'), f.const(y, 'f32')
    f.expect_almost_eq_const(unary(f, 'math.exp', X), np.exp(f64(x)), atol=1e-6, rtol=1e-5)
    f.expect_almost_eq_const(unary(f, 'math.exp2', X), np.exp2(f64(x)), atol=1e-6, rtol=1e-5)
    f.expect_almost_eq_const(unary(f, 'math.log', Y), np.log(f64(y)), atol=1e-6, rtol=1e-5)
    f.expect_almost_eq_const(unary(f, 'math.log2', Y), np.log2(f64(y)), atol=1e-6, rtol=1e-5)

    f = F.fn('tanh_erf_127')
    x = f.rng.floats((127,), 'f32', -5, 5)
    x[:3] = [0.0, 1e-3, -2e-4]
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(unary(f, 'math.tanh', X), np.tanh(f64(x)), atol=1e-5, rtol=1e-4)
    erf = np.vectorize(math.erf)
    f.expect_almost_eq_const(unary(f, 'math.erf', X), erf(f64(x)), atol=1e-5, rtol=1e-4)

    f = F.fn('asinh_acosh_atanh_37', '''
The inverse hyperbolic functions (GLSL.std.450 Asinh, Acosh, Atanh; Vulkan
inherits their precision from log, hence tanh's tolerance).''')
    x = f.rng.floats((37,), 'f32', -20, 20)
    x[:3] = [0.0, 1e-3, -0.5]
    c = f.rng.floats((37,), 'f32', 1, 30)
    c[0] = 1.0
    t = f.rng.floats((37,), 'f32', -0.99, 0.99)
    t[:2] = [0.0, -0.25]
    X, C, T = f.const(x, 'f32'), f.const(c, 'f32'), f.const(t, 'f32')
    f.expect_almost_eq_const(unary(f, 'math.asinh', X), np.arcsinh(f64(x)), atol=1e-5,
                             rtol=1e-4)
    f.expect_almost_eq_const(unary(f, 'math.acosh', C), np.arccosh(f64(c)), atol=1e-5,
                             rtol=1e-4)
    f.expect_almost_eq_const(unary(f, 'math.atanh', T), np.arctanh(f64(t)), atol=1e-5,
                             rtol=1e-4)

    f = F.fn('sqrt_rsqrt_13')
    x = f.rng.floats((13,), 'f32', 0.001, 1000)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(unary(f, 'math.sqrt', X), np.sqrt(f64(x)), atol=0.0, rtol=1e-5)
    f.expect_almost_eq_const(unary(f, 'math.rsqrt', X), 1 / np.sqrt(f64(x)), atol=0.0,
                             rtol=1e-5)

    f = F.fn('sin_cos_64')
    x = f.rng.floats((64,), 'f32', -math.pi, math.pi)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(unary(f, 'math.sin', X), np.sin(f64(x)), atol=5e-4)
    f.expect_almost_eq_const(unary(f, 'math.cos', X), np.cos(f64(x)), atol=5e-4)

    f = F.fn('powf_fma_5x5')
    a = f.rng.floats((5, 5), 'f32', 0.5, 4)
    b = f.rng.floats((5, 5), 'f32', -2, 2)
    c = f.rng.floats((5, 5), 'f32', -2, 2)
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    r = f.op('math.powf %s, %s : %s' % (A, B, A.ty), 'f32', a.shape)
    f.expect_almost_eq_const(r, np.power(f64(a), f64(b)), atol=1e-6, rtol=1e-4)
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), 'f32', a.shape)
    f.expect_almost_eq_const(r, f64(a) * f64(b) + f64(c))

    f = F.fn('fma_rounds_once', '''
math.fma is one rounding of the exact a * b + c (MLIR, IEEE 754's
fusedMultiplyAdd); Vulkan lets GLSL.std.450 Fma round twice, and
llvmpipe's does. Cancellations where the product's low half is the whole
result, products a hair off an f32 tie (c = +-2^-60 decides the
rounding; an f64 sum rounded again to f32 would tie to even), an
intermediate product past FLT_MAX that the addend brings back, a product
on the overflow threshold that a tiny addend pushes either way, and
infinities (no NaN: its sign bit is not specified); exact rationals
rounded once (Python fractions).''')
    e12, e11 = 2.0 ** -12, 2.0 ** -11
    rows = [
        (1 + e12, 1 + e12, -(1 + e11)),
        (1 - e12, 1 + e12, -1.0),
        (1 + e12, 1 + e12, 2.0 ** -60),
        (1 + e12, 1 + e12, -2.0 ** -60),
        (-(1 + e12), 1 + e12, 2.0 ** -60),
        (3.0 * 2.0 ** 126, 2.0, -(3.0 * 2.0 ** 126)),
        (math.inf, 2.0, 1.0),
        (math.inf, -2.0, 1.0),
        (-1.0, 0.0, 0.0),
        (1e30, 1e30, -math.inf),
        # 601 * 55831 = 2^25 - 1: the product is the overflow threshold
        # 2^128 - 2^103 (a tie rounding to inf); c = -+2^60 decides.
        (601 * 2.0 ** 52, 55831 * 2.0 ** 51, -2.0 ** 60),
        (601 * 2.0 ** 52, 55831 * 2.0 ** 51, 2.0 ** 60),
        (-601 * 2.0 ** 52, 55831 * 2.0 ** 51, 2.0 ** 60),
    ]
    rng = np.random.default_rng(2026_11_30)
    for _ in range(22):
        a, b = (float(np.float32(v)) for v in rng.uniform(-4, 4, 2))
        # c cancels most of the product: the product's low bits decide.
        c = -float(np.float32(a * b))
        rows.append((a, b, c))
    abc = np.array(rows, dtype=np.float32).T
    A, B, C = (f.const(abc[i], 'f32') for i in range(3))
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), 'f32', abc[0].shape)

    def once(a, b, c):
        if not all(math.isfinite(v) for v in (a, b, c)):
            with np.errstate(invalid='ignore'):
                return float(np.float64(a) * np.float64(b) + np.float64(c))
        return round_fraction(Fraction(a) * Fraction(b) + Fraction(c), 'f32')
    want = np.array([once(*(float(v) for v in t)) for t in zip(*abc)])
    f.expect_eq_const(r, want)

    f = F.fn('fpowi_tensor_and_region', '''
math.fpowi (float to a signless integer power; torch-mlir emits it for
torch.pow with an integer exponent: GPT-2's and Llama's x^2, x^3): on
tensors with i64 exponents (negative bases, -0, zero exponents and 0 to a
negative power, odd exponents above 2^24, where a float exponent would lose
the parity) and in a region with a scalar i32 exponent captured from the
function, against float64 numpy power (rtol 1e-4, powf's).''')
    x = f.rng.floats((23,), 'f32', -3, 3)
    n = f.rng.ints((23,), -5, 6).astype(np.int64)
    x[:10] = [-2.0, -0.0, -0.0, 0.0, 0.0, -1.0, -1.0, 2.5, -1.5, 7.0]
    n[:10] = [3, 3, -1, -2, 0, 2 ** 25 + 1, 2 ** 40, -3, 0, 1]
    X, N = f.const(x, 'f32'), f.const(n, 'i64')
    r = f.op('math.fpowi %s, %s : %s, %s' % (X, N, X.ty, N.ty), 'f32', x.shape)
    with np.errstate(divide='ignore'):
        want = np.power(f64(x), n.astype(np.float64))
    f.expect_almost_eq_const(r, want, atol=1e-6, rtol=1e-4)
    k = f.scalar(3, 'i32')
    y = f.elementwise([X], 'f32', '''
^bb0(%%x: f32, %%o: f32):
  %%p = math.fpowi %%x, %s : f32, i32
  linalg.yield %%p : f32''' % k)
    f.expect_almost_eq_const(y, np.power(f64(x), 3.0), atol=1e-6, rtol=1e-4)

    f = F.fn('rounding_exact_24')
    x = store('f32', [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, 3.7, -3.7,
                      1e7 + 0.5, 123.25, -123.75, 0.0, 7.0, -7.0, 2.5000002, 8388609.0,
                      -8388607.5, 0.75, -0.25, 1.0000001, 99.5, -99.5])
    X = f.const(x, 'f32')
    d = f64(x)
    f.expect_eq_const(unary(f, 'math.floor', X), np.floor(d))
    f.expect_eq_const(unary(f, 'math.ceil', X), np.ceil(d))
    f.expect_eq_const(unary(f, 'math.trunc', X), np.trunc(d))
    f.expect_eq_const(unary(f, 'math.roundeven', X), np.rint(d))
    f.expect_eq_const(unary(f, 'math.round', X), np.copysign(np.floor(np.abs(d) + 0.5), d))

    f = F.fn('absf_copysign_absi')
    a = f.rng.floats((11,), 'f32', -9, 9)
    b = f.rng.floats((11,), 'f32', -9, 9)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    f.expect_eq_const(unary(f, 'math.absf', A), np.abs(a))
    r = f.op('math.copysign %s, %s : %s' % (A, B, A.ty), 'f32', a.shape)
    f.expect_eq_const(r, np.copysign(a, b))
    i = f.rng.ints((11,), -2 ** 31 + 1, 2 ** 31 - 1).astype(np.int32)
    I = f.const(i, 'i32')
    f.expect_eq_const(unary(f, 'math.absi', I), np.abs(i))

    f = F.fn('exp_dynamic_1x1021')
    x = f.rng.floats((1, 1021), 'f32', -3, 3)
    X = f.const(x, 'f32', 'dynamic')
    f.expect_almost_eq_const(unary(f, 'math.exp', X), np.exp(f64(x)), atol=1e-6, rtol=1e-5)


# f64 math: expected values from Python's decimal module at 120 digits (exp,
# ln, log10 and power are correctly rounded there), rounded once to float64;
# an oracle independent of numpy's and of any libm.
DEC = None


def dec_ctx():
    global DEC
    if DEC is None:
        import decimal
        DEC = decimal.Context(prec=120, Emin=-999999, Emax=999999)
    return DEC


def dec_math(op, x, y=None):
    """The float64 nearest op(x[, y]) (x, y floats where op is finite)."""
    from decimal import Decimal
    c = dec_ctx()
    d = Decimal(x)
    if op == 'exp':
        r = c.exp(d)
    elif op == 'exp2':
        r = c.power(Decimal(2), d)
    elif op == 'expm1':
        r = c.subtract(c.exp(d), 1)
    elif op == 'log':
        r = c.ln(d)
    elif op == 'log2':
        r = c.divide(c.ln(d), c.ln(Decimal(2)))
    elif op == 'log10':
        r = c.log10(d)
    elif op == 'log1p':
        r = c.ln(c.add(1, d))
    elif op == 'tanh':
        e = c.exp(c.multiply(2, d))
        r = c.divide(c.subtract(e, 1), c.add(e, 1))
    elif op == 'powf':
        r = c.power(d, Decimal(y))
    else:
        raise ValueError(op)
    return float(r)


def pow10(u):
    """10 ** u elementwise through the decimal module, rounded once to
    float64: numpy's power calls the C library's pow, whose last bit
    depends on the CPU (glibc picks FMA code paths at run time), so inputs
    drawn as 10 ** u made the generated file differ between machines."""
    from decimal import Decimal
    c = dec_ctx()
    u = np.asarray(u, dtype=np.float64)
    return np.array([float(c.power(Decimal(10), Decimal(v))) for v in u.ravel().tolist()],
                    dtype=np.float64).reshape(u.shape)


def nan_normalized_body(op, et, arity=1):
    """A region applying `op`, NaN results replaced by one quiet NaN (so an
    exact check compares NaN as NaN, whatever its bits)."""
    args = ', '.join('%%a%d: %s' % (i, et) for i in range(arity))
    ops = ', '.join('%%a%d' % i for i in range(arity))
    return """
^bb0(%s, %%o: %s):
  %%r = %s %s : %s
  %%u = arith.cmpf uno, %%r, %%r : %s
  %%q = arith.constant %s : %s
  %%s = arith.select %%u, %%q, %%r : %s
  linalg.yield %%s : %s""" % (args, et, op, ops, et, et, fmt_float(et, math.nan), et, et, et)


F64_SPECIALS = {
    'exp': [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324, 710.0, -746.0,
            1.7976931348623157e308, -1.7976931348623157e308, 1.0e-300],
    'exp2': [0.0, -0.0, math.inf, -math.inf, math.nan, 1024.0, -1075.0, -1074.0, 10.0, -3.0,
             1023.0, 5e-324],
    'expm1': [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0e-300, -1.0e-300, 5e-324, -40.0,
              -1.0e3, 710.0],
    'log': [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, -5e-324],
    'log2': [0.0, -0.0, math.inf, math.nan, 1.0, -1.0, 5e-324, 2.0 ** -1022, 1024.0,
             2.0 ** 1023],
    'log10': [0.0, -0.0, math.inf, math.nan, 1.0, -1.0, 1000.0, 1.0e-5],
    'log1p': [0.0, -0.0, math.inf, -math.inf, math.nan, -1.0, -2.0, 1.0e-300, -1.0e-300,
              5e-324, -1.0e-17],
    'tanh': [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0e-300, -1.0e-300, 5e-324, 25.0,
             -25.0, 1.0e300],
}

# (x, y) pairs whose powf IEEE 754 / C99 Annex F fixes exactly.
POW_SPECIALS = [
    (math.nan, 0.0), (math.nan, -0.0), (1.0, math.nan), (1.0, math.inf), (-1.0, math.inf),
    (-1.0, -math.inf), (0.0, -3.0), (-0.0, -3.0), (0.0, -2.0), (-0.0, -2.5),
    (0.0, -math.inf), (-0.0, -math.inf), (0.0, 3.0), (-0.0, 3.0), (-0.0, 2.0), (-0.0, 0.5),
    (0.0, math.inf), (-math.inf, -3.0), (-math.inf, -2.0), (-math.inf, 3.0),
    (-math.inf, 2.0), (-math.inf, 0.5), (math.inf, -0.5), (math.inf, 2.0), (0.5, -math.inf),
    (2.0, -math.inf), (0.5, math.inf), (2.0, math.inf), (-0.5, math.inf), (-2.0, -math.inf),
    (-2.0, 3.0), (-2.0, -3.0), (-2.0, 0.5), (-8.0, 1.0 / 3.0), (2.0, 1024.0), (2.0, -1074.0),
    (2.0, -1075.0), (10.0, 308.0), (10.0, 309.0), (math.nan, 1.0), (2.0, math.nan),
    (-3.0, 2.0), (3.0, 0.5), (1.0e300, 2.0), (1.0e-300, 2.0), (-1.0e-300, 3.0),
    (4.0, 0.5), (2.0, 0.5 ** 60),
]


def np_special(op, x, y=None):
    """IEEE / C99 values at the special inputs (numpy's float64 functions,
    which implement C99 Annex F there; powf's by pow64, as numpy 2.x's
    power does not at y = 0.5)."""
    if op == 'powf':
        return pow64(x, y)
    with np.errstate(all='ignore'):
        return float({'exp': np.exp, 'exp2': np.exp2, 'expm1': np.expm1, 'log': np.log,
                      'log2': np.log2, 'log10': np.log10, 'log1p': np.log1p,
                      'tanh': np.tanh}[op](np.float64(x)))


@testfile('math_f64.mlir', """
math on f64 tensors, which GLSL.std.450 cannot compute (its Exp, Log, Pow
and hyperbolic functions are 16/32-bit only): exp, exp2, expm1, log, log2,
log10, log1p, tanh and powf at random arguments over their whole range and
near the points where they lose digits (log near 1, expm1 and log1p near 0,
powf of bases near 1 with large exponents), against Python's decimal module
at 120 digits rounded once to f64, with rtol 2^-52 and atol 0 (at most one
or two ulp: the value's own spacing is 2^-53 to 2^-52 of it; tanh 2^-51,
as fdlibm's and glibc's tanh are off by 2 ulp at places); then their
IEEE / C99 special values (numpy) compared exactly, NaN as NaN: ±0, ±inf,
NaN, denormals, overflow and underflow thresholds, and powf's table (x^±0 =
1 even for NaN x, 1^y = 1, (-1)^±inf = 1, signed zeros and infinities of
±0 and ±inf bases, NaN for a negative base and a non-integer exponent).
A subnormal result is checked with rtol 2^-6 (one subnormal ulp of it).""")
def _(F):
    ulps = 2.0 ** -52
    ranges = {
        'exp': [(-700.0, 700.0, False), (-1.0, 1.0, False)],
        'exp2': [(-1020.0, 1020.0, False), (-1.0, 1.0, False)],
        'expm1': [(-40.0, 700.0, False), (-1.0, 1.0, False), (-30.0, -1.0, True)],
        'log': [(-300.0, 300.0, True), (0.7, 1.45, False)],
        'log2': [(-300.0, 300.0, True), (0.7, 1.45, False)],
        'log10': [(-300.0, 300.0, True), (0.7, 1.45, False)],
        'log1p': [(-0.99, 0.99, False), (-30.0, 300.0, True), (-30.0, -1.0, 'signed')],
        'tanh': [(-20.0, 20.0, False), (-1.0, 1.0, False), (-30.0, -1.0, 'signed')],
    }
    for op, rs in ranges.items():
        f = F.fn('%s_f64' % op)
        xs = []
        for i, (lo, hi, kind) in enumerate(rs):
            u = f.rng.uniform((40,), lo, hi)
            if kind == 'signed':  # +-10^u: tiny arguments of both signs
                u = pow10(u) * np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
            elif kind:  # 10^u: positive over many decades
                u = pow10(u)
            xs.append(u)
        x = store('f64', np.concatenate(xs))
        X = f.const(x, 'f64')
        ref = np.array([dec_math(op, v) for v in x.tolist()])
        # tanh: fdlibm's formula (glibc's too) is off by up to 2 ulp.
        rtol = 2 * ulps if op == 'tanh' else ulps
        f.expect_almost_eq_const(unary(f, 'math.' + op, X), ref, atol=0.0, rtol=rtol)

        vals = F64_SPECIALS[op]
        x = store('f64', np.array(vals))
        X = f.const(x, 'f64')
        ref = np.array([np_special(op, v) for v in vals])
        sub = [i for i, r in enumerate(ref) if r != 0 and abs(r) < 2.0 ** -1022]
        exact = [i for i in range(len(vals)) if i not in sub]
        x = store('f64', np.array([vals[i] for i in exact]))
        X = f.const(x, 'f64')
        r = f.elementwise([X], 'f64', nan_normalized_body('math.' + op, 'f64'))
        f.expect_eq_const(r, store('f64', ref[exact]))
        if sub:
            xs = store('f64', np.array([vals[i] for i in sub]))
            XS = f.const(xs, 'f64')
            f.expect_almost_eq_const(unary(f, 'math.' + op, XS), ref[sub], atol=0.0,
                                     rtol=2.0 ** -6)

    f = F.fn('powf_f64')
    a = np.concatenate([pow10(f.rng.uniform((40,), -5, 5)), 1 + f.rng.uniform((40,), -0.3, 0.4),
                        1 + f.rng.uniform((40,), -1e-6, 1e-6)])
    b = np.concatenate([f.rng.uniform((40,), -60, 60), f.rng.uniform((40,), -1000, 1000),
                        f.rng.uniform((40,), -1e8, 1e8)])
    a, b = store('f64', a), store('f64', b)
    A, B = f.const(a, 'f64'), f.const(b, 'f64')
    r = f.op('math.powf %s, %s : %s' % (A, B, A.ty), 'f64', a.shape)
    ref = np.array([dec_math('powf', p, q) for p, q in zip(a.tolist(), b.tolist())])
    f.expect_almost_eq_const(r, ref, atol=0.0, rtol=ulps)
    # Negative bases with integral exponents: the sign of odd powers.
    a = -store('f64', 1 + f.rng.uniform((16,), 0.0, 3.0))
    b = np.array([float(v) for v in range(-8, 8)])
    A, B = f.const(a, 'f64'), f.const(b, 'f64')
    r = f.op('math.powf %s, %s : %s' % (A, B, A.ty), 'f64', a.shape)
    ref = np.array([(-1.0 if int(q) % 2 else 1.0) * dec_math('powf', -p, q)
                    for p, q in zip(a.tolist(), b.tolist())])
    f.expect_almost_eq_const(r, ref, atol=0.0, rtol=ulps)
    x = store('f64', np.array([p[0] for p in POW_SPECIALS]))
    y = store('f64', np.array([p[1] for p in POW_SPECIALS]))
    ref = np.array([np_special('powf', p, q) for p, q in POW_SPECIALS])
    X, Y = f.const(x, 'f64'), f.const(y, 'f64')
    r = f.elementwise([X, Y], 'f64', nan_normalized_body('math.powf', 'f64', 2))
    f.expect_eq_const(r, store('f64', ref))


@testfile('math_expm1_log1p.mlir', """
math.expm1, math.log1p and math.tanh on f32 and f16, where exp(x) - 1,
log(1 + x) and (e^2x - 1) / (e^2x + 1) lose every digit near 0 (kiln
computed the first two that way, lavapipe's Tanh the third): tiny
arguments of both signs, moderate and large ones, and ±0, ±inf, NaN, -1
exactly. Expected: numpy's float64 expm1 / log1p / tanh rounded once to
the type; rtol 2^-22 (two f32 ulp) or 2^-10 (one f16 ulp), atol 0.""")
def _(F):
    for et, rtol in (('f32', 2.0 ** -22), ('f16', 2.0 ** -10)):
        f = F.fn('expm1_log1p_%s' % et)
        if et == 'f32':
            tiny = [1e-7, -1e-7, 3e-5, -3e-5, 1e-3, -1e-3, 1e-20, -1e-20, 1e-30, 0.1, -0.1]
            x = np.concatenate([tiny, f.rng.uniform((40,), -10, 10)])
            y = np.concatenate([tiny, f.rng.uniform((20,), -0.99, 2), pow10(f.rng.uniform(
                (20,), -8, 30))])
        else:
            tiny = [1e-3, -1e-3, 2e-4, -2e-4, 7e-5, -7e-5, 0.01, -0.01, 0.25]
            x = np.concatenate([tiny, f.rng.uniform((16,), -5, 5)])
            y = np.concatenate([tiny, f.rng.uniform((16,), -0.99, 100)])
        x, y = store(et, x), store(et, y)
        X, Y = f.const(x, et), f.const(y, et)
        with np.errstate(all='ignore'):
            ex = store(et, np.expm1(f64(x)))
            ly = store(et, np.log1p(f64(y)))
        f.expect_almost_eq_const(unary(f, 'math.expm1', X), ex, atol=0.0, rtol=rtol)
        f.expect_almost_eq_const(unary(f, 'math.log1p', Y), ly, atol=0.0, rtol=rtol)
        with np.errstate(all='ignore'):
            tx = store(et, np.tanh(f64(x)))
        f.expect_almost_eq_const(unary(f, 'math.tanh', X), tx, atol=0.0, rtol=rtol)
        sp = store(et, np.array([0.0, -0.0, math.inf, -math.inf, math.nan, -1.0, -2.0]))
        S = f.const(sp, et)
        with np.errstate(all='ignore'):
            for op, fn in (('math.expm1', np.expm1), ('math.log1p', np.log1p)):
                r = f.elementwise([S], et, nan_normalized_body(op, et))
                f.expect_eq_const(r, store(et, fn(f64(sp))))


@testfile('math_f16_bf16.mlir', '''
math on half types: math.sqrt / math.exp directly on f16 tensors (f16
precision: rtol 2^-9), and the usual form, f16 / bf16 storage with the math
done in f32 inside the region (one ulp of the storage type on top of the
f32 tolerance).''')
def _(F):
    f = F.fn('sqrt_exp_f16_tensor_19')
    x = f.rng.floats((19,), 'f16', 0.0, 9)
    X = f.const(x, 'f16')
    f.expect_almost_eq_const(unary(f, 'math.sqrt', X), np.sqrt(f64(x)), atol=1e-3,
                             rtol=2.0 ** -9)
    y = f.rng.floats((19,), 'f16', -4, 4)
    Y = f.const(y, 'f16')
    f.expect_almost_eq_const(unary(f, 'math.exp', Y), np.exp(f64(y)), atol=1e-3,
                             rtol=2.0 ** -9)

    f = F.fn('exp_f16_in_f32_8x9')
    x = f.rng.floats((8, 9), 'f16', -6, 6)
    X = f.const(x, 'f16')
    r = f.elementwise([X], 'f16', half_body('f16', 1, ['%e = math.exp %x : f32'], '%e'))
    f.expect_almost_eq_const(r, np.exp(f64(x)), atol=1e-4, rtol=2.0 ** -10 + 1e-5)

    f = F.fn('tanh_bf16_in_f32_61')
    x = f.rng.floats((61,), 'bf16', -4, 4)
    X = f.const(x, 'bf16', 'dynamic')
    r = f.elementwise([X], 'bf16', half_body('bf16', 1, ['%e = math.tanh %x : f32'], '%e'))
    f.expect_almost_eq_const(r, np.tanh(f64(x)), atol=1e-4, rtol=2.0 ** -7 + 1e-4)


@testfile('fma_f16_bf16.mlir', '''
math.fma on f16 and bf16 tensors is one rounding of the exact a * b + c
(exact rationals, Python fractions): rows where rounding it to f32 first
lands on a midpoint of the format, subnormal results, the overflow
threshold, products past the format's (and for bf16 f32's) range brought
back by the addend, signed zeros, infinities, NaN. A file of its own:
MLIR 19's CPU pipeline fails its f16 check (gen.py --run-mlir does not
run it).''')
def _(F):
    fma_half_rounds_once(F, 'f16', [
        # RN32(a b + c) lands on an f16 midpoint that a b + c is not on.
        (1.0859375, -2.283203125, -7.623434066772461e-05),
        (5.3828125, -1.65234375, -0.00027489662170410156),
        (-14.28125, 11.53125, -0.006832122802734375),
        (106.1875, -111.3125, -0.00373077392578125),
        (-100.375, 124.6875, -0.49267578125),
        (-214.5, 127.8125, -0.2183837890625),
        # Subnormal results (1023 and 1025 times 2^-24, one ulp off twice).
        (0.0001360177993774414, 0.00021910667419433594, 6.091594696044922e-05),
        (-0.0001360177993774414, 0.00021910667419433594, -6.091594696044922e-05),
        (0.00021910667419433594, 0.0001360177993774414, 6.103515625e-05),
        # 63 * 1040 = 65520, the overflow threshold (a tie rounding to inf):
        # c = -+2^-24 decides.
        (63.0, 1040.0, -2.0 ** -24),
        (63.0, 1040.0, 2.0 ** -24),
        (-63.0, 1040.0, 2.0 ** -24),
        # Products past f16's max that the addend brings back.
        (384.0, 256.0, -65504.0),
        (65504.0, 2.0, -65504.0),
        (-65504.0, 65504.0, 65504.0),
        # Products that underflow f16, signed zeros.
        (2.0 ** -24, 2.0 ** -24, -0.0),
        (-(2.0 ** -24), 2.0 ** -24, 0.0),
        (-1.0, 0.0, -0.0),
        (-1.0, 0.0, 0.0),
        (3.0, -2.0, 6.0),
        (math.inf, 2.0, 1.0),
        (-2.0, math.inf, 65504.0),
        (1.0, 1.0, -math.inf),
    ], [(math.inf, 0.0, 1.0), (math.inf, 1.0, -math.inf), (math.nan, 1.0, 2.0),
        (1.0, 2.0, math.nan)])
    fma_half_rounds_once(F, 'bf16', [
        (6.75, 4.25, -1.673470251262188e-09),
        (0.9375, 2.625, -8.981260180007666e-12),
        (0.7890625, -0.15625, -9.167706593871117e-10),
        (1.5132094747964867e+18, 9.7998327891582e+18, 1.3772082937049856e+28),
        (-7.998392938210001e+18, 1.7293822569102705e+18, -4.1099609304274625e+29),
        (-2.7381885734412616e+18, -4.323455642275676e+18, 2.7466794621644375e+27),
        # Products past f32's (and bf16's) max that the addend brings back.
        (2.0 ** 64, 2.0 ** 64, -(2.0 ** 128 - 2.0 ** 120)),
        (1.5 * 2.0 ** 64, -(2.0 ** 64), 2.0 ** 128 - 2.0 ** 120),
        (2.0 ** 127, 2.0, -math.ldexp(255, 120)),
        # bf16's overflow threshold 2^128 - 2^119 (a tie rounding to inf),
        # 511 = 7 * 73: c = -+2^-60 decides.
        (7.0 * 2.0 ** 60, 73.0 * 2.0 ** 59, -(2.0 ** -60)),
        (7.0 * 2.0 ** 60, 73.0 * 2.0 ** 59, 2.0 ** -60),
        # Subnormal products and results, signed zeros.
        (2.0 ** -67, 3.0 * 2.0 ** -66, 2.0 ** -133),
        (2.0 ** -70, 2.0 ** -70, -0.0),
        (-(2.0 ** -70), 2.0 ** -70, 0.0),
        (-1.0, 0.0, -0.0),
        (-1.0, 0.0, 0.0),
        (math.inf, 2.0, 1.0),
        (1.0, 1.0, -math.inf),
    ], [(math.inf, 0.0, 1.0), (math.inf, 1.0, -math.inf), (math.nan, 1.0, 2.0)])


@testfile('fma_f64.mlir', '''
math.fma on f64 tensors is one rounding of the exact a * b + c (exact
rationals, Python fractions). Vulkan lets GLSL.std.450 Fma round twice and
llvmpipe's f64 one does; f64 has no wider float to compute in. Rows: the
product's low half as the whole result, sums a hair off a midpoint (the
addend decides), products past DBL_MAX brought back, the overflow
threshold, results on and beside midpoints of every binade of subnormals
(the top one, [2^-1023, 2^-1022), included), subnormal and huge operands,
signed zeros, infinities and NaN (checked by `cmpf uno`).''')
def _(F):
    f = F.fn('fma_f64_rounds_once', '''
Crafted rows and 160 seeded rows whose exact sum lies on or next to a
rounding midpoint, for normal and subnormal results.''')
    e27, e26 = 2.0 ** -27, 2.0 ** -26
    rows = [
        (1 + e27, 1 + e27, -(1 + e26)),
        (1 - e27, 1 + e27, -1.0),
        (1 + e27, 1 + e27, 2.0 ** -200),
        (1 + e27, 1 + e27, -(2.0 ** -200)),
        (-(1 + e27), 1 + e27, 2.0 ** -200),
        (3.0 * 2.0 ** 1022, 2.0, -(3.0 * 2.0 ** 1022)),
        (2.0 ** 512, 1.25 * 2.0 ** 512, -(1.5 * 2.0 ** 1023)),
        # The product is the overflow threshold 2^1024 - 2^970 (a tie to
        # inf): 2^53 - 1 = 6361 * 69431 * 20394401; c = -+2^-100 decides.
        (6361.0 * 69431.0 * 2.0 ** 971, 20394401.0 * 2.0 ** -24, -(2.0 ** -100)),
        (6361.0 * 69431.0 * 2.0 ** 971, 20394401.0 * 2.0 ** -24, 2.0 ** -100),
        # Subnormal results: the top binade, a tie broken by the addend.
        (2.0 ** -537, 2.0 ** -537, 2.0 ** -1023),
        ((1 + 2.0 ** -52) * 2.0 ** -511, 2.0 ** -512, -(2.0 ** -1023)),
        (2.0 ** -1074, 0.5, 2.0 ** -1074),
        (2.0 ** -1074, 0.5, 0.0),
        (2.0 ** -1074, -0.5, 0.0),
        (2.0 ** -1074, 1.5, 2.0 ** -1074),
        (2.0 ** -1022, 1 - 2.0 ** -53, 0.0),
        (2.0 ** -1022, 1 - 2.0 ** -53, 2.0 ** -1074),
        (1e308, 10.0, -1.7e308),
        (-1.0, 0.0, 0.0),
        (-1.0, 0.0, -0.0),
        (1e-300, -1e-300, 0.0),
        (1e308, 10.0, -math.inf),
        (math.inf, 2.0, 1.0),
        (-2.0, math.inf, 1e308),
        (1.0, 1.0, -math.inf),
    ]
    rnd = random.Random(20261201)
    for k in range(160):
        rows.append(fma_f64_near_midpoint(rnd, subnormal=k % 2 == 1))

    def once(a, b, c):
        if math.isinf(c) and math.isfinite(a) and math.isfinite(b):
            return c  # the exact product is finite
        if not all(math.isfinite(v) for v in (a, b, c)) or a == 0 or b == 0:
            # inf/NaN, and zero products (exact in float64).
            with np.errstate(invalid='ignore', over='ignore'):
                return float(np.float64(a) * np.float64(b) + np.float64(c))
        x = Fraction(a) * Fraction(b) + Fraction(c)
        return 0.0 if x == 0 else round_fraction(x, 'f64')
    abc = np.array(rows, dtype=np.float64).T
    A, B, C = (f.const(abc[i], 'f64') for i in range(3))
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), 'f64', abc[0].shape)
    f.expect_eq_const(r, np.array([once(*t) for t in rows]))
    nan_rows = [(math.inf, 0.0, 1.0), (math.inf, 1.0, -math.inf), (math.nan, 1.0, 2.0),
                (1.0, 2.0, math.nan), (1e308, 10.0, math.nan)]
    abc = np.array(nan_rows, dtype=np.float64).T
    A, B, C = (f.const(abc[i], 'f64') for i in range(3))
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), 'f64', abc[0].shape)
    u = f.op('arith.cmpf uno, %s, %s : %s' % (r, r, r.ty), 'i1', abc[0].shape)
    f.expect_eq_const(u, np.ones(abc[0].shape, bool))


def fma_f64_near_midpoint(rnd, subnormal):
    """`(a, b, c)` whose exact `a b + c` lies on a midpoint between two
    doubles, or 2^-1100 or less beside one: normal results of any binade,
    or (`subnormal`) results on the subnormal grid, the top binade often."""
    while True:
        if subnormal:
            ea = rnd.randint(-600, -450)
            eb = -1074 - ea + rnd.randint(-60, 60)
        else:
            ea, eb = rnd.randint(-300, 300), rnd.randint(-300, 300)
        a = math.ldexp(rnd.getrandbits(rnd.randint(1, 53)) | 1, ea)
        b = math.ldexp(rnd.getrandbits(rnd.randint(1, 53)) | 1, eb)
        if rnd.random() < 0.5:
            a = -a
        p = Fraction(a) * Fraction(b)
        if subnormal:
            k = rnd.choice([rnd.getrandbits(52) | (1 << 51), rnd.getrandbits(rnd.randint(1, 52)),
                            (1 << 52) - 1, 1 << 51])
            mid = Fraction(2 * k + 1, 2) * Fraction(2) ** -1074
        else:
            y = math.ldexp(rnd.getrandbits(53) | (1 << 52), rnd.randint(-300, 300) - 52)
            mid = (Fraction(y) + Fraction(math.nextafter(y, math.inf))) / 2
        if rnd.random() < 0.5:
            mid = -mid
        off = rnd.choice([0, 0, Fraction(1, 2 ** rnd.randint(1100, 1300)),
                          -Fraction(1, 2 ** rnd.randint(1100, 1300))])
        c = float(mid + off - p)
        if math.isfinite(c) and c != 0:
            return a, b, c


def fma_half_rounds_once(F, et, rows, nan_rows):
    """`math.fma` on `et` (f16 or bf16) tensors: one rounding of the exact
    a * b + c (Python fractions), against rows where rounding it to f32
    first and then to `et` is wrong, and NaN rows checked by `cmpf uno`."""
    f = F.fn('fma_%s_rounds_once' % et, '''
math.fma on %s is one rounding of the exact a * b + c. A backend that
computes it in f32 (or rounds the f32 result again) rounds twice: rows
where a * b + c rounded to f32 is a midpoint of %s, subnormal results, the
overflow threshold decided by a tiny addend, products past the format's
range brought back by the addend, signed zeros and infinities (exact
rationals rounded once, Python fractions); NaN results (invalid
operations, NaN operands) are checked by `arith.cmpf uno` (their sign
is not specified).''' % (et, et))

    def once(a, b, c):
        if not all(math.isfinite(v) for v in (a, b, c)) or a * b == 0:
            with np.errstate(invalid='ignore'):
                # inf/NaN and zero products: exact in float64.
                return float(np.float64(a) * np.float64(b) + np.float64(c))
        return round_fraction(Fraction(a) * Fraction(b) + Fraction(c), et)
    for row in rows + nan_rows:
        assert all(math.isnan(v) or store(et, [v])[0] == v for v in row), row
    abc = np.array(rows, dtype=np.float64).T
    A, B, C = (f.const(store(et, abc[i]), et) for i in range(3))
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), et, abc[0].shape)
    f.expect_eq_const(r, store(et, [once(*t) for t in rows]))
    abc = np.array(nan_rows, dtype=np.float64).T
    A, B, C = (f.const(store(et, abc[i]), et) for i in range(3))
    r = f.op('math.fma %s, %s, %s : %s' % (A, B, C, A.ty), et, abc[0].shape)
    u = f.op('arith.cmpf uno, %s, %s : %s' % (r, r, r.ty), 'i1', abc[0].shape)
    f.expect_eq_const(u, np.ones(abc[0].shape, bool))


@testfile('fused_elementwise.mlir', '''
Chains of elementwise ops a compiler fuses into one dispatch: a * b + c then
exp (tensor ops and one generic), relu of an f16 chain, an integer chain
with wrap-around, an int8 requantize (extsi, mul, shift, clamp, trunci), and
a row normalisation (reduction, broadcast, rsqrt) over dynamic shapes.''')
def _(F):
    f = F.fn('mul_add_exp_tensor_ops_9x33')
    a, b, c = (f.rng.floats((9, 33), 'f32', -1.5, 1.5) for _ in range(3))
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    m = f.op('arith.mulf %s, %s : %s' % (A, B, A.ty), 'f32', a.shape)
    s = f.op('arith.addf %s, %s : %s' % (m, C, A.ty), 'f32', a.shape)
    e = unary(f, 'math.exp', s)
    f.expect_almost_eq_const(e, np.exp(f64(a) * f64(b) + f64(c)), atol=1e-6, rtol=1e-5)

    f = F.fn('mul_add_exp_generic_dynamic_257')
    a, b, c = (f.rng.floats((257,), 'f32', -1.5, 1.5) for _ in range(3))
    A, B, C = (f.const(v, 'f32', 'dynamic') for v in (a, b, c))
    r = f.elementwise([A, B, C], 'f32', '''
^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c : f32
  %e = math.exp %s : f32
  linalg.yield %e : f32''')
    f.expect_almost_eq_const(r, np.exp(f64(a) * f64(b) + f64(c)), atol=1e-6, rtol=1e-5)

    f = F.fn('relu_chain_f16_tensor_ops_4x50')
    a, b = f.rng.floats((4, 50), 'f16', -2, 2), f.rng.floats((4, 50), 'f16', -2, 2)
    A, B = f.const(a, 'f16'), f.const(b, 'f16')
    t32 = ttype(a.shape, 'f32')
    x = f.op('arith.extf %s : %s to %s' % (A, A.ty, t32), 'f32', a.shape)
    y = f.op('arith.extf %s : %s to %s' % (B, B.ty, t32), 'f32', a.shape)
    m = f.op('arith.mulf %s, %s : %s' % (x, y, t32), 'f32', a.shape)
    s = f.op('arith.subf %s, %s : %s' % (m, y, t32), 'f32', a.shape)
    z = f.const(np.zeros(a.shape, np.float32), 'f32', how='arith')
    r = f.op('arith.maximumf %s, %s : %s' % (s, z, t32), 'f32', a.shape)
    h = f.op('arith.truncf %s : %s to %s' % (r, t32, A.ty), 'f16', a.shape)
    ref = np.maximum(f32_of(a) * f32_of(b) - f32_of(b), np.float32(0))
    f.expect_eq_const(h, ref.astype(np.float16))

    f = F.fn('int_chain_i32_1000')
    a = f.rng.ints((1000,), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    b = f.rng.ints((1000,), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    c = f.rng.ints((1000,), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    A, B, C = f.const(a, 'i32'), f.const(b, 'i32'), f.const(c, 'i32')
    three = f.const(np.full((1000,), 3, np.int32), 'i32', how='arith')
    one = f.const(np.full((1000,), 1, np.int32), 'i32', how='arith')
    m = f.op('arith.muli %s, %s : %s' % (A, three, A.ty), 'i32', a.shape)
    s = f.op('arith.addi %s, %s : %s' % (m, B, A.ty), 'i32', a.shape)
    sh = f.op('arith.shrsi %s, %s : %s' % (s, one, A.ty), 'i32', a.shape)
    x = f.op('arith.xori %s, %s : %s' % (sh, C, A.ty), 'i32', a.shape)
    ref = [int_semantics('xori', int_semantics('shrsi', int_semantics(
        'addi', int_semantics('muli', int(p), 3, 32), int(q), 32), 1, 32), int(r), 32)
        for p, q, r in zip(a, b, c)]
    f.expect_eq_const(x, np.array(ref, dtype=np.int32))

    f = F.fn('requantize_i8_6x21', 'i8 in, i32 arithmetic, clamp, i8 out.')
    a = store('i8', f.rng.ints((6, 21), -128, 127))
    w = store('i8', f.rng.ints((6, 21), -128, 127))
    A, W = f.const(a, 'i8'), f.const(w, 'i8')
    r = f.elementwise([A, W], 'i8', '''
^bb0(%a: i8, %w: i8, %o: i8):
  %x = arith.extsi %a : i8 to i32
  %y = arith.extsi %w : i8 to i32
  %m = arith.muli %x, %y : i32
  %k = arith.constant 3 : i32
  %s = arith.shrsi %m, %k : i32
  %lo = arith.constant -128 : i32
  %hi = arith.constant 127 : i32
  %c = arith.maxsi %s, %lo : i32
  %d = arith.minsi %c, %hi : i32
  %t = arith.trunci %d : i32 to i8
  linalg.yield %t : i8''')
    ref = np.clip((a.astype(np.int64) * w.astype(np.int64)) >> 3, -128, 127)
    f.expect_eq_const(r, ref.astype(np.int8))

    f = F.fn('row_normalize_dynamic_5x77', 'y = (x - mean) * rsqrt(var + 1e-5) per row.')
    x = f.rng.floats((5, 77), 'f32', -3, 3)
    X = f.const(x, 'f32', 'dynamic')
    sz = f.sizes_of(X)
    zero = f.scalar(0.0, 'f32')
    acc = f.fill(zero, f.empty((5,), 'f32', (0,), {0: sz[0]}))
    sums = f.generic([X], [acc], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %s = arith.addf %x, %acc : f32
  linalg.yield %s : f32''')
    n = f.op('arith.index_cast %s : index to i32' % sz[1], 'i32', hint='n')
    nf = f.op('arith.sitofp %s : i32 to f32' % n, 'f32', hint='nf')
    out = f.empty((5, 77), 'f32', (0, 1), sz)
    cen = f.generic([X, sums], [out], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)',
                                       '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%%x: f32, %%s: f32, %%o: f32):
  %%mean = arith.divf %%s, %s : f32
  %%c = arith.subf %%x, %%mean : f32
  linalg.yield %%c : f32''' % nf)
    acc2 = f.fill(zero, f.empty((5,), 'f32', (0,), {0: sz[0]}))
    sq = f.generic([cen], [acc2], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%c: f32, %acc: f32):
  %q = arith.mulf %c, %c : f32
  %s = arith.addf %q, %acc : f32
  linalg.yield %s : f32''')
    out2 = f.empty((5, 77), 'f32', (0, 1), sz)
    eps = f.scalar(float(np.float32(1e-5)), 'f32')
    y = f.generic([cen, sq], [out2], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)',
                                      '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%%c: f32, %%q: f32, %%o: f32):
  %%var = arith.divf %%q, %s : f32
  %%ve = arith.addf %%var, %s : f32
  %%r = math.rsqrt %%ve : f32
  %%y = arith.mulf %%c, %%r : f32
  linalg.yield %%y : f32''' % (nf, eps))
    d = f64(x)
    cd = d - d.mean(axis=1, keepdims=True)
    ref = cd / np.sqrt((cd * cd).mean(axis=1, keepdims=True) + float(np.float32(1e-5)))
    f.expect_almost_eq_const(y, ref, atol=1e-5, rtol=1e-4)


@testfile('reduce_mean_used_twice.mlir', '''
A mean (a reduction, then a division) both returned, through a
tensor.expand_shape that keeps the reduced dims as 1s, and read by a
broadcasting consumer (x - mean): the shapes ONNX ReduceMean and
LayerNormalization importers produce. A whole-tensor and a 1-D mean (0-d),
a mean over the last two dims of a 3-D tensor, and a row mean (keepdims).
Inputs are small integers, so every sum is exact; the mean is one division
(IEEE: correctly rounded in f32) and the tolerance is the default.''')
def _(F):
    def mean_used_twice(f, x, dims, keep_shape):
        # sum over `dims` with linalg.reduce, mean = sum / n in a generic,
        # the mean expanded to `keep_shape` and read by x - mean.
        X = f.const(x, 'f32')
        rank = x.ndim
        kept = [d for d in range(rank) if d not in dims]
        rshape = tuple(x.shape[d] for d in kept)
        init = f.full(0.0, rshape, 'f32')
        s = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]
  (%%a: f32, %%b: f32) {
    %%t = arith.addf %%a, %%b : f32
    linalg.yield %%t : f32
  }''' % (X, X.ty, init, init.ty, ', '.join(map(str, dims))), 'f32', rshape, (), 'sum')
        n = int(np.prod([x.shape[d] for d in dims]))
        rr = len(rshape)
        mean = f.generic([s], [f.empty(rshape, 'f32')], [ident(rr)] * 2, 'p' * rr, '''
^bb0(%%a: f32, %%o: f32):
  %%n = arith.constant %s : f32
  %%d = arith.divf %%a, %%n : f32
  linalg.yield %%d : f32''' % fmt_float('f32', float(n)), 'mean')
        if rr == 0:
            groups = '[]'
        else:
            # Each kept dim with the reduced 1s that follow it; reduced dims
            # before the first kept one go with it.
            gs, cur = [], []
            for d in range(rank):
                cur.append(d)
                if d in kept and (len(gs) < len(kept) - 1):
                    gs.append(cur)
                    cur = []
            gs.append(cur)
            groups = '[%s]' % ', '.join('[%s]' % ', '.join(map(str, g)) for g in gs)
        mk = f.op('tensor.expand_shape %s %s output_shape [%s] : %s into %s'
                  % (mean, groups, ', '.join(map(str, keep_shape)), mean.ty,
                     ttype(keep_shape, 'f32')), 'f32', tuple(keep_shape), (), 'keep')
        dims_txt = ', '.join('d%d' % d for d in range(rank))
        kept_txt = ', '.join('d%d' % d for d in kept)
        c = f.generic([X, mean], [f.empty(x.shape, 'f32')],
                      ['(%s) -> (%s)' % (dims_txt, dims_txt), '(%s) -> (%s)' % (dims_txt, kept_txt),
                       '(%s) -> (%s)' % (dims_txt, dims_txt)], 'p' * rank, '''
^bb0(%a: f32, %m: f32, %o: f32):
  %d = arith.subf %a, %m : f32
  linalg.yield %d : f32''', 'cen')
        sums = x.astype(np.float64).sum(axis=tuple(dims), keepdims=True)
        m32 = (sums.astype(np.float32) / np.float32(n)).astype(np.float32)
        f.expect_almost_eq_const(mk, m32.reshape(keep_shape))
        f.expect_almost_eq_const(c, x - m32)

    f = F.fn('mean_all_3x4_kept_1x1', 'The case an ONNX LayerNormalization import hit.')
    x = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 13]], np.float32)
    mean_used_twice(f, x, [0, 1], (1, 1))

    f = F.fn('mean_1d_37_kept_1')
    x = f.rng.ints((37,), -20, 20).astype(np.float32)
    mean_used_twice(f, x, [0], (1,))

    f = F.fn('mean_last_two_2x3x4_kept_2x1x1')
    x = f.rng.ints((2, 3, 4), -20, 20).astype(np.float32)
    mean_used_twice(f, x, [1, 2], (2, 1, 1))

    f = F.fn('mean_rows_5x7_kept_5x1')
    x = f.rng.ints((5, 7), -20, 20).astype(np.float32)
    mean_used_twice(f, x, [1], (5, 1))


@testfile('fill.mlir', '''
linalg.fill of every element type, of a 0-d tensor, of a dynamic tensor
(sizes from tensor.dim), with a value that is only known at run time
(tensor.extract of an input), and of a tensor that already holds data.''')
def _(F):
    f = F.fn('fill_every_type')
    values = {'f32': -2.75, 'f16': 0.0999755859375, 'bf16': 3.140625, 'i1': True, 'i8': -100,
              'i16': 31000, 'i32': -2000000000, 'i64': (1 << 40) + 3}
    shapes = {'f32': (13, 7), 'f16': (31,), 'bf16': (2, 3, 5), 'i1': (127,), 'i8': (1,),
              'i16': (3, 1), 'i32': (1021,), 'i64': (2, 2)}
    for et in ELEMENT_TYPES:
        r = f.full(values[et], shapes[et], et)
        f.expect_eq_const(r, np.full(shapes[et], store(et, values[et]), dtype=store(
            et, values[et]).dtype))

    f = F.fn('fill_0d_and_overwrite')
    r = f.full(4.5, (), 'f32')
    f.expect_eq_const(r, np.float32(4.5))
    x = f.rng.ints((4, 6), -10, 10).astype(np.int32)
    X = f.const(x, 'i32')
    r = f.fill(f.scalar(7, 'i32'), X)
    f.expect_eq_const(r, np.full((4, 6), 7, np.int32))

    f = F.fn('fill_dynamic_runtime_value')
    x = f.rng.floats((3, 17), 'f32', -1, 1)
    X = f.const(x, 'f32', 'dynamic')
    sz = f.sizes_of(X)
    v = f.op('tensor.extract %s[%s, %s] : %s' % (X, f.idx(2), f.idx(5), X.ty), 'f32', hint='v')
    r = f.fill(v, f.empty((3, 17), 'f32', (0, 1), sz))
    f.expect_eq_const(r, np.full((3, 17), x[2, 5], np.float32))


@testfile('generic_maps.mlir', '''
linalg.generic indexing maps: a 3-D permutation, projections that
broadcast a row, a column and a 0-d tensor, constant expressions (a fixed
column), iterators listed with the reduction first, and a map that reads an
input transposed while writing the output in order.''')
def _(F):
    f = F.fn('permute_3d_4x5x6')
    x = f.rng.ints((4, 5, 6), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    out = f.empty((6, 4, 5), 'i32')
    r = f.generic([X], [out], ['(d0, d1, d2) -> (d1, d2, d0)', '(d0, d1, d2) -> (d0, d1, d2)'],
                  'ppp', '''
^bb0(%x: i32, %o: i32):
  linalg.yield %x : i32''')
    f.expect_eq_const(r, np.transpose(x, (2, 0, 1)))

    f = F.fn('broadcast_row_column_scalar_7x13')
    row = f.rng.floats((13,), 'f32', -4, 4)
    col = f.rng.floats((7,), 'f32', -4, 4)
    sc = store('f32', 0.5)
    R, C, S = f.const(row, 'f32'), f.const(col, 'f32'), f.const(sc, 'f32')
    out = f.empty((7, 13), 'f32')
    r = f.generic([R, C, S], [out], ['(d0, d1) -> (d1)', '(d0, d1) -> (d0)', '(d0, d1) -> ()',
                                     '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%r: f32, %c: f32, %s: f32, %o: f32):
  %a = arith.subf %r, %c : f32
  %m = arith.mulf %a, %s : f32
  linalg.yield %m : f32''')
    f.expect_eq_const(r, (row[None, :] - col[:, None]) * np.float32(0.5))

    f = F.fn('constant_expr_column_6x3')
    x = f.rng.ints((6, 5), -50, 50).astype(np.int16)
    y = f.rng.ints((3,), -50, 50).astype(np.int16)
    X, Y = f.const(x, 'i16'), f.const(y, 'i16')
    out = f.empty((6, 3), 'i16')
    r = f.generic([X, Y], [out], ['(d0, d1) -> (d0, 2)', '(d0, d1) -> (d1)',
                                  '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%x: i16, %y: i16, %o: i16):
  %s = arith.addi %x, %y : i16
  linalg.yield %s : i16''')
    f.expect_eq_const(r, x[:, 2:3] + y[None, :])

    f = F.fn('reduction_first_iterator_column_sums_9x4')
    x = f.rng.ints((9, 4), -100, 100).astype(np.int64)
    X = f.const(x, 'i64')
    acc = f.full(0, (4,), 'i64')
    r = f.generic([X], [acc], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)'], 'rp', '''
^bb0(%x: i64, %acc: i64):
  %s = arith.addi %x, %acc : i64
  linalg.yield %s : i64''')
    f.expect_eq_const(r, x.sum(axis=0))

    f = F.fn('transposed_read_f16_3x8')
    x = f.rng.floats((8, 3), 'f16', -10, 10)
    y = f.rng.floats((3, 8), 'f16', -10, 10)
    X, Y = f.const(x, 'f16'), f.const(y, 'f16')
    out = f.empty((3, 8), 'f16')
    r = f.generic([X, Y], [out], ['(d0, d1) -> (d1, d0)', '(d0, d1) -> (d0, d1)',
                                  '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%x: f16, %y: f16, %o: f16):
  %a = arith.extf %x : f16 to f32
  %b = arith.extf %y : f16 to f32
  %m = arith.maximumf %a, %b : f32
  %t = arith.truncf %m : f32 to f16
  linalg.yield %t : f16''')
    f.expect_eq_const(r, np.maximum(x.T, y))


@testfile('generic_strided.mlir', '''
linalg.generic with the strided and dilated map expressions convolutions
use (d1 * 2 + d2 * 3), an offset (d0 + 1), a subsampling map (d0 * 3),
and a 2-D NHWC convolution written as a generic with strides and
dilations, all against numpy sliding windows.''')
def _(F):
    f = F.fn('conv1d_stride2_dilation3_i32')
    n, w, k, s, d = 2, 29, 4, 2, 3
    ow = out_size(w, k, s, d)
    x = f.rng.ints((n, w), -20, 20).astype(np.int32)
    kk = f.rng.ints((k,), -5, 5).astype(np.int32)
    X, K = f.const(x, 'i32'), f.const(kk, 'i32')
    acc = f.full(0, (n, ow), 'i32')
    r = f.generic([X, K], [acc], ['(d0, d1, d2) -> (d0, d1 * 2 + d2 * 3)', '(d0, d1, d2) -> (d2)',
                                  '(d0, d1, d2) -> (d0, d1)'], 'ppr', '''
^bb0(%x: i32, %k: i32, %acc: i32):
  %m = arith.muli %x, %k : i32
  %s = arith.addi %acc, %m : i32
  linalg.yield %s : i32''')
    ref = np.zeros((n, ow), np.int64)
    for j in range(k):
        ref += x[:, j * d:j * d + s * (ow - 1) + 1:s].astype(np.int64) * int(kk[j])
    f.expect_eq_const(r, ref)

    f = F.fn('offset_and_subsample_f32')
    x = f.rng.floats((31,), 'f32', -1, 1)
    X = f.const(x, 'f32')
    out = f.empty((30,), 'f32')
    head = f.op('tensor.extract_slice %s[0] [30] [1] : %s to %s' % (X, X.ty, out.ty), 'f32',
                (30,), hint='head')
    r = f.generic([X, head], [out], ['(d0) -> (d0 + 1)', '(d0) -> (d0)', '(d0) -> (d0)'], 'p', '''
^bb0(%next: f32, %cur: f32, %o: f32):
  %d = arith.subf %next, %cur : f32
  linalg.yield %d : f32''')
    f.expect_eq_const(r, x[1:] - x[:-1])
    out = f.empty((11,), 'f32')
    r = f.generic([X], [out], ['(d0) -> (d0 * 3)', '(d0) -> (d0)'], 'p', '''
^bb0(%x: f32, %o: f32):
  linalg.yield %x : f32''')
    f.expect_eq_const(r, x[0::3])

    f = F.fn('conv2d_nhwc_as_generic_strides_2_1_dilations_1_2')
    n, h, w, c, kh, kw, fo = 1, 9, 11, 3, 3, 2, 4
    sh, sw, dh, dw = 2, 1, 1, 2
    oh, ow = out_size(h, kh, sh, dh), out_size(w, kw, sw, dw)
    x = f.rng.dyadic((n, h, w, c), 'f32', -16, 16, 8)
    kk = f.rng.dyadic((kh, kw, c, fo), 'f32', -16, 16, 8)
    X, K = f.const(x, 'f32'), f.const(kk, 'f32')
    acc = f.full(0.0, (n, oh, ow, fo), 'f32')
    r = f.generic([X, K], [acc], [
        '(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 + d5 * 2, d6)',
        '(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)',
        '(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)'], 'pppprrr', '''
^bb0(%x: f32, %k: f32, %acc: f32):
  %m = arith.mulf %x, %k : f32
  %s = arith.addf %acc, %m : f32
  linalg.yield %s : f32''')
    win = windows_nhwc(x, kh, kw, oh, ow, (sh, sw), (dh, dw))
    assert order_free('nhwijc,ijcf->nhwf', 'f32', win, kk)
    f.expect_eq_const(r, contract('nhwijc,ijcf->nhwf', 'f32', win, kk))


@testfile('generic_index.mlir', '''
linalg.index: an iota (i32, i64), a checkerboard of i1, an upper-triangular
mask applied to f32 data, index arithmetic in a reduction, and linalg.index
on dynamic shapes.''')
def _(F):
    f = F.fn('iota_i32_i64')
    out = f.empty((37,), 'i32')
    r = f.generic([], [out], ['(d0) -> (d0)'], 'p', '''
^bb0(%o: i32):
  %i = linalg.index 0 : index
  %v = arith.index_cast %i : index to i32
  linalg.yield %v : i32''')
    f.expect_eq_const(r, np.arange(37, dtype=np.int32))
    out = f.empty((3, 4), 'i64')
    r = f.generic([], [out], ['(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%o: i64):
  %i = linalg.index 0 : index
  %j = linalg.index 1 : index
  %a = arith.index_cast %i : index to i64
  %b = arith.index_cast %j : index to i64
  %big = arith.constant 10000000000 : i64
  %m = arith.muli %a, %big : i64
  %s = arith.addi %m, %b : i64
  linalg.yield %s : i64''')
    f.expect_eq_const(r, np.arange(3)[:, None] * 10000000000 + np.arange(4)[None, :])

    f = F.fn('checkerboard_i1_5x6')
    out = f.empty((5, 6), 'i1')
    r = f.generic([], [out], ['(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%o: i1):
  %i = linalg.index 0 : index
  %j = linalg.index 1 : index
  %s = arith.addi %i, %j : index
  %c2 = arith.constant 2 : index
  %r = arith.remui %s, %c2 : index
  %z = arith.constant 0 : index
  %b = arith.cmpi eq, %r, %z : index
  linalg.yield %b : i1''')
    f.expect_eq_const(r, (np.arange(5)[:, None] + np.arange(6)[None, :]) % 2 == 0)

    f = F.fn('upper_triangular_mask_f32_7x7')
    x = f.rng.floats((7, 7), 'f32', -1, 1)
    X = f.const(x, 'f32')
    out = f.empty((7, 7), 'f32')
    r = f.generic([X], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%x: f32, %o: f32):
  %i = linalg.index 0 : index
  %j = linalg.index 1 : index
  %keep = arith.cmpi ule, %i, %j : index
  %z = arith.constant 0.0 : f32
  %v = arith.select %keep, %x, %z : f32
  linalg.yield %v : f32''')
    f.expect_eq_const(r, np.triu(x))

    f = F.fn('weighted_index_sum_reduction_i32')
    x = f.rng.ints((4, 50), -9, 9).astype(np.int32)
    X = f.const(x, 'i32')
    acc = f.full(0, (4,), 'i32')
    r = f.generic([X], [acc], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: i32, %acc: i32):
  %j = linalg.index 1 : index
  %w = arith.index_cast %j : index to i32
  %m = arith.muli %x, %w : i32
  %s = arith.addi %acc, %m : i32
  linalg.yield %s : i32''')
    f.expect_eq_const(r, (x.astype(np.int64) * np.arange(50)[None, :]).sum(axis=1))

    f = F.fn('index_dynamic_shape')
    x = f.rng.floats((6, 10), 'f32', -1, 1)
    X = f.const(x, 'f32', 'dynamic')
    sz = f.sizes_of(X)
    out = f.empty((6, 10), 'f32', (0, 1), sz)
    r = f.generic([X], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%x: f32, %o: f32):
  %i = linalg.index 0 : index
  %j = linalg.index 1 : index
  %k = arith.muli %i, %j : index
  %a = arith.index_cast %k : index to i32
  %b = arith.sitofp %a : i32 to f32
  %s = arith.addf %x, %b : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(r, x + (np.arange(6)[:, None] * np.arange(10)[None, :]).astype(np.float32))


@testfile('generic_multi_io.mlir', '''
linalg.generic with several inputs and several outputs: two parallel
results of different types, a reduction with two outputs (sum and max),
argmax (value and index; the first index wins ties), and three outputs of
f32, i32 and i1.''')
def _(F):
    f = F.fn('two_parallel_outputs_f32_i32_3x9')
    a = f.rng.floats((3, 9), 'f32', -4, 4)
    b = f.rng.floats((3, 9), 'f32', -4, 4)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    o1, o2 = f.empty((3, 9), 'f32'), f.empty((3, 9), 'i32')
    r1, r2 = f.generic([A, B], [o1, o2], [ident(2)] * 4, 'pp', '''
^bb0(%a: f32, %b: f32, %o: f32, %p: i32):
  %s = arith.addf %a, %b : f32
  %m = arith.mulf %a, %b : f32
  %i = arith.fptosi %m : f32 to i32
  linalg.yield %s, %i : f32, i32''')
    f.expect_eq_const(r1, a + b)
    f.expect_eq_const(r2, np.trunc(f64(a * b)).astype(np.int32))

    f = F.fn('sum_and_max_rows_11x100')
    x = f.rng.dyadic((11, 100), 'f32', -64, 64, 16)
    X = f.const(x, 'f32')
    s0 = f.full(0.0, (11,), 'f32')
    m0 = f.full(-math.inf, (11,), 'f32')
    rs, rm = f.generic([X], [s0, m0], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)',
                                       '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %s: f32, %m: f32):
  %a = arith.addf %x, %s : f32
  %b = arith.maximumf %x, %m : f32
  linalg.yield %a, %b : f32, f32''')
    f.expect_eq_const(rs, f64(x).sum(axis=1))
    f.expect_eq_const(rm, x.max(axis=1))

    f = F.fn('argmax_rows_first_index_wins_6x33')
    x = f.rng.ints((6, 33), -5, 5).astype(np.float32)
    X = f.const(x, 'f32')
    v0 = f.full(-math.inf, (6,), 'f32')
    i0 = f.full(0, (6,), 'i32')
    rv, ri = f.generic([X], [v0, i0], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)',
                                       '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %v: f32, %i: i32):
  %j = linalg.index 1 : index
  %jj = arith.index_cast %j : index to i32
  %gt = arith.cmpf ogt, %x, %v : f32
  %eq = arith.cmpf oeq, %x, %v : f32
  %lt = arith.cmpi slt, %jj, %i : i32
  %tie = arith.andi %eq, %lt : i1
  %take = arith.ori %gt, %tie : i1
  %nv = arith.select %take, %x, %v : f32
  %ni = arith.select %take, %jj, %i : i32
  linalg.yield %nv, %ni : f32, i32''')
    f.expect_eq_const(rv, x.max(axis=1))
    f.expect_eq_const(ri, np.argmax(x, axis=1).astype(np.int32))

    f = F.fn('three_outputs_f32_i32_i1_dynamic')
    a = f.rng.floats((40,), 'f32', -3, 3)
    A = f.const(a, 'f32', 'dynamic')
    sz = f.sizes_of(A)
    outs = [f.empty((40,), et, (0,), sz) for et in ('f32', 'i32', 'i1')]
    r1, r2, r3 = f.generic([A], outs, [ident(1)] * 4, 'p', '''
^bb0(%a: f32, %o: f32, %p: i32, %q: i1):
  %n = arith.negf %a : f32
  %f = math.floor %a : f32
  %i = arith.fptosi %f : f32 to i32
  %z = arith.constant 0.0 : f32
  %pos = arith.cmpf ogt, %a, %z : f32
  linalg.yield %n, %i, %pos : f32, i32, i1''')
    f.expect_eq_const(r1, -a)
    f.expect_eq_const(r2, np.floor(f64(a)).astype(np.int32))
    f.expect_eq_const(r3, a > 0)


@testfile('generic_reduction.mlir', '''
Reductions written as linalg.generic: rows and columns of f32 (tolerance
from the sum length), a 3-D reduction of the middle dim, a product, a max
with a -inf init, i8 data summed in an i32 accumulator, f16 data summed
in f32, and a reduction over both dims of a dynamic tensor.''')
def _(F):
    f = F.fn('rows_and_columns_f32_37x53')
    x = f.rng.floats((37, 53), 'f32', -1, 1)
    X = f.const(x, 'f32')
    rows = f.generic([X], [f.full(0.0, (37,), 'f32')], ['(d0, d1) -> (d0, d1)',
                                                         '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %s = arith.addf %x, %acc : f32
  linalg.yield %s : f32''')
    cols = f.generic([X], [f.full(0.0, (53,), 'f32')], ['(d0, d1) -> (d0, d1)',
                                                         '(d0, d1) -> (d1)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %s = arith.addf %x, %acc : f32
  linalg.yield %s : f32''')
    f.expect_almost_eq_const(rows, fsum_axis(x, 1), atol=1e-5, rtol=1e-5)
    f.expect_almost_eq_const(cols, fsum_axis(x, 0), atol=1e-5, rtol=1e-5)

    f = F.fn('middle_dim_i32_4x300x3')
    x = f.rng.ints((4, 300, 3), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    r = f.generic([X], [f.full(0, (4, 3), 'i32')], ['(d0, d1, d2) -> (d0, d1, d2)',
                                                     '(d0, d1, d2) -> (d0, d2)'], 'prp', '''
^bb0(%x: i32, %acc: i32):
  %s = arith.addi %x, %acc : i32
  linalg.yield %s : i32''')
    f.expect_eq_const(r, x.astype(np.int64).sum(axis=1))

    f = F.fn('product_and_max_f32_3x20')
    x = f.rng.ints((3, 20), -2, 2).astype(np.float32)
    x[x == 0] = 1
    X = f.const(x, 'f32')
    p = f.generic([X], [f.full(1.0, (3,), 'f32')], ['(d0, d1) -> (d0, d1)',
                                                     '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %s = arith.mulf %x, %acc : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(p, np.prod(f64(x), axis=1))
    m = f.generic([X], [f.full(-math.inf, (20,), 'f32')], ['(d0, d1) -> (d0, d1)',
                                                            '(d0, d1) -> (d1)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %s = arith.maximumf %x, %acc : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(m, x.max(axis=0))

    f = F.fn('i8_data_i32_accumulator_2x1000')
    x = store('i8', f.rng.ints((2, 1000), -128, 127))
    X = f.const(x, 'i8')
    r = f.generic([X], [f.full(0, (2,), 'i32')], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'],
                  'pr', '''
^bb0(%x: i8, %acc: i32):
  %w = arith.extsi %x : i8 to i32
  %s = arith.addi %w, %acc : i32
  linalg.yield %s : i32''')
    f.expect_eq_const(r, x.astype(np.int64).sum(axis=1))

    f = F.fn('f16_data_f32_accumulator_3x512')
    x = f.rng.dyadic((3, 512), 'f16', -100, 100, 16)
    X = f.const(x, 'f16')
    r = f.generic([X], [f.full(0.0, (3,), 'f32')], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'],
                  'pr', '''
^bb0(%x: f16, %acc: f32):
  %w = arith.extf %x : f16 to f32
  %s = arith.addf %w, %acc : f32
  linalg.yield %s : f32''')
    assert order_free('ij->i', 'f32', x)
    f.expect_eq_const(r, f64(x).sum(axis=1))

    f = F.fn('whole_dynamic_tensor_i64_9x61')
    x = f.rng.bits64((9, 61)) >> 8
    X = f.const(x, 'i64', 'dynamic')
    r = f.generic([X], [f.full(0, (), 'i64')], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> ()'], 'rr',
                  '''
^bb0(%x: i64, %acc: i64):
  %s = arith.addi %x, %acc : i64
  linalg.yield %s : i64''')
    f.expect_eq_const(r, store('i64', sum(int(v) for v in x.reshape(-1))))


@testfile('generic_keepdims.mlir', '''
Reductions that keep the reduced dims as unit dims, as torch-mlir writes
LayerNorm, GroupNorm, ReduceMean and ReduceL2 with keepdims: the output map
holds a constant 0 where a reduced dim was (`(d0, d1) -> (d0, 0)`,
`(d0, d1) -> (0, 0)`), an elementwise op works on the kept tensor (the
mean: the sum divided by the count), and the next ops read it back through
the same map, so the reduction and its consumers fuse.''')
def _(F):
    def kept(f, src, init, keep, iters, body):
        # a reduction of `src` into the unit-dim tensor `init` through map `keep`
        return f.generic([src], [init], [ident(len(src.shape)), keep], iters, body)

    def on_kept(f, v, body):
        # an elementwise op on the kept tensor itself (identity maps)
        sizes = f.sizes_of(v) if v.dyn else None
        out = f.empty(v.shape, v.et, v.dyn, sizes)
        return f.generic([v], [out], [ident(len(v.shape))] * 2, 'p' * len(v.shape), body)

    def broadcast(f, a, k, keep, body):
        # an elementwise op on `a` and the kept tensor `k` read through `keep`
        sizes = f.sizes_of(a) if a.dyn else None
        out = f.empty(a.shape, a.et, a.dyn, sizes)
        r = len(a.shape)
        return f.generic([a, k], [out], [ident(r), keep, ident(r)], 'p' * r, body)

    add = '''
^bb0(%x: f32, %acc: f32):
  %s = arith.addf %x, %acc : f32
  linalg.yield %s : f32'''
    f = F.fn('layer_norm_rows_f32_5x37')
    x = f.rng.floats((5, 37), 'f32', -2, 2)
    X = f.const(x, 'f32')
    row = '(d0, d1) -> (d0, 0)'
    s = kept(f, X, f.full(0.0, (5, 1), 'f32'), row, 'pr', add)
    mean = on_kept(f, s, '''
^bb0(%s: f32, %o: f32):
  %n = arith.constant 37.0 : f32
  %m = arith.divf %s, %n : f32
  linalg.yield %m : f32''')
    c = broadcast(f, X, mean, row, '''
^bb0(%x: f32, %m: f32, %o: f32):
  %c = arith.subf %x, %m : f32
  linalg.yield %c : f32''')
    q = kept(f, c, f.full(0.0, (5, 1), 'f32'), row, 'pr', '''
^bb0(%c: f32, %acc: f32):
  %p = arith.mulf %c, %c : f32
  %s = arith.addf %p, %acc : f32
  linalg.yield %s : f32''')
    rs = on_kept(f, q, '''
^bb0(%q: f32, %o: f32):
  %n = arith.constant 37.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %v = arith.divf %q, %n : f32
  %w = arith.addf %v, %eps : f32
  %r = math.rsqrt %w : f32
  linalg.yield %r : f32''')
    y = broadcast(f, c, rs, row, '''
^bb0(%c: f32, %r: f32, %o: f32):
  %y = arith.mulf %c, %r : f32
  linalg.yield %y : f32''')
    xd = f64(x)
    mu = xd.mean(axis=1, keepdims=True)
    var = ((xd - mu) ** 2).mean(axis=1, keepdims=True)
    f.expect_almost_eq_const(mean, mu, atol=1e-6, rtol=1e-5)
    f.expect_almost_eq_const(y, (xd - mu) / np.sqrt(var + 1e-5), atol=1e-5, rtol=1e-4)

    f = F.fn('whole_tensor_keepdims_f32_3x4')
    x = f.rng.dyadic((3, 4), 'f32', -100, 100, 16)
    X = f.const(x, 'f32')
    whole = '(d0, d1) -> (0, 0)'
    s = kept(f, X, f.full(0.0, (1, 1), 'f32'), whole, 'rr', add)
    h = on_kept(f, s, '''
^bb0(%s: f32, %o: f32):
  %k = arith.constant 0.25 : f32
  %h = arith.mulf %s, %k : f32
  linalg.yield %h : f32''')
    d = broadcast(f, X, h, whole, '''
^bb0(%x: f32, %h: f32, %o: f32):
  %d = arith.subf %x, %h : f32
  linalg.yield %d : f32''')
    assert order_free('ij->', 'f32', x)
    total = f64(x).sum()
    f.expect_eq_const(h, np.full((1, 1), total / 4))
    f.expect_eq_const(d, f64(x) - total / 4)

    f = F.fn('middle_axis_keepdims_i32_4x30x3')
    x = f.rng.ints((4, 30, 3), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    mid = '(d0, d1, d2) -> (d0, 0, d2)'
    s = kept(f, X, f.full(0, (4, 1, 3), 'i32'), mid, 'prp', '''
^bb0(%x: i32, %acc: i32):
  %s = arith.addi %x, %acc : i32
  linalg.yield %s : i32''')
    t = on_kept(f, s, '''
^bb0(%s: i32, %o: i32):
  %k = arith.constant 3 : i32
  %t = arith.muli %s, %k : i32
  linalg.yield %t : i32''')
    d = broadcast(f, X, t, mid, '''
^bb0(%x: i32, %t: i32, %o: i32):
  %d = arith.subi %t, %x : i32
  linalg.yield %d : i32''')
    sums = x.astype(np.int64).sum(axis=1, keepdims=True)
    f.expect_eq_const(t, 3 * sums)
    f.expect_eq_const(d, 3 * sums - x)

    f = F.fn('dynamic_rows_keepdims_f32_7x9')
    x = f.rng.dyadic((7, 9), 'f32', -100, 100, 16)
    X = f.const(x, 'f32', 'dynamic', dyn=(0,))
    sizes = f.sizes_of(X)
    m = kept(f, X, f.full(-math.inf, (7, 1), 'f32', (0,), sizes), row, 'pr', '''
^bb0(%x: f32, %acc: f32):
  %m = arith.maximumf %x, %acc : f32
  linalg.yield %m : f32''')
    h = on_kept(f, m, '''
^bb0(%m: f32, %o: f32):
  %k = arith.constant 0.5 : f32
  %h = arith.mulf %m, %k : f32
  linalg.yield %h : f32''')
    d = broadcast(f, X, h, row, '''
^bb0(%x: f32, %h: f32, %o: f32):
  %d = arith.subf %x, %h : f32
  linalg.yield %d : f32''')
    mx = f64(x).max(axis=1, keepdims=True)
    f.expect_eq_const(h, mx / 2)
    f.expect_eq_const(d, f64(x) - mx / 2)


@testfile('cf_assert.mlir', '''
cf.assert as torch-mlir writes it: run-time checks on sizes (`arith.cmpi eq`
of two tensor.dim values before a broadcast, `sge` / `slt` bounds on an
index computed from sizes) and on a constant condition, all holding, in
front of the computation they guard (errors/runtime_assert.mlir is one that
fails); and inside structured op bodies, where only the device can check them
(torch-mlir's reciprocal; a matmul epilogue and a reduction at odd sizes;
errors/runtime_assert_in_body.mlir is one that fails); and at function level
on a condition computed from tensor data, which a one-invocation kernel of its
own checks: torch-mlir's NonMaxSuppression (a threshold against the minimum
of the scores, a reduction), its onnx.Expand in expanded attention (an
element of a computed shape), and an element read at an index taken from
the data (errors/runtime_assert_on_data.mlir is one that fails).''')
def _(F):
    f = F.fn('broadcast_sizes_checked_f32_dynamic_6')
    a, b = f.rng.dyadic((6,), 'f32', -100, 100, 16), f.rng.dyadic((6,), 'f32', -100, 100, 16)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    n, m = f.dim(A, 0), f.dim(B, 0)
    ok = f.op('arith.cmpi eq, %s, %s : index' % (n, m), 'i1', hint='ok')
    f.emit('cf.assert %s, "mismatched size for broadcast"' % ok)
    r = f.elementwise([A, B], 'f32', '''
^bb0(%x: f32, %y: f32, %o: f32):
  %s = arith.addf %x, %y : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(r, f64(a) + f64(b))

    f = F.fn('bounds_and_constant_checked_i32_4x5')
    x = f.rng.ints((4, 5), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    d0, d1 = f.dim(X, 0), f.dim(X, 1)
    last = f.op('arith.subi %s, %s : index' % (d1, f.idx(1)), 'index', hint='k')
    ge = f.op('arith.cmpi sge, %s, %s : index' % (last, f.idx(0)), 'i1', hint='ok')
    f.emit('cf.assert %s, "dim must be greater or equal to zero"' % ge)
    lt = f.op('arith.cmpi slt, %s, %s : index' % (last, d1), 'i1', hint='ok')
    f.emit('cf.assert %s, "dim must be smaller than inputRank"' % lt)
    t = f.scalar(1, 'i1')
    f.emit('cf.assert %s, "always holds"' % t)
    r = f.elementwise([X], 'i32', '''
^bb0(%x: i32, %o: i32):
  %k = arith.constant 7 : i32
  %s = arith.muli %x, %k : i32
  linalg.yield %s : i32''')
    f.expect_eq_const(r, x.astype(np.int64) * 7)
    f.expect_index(d0, 4)

    # torch-mlir's reciprocal: `cf.assert` of `x != 0` inside the generic's
    # body (a check only the device can make); sizes no tile divides.
    f = F.fn('reciprocal_checked_in_body_f32_37x5')
    x = (f.rng.ints((37, 5), 1, 64) * np.where(f.rng.ints((37, 5), 0, 2) == 0, -1, 1)
         / 8.0).astype(np.float32)
    X = f.const(x, 'f32')
    r = f.elementwise([X], 'f32', '''
^bb0(%x: f32, %o: f32):
  %z = arith.constant 0.0 : f32
  %nz = arith.cmpf one, %x, %z : f32
  cf.assert %nz, "unimplemented: tensor with zero element"
  %one = arith.constant 1.0 : f32
  %q = arith.divf %one, %x : f32
  linalg.yield %q : f32''')
    f.expect_eq_const(r, (np.float32(1) / x).astype(np.float64))

    # A body assert in a matmul's epilogue and one in a reduction's body,
    # odd sizes: the results are all positive, so an assert evaluated on a
    # lane past the edge (had the kernel computed one from zeros) would
    # fire and fail the test.
    f = F.fn('asserts_in_matmul_epilogue_and_reduction_f32_13x7x9')
    a = f.rng.ints((13, 7), 1, 5).astype(np.float32)
    b = f.rng.ints((7, 9), 1, 5).astype(np.float32)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    m = mm(f, 'linalg.matmul', A, B, f.full(0.0, (13, 9), 'f32'))
    e = f.elementwise([m], 'f32', '''
^bb0(%x: f32, %o: f32):
  %z = arith.constant 0.0 : f32
  %pos = arith.cmpf ogt, %x, %z : f32
  cf.assert %pos, "matmul result must be positive"
  %h = arith.constant 0.5 : f32
  %y = arith.mulf %x, %h : f32
  linalg.yield %y : f32''')
    acc = f.full(0.0, (13,), 'f32')
    s = f.generic([e], [acc], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0)'], 'pr', '''
^bb0(%x: f32, %acc: f32):
  %z = arith.constant 0.0 : f32
  %nz = arith.cmpf one, %x, %z : f32
  cf.assert %nz, "summand must be non-zero"
  %t = arith.addf %x, %acc : f32
  linalg.yield %t : f32''')
    prod = a.astype(np.float64) @ b.astype(np.float64)
    f.expect_eq_const(e, prod * 0.5)
    f.expect_eq_const(s, (prod * 0.5).sum(axis=1))

    # torch-mlir's NonMaxSuppression: `min(scores) >= score_threshold`,
    # both read from tensors (the minimum is a reduction's result), in f64,
    # asserted at function level: only the device knows the condition.
    f = F.fn('threshold_checked_on_data_f32_7')
    sc = f.rng.dyadic((7,), 'f32', 1, 100, 16)
    th = np.array([np.float32(sc.min())], dtype=np.float32)
    S, T = f.const(sc, 'f32'), f.const(th, 'f32')
    mn = f.generic([S], [f.full(np.inf, (), 'f32')], ['(d0) -> (d0)', '(d0) -> ()'], 'r', '''
^bb0(%x: f32, %acc: f32):
  %m = arith.minimumf %x, %acc : f32
  linalg.yield %m : f32''')
    lo = f.op('tensor.extract %s[] : %s' % (mn, mn.ty), 'f32', hint='lo')
    t = f.op('tensor.extract %s[%s] : %s' % (T, f.idx(0), T.ty), 'f32', hint='th')
    lo64 = f.op('arith.extf %s : f32 to f64' % lo, 'f64', hint='w')
    t64 = f.op('arith.extf %s : f32 to f64' % t, 'f64', hint='w')
    ok = f.op('arith.cmpf uge, %s, %s : f64' % (lo64, t64), 'i1', hint='ok')
    f.emit('cf.assert %s, "unimplemented: score_threshold should be <= min(scores)"' % ok)
    r = f.elementwise([S], 'f32', '''
^bb0(%x: f32, %o: f32):
  %s = arith.addf %x, %x : f32
  linalg.yield %s : f32''')
    f.expect_eq_const(r, f64(sc) * 2)

    # onnx.Expand inside expanded attention: the target shape is a tensor
    # computed on the device (here a sum of two shapes), each element
    # asserted against the input's size; and an element read at an index
    # taken from the data (a fault site of its own), compared in i32.
    f = F.fn('shape_checked_on_computed_data_i64_5')
    a = np.array([2, 3, 1, 6, 8], dtype=np.int64)
    b = np.array([0, 0, 2, 0, -4], dtype=np.int64)
    A, B = f.const(a, 'i64'), f.const(b, 'i64')
    sh = f.elementwise([A, B], 'i64', '''
^bb0(%x: i64, %y: i64, %o: i64):
  %s = arith.addi %x, %y : i64
  linalg.yield %s : i64''')
    for k, bound in [(0, 2), (2, 3), (4, 4)]:
        e = f.op('tensor.extract %s[%s] : %s' % (sh, f.idx(k), sh.ty), 'i64', hint='e')
        ok = f.op('arith.cmpi sle, %s, %s : i64' % (e, f.scalar(bound, 'i64')), 'i1', hint='ok')
        f.emit('cf.assert %s, "onnx.Expand input has a dim that is not statically 1; '
               'expected this dim >= dim provided shape."' % ok)
    x = f.rng.ints((6,), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    e = f.op('tensor.extract %s[%s] : %s' % (sh, f.idx(1), sh.ty), 'i64', hint='e')
    i = f.op('arith.index_cast %s : i64 to index' % e, 'index', hint='i')
    xi = f.op('tensor.extract %s[%s] : %s' % (X, i, X.ty), 'i32', hint='xi')
    ok = f.op('arith.cmpi eq, %s, %s : i32' % (xi, f.scalar(int(x[3]), 'i32')), 'i1', hint='ok')
    f.emit('cf.assert %s, "element 3 read at a computed index"' % ok)
    f.expect_eq_const(sh, a + b)


@testfile('sizes_from_constant_data.mlir', '''
Sizes and run-time checks computed from the data of a small constant tensor,
as torch-mlir lowers onnx.Expand / onnx.Tile / onnx.Reshape with a shape
operand (an input that is a constant here): tensor.extract of an
extract_slice of the shape, compared in a cf.assert, and cast to an index
that sizes a tensor.empty and a broadcast. kiln reads such elements on the
host (the shape is at most 4,096 elements). Also a shape computed from
arith.constant data, as torch-mlir writes onnx.Expand in expanded grouped-
query attention (linalg.generic on i1 and i64 constants, a tensor.concat):
the host computes it at compile time. numpy computes the expected
values.''')
def _(F):
    f = F.fn('expand_checked_by_shape_data_f32_3x1_to_2x3x6')
    x = f.rng.dyadic((3, 1), 'f32', -100, 100, 16)
    X = f.const(x, 'f32')
    S = f.const(np.array([2, 3, 6], dtype=np.int64), 'i64', hint='shape')
    sl = f.op('tensor.extract_slice %s[1] [1] [1] : %s to %s' % (S, S.ty, ttype((1,), 'i64')),
              'i64', (1,), hint='sl')
    e = f.op('tensor.extract %s[%s] : %s' % (sl, f.idx(0), ttype((1,), 'i64')), 'i64', hint='e')
    three = f.scalar(3, 'i64')
    ok = f.op('arith.cmpi sle, %s, %s : i64' % (e, three), 'i1', hint='ok')
    f.emit('cf.assert %s, "onnx.Expand input has a dim that is not statically 1; expected this '
           'dim >= dim provided shape."' % ok)
    col = f.op('tensor.collapse_shape %s [[0, 1]] : %s into %s' % (X, X.ty, ttype((3,), 'f32')),
               'f32', (3,), hint='col')
    out = f.empty((2, 3, 6), 'f32')
    r = f.generic([col], [out], ['(d0, d1, d2) -> (d1)', ident(3)], 'ppp', '''
^bb0(%x: f32, %o: f32):
  linalg.yield %x : f32''')
    f.expect_eq_const(r, np.broadcast_to(x.reshape(1, 3, 1), (2, 3, 6)))

    f = F.fn('tile_sized_by_shape_data_i32_4')
    x = f.rng.ints((4,), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    R = f.const(np.array([3], dtype=np.int64), 'i64', hint='reps')
    e = f.op('tensor.extract %s[%s] : %s' % (R, f.idx(0), R.ty), 'i64', hint='e')
    pos = f.op('arith.cmpi sgt, %s, %s : i64' % (e, f.scalar(0, 'i64')), 'i1', hint='ok')
    f.emit('cf.assert %s, "repeats must be positive"' % pos)
    n = f.op('arith.index_cast %s : i64 to index' % e, 'index', hint='n')
    out = f.op('tensor.empty(%s) : %s' % (n, ttype((3, 4), 'i32', (0,))), 'i32', (3, 4), (0,),
               hint='e')
    r = f.generic([X], [out], ['(d0, d1) -> (d1)', ident(2)], 'pp', '''
^bb0(%x: i32, %o: i32):
  linalg.yield %x : i32''')
    f.expect_index(f.dim(r, 0), 3)
    f.expect_eq_const(f.static(r), np.tile(x, (3, 1)))

    # Expanded GQA's key expansion: the repeat count is select(!false &
    # true, 3, 1), computed by generics on constants, concatenated into
    # the target shape [2, 3, n, 4], asserted and used as a size.
    f = F.fn('expand_sized_by_computed_shape_f32_2x3x4')
    x = f.rng.dyadic((2, 3, 4), 'f32', -100, 100, 16)
    X = f.const(x, 'f32')
    F1 = f.const(np.array([False]), 'i1', 'arith', hint='cst')
    T1 = f.const(np.array([True]), 'i1', 'arith', hint='cst')
    K3 = f.const(np.array([3], dtype=np.int64), 'i64', 'arith', hint='cst')
    K1 = f.const(np.array([1], dtype=np.int64), 'i64', 'arith', hint='cst')
    K2 = f.const(np.array([2], dtype=np.int64), 'i64', 'arith', hint='cst')
    K4 = f.const(np.array([4], dtype=np.int64), 'i64', 'arith', hint='cst')
    tr = f.scalar(1, 'i1')
    nf = f.elementwise([F1], 'i1', '''
^bb0(%x: i1, %o: i1):
  %n = arith.xori %x, %s : i1
  linalg.yield %n : i1'''.replace('%s', tr.name))
    both = f.elementwise([nf, T1], 'i1', '''
^bb0(%x: i1, %y: i1, %o: i1):
  %a = arith.andi %x, %y : i1
  linalg.yield %a : i1''')
    rep = f.elementwise([both, K3, K1], 'i64', '''
^bb0(%c: i1, %x: i64, %y: i64, %o: i64):
  %s = arith.select %c, %x, %y : i64
  linalg.yield %s : i64''')
    shp = f.op('tensor.concat dim(0) %s, %s, %s, %s : (%s) -> %s'
               % (K2, K3, rep, K4, ', '.join([ttype((1,), 'i64')] * 4), ttype((4,), 'i64')),
               'i64', (4,), hint='shape')
    sl = f.op('tensor.extract_slice %s[2] [1] [1] : %s to %s' % (shp, shp.ty, ttype((1,), 'i64')),
              'i64', (1,), hint='sl')
    e = f.op('tensor.extract %s[%s] : %s' % (sl, f.idx(0), sl.ty), 'i64', hint='e')
    ok = f.op('arith.cmpi sle, %s, %s : i64' % (e, f.scalar(4, 'i64')), 'i1', hint='ok')
    f.emit('cf.assert %s, "onnx.Expand input has a dim that is not statically 1; expected this '
           'dim >= dim provided shape."' % ok)
    n = f.op('arith.index_cast %s : i64 to index' % e, 'index', hint='n')
    out = f.op('tensor.empty(%s) : %s' % (n, ttype((2, 3, 3, 4), 'f32', (2,))), 'f32',
               (2, 3, 3, 4), (2,), hint='e')
    r = f.generic([X], [out], ['(d0, d1, d2, d3) -> (d0, d1, d3)', ident(4)], 'pppp', '''
^bb0(%x: f32, %o: f32):
  linalg.yield %x : f32''')
    f.expect_index(f.dim(r, 2), 3)
    f.expect_eq_const(f.static(r), np.broadcast_to(x.reshape(2, 3, 1, 4), (2, 3, 3, 4)))


@testfile('sizes_from_tensor_data.mlir', """
Sizes read from tensor data at run time, as torch-mlir lowers
onnx.CenterCropPad and onnx.Slice with a shape or bounds operand: a
tensor.extract of the data, arith.index_cast to an index, and that index
as a tensor.empty size, slice offset and size or pad amount. The data is
an input the compiler does not see (flow.tensor.dynamic_constant: the host
reads the given data) or computed by the program itself (a linalg.generic
on a util.unfoldable_constant: the host waits for the dispatch that writes
it, reads the element back, then sizes what follows: a host sync point).
numpy computes the expected values.""")
def _(F):
    # CenterCropPad to [4, 7] of a 6x5 input: dim 0 cropped (offset
    # (6 - 4) / 2), dim 1 padded (low (7 - 5) / 2, high the rest).
    f = F.fn('center_crop_pad_sized_by_input_data_f32_6x5_to_4x7')
    x = f.rng.dyadic((6, 5), 'f32', -100, 100, 16)
    X = f.const(x, 'f32')
    S = f.const(np.array([4, 7], dtype=np.int64), 'i64', 'dynamic', hint='shape')
    e0 = f.op('tensor.extract %s[%s] : %s' % (S, f.idx(0), S.ty), 'i64', hint='e')
    e1 = f.op('tensor.extract %s[%s] : %s' % (S, f.idx(1), S.ty), 'i64', hint='e')
    t0 = f.op('arith.index_cast %s : i64 to index' % e0, 'index', hint='n')
    t1 = f.op('arith.index_cast %s : i64 to index' % e1, 'index', hint='n')
    d0 = f.op('arith.subi %s, %s : index' % (f.idx(6), t0), 'index', hint='n')
    off = f.op('arith.divui %s, %s : index' % (d0, f.idx(2)), 'index', hint='n')
    crop = f.op('tensor.extract_slice %s[%s, 0] [%s, 5] [1, 1] : %s to %s'
                % (X, off, t0, X.ty, ttype((4, 5), 'f32', (0,))), 'f32', (4, 5), (0,),
                hint='crop')
    d1 = f.op('arith.subi %s, %s : index' % (t1, f.idx(5)), 'index', hint='n')
    lo = f.op('arith.divui %s, %s : index' % (d1, f.idx(2)), 'index', hint='n')
    hi = f.op('arith.subi %s, %s : index' % (d1, lo), 'index', hint='n')
    zero = f.scalar(0.0, 'f32')
    padded = f.op('tensor.pad %s low[0, %s] high[0, %s] {\n  ^bb0(%%i: index, %%j: index):\n'
                  '    tensor.yield %s : f32\n  } : %s to %s'
                  % (crop, lo, hi, zero, crop.ty, ttype((4, 7), 'f32', (0, 1))),
                  'f32', (4, 7), (0, 1), hint='pad')
    f.expect_index(f.dim(padded, 1), 7)
    f.expect_eq_const(f.static(padded), np.pad(x[1:5, :], [(0, 0), (1, 1)]))

    # Slice bounds computed by the program: [n0 * 2 - 1, n1 * 2 - 1] of
    # an unfoldable [2, 3] is [3, 5]: x[3 : 3 + 5] (i32 sizes), then an
    # elementwise op on a tensor.empty of the read size.
    f = F.fn('slice_sized_by_computed_data_i32_8')
    x = f.rng.ints((8,), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    N = f.const(np.array([2, 3], dtype=np.int32), 'i32', hint='bounds')
    B = f.elementwise([N], 'i32', """
^bb0(%n: i32, %o: i32):
  %two = arith.constant 2 : i32
  %one = arith.constant 1 : i32
  %m = arith.muli %n, %two : i32
  %r = arith.subi %m, %one : i32
  linalg.yield %r : i32""")
    e0 = f.op('tensor.extract %s[%s] : %s' % (B, f.idx(0), B.ty), 'i32', hint='e')
    e1 = f.op('tensor.extract %s[%s] : %s' % (B, f.idx(1), B.ty), 'i32', hint='e')
    off = f.op('arith.index_cast %s : i32 to index' % e0, 'index', hint='n')
    n = f.op('arith.index_cast %s : i32 to index' % e1, 'index', hint='n')
    sl = f.op('tensor.extract_slice %s[%s] [%s] [1] : %s to %s'
              % (X, off, n, X.ty, ttype((5,), 'i32', (0,))), 'i32', (5,), (0,), hint='sl')
    out = f.empty((5,), 'i32', (0,), {0: n})
    r = f.generic([sl], [out], [ident(1), ident(1)], 'p', """
^bb0(%x: i32, %o: i32):
  %one = arith.constant 1 : i32
  %y = arith.addi %x, %one : i32
  linalg.yield %y : i32""")
    f.expect_index(f.dim(r, 0), 5)
    f.expect_eq_const(f.static(r), x[3:8] + 1)

    # An i64 read back that also reaches a kernel (tensor.from_elements, as
    # torch-mlir rebuilds a shape tensor): beyond 32 bits, so the kernel
    # gets both words. (2^33 + 5) * 2 = 2^34 + 10; 2^34 + 10 mod 8 = 2
    # sizes a tensor.empty.
    f = F.fn('i64_read_back_sizes_and_feeds_a_kernel')
    N = f.const(np.array([2 ** 33 + 5], dtype=np.int64), 'i64', hint='n')
    D = f.elementwise([N], 'i64', """
^bb0(%n: i64, %o: i64):
  %two = arith.constant 2 : i64
  %m = arith.muli %n, %two : i64
  linalg.yield %m : i64""")
    v = f.op('tensor.extract %s[%s] : %s' % (D, f.idx(0), D.ty), 'i64', hint='e')
    r8 = f.op('arith.remsi %s, %s : i64' % (v, f.scalar(8, 'i64')), 'i64', hint='e')
    n = f.op('arith.index_cast %s : i64 to index' % r8, 'index', hint='n')
    out = f.empty((2,), 'i64', (0,), {0: n})
    filled = f.fill(v, out)
    f.expect_index(f.dim(filled, 0), 2)
    f.expect_eq_const(f.static(filled), np.full((2,), 2 ** 34 + 10, dtype=np.int64))
    fe = f.op('tensor.from_elements %s, %s : %s' % (v, r8, ttype((2,), 'i64')), 'i64', (2,),
              hint='fe')
    f.expect_eq_const(fe, np.array([2 ** 34 + 10, 2], dtype=np.int64))


@testfile('attention_reshapes.mlir', '''
A batch_matmul inside the reshapes torch-mlir writes for attention (ONNX
Attention, expanded): f16 operands, a transposed key collapsed from 2x3
heads into a batch of 6, an f32 result truncated to f16, expanded back to
2x3 heads (expand_shape), a mask added through a broadcasting map, extended
to f32, a max with its index over the last dim and the scores minus
their max (softmax's first step), so a reduction's dispatch reaches the
matmul through an expand_shape. Small dyadic data:
every partial sum is exact in f16, any order gives the same bits.''')
def _(F):
    f = F.fn('scores_through_expand_shape_f16_2x3x4x8x6')
    q = f.rng.dyadic((2, 3, 4, 8), 'f16', -2, 2, 2)
    k = f.rng.dyadic((2, 3, 6, 8), 'f16', -2, 2, 2)
    mask = f.rng.dyadic((4, 6), 'f16', -2, 2, 2)
    Q, K, M = f.const(q, 'f16'), f.const(k, 'f16'), f.const(mask, 'f16')
    kt = f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [0, 1, 3, 2]'
              % (K, K.ty, f.empty((2, 3, 8, 6), 'f16'), ttype((2, 3, 8, 6), 'f16')),
              'f16', (2, 3, 8, 6), hint='kt')
    q6 = f.op('tensor.collapse_shape %s [[0, 1], [2], [3]] : %s into %s'
              % (Q, Q.ty, ttype((6, 4, 8), 'f16')), 'f16', (6, 4, 8), hint='q')
    k6 = f.op('tensor.collapse_shape %s [[0, 1], [2], [3]] : %s into %s'
              % (kt, kt.ty, ttype((6, 8, 6), 'f16')), 'f16', (6, 8, 6), hint='k')
    acc = f.full(0.0, (6, 4, 6), 'f32')
    s6 = f.op('linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s'
              % (q6, k6, q6.ty, k6.ty, acc, acc.ty, acc.ty), 'f32', (6, 4, 6), hint='s')
    h6 = f.elementwise([s6], 'f16', '''
^bb0(%x: f32, %o: f16):
  %h = arith.truncf %x : f32 to f16
  linalg.yield %h : f16''')
    h = f.op('tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 3, 4, 6] : %s into %s'
             % (h6, h6.ty, ttype((2, 3, 4, 6), 'f16')), 'f16', (2, 3, 4, 6), hint='h')
    masked = f.generic([h, M], [f.empty((2, 3, 4, 6), 'f16')],
                       [ident(4), '(d0, d1, d2, d3) -> (d2, d3)', ident(4)], 'pppp', '''
^bb0(%x: f16, %m: f16, %o: f16):
  %a = arith.addf %x, %m : f16
  linalg.yield %a : f16''')
    wide = f.elementwise([masked], 'f32', '''
^bb0(%x: f16, %o: f32):
  %w = arith.extf %x : f16 to f32
  linalg.yield %w : f32''')
    mx, at = f.generic([wide], [f.full(-math.inf, (2, 3, 4), 'f32'), f.full(0, (2, 3, 4), 'i64')],
                       [ident(4), '(d0, d1, d2, d3) -> (d0, d1, d2)',
                        '(d0, d1, d2, d3) -> (d0, d1, d2)'], 'pppr', '''
^bb0(%x: f32, %acc: f32, %i: i64):
  %j = linalg.index 3 : index
  %jj = arith.index_cast %j : index to i64
  %m = arith.maximumf %x, %acc : f32
  %gt = arith.cmpf ogt, %x, %acc : f32
  %n = arith.select %gt, %jj, %i : i64
  linalg.yield %m, %n : f32, i64''')
    centered = f.generic([wide, mx], [f.empty((2, 3, 4, 6), 'f32')],
                         [ident(4), '(d0, d1, d2, d3) -> (d0, d1, d2)', ident(4)], 'pppp', '''
^bb0(%x: f32, %m: f32, %o: f32):
  %c = arith.subf %x, %m : f32
  linalg.yield %c : f32''')
    assert order_free('bhmk,bhnk->bhmn', 'f16', q, k)
    scores = np.einsum('bhmk,bhnk->bhmn', f64(q), f64(k)) + f64(mask)
    f.expect_eq_const(mx, scores.max(axis=3))
    f.expect_eq_const(at, scores.argmax(axis=3))
    f.expect_eq_const(centered, scores - scores.max(axis=3, keepdims=True))


@testfile('prologue_through_data_movement.mlir', '''
A root (batch_matmul, matmul, a full reduction) whose one elementwise
consumer is read by its dispatch through a tensor.pad, extract_slice or
concat (the random-program tester's seeds 7432 and 7796, reduced): the
root cannot be that dispatch's prologue (the kernel maps a point to the
root's through structured ops only), so it is a dispatch of its own and the
pad / slice / concat and the elementwise op are computed where read. kiln
refused them before ("the root is not reachable from its dispatch").
Small-integer data: every sum is exact, any order gives the same bits.''')
def _(F):
    def pad(f, X, low, high, value, shape):
        n = len(shape)
        args = ', '.join('%%i%s: index' % 'abcd'[i] for i in range(n))
        return f.op('tensor.pad %s low[%s] high[%s] {\n  ^bb0(%s):\n    tensor.yield %s : %s\n'
                    '  } : %s to %s'
                    % (X, ', '.join(map(str, low)), ', '.join(map(str, high)), args,
                       f.scalar(value, X.et), X.et, X.ty, ttype(shape, X.et)),
                    X.et, tuple(shape), hint='pad')

    def square(f, X):
        return f.op('arith.mulf %s, %s : %s' % (X, X, X.ty), X.et, X.shape, X.dyn, hint='sq')

    def negf(f, X):
        return f.op('arith.negf %s : %s' % (X, X.ty), X.et, X.shape, X.dyn, hint='neg')

    # seed 7432: batch_matmul, squared, padded, negated.
    f = F.fn('batch_matmul_square_pad_negf_2x3x40x4')
    a = f.rng.ints((2, 3, 40), -4, 4).astype(np.float32)
    b = f.rng.ints((2, 40, 4), -4, 4).astype(np.float32)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    acc = f.full(0.0, (2, 3, 4), 'f32')
    mm = f.op('linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s'
              % (A, B, A.ty, B.ty, acc, acc.ty, acc.ty), 'f32', (2, 3, 4), hint='mm')
    r = negf(f, pad(f, square(f, mm), (0, 2, 1), (1, 0, 1), 1.0, (3, 5, 6)))
    assert order_free('bmk,bkn->bmn', 'f32', a, b)
    prod = np.einsum('bmk,bkn->bmn', f64(a), f64(b))
    f.expect_eq_const(r, -np.pad(prod * prod, [(0, 1), (2, 0), (1, 1)], constant_values=1.0))

    # seed 7796: a full reduction to 1x1 of a transposed dynamic input,
    # minus a 1x1 (dynamic, cast to static), padded, then maximumf.
    f = F.fn('reduce_all_transposed_dynamic_subf_pad_maximumf_129x3')
    x = f.rng.ints((129, 3), -4, 4).astype(np.float32)
    s = np.array([[3.5]], np.float32)
    y = f.rng.ints((2, 4), -8, 8).astype(np.float32)
    X = f.const(x, 'f32', 'dynamic', (1,))
    S = f.const(s, 'f32', 'dynamic', (1,))
    Y = f.const(y, 'f32', 'dynamic', (0,))
    n = f.dim(X, 1)
    tr = f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]'
              % (X, X.ty, f.empty((3, 129), 'f32', (0,), {0: n}), ttype((3, 129), 'f32', (0,))),
              'f32', (3, 129), (0,), hint='tr')
    total = f.generic([tr], [f.full(0.0, (1, 1), 'f32')],
                      [ident(2), '(d0, d1) -> (0, 0)'], 'rr', '''
^bb0(%x: f32, %acc: f32):
  %y = arith.addf %x, %acc : f32
  linalg.yield %y : f32''', hint='red')
    s11 = f.cast(S, ())
    d = f.op('arith.subf %s, %s : %s' % (total, s11, total.ty), 'f32', (1, 1), hint='sub')
    p = pad(f, d, (1, 2), (0, 1), 0.0, (2, 4))
    y24 = f.cast(Y, ())
    r = f.op('arith.maximumf %s, %s : %s' % (p, y24, p.ty), 'f32', (2, 4), hint='max')
    want = np.pad(np.array([[f64(x).sum() - 3.5]]), [(1, 0), (2, 1)])
    f.expect_eq_const(r, np.maximum(want, f64(y)))

    # The same through an extract_slice and a concat, on a matmul.
    f = F.fn('matmul_square_extract_slice_negf_5x24x6')
    a = f.rng.ints((5, 24), -4, 4).astype(np.float32)
    b = f.rng.ints((24, 6), -4, 4).astype(np.float32)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    acc = f.full(0.0, (5, 6), 'f32')
    mm = f.op('linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s'
              % (A, B, A.ty, B.ty, acc, acc.ty, acc.ty), 'f32', (5, 6), hint='mm')
    sq = square(f, mm)
    sl = f.op('tensor.extract_slice %s[1, 2] [3, 3] [1, 1] : %s to %s'
              % (sq, sq.ty, ttype((3, 3), 'f32')), 'f32', (3, 3), hint='sl')
    assert order_free('mk,kn->mn', 'f32', a, b)
    prod = f64(a) @ f64(b)
    f.expect_eq_const(negf(f, sl), -(prod * prod)[1:4, 2:5])

    f = F.fn('matmul_square_concat_negf_5x24x6')
    a = f.rng.ints((5, 24), -4, 4).astype(np.float32)
    b = f.rng.ints((24, 6), -4, 4).astype(np.float32)
    c = f.rng.ints((2, 6), -9, 9).astype(np.float32)
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    acc = f.full(0.0, (5, 6), 'f32')
    mm = f.op('linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s'
              % (A, B, A.ty, B.ty, acc, acc.ty, acc.ty), 'f32', (5, 6), hint='mm')
    sq = square(f, mm)
    cc = f.op('tensor.concat dim(0) %s, %s : (%s, %s) -> %s'
              % (C, sq, C.ty, sq.ty, ttype((7, 6), 'f32')), 'f32', (7, 6), hint='cat')
    assert order_free('mk,kn->mn', 'f32', a, b)
    prod = f64(a) @ f64(b)
    f.expect_eq_const(negf(f, cc), -np.concatenate([f64(c), prod * prod]))

@testfile('linalg_map.mlir', '''
linalg.map: the short form (`linalg.map { arith.addf }`), the region form
with math and captured values, a map with no inputs, several element types
and a dynamic shape.''')
def _(F):
    f = F.fn('map_short_form_addf_mulf_f32_13')
    a, b = f.rng.floats((13,), 'f32', -2, 2), f.rng.floats((13,), 'f32', -2, 2)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    out = f.empty((13,), 'f32')
    r = f.op('linalg.map { arith.addf } ins(%s, %s : %s, %s) outs(%s : %s)'
             % (A, B, A.ty, B.ty, out, out.ty), 'f32', (13,), hint='map')
    f.expect_eq_const(r, a + b)
    r = f.op('linalg.map { arith.mulf } ins(%s, %s : %s, %s) outs(%s : %s)'
             % (A, B, A.ty, B.ty, out, out.ty), 'f32', (13,), hint='map')
    f.expect_eq_const(r, a * b)

    f = F.fn('map_region_exp_plus_captured_3x7')
    a = f.rng.floats((3, 7), 'f32', -2, 2)
    A = f.const(a, 'f32')
    k = f.scalar(1.5, 'f32')
    out = f.empty((3, 7), 'f32')
    r = f.op('''linalg.map ins(%s : %s) outs(%s : %s)
  (%%x: f32) {
    %%e = math.exp %%x : f32
    %%s = arith.addf %%e, %s : f32
    linalg.yield %%s : f32
  }''' % (A, A.ty, out, out.ty, k), 'f32', (3, 7), hint='map')
    f.expect_almost_eq_const(r, np.exp(f64(a)) + 1.5, atol=1e-6, rtol=1e-5)

    f = F.fn('map_no_inputs_i16_5')
    out = f.empty((5,), 'i16')
    r = f.op('''linalg.map outs(%s : %s)
  () {
    %%c = arith.constant -321 : i16
    linalg.yield %%c : i16
  }''' % (out, out.ty), 'i16', (5,), hint='map')
    f.expect_eq_const(r, np.full((5,), -321, np.int16))

    f = F.fn('map_i8_i64_bf16_dynamic')
    a = store('i8', f.rng.ints((17,), -128, 127))
    A = f.const(a, 'i8', 'dynamic')
    out = f.empty((17,), 'i8', (0,), f.sizes_of(A))
    r = f.op('linalg.map { arith.xori } ins(%s, %s : %s, %s) outs(%s : %s)'
             % (A, A, A.ty, A.ty, out, out.ty), 'i8', (17,), (0,), hint='map')
    f.expect_eq_const(r, np.zeros(17, np.int8))
    x = f.rng.bits64((4, 2))
    X = f.const(x, 'i64')
    out = f.empty((4, 2), 'i64')
    r = f.op('linalg.map { arith.subi } ins(%s, %s : %s, %s) outs(%s : %s)'
             % (X, X, X.ty, X.ty, out, out.ty), 'i64', (4, 2), hint='map')
    f.expect_eq_const(r, np.zeros((4, 2), np.int64))
    h = f.rng.floats((6,), 'bf16', -3, 3)
    H = f.const(h, 'bf16')
    out = f.empty((6,), 'bf16')
    r = f.op('''linalg.map ins(%s : %s) outs(%s : %s)
  (%%x: bf16) {
    %%w = arith.extf %%x : bf16 to f32
    %%d = arith.addf %%w, %%w : f32
    %%t = arith.truncf %%d : f32 to bf16
    linalg.yield %%t : bf16
  }''' % (H, H.ty, out, out.ty), 'bf16', (6,), hint='map')
    f.expect_eq_const(r, f64(h) * 2)


@testfile('mul_extended.mlir', '''
arith.mulsi_extended / arith.mului_extended (the full product's low and
high halves; MLIR's tosa-to-arith emits them for tosa.apply_scale, TOSA's
rescale) in linalg.map bodies, i8 / i16 / i32, full-range operands and the
extremes (Python integers).''')
def _(F):
    for et in ('i8', 'i16', 'i32'):
        bits = INT_BITS[et]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        for signed in (True, False):
            op = 'arith.mulsi_extended' if signed else 'arith.mului_extended'
            f = F.fn('%s_%s' % (op.split('.')[1], et))
            n = 24
            a = f.rng.ints((n,), lo, hi)
            b = f.rng.ints((n,), lo, hi)
            edges = [(lo, lo), (lo, hi), (hi, hi), (-1, -1), (lo, -1), (-1, 1), (0, lo), (hi, -1)]
            for i, (x, y) in enumerate(edges):
                a[i], b[i] = x, y
            a, b = store(et, a), store(et, b)
            mask = (1 << bits) - 1
            xs = [int(v) if signed else int(v) & mask for v in a.tolist()]
            ys = [int(v) if signed else int(v) & mask for v in b.tolist()]
            prods = [x * y for x, y in zip(xs, ys)]
            h = 1 << (bits - 1)
            low = store(et, [((p + h) & mask) - h for p in prods])
            high = store(et, [(((p >> bits) + h) & mask) - h for p in prods])
            A, B = f.const(a, et), f.const(b, et)
            out = f.empty((n,), et)
            for k, want in ((0, low), (1, high)):
                r = f.op('''linalg.map ins(%s, %s : %s, %s) outs(%s : %s)
  (%%x: %s, %%y: %s) {
    %%l, %%h = %s %%x, %%y : %s
    linalg.yield %%%s : %s
  }''' % (A, B, A.ty, B.ty, out, out.ty, et, et, op, et, 'lh'[k], et), et, (n,), hint='map')
                f.expect_eq_const(r, want)


@testfile('reduce_i1_minmax.mlir', '''
ONNX ReduceMax / ReduceMin of bool data as kiln's importer writes them
(linalg.reduce with arith.maxui / minui on i1), over short and long rows,
and the signed forms: true is 1 unsigned and -1 signed, so maxui and minsi
are `or`, minui and maxsi `and` (numpy's any / all).''')
def _(F):
    def reduce_short(f, comb, X, init, dims):
        return f.op('linalg.reduce { %s } ins(%s : %s) outs(%s : %s) dimensions = [%s]'
                    % (comb, X, X.ty, init, init.ty, ', '.join(map(str, dims))), init.et,
                    init.shape, init.dyn, 'red')

    f = F.fn('reduce_i1_max_min_4x2_and_3x300')
    for shape in ((4, 2), (3, 300)):
        x = f.rng.ints(shape, 0, 1).astype(bool)
        x[0, :] = True
        x[1, :] = False
        X = f.const(x, 'i1')
        n = shape[0]
        for comb, init, ref in (('arith.maxui', False, x.any(axis=1)),
                                ('arith.minui', True, x.all(axis=1)),
                                ('arith.maxsi', True, x.all(axis=1)),
                                ('arith.minsi', False, x.any(axis=1))):
            f.expect_eq_const(reduce_short(f, comb, X, f.full(init, (n,), 'i1'), [1]), ref)


@testfile('linalg_reduce.mlir', '''
linalg.reduce: the short form (`linalg.reduce { arith.addf }`), the region
form, dims [0], [1], [0, 2] and all dims, max / min / mul / xor combiners,
two inputs reduced into two outputs, i1 / i16 / f16 / bf16 data, and
dynamic shapes; NaN propagated by max / min over dynamic shapes.''')
def _(F):
    def reduce_short(f, comb, X, init, dims):
        return f.op('linalg.reduce { %s } ins(%s : %s) outs(%s : %s) dimensions = [%s]'
                    % (comb, X, X.ty, init, init.ty, ', '.join(map(str, dims))), init.et,
                    init.shape, init.dyn, 'red')

    f = F.fn('reduce_dims_f32_5x6x7')
    x = f.rng.dyadic((5, 6, 7), 'f32', -64, 64, 32)
    X = f.const(x, 'f32')
    f.expect_eq_const(reduce_short(f, 'arith.addf', X, f.full(0.0, (6, 7), 'f32'), [0]),
                      f64(x).sum(axis=0))
    f.expect_eq_const(reduce_short(f, 'arith.addf', X, f.full(0.0, (5, 7), 'f32'), [1]),
                      f64(x).sum(axis=1))
    f.expect_eq_const(reduce_short(f, 'arith.addf', X, f.full(0.0, (6,), 'f32'), [0, 2]),
                      f64(x).sum(axis=(0, 2)))
    f.expect_eq_const(reduce_short(f, 'arith.maximumf', X, f.full(-math.inf, (), 'f32'),
                                   [0, 1, 2]), x.max())
    f.expect_eq_const(reduce_short(f, 'arith.minimumf', X, f.full(math.inf, (5,), 'f32'),
                                   [1, 2]), x.min(axis=(1, 2)))

    f = F.fn('reduce_region_form_i16_mul_xor')
    x = f.rng.ints((4, 9), -3, 3).astype(np.int16)
    X = f.const(x, 'i16')
    init = f.full(1, (4,), 'i16')
    r = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [1]
  (%%x: i16, %%acc: i16) {
    %%m = arith.muli %%x, %%acc : i16
    linalg.yield %%m : i16
  }''' % (X, X.ty, init, init.ty), 'i16', (4,), hint='red')
    prod = [int_semantics('muli', int(np.prod(row.astype(object))), 1, 16) for row in x]
    f.expect_eq_const(r, np.array(prod, np.int16))
    f.expect_eq_const(reduce_short(f, 'arith.xori', X, f.full(0, (9,), 'i16'), [0]),
                      np.bitwise_xor.reduce(x, axis=0))

    f = F.fn('reduce_max_min_nan_dynamic',
             'Found by gpu tensor_random (seed 1113): maximumf / minimumf propagate NaN, '
             'but a dynamic-shape reduction (GroupNonUniformFMax/FMin, or the GLSL FMax/FMin '
             'tree without subgroup arithmetic) returned the largest number instead.')
    x = f.rng.dyadic((67,), 'f32', -8, 8, 4)
    x[40], x[3] = math.nan, math.inf
    X = f.const(x, 'f32', 'dynamic')
    for comb, init in (('arith.maximumf', -math.inf), ('arith.minimumf', math.inf)):
        r = reduce_short(f, comb, X, f.full(init, (), 'f32'), [0])
        r = f.elementwise([r, r], 'f32', nan_normalized_body('arith.maximumf', 'f32', 2))
        f.expect_eq_const(r, np.float32(math.nan))
    y = f.rng.dyadic((4, 130), 'f32', -8, 8, 4)
    y[1, 129], y[2, 0], y[3, 7] = math.nan, math.nan, -math.inf
    Y = f.const(y, 'f32', 'dynamic', dyn=(1,))
    for comb, init, ref in (('arith.maximumf', -math.inf, np.max(y, axis=1)),
                            ('arith.minimumf', math.inf, np.min(y, axis=1))):
        r = reduce_short(f, comb, Y, f.full(init, (4,), 'f32'), [1])
        r = f.elementwise([r, r], 'f32', nan_normalized_body('arith.maximumf', 'f32', 2))
        f.expect_eq_const(r, ref)

    f = F.fn('reduce_two_inputs_two_outputs')
    a = f.rng.dyadic((8, 3), 'f32', -8, 8, 4)
    b = f.rng.ints((8, 3), -1000, 1000).astype(np.int32)
    A, B = f.const(a, 'f32'), f.const(b, 'i32')
    i1_, i2_ = f.full(0.0, (3,), 'f32'), f.full(-2 ** 31, (3,), 'i32')
    name = f.fresh('red')
    f.emit('''%s:2 = linalg.reduce ins(%s, %s : %s, %s) outs(%s, %s : %s, %s) dimensions = [0]
  (%%x: f32, %%y: i32, %%s: f32, %%m: i32) {
    %%a = arith.addf %%x, %%s : f32
    %%b = arith.maxsi %%y, %%m : i32
    linalg.yield %%a, %%b : f32, i32
  }''' % (name, A, B, A.ty, B.ty, i1_, i2_, i1_.ty, i2_.ty))
    f.expect_eq_const(V(name + '#0', 'f32', (3,)), f64(a).sum(axis=0))
    f.expect_eq_const(V(name + '#1', 'i32', (3,)), b.max(axis=0))

    f = F.fn('reduce_i1_any_all_3x10')
    x = f.rng.ints((3, 10), 0, 1).astype(bool)
    x[0, :] = True
    x[1, :] = False
    X = f.const(x, 'i1')
    f.expect_eq_const(reduce_short(f, 'arith.ori', X, f.full(False, (3,), 'i1'), [1]),
                      x.any(axis=1))
    f.expect_eq_const(reduce_short(f, 'arith.andi', X, f.full(True, (3,), 'i1'), [1]),
                      x.all(axis=1))

    f = F.fn('reduce_f16_bf16_accumulate_once_rounded', '''
A sum in f16 (bf16) accumulates in f32 and rounds once (IREE's
large_reduction regression test: 4,096 x f16(0.001) is 4.098, where an f16
accumulator gives 4.109). Every partial sum of these inputs is exact in f32
(k x a value of 11 (8) significant bits stays below 2^24), so any order
gives the once-rounded sum.''')
    for et, shape, dims, how in [('f16', (4096,), [0], 'unfoldable'),
                                 ('f16', (3, 2048), [1], 'unfoldable'),
                                 ('bf16', (4096,), [0], 'unfoldable'),
                                 ('f16', (5, 1000), [1], 'dynamic')]:
        one = store(et, [0.001])[0]
        x = np.full(shape, one)
        X = f.const(x, et, how)
        out = tuple(n for i, n in enumerate(shape) if i not in dims)
        odyn = tuple(range(len(out))) if how == 'dynamic' else ()
        sizes = {0: f.sizes_of(X)[0]} if how == 'dynamic' else None
        init = f.fill(f.scalar(0.0, et), f.empty(out, et, odyn, sizes))
        r = reduce_short(f, 'arith.addf', X, init, dims)
        f.expect_eq_const(r, store(et, f64(x).sum(axis=tuple(dims))))

    f = F.fn('reduce_f16_bf16_in_f32_dynamic')
    h = f.rng.dyadic((7, 40), 'f16', -50, 50, 4)
    H = f.const(h, 'f16', 'dynamic')
    sz = f.sizes_of(H)
    init = f.fill(f.scalar(0.0, 'f32'), f.empty((7,), 'f32', (0,), {0: sz[0]}))
    r = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [1]
  (%%x: f16, %%acc: f32) {
    %%w = arith.extf %%x : f16 to f32
    %%s = arith.addf %%w, %%acc : f32
    linalg.yield %%s : f32
  }''' % (H, H.ty, init, init.ty), 'f32', (7,), (0,), 'red')
    f.expect_eq_const(r, f64(h).sum(axis=1))
    g = f.rng.dyadic((40,), 'bf16', -50, 50, 2)
    G = f.const(g, 'bf16')
    init = f.full(0.0, (), 'f32')
    r = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [0]
  (%%x: bf16, %%acc: f32) {
    %%w = arith.extf %%x : bf16 to f32
    %%s = arith.addf %%w, %%acc : f32
    linalg.yield %%s : f32
  }''' % (G, G.ty, init, init.ty), 'f32', (), (), 'red')
    f.expect_eq_const(r, f64(g).sum())


@testfile('linalg_transpose.mlir', '''
linalg.transpose: 2-D, 3-D and 4-D permutations, 1 x N and N x 1 shapes,
i1 / i8 / i64 / f16 / bf16 data and a dynamic shape.''')
def _(F):
    def transpose(f, X, perm):
        shape = tuple(X.shape[p] for p in perm)
        dyn = tuple(i for i, p in enumerate(perm) if p in X.dyn)
        out = f.empty(shape, X.et, dyn, {i: f.dim(X, perm[i]) for i in dyn})
        return f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]'
                    % (X, X.ty, out, out.ty, ', '.join(map(str, perm))), X.et, shape, dyn,
                    'tr')

    f = F.fn('transpose_2d_f32_31x7_and_1xN')
    x = f.rng.floats((31, 7), 'f32', -1, 1)
    X = f.const(x, 'f32')
    f.expect_eq_const(transpose(f, X, (1, 0)), x.T)
    y = f.rng.floats((1, 13), 'f32', -1, 1)
    Y = f.const(y, 'f32')
    f.expect_eq_const(transpose(f, Y, (1, 0)), y.T)

    f = F.fn('transpose_3d_i8_and_i1')
    x = store('i8', f.rng.ints((3, 4, 5), -128, 127))
    X = f.const(x, 'i8')
    for perm in ((2, 0, 1), (1, 2, 0), (0, 2, 1)):
        f.expect_eq_const(transpose(f, X, perm), np.transpose(x, perm))
    b = f.rng.ints((2, 3, 7), 0, 1).astype(bool)
    B = f.const(b, 'i1')
    f.expect_eq_const(transpose(f, B, (2, 1, 0)), np.transpose(b, (2, 1, 0)))

    f = F.fn('transpose_4d_i64_f16_bf16')
    x = f.rng.bits64((2, 3, 1, 4))
    X = f.const(x, 'i64')
    f.expect_eq_const(transpose(f, X, (3, 1, 0, 2)), np.transpose(x, (3, 1, 0, 2)))
    h = f.rng.floats((2, 5, 3, 2), 'f16', -100, 100)
    H = f.const(h, 'f16')
    f.expect_eq_const(transpose(f, H, (0, 3, 1, 2)), np.transpose(h, (0, 3, 1, 2)))
    g = f.rng.floats((6, 1, 5), 'bf16', -100, 100)
    G = f.const(g, 'bf16')
    f.expect_eq_const(transpose(f, G, (1, 2, 0)), np.transpose(g, (1, 2, 0)))

    f = F.fn('transpose_dynamic_i32_17x129')
    x = f.rng.ints((17, 129), -10 ** 6, 10 ** 6).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    f.expect_eq_const(transpose(f, X, (1, 0)), x.T)


@testfile('linalg_broadcast.mlir', '''
linalg.broadcast: a vector to rows and to columns, a scalar (0-d) to 3-D,
added middle and outer dims, several element types and a dynamic output
size.''')
def _(F):
    def bcast(f, X, shape, dims, dyn=(), sizes=None):
        out = f.empty(shape, X.et, dyn, sizes)
        return f.op('linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [%s]'
                    % (X, X.ty, out, out.ty, ', '.join(map(str, dims))), X.et, tuple(shape),
                    tuple(dyn), 'bc')

    f = F.fn('broadcast_vector_rows_and_columns_f32')
    v = f.rng.floats((7,), 'f32', -1, 1)
    Vv = f.const(v, 'f32')
    f.expect_eq_const(bcast(f, Vv, (3, 7), [0]), np.broadcast_to(v, (3, 7)))
    f.expect_eq_const(bcast(f, Vv, (7, 5), [1]), np.broadcast_to(v[:, None], (7, 5)))

    f = F.fn('broadcast_scalar_to_3d_i64')
    s = np.int64(-(1 << 50))
    S = f.const(s, 'i64')
    f.expect_eq_const(bcast(f, S, (2, 3, 4), [0, 1, 2]), np.full((2, 3, 4), s))

    f = F.fn('broadcast_middle_and_outer_dims_i8_f16_bf16_i1')
    x = store('i8', f.rng.ints((4, 6), -128, 127))
    X = f.const(x, 'i8')
    f.expect_eq_const(bcast(f, X, (4, 3, 6), [1]), np.broadcast_to(x[:, None, :], (4, 3, 6)))
    h = f.rng.floats((5,), 'f16', -9, 9)
    H = f.const(h, 'f16')
    f.expect_eq_const(bcast(f, H, (2, 5, 3), [0, 2]),
                      np.broadcast_to(h[None, :, None], (2, 5, 3)))
    g = f.rng.floats((3,), 'bf16', -9, 9)
    G = f.const(g, 'bf16')
    f.expect_eq_const(bcast(f, G, (3, 2), [1]), np.broadcast_to(g[:, None], (3, 2)))
    b = np.array([True, False, True])
    B = f.const(b, 'i1')
    f.expect_eq_const(bcast(f, B, (2, 3), [0]), np.broadcast_to(b, (2, 3)))

    f = F.fn('broadcast_dynamic_rows_i16')
    v = f.rng.ints((9,), -1000, 1000).astype(np.int16)
    Vv = f.const(v, 'i16')
    rows = f.const(np.zeros((11, 9), np.int16), 'i16', 'dynamic', dyn=(0,))
    sz = f.sizes_of(rows)
    f.expect_eq_const(bcast(f, Vv, (11, 9), [0], (0,), sz), np.broadcast_to(v, (11, 9)))


@testfile('linalg_copy.mlir', '''
linalg.copy of static and dynamic tensors, every element type, into a
tensor.empty and over an initialised tensor.''')
def _(F):
    f = F.fn('copy_every_type')
    for et in ELEMENT_TYPES:
        if et == 'i1':
            x = f.rng.ints((3, 5), 0, 1).astype(bool)
        elif is_float(et):
            x = f.rng.floats((3, 5), et, -10, 10)
        elif et == 'i64':
            x = f.rng.bits64((3, 5))
        else:
            b = INT_BITS[et]
            x = store(et, f.rng.ints((3, 5), -(1 << (b - 1)), (1 << (b - 1)) - 1))
        X = f.const(x, et)
        out = f.empty((3, 5), et)
        r = named(f, 'linalg.copy', [X], [out])
        f.expect_eq_const(r, x)

    f = F.fn('copy_over_data_and_dynamic')
    x = f.rng.floats((127,), 'f32', -1, 1)
    X = f.const(x, 'f32')
    Y = f.const(np.full((127,), 9.0, np.float32), 'f32')
    r = named(f, 'linalg.copy', [X], [Y])
    f.expect_eq(r, X)
    D = f.const(x, 'f32', 'dynamic')
    out = f.empty((127,), 'f32', (0,), f.sizes_of(D))
    r = named(f, 'linalg.copy', [D], [out])
    f.expect_eq_const(r, x)


def mm(f, op, A, B, C):
    return named(f, op, [A, B], [C], hint='mm')


def int_contract(spec, et, *arrays):
    """Integer contraction with MLIR's wrap-around (exact sum, then wrap)."""
    res = einsum_object(spec, *[np.asarray(a).astype(object) for a in arrays]) \
        if any(np.asarray(a).dtype == np.int64 for a in arrays) or INT_BITS[et] < 32 \
        else np.einsum(spec, *[np.asarray(a).astype(np.int64) for a in arrays])
    return store(et, np.asarray(res, dtype=object))


@testfile('matmul_f32.mlir', '''
linalg.matmul on f32: 1x1x1, K = 1, odd sizes, an exact dyadic case (every
partial sum representable: any order gives the same bits), accumulation
into a non-zero init, and random data with IREE's default tolerance.''')
def _(F):
    f = F.fn('matmul_1x1x1')
    A = f.const(store('f32', [[3.5]]), 'f32')
    B = f.const(store('f32', [[-2.0]]), 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (1, 1), 'f32'))
    f.expect_eq_const(r, store('f32', [[-7.0]]))

    f = F.fn('matmul_13x31x7_random')
    a, b = f.rng.floats((13, 31), 'f32', -1, 1), f.rng.floats((31, 7), 'f32', -1, 1)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (13, 7), 'f32'))
    f.expect_almost_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('matmul_127x1x3_k1')
    a, b = f.rng.floats((127, 1), 'f32', -3, 3), f.rng.floats((1, 3), 'f32', -3, 3)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (127, 3), 'f32'))
    f.expect_eq_const(r, a * b)

    f = F.fn('matmul_65x33x129_exact')
    a = f.rng.dyadic((65, 33), 'f32', -64, 64, 16)
    b = f.rng.dyadic((33, 129), 'f32', -64, 64, 16)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (65, 129), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('matmul_accumulates_into_init_2x3x4')
    a = f.rng.dyadic((2, 3), 'f32', -8, 8, 2)
    b = f.rng.dyadic((3, 4), 'f32', -8, 8, 2)
    c = f.rng.dyadic((2, 4), 'f32', -8, 8, 2)
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    r = mm(f, 'linalg.matmul', A, B, C)
    f.expect_eq_const(r, f64(c) + f64(contract('ik,kj->ij', 'f32', a, b)))

    f = F.fn('matmul_3x1000x5_exact_long_k')
    a = f.rng.dyadic((3, 1000), 'f32', -16, 16, 4)
    b = f.rng.dyadic((1000, 5), 'f32', -16, 16, 4)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (3, 5), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))


@testfile('matmul_transpose.mlir', '''
linalg.matmul_transpose_a (C[m,n] += A[k,m] * B[k,n]) and
linalg.matmul_transpose_b (C[m,n] += A[m,k] * B[n,k]), MLIR 19's named ops
for the transposed forms: exact dyadic data, random data, a dynamic shape.''')
def _(F):
    f = F.fn('matmul_transpose_a_7x5x3_exact')
    a = f.rng.dyadic((5, 7), 'f32', -32, 32, 8)
    b = f.rng.dyadic((5, 3), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul_transpose_a', A, B, f.full(0.0, (7, 3), 'f32'))
    f.expect_eq_const(r, contract('km,kn->mn', 'f32', a, b))

    f = F.fn('matmul_transpose_b_9x11x4_exact')
    a = f.rng.dyadic((9, 11), 'f32', -32, 32, 8)
    b = f.rng.dyadic((4, 11), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul_transpose_b', A, B, f.full(0.0, (9, 4), 'f32'))
    f.expect_eq_const(r, contract('mk,nk->mn', 'f32', a, b))

    f = F.fn('matmul_transpose_a_b_random_16x31x13')
    a = f.rng.floats((31, 16), 'f32', -1, 1)
    b = f.rng.floats((31, 13), 'f32', -1, 1)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul_transpose_a', A, B, f.full(0.0, (16, 13), 'f32'))
    f.expect_almost_eq_const(r, contract('km,kn->mn', 'f32', a, b))
    bt = np.ascontiguousarray(b.T)
    At = f.const(np.ascontiguousarray(a.T), 'f32')
    Bt = f.const(bt, 'f32')
    r2 = mm(f, 'linalg.matmul_transpose_b', At, Bt, f.full(0.0, (16, 13), 'f32'))
    f.expect_almost_eq(r2, r, atol=1e-5)

    f = F.fn('matmul_transpose_b_dynamic_6x20x10')
    a = f.rng.dyadic((6, 20), 'f32', -32, 32, 8)
    b = f.rng.dyadic((10, 20), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    sa, sb = f.sizes_of(A), f.sizes_of(B)
    C = f.fill(f.scalar(0.0, 'f32'), f.empty((6, 10), 'f32', (0, 1), {0: sa[0], 1: sb[0]}))
    r = mm(f, 'linalg.matmul_transpose_b', A, B, C)
    f.expect_eq_const(r, contract('mk,nk->mn', 'f32', a, b))


@testfile('matmul_f16_bf16.mlir', '''
Half-precision matmuls: f16 and bf16 inputs accumulated in f32 (the named
op extends its inputs to the output type), f16 / bf16 accumulators on
small integers, where every partial sum is exact in the half type, and f16
/ bf16 results of long contractions and sums, which accumulate in f32 and
round once (as onnxruntime, PyTorch and IREE do, and kiln's reference
evaluator): 0.001 in the half type (11 or 8 significant bits) times 1,
every partial sum below 16 and exact in f32, so any order gives the
once-rounded exact sum; an f16 accumulator rounds at almost every step
(IREE's large_reduction: 4,096 terms give 4.109 where 4.098 is right).
On lavapipe the shapes reach the workgroup-memory and register tile
kernels (a matmul, a batch matmul, a convolution), which accumulated in
the output's type before, and a workgroup per output and long rows, whose
cooperative reductions already accumulated in f32.''')
def _(F):
    def splat(f, value, shape, et):
        """A splat input (compact text) and its array."""
        return f.splat_const(value, shape, et), np.full(shape, value)

    def unit(et):
        return float(store(et, [0.001])[0])

    for et, (m, k, n) in (('f16', (64, 1024, 64)), ('f16', (4, 4096, 8)), ('f16', (1, 4096, 32)),
                          ('bf16', (16, 1024, 16))):
        f = F.fn('matmul_%s_acc_%s_rounds_once_%dx%dx%d' % (et, et, m, k, n))
        A, a = splat(f, unit(et), (m, k), et)
        B, b = splat(f, 1.0, (k, n), et)
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), et))
        f.expect_eq_const(r, store(et, np.einsum('ik,kj->ij', a, b)))
    f = F.fn('matmul_f16_into_init_rounds_once_32x512x32')
    A, a = splat(f, unit('f16'), (32, 512), 'f16')
    B, b = splat(f, 1.0, (512, 32), 'f16')
    c = f.rng.dyadic((32, 32), 'f16', -32, 32, 16)
    r = mm(f, 'linalg.matmul', A, B, f.const(c, 'f16'))
    f.expect_eq_const(r, store('f16', f64(c) + np.einsum('ik,kj->ij', a, b)))
    f = F.fn('batch_matmul_f16_acc_f16_rounds_once_3x8x2048x8')
    A, a = splat(f, unit('f16'), (3, 8, 2048), 'f16')
    B, b = splat(f, 1.0, (3, 2048, 8), 'f16')
    r = mm(f, 'linalg.batch_matmul', A, B, f.full(0.0, (3, 8, 8), 'f16'))
    f.expect_eq_const(r, store('f16', np.einsum('bik,bkj->bij', a, b)))
    f = F.fn('conv_f16_acc_f16_rounds_once_3x3x256')
    X, x = splat(f, unit('f16'), (1, 6, 6, 256), 'f16')
    W, w = splat(f, 1.0, (3, 3, 256, 8), 'f16')
    r = named(f, 'linalg.conv_2d_nhwc_hwcf', [X, W], [f.full(0.0, (1, 4, 4, 8), 'f16')],
              conv_attrs([1, 1], [1, 1]), 'conv')
    win = windows_nhwc(x, 3, 3, 4, 4, [1, 1], [1, 1])
    f.expect_eq_const(r, store('f16', np.einsum('nhwijc,ijcf->nhwf', win, w)))
    f = F.fn('reduce_f16_acc_rounds_once_long_rows')
    for shape in ((2, 15000), (15000,)):
        X, x = splat(f, unit('f16'), shape, 'f16')
        out = shape[:-1]
        init = f.full(0.0, out, 'f16')
        r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [%d]'
                 % (X, X.ty, init, init.ty, len(shape) - 1), 'f16', out, (), 'red')
        f.expect_eq_const(r, store('f16', x.sum(axis=-1)))
    for et, rand, small, lim in (('f16', (12, 40, 9), (5, 16, 6), 4),
                                 ('bf16', (8, 33, 3), (4, 7, 2), 3)):
        m, k, n = rand
        f = F.fn('matmul_%s_inputs_f32_acc_%dx%dx%d' % (et, m, k, n))
        a, b = f.rng.floats((m, k), et, -1, 1), f.rng.floats((k, n), et, -1, 1)
        A, B = f.const(a, et), f.const(b, et)
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
        f.expect_almost_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

        m, k, n = small
        f = F.fn('matmul_%s_acc_%s_exact_%dx%dx%d' % (et, et, m, k, n))
        a = store(et, f.rng.ints((m, k), -lim, lim))
        b = store(et, f.rng.ints((k, n), -lim, lim))
        A, B = f.const(a, et), f.const(b, et)
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), et))
        expect_contraction(f, r, 'ik,kj->ij', et, 'exact', [a, b])


@testfile('matmul_f16_tiles.mlir', '''
f16 matmuls whose sizes are multiples of 8 or 16, the shapes a device with
cooperative matrices (SPV_KHR_cooperative_matrix) runs on its matrix units
(one subgroup per output tile): f32 accumulators on random inputs, a single
16x16x16 tile, and f16 accumulators on small integers (every partial sum
exact in f16). The last three pick the smaller configurations of the
committed cooperative-matrix envs (core/tests/lower/envs: 16x8x8 and 16x8x16
of nvidia-h200-coop.env, 8x8x8 of coop-sg16.env), which the CPU runner
checks (cli/tests/cli/tensor_cpu_cli.rs). Other devices run them with their
usual tiles.''')
def _(F):
    for m, k, n in ((16, 16, 16), (32, 64, 48), (64, 128, 32)):
        f = F.fn('matmul_f16_f32_acc_%dx%dx%d' % (m, k, n))
        a, b = f.rng.floats((m, k), 'f16', -1, 1), f.rng.floats((k, n), 'f16', -1, 1)
        A, B = f.const(a, 'f16'), f.const(b, 'f16')
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
        f.expect_almost_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    def exact_f16(m, k, n):
        f = F.fn('matmul_f16_acc_f16_exact_%dx%dx%d' % (m, k, n))
        a = store('f16', f.rng.ints((m, k), -4, 4))
        b = store('f16', f.rng.ints((k, n), -4, 4))
        A, B = f.const(a, 'f16'), f.const(b, 'f16')
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f16'))
        expect_contraction(f, r, 'ik,kj->ij', 'f16', 'exact', [a, b])

    exact_f16(48, 32, 64)
    # K = 8 (16x8x8 / 8x8x8 f32), N = 8 (16x8x16 / 8x8x8 f32), N = 24 with
    # an f16 accumulator (16x8x16 / 8x8x8 f16).
    for m, k, n in ((16, 8, 24), (32, 16, 8)):
        f = F.fn('matmul_f16_f32_acc_%dx%dx%d' % (m, k, n))
        a, b = f.rng.floats((m, k), 'f16', -1, 1), f.rng.floats((k, n), 'f16', -1, 1)
        A, B = f.const(a, 'f16'), f.const(b, 'f16')
        r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
        f.expect_almost_eq_const(r, contract('ik,kj->ij', 'f32', a, b))
    exact_f16(16, 32, 24)


@testfile('matmul_f16_coop.mlir', '''
f16 matmuls beyond whole cooperative-matrix tiles, as a device with
SPV_KHR_cooperative_matrix runs them on its matrix units: sizes that are not
multiples of any tile (M, N and K ragged; K alone ragged), fused epilogues
after the matmul (a bias through a broadcasting map, ReLU, a cast of the f32
result to f16: what torch-mlir emits for a linear layer), and
linalg.matmul_transpose_b, linalg.matmul_transpose_a and linalg.batch_matmul,
aligned and ragged. The CPU runner checks them with the committed
cooperative-matrix envs (cli/tests/cli/tensor_cpu_cli.rs); other devices run
them with their usual strategies. Data are dyadic: every partial sum is exact in
the accumulator, so any summation order gives the same bits.''')
def _(F):
    def operands(f, sa, sb, lim=16, denom=8):
        a = f.rng.dyadic(sa, 'f16', -lim, lim, denom)
        b = f.rng.dyadic(sb, 'f16', -lim, lim, denom)
        return a, b, f.const(a, 'f16'), f.const(b, 'f16')

    def f32_case(name, op, sa, sb, spec, out):
        f = F.fn(name)
        a, b, A, B = operands(f, sa, sb)
        r = mm(f, op, A, B, f.full(0.0, out, 'f32'))
        expect_contraction(f, r, spec, 'f32', 'exact', [a, b])

    # K alone ragged (whole blocks: direct steps, then a staged K tail).
    f32_case('matmul_f16_f32_acc_ragged_k_32x20x16', 'linalg.matmul', (32, 20), (20, 16),
             'ik,kj->ij', (32, 16))
    f = F.fn('matmul_f16_acc_f16_ragged_exact_20x24x12')
    a = store('f16', f.rng.ints((20, 24), -4, 4))
    b = store('f16', f.rng.ints((24, 12), -4, 4))
    A, B = f.const(a, 'f16'), f.const(b, 'f16')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (20, 12), 'f16'))
    expect_contraction(f, r, 'ik,kj->ij', 'f16', 'exact', [a, b])

    # Transposed and batched operands, aligned (16) and ragged.
    f32_case('matmul_transpose_b_f16_f32_acc_32x32x16', 'linalg.matmul_transpose_b',
             (32, 32), (16, 32), 'ik,jk->ij', (32, 16))
    f32_case('matmul_transpose_b_f16_f32_acc_ragged_24x40x20', 'linalg.matmul_transpose_b',
             (24, 40), (20, 40), 'ik,jk->ij', (24, 20))
    f32_case('matmul_transpose_a_f16_f32_acc_ragged_16x24x20', 'linalg.matmul_transpose_a',
             (24, 16), (24, 20), 'ki,kj->ij', (16, 20))
    f32_case('batch_matmul_f16_f32_acc_2x16x32x16', 'linalg.batch_matmul',
             (2, 16, 32), (2, 32, 16), 'bik,bkj->bij', (2, 16, 16))
    f32_case('batch_matmul_f16_f32_acc_ragged_3x17x24x10', 'linalg.batch_matmul',
             (3, 17, 24), (3, 24, 10), 'bik,bkj->bij', (3, 17, 10))

    # Epilogues: bias + ReLU on whole tiles; bias + ReLU, then a cast to
    # f16, on ragged sizes; bias + GELU (tanh form) on ragged sizes.
    def linear(f, m, k, n, body, out_et):
        a, b, A, B = operands(f, (m, k), (k, n))
        bias = f.rng.dyadic((n,), 'f32', -64, 64, 8)
        Bi = f.const(bias, 'f32')
        M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
        out = f.empty((m, n), out_et)
        r = f.generic([M, Bi], [out], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)',
                                      '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%%m: f32, %%b: f32, %%o: %s):
  %%x = arith.addf %%m, %%b : f32
%s''' % (out_et, body))
        assert order_free('ik,kj->ij', 'f32', a, b)
        return r, f64(contract('ik,kj->ij', 'f32', a, b)) + f64(bias)[None, :]

    relu = '''  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32'''
    f = F.fn('matmul_f16_bias_relu_48x32x40')
    r, x = linear(f, 48, 32, 40, relu + '\n  linalg.yield %y : f32', 'f32')
    f.expect_eq_const(r, exactly('f32', np.maximum(x, 0)))
    # M, N and K ragged, the f32 result cast to f16 after the ReLU; with
    # subgroups of 16 (coop-sg16.env) a 64x64 block of 2x2 subgroups, 4x2
    # tiles each, over the 60x61 output: edges inside a subgroup's tiles.
    f = F.fn('matmul_f16_bias_relu_to_f16_ragged_60x36x61')
    r, x = linear(f, 60, 36, 61, relu + '''
  %h = arith.truncf %y : f32 to f16
  linalg.yield %h : f16''', 'f16')
    # The f32 value is exact; truncf rounds it once to nearest even, as
    # numpy's float32 -> float16 conversion does.
    f.expect_eq_const(r, store('f16', exactly('f32', np.maximum(x, 0)).astype(np.float32)))


@testfile('matmul_f16_coop_staged.mlir', '''
f16 matmuls whose whole blocks a device with SPV_KHR_cooperative_matrix
stages in workgroup memory (A and B slices copied with wide loads a step of
K at a time, single- or double-buffered, then the tiles loaded from there):
K a multiple of the step and not (a whole step, then a staged K tail), K
shorter than a step, linalg.batch_matmul, linalg.matmul_transpose_b and
linalg.matmul_transpose_a, M and N ragged (edge blocks staged with zeros
beside staged whole blocks), a bias + ReLU epilogue, f16 results rounded
once from f32 accumulators. The committed cooperative-matrix envs' heuristic
stages the blocks of coop-sg16.env's grids (several tiles and subgroups per
workgroup) and, on nvidia-h200-coop.env, the 256x512 output's (2x1 tiles per
subgroup; checked through two contractions with distinct weights, which
keep the file small); the CPU runner checks them
(cli/tests/cli/tensor_cpu_cli.rs). Data are small integers: every partial
sum is exact in the accumulator, so any summation order gives the same
bits.''')
def _(F):
    def operands(f, sa, sb, lim=3):
        a = store('f16', f.rng.ints(sa, -lim, lim))
        b = store('f16', f.rng.ints(sb, -lim, lim))
        return a, b, f.const(a, 'f16'), f.const(b, 'f16')

    def f32_case(name, op, sa, sb, spec, out):
        f = F.fn(name)
        a, b, A, B = operands(f, sa, sb)
        r = mm(f, op, A, B, f.full(0.0, out, 'f32'))
        expect_contraction(f, r, spec, 'f32', 'exact', [a, b])

    # Whole blocks: K a multiple of 32 and 64 (the steps), K = 40 and 72
    # (a staged tail of 8), K = 16 (shorter than a step: direct loads).
    for m, k, n in ((64, 64, 64), (128, 128, 64), (64, 40, 64), (64, 72, 128), (64, 16, 64)):
        f32_case('matmul_f16_staged_%dx%dx%d' % (m, k, n), 'linalg.matmul', (m, k), (k, n),
                 'ik,kj->ij', (m, n))
    f32_case('batch_matmul_f16_staged_2x64x48x64', 'linalg.batch_matmul',
             (2, 64, 48), (2, 48, 64), 'bik,bkj->bij', (2, 64, 64))
    f32_case('matmul_transpose_b_f16_staged_64x64x64', 'linalg.matmul_transpose_b',
             (64, 64), (64, 64), 'ik,jk->ij', (64, 64))
    f32_case('matmul_transpose_a_f16_staged_64x96x64', 'linalg.matmul_transpose_a',
             (96, 64), (96, 64), 'ki,kj->ij', (64, 64))
    # M and N ragged (padded to whole 64x64 blocks on coop-sg16.env): a
    # whole block staged with wide loads beside edge blocks staged with
    # zeros; K = 36 (a tail of 4; A's rows read 4 elements at a time) and
    # K = 34 (A's and B's rows read element by element).
    f32_case('matmul_f16_staged_ragged_124x36x120', 'linalg.matmul', (124, 36), (36, 120),
             'ik,kj->ij', (124, 120))
    f32_case('matmul_transpose_b_f16_staged_ragged_120x34x124', 'linalg.matmul_transpose_b',
             (120, 34), (124, 34), 'ik,jk->ij', (120, 124))

    # An f16 result (f32 accumulators rounded once) on small integers.
    f = F.fn('matmul_f16_acc_f16_staged_exact_64x96x64')
    a = store('f16', f.rng.ints((64, 96), -4, 4))
    b = store('f16', f.rng.ints((96, 64), -4, 4))
    A, B = f.const(a, 'f16'), f.const(b, 'f16')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (64, 64), 'f16'))
    expect_contraction(f, r, 'ik,kj->ij', 'f16', 'exact', [a, b])

    # Bias + ReLU, then a cast to f16, on small integers (staged on
    # coop-sg16.env).
    def linear(name, m, k, n):
        f = F.fn(name)
        a = store('f16', f.rng.ints((m, k), -3, 3))
        b = store('f16', f.rng.ints((k, n), -3, 3))
        A, B = f.const(a, 'f16'), f.const(b, 'f16')
        bias = store('f32', f.rng.ints((n,), -40, 40))
        Bi = f.const(bias, 'f32')
        M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
        out = f.empty((m, n), 'f16')
        r = f.generic([M, Bi], [out], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)',
                                      '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%m: f32, %b: f32, %o: f16):
  %x = arith.addf %m, %b : f32
  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32
  %h = arith.truncf %y : f32 to f16
  linalg.yield %h : f16''')
        assert order_free('ik,kj->ij', 'f32', a, b)
        x = f64(contract('ik,kj->ij', 'f32', a, b)) + f64(bias)[None, :]
        f.expect_eq_const(r, store('f16', exactly('f32', np.maximum(x, 0)).astype(np.float32)))

    linear('matmul_f16_staged_bias_relu_to_f16_64x64x64', 64, 64, 64)

    # 256x40x512 + bias, ReLU: 2x1 tiles per subgroup on
    # nvidia-h200-coop.env (a whole step of 32, a tail of 8), its 128K
    # results checked as X @ w and v @ X (weights 1..512 and 1..256,
    # distinct, so a misplaced element changes a sum): each exact in f32.
    f = F.fn('matmul_f16_staged_bias_relu_256x40x512_contracted')
    m, k, n = 256, 40, 512
    a, b, A, B = operands(f, (m, k), (k, n), lim=2)
    bias = store('f32', f.rng.ints((n,), -8, 8))
    Bi = f.const(bias, 'f32')
    M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (m, n), 'f32'))
    X = f.generic([M, Bi], [f.empty((m, n), 'f32')],
                  ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)', '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%m: f32, %b: f32, %o: f32):
  %x = arith.addf %m, %b : f32
  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32
  linalg.yield %y : f32''')
    w = store('f32', np.arange(1, n + 1, dtype=np.float64))
    v = store('f32', np.arange(1, m + 1, dtype=np.float64))
    W, V = f.const(w, 'f32'), f.const(v, 'f32')
    x = np.maximum(f64(contract('ik,kj->ij', 'f32', a, b)) + f64(bias)[None, :], 0)
    # Every partial sum an integer below 2^24: exact in f32.
    assert np.abs(x).max() * n * n < 2 ** 24 and np.abs(x).max() * m * m < 2 ** 24
    r1 = mm(f, 'linalg.matvec', X, W, f.full(0.0, (m,), 'f32'))
    r2 = mm(f, 'linalg.vecmat', V, X, f.full(0.0, (n,), 'f32'))
    f.expect_eq_const(r1, exactly('f32', x @ f64(w)))
    f.expect_eq_const(r2, exactly('f32', f64(v) @ x))


@testfile('conv_f16_coop.mlir', '''
f16 convolutions (linalg.conv_2d_nhwc_hwcf) that a device with
SPV_KHR_cooperative_matrix runs as implicit GEMMs on its matrix units (M =
N*OH*OW output pixels, K = KH*KW*C window elements, N = F filters; A gathered
from the input into workgroup memory, zero-padded past M and K): 3x3 and 1x1
filters, strides and dilations, sizes that are multiples of no tile (M, K
and F ragged), SAME padding through a tensor.pad computed in the dispatch, a
bias in the init, f16 results rounded once from f32 accumulators, a bias +
ReLU epilogue cast to f16, and a 128x144x64 GEMM whose whole blocks stage
their steps. The CPU runner checks them with the committed
cooperative-matrix envs (cli/tests/cli/tensor_cpu_cli.rs); other devices
(lavapipe) run them with their usual strategies. Data are small integers:
every partial sum is exact in the accumulator, so any summation order gives
the same bits.''')
def _(F):
    def padded(f, X, low, high, shape):
        args = ', '.join('%%%s: index' % 'ijkl'[d] for d in range(4))
        body = ('  ^bb0(%s):\n    %%pv = arith.constant 0.0 : f16\n    tensor.yield %%pv : f16'
                % args)
        t = ttype(shape, 'f16', ())
        return f.op('tensor.pad %s low[%s] high[%s] {\n%s\n  } : %s to %s'
                    % (X, ', '.join(map(str, low)), ', '.join(map(str, high)), body, X.ty, t),
                    'f16', tuple(shape), (), 'pad')

    def conv(name, n, h, w, c, kh, kw, fo, strides=(1, 1), dilations=(1, 1), out_et='f32',
             pad=0, init=0.0, lim=3):
        f = F.fn(name)
        x = store('f16', f.rng.ints((n, h, w, c), -lim, lim))
        k = store('f16', f.rng.ints((kh, kw, c, fo), -lim, lim))
        X, K = f.const(x, 'f16'), f.const(k, 'f16')
        if pad:
            low, high = (0, pad, pad, 0), (0, pad, pad, 0)
            x = np.pad(x, list(zip(low, high)), constant_values=0)
            X = padded(f, X, low, high, x.shape)
        _, hp, wp, _ = x.shape
        oh = out_size(hp, kh, strides[0], dilations[0])
        ow = out_size(wp, kw, strides[1], dilations[1])
        r = named(f, 'linalg.conv_2d_nhwc_hwcf', [X, K], [f.full(init, (n, oh, ow, fo), out_et)],
                  conv_attrs(strides, dilations), 'conv')
        win = windows_nhwc(x, kh, kw, oh, ow, strides, dilations)
        assert order_free('nhwijc,ijcf->nhwf', out_et, win, k, init=np.array([init]))
        expect_contraction(f, r, 'nhwijc,ijcf->nhwf', out_et, 'exact', [win, k], init)

    # M = 64, K = 144, N = 32: whole tiles of every configuration.
    conv('conv_f16_coop_3x3_1x10x10x16_to_32', 1, 10, 10, 16, 3, 3, 32)
    # 1x1: M = 60, K = 20, N = 12, all ragged.
    conv('conv_f16_coop_1x1_ragged_2x6x5x20_to_12', 2, 6, 5, 20, 1, 1, 12)
    # Strides [2, 1], dilations [1, 2]: M = 5x9 = 45, K = 72, N = 20.
    conv('conv_f16_coop_strides_2_1_dilations_1_2_1x11x13x8_to_20', 1, 11, 13, 8, 3, 3, 20,
         strides=(2, 1), dilations=(1, 2))
    # SAME padding (a tensor.pad in the dispatch), an f16 result.
    conv('conv_f16_coop_same_padding_to_f16_1x8x8x16_to_16', 1, 8, 8, 16, 3, 3, 16,
         out_et='f16', pad=1)
    # A bias in the init (a fill); stride 2: M = 16, K = 72, N = 16.
    conv('conv_f16_coop_stride_2_bias_init_1x9x9x8_to_16', 1, 9, 9, 8, 3, 3, 16,
         strides=(2, 2), init=5.0)
    # M = 128, K = 144, N = 64: blocks of several tiles and subgroups,
    # whole steps staged with the gather.
    conv('conv_f16_coop_staged_2x10x10x16_to_64', 2, 10, 10, 16, 3, 3, 64, lim=2)

    # Bias + ReLU, cast to f16, on ragged sizes: M = 50, K = 108, N = 24.
    f = F.fn('conv_f16_coop_bias_relu_to_f16_ragged_2x7x7x12_to_24')
    n, h, w, c, fo = 2, 7, 7, 12, 24
    x = store('f16', f.rng.ints((n, h, w, c), -3, 3))
    k = store('f16', f.rng.ints((3, 3, c, fo), -3, 3))
    X, K = f.const(x, 'f16'), f.const(k, 'f16')
    bias = store('f32', f.rng.ints((fo,), -40, 40))
    Bi = f.const(bias, 'f32')
    M = named(f, 'linalg.conv_2d_nhwc_hwcf', [X, K], [f.full(0.0, (n, 5, 5, fo), 'f32')],
              conv_attrs((1, 1), (1, 1)), 'conv')
    r = f.generic([M, Bi], [f.empty((n, 5, 5, fo), 'f16')],
                  ['(d0, d1, d2, d3) -> (d0, d1, d2, d3)', '(d0, d1, d2, d3) -> (d3)',
                   '(d0, d1, d2, d3) -> (d0, d1, d2, d3)'], 'pppp', '''
^bb0(%m: f32, %b: f32, %o: f16):
  %x = arith.addf %m, %b : f32
  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32
  %h = arith.truncf %y : f32 to f16
  linalg.yield %h : f16''')
    win = windows_nhwc(x, 3, 3, 5, 5, (1, 1), (1, 1))
    assert order_free('nhwijc,ijcf->nhwf', 'f32', win, k)
    y = f64(contract('nhwijc,ijcf->nhwf', 'f32', win, k)) + f64(bias)
    f.expect_eq_const(r, store('f16', exactly('f32', np.maximum(y, 0)).astype(np.float32)))


@testfile('attention_f16_coop.mlir', '''
Attention in f16 as a device with SPV_KHR_cooperative_matrix runs it: the
scores Q*K^T (linalg.batch_matmul of Q by a linalg.transpose of the keys
stored heads x keys x depth, read as column-major tiles) scaled by an
epilogue, linalg.softmax over the keys, the probabilities truncated to f16,
then their linalg.batch_matmul by V, both matmuls on cooperative matrices
with f32 accumulators; sizes that are multiples of no tile (20 queries, 24
keys) and whole ones (32 x 32 x 32). The CPU runner checks them with the
committed cooperative-matrix envs (cli/tests/cli/tensor_cpu_cli.rs); other
devices run them with their usual strategies. The scores are small integers
times 1/8, exact in any order; the output against float64 numpy from the
probabilities rounded to f16 (1% tolerance: a probability's f16 rounding may
differ by one unit in the last place).''')
def _(F):
    def attention(name, heads, sq, sk, d):
        f = F.fn(name)
        q = store('f16', f.rng.ints((heads, sq, d), -2, 2))
        k = store('f16', f.rng.ints((heads, sk, d), -2, 2))
        v = store('f16', f.rng.ints((heads, sk, d), -3, 3))
        Q, K, V = f.const(q, 'f16'), f.const(k, 'f16'), f.const(v, 'f16')
        kt_ty = ttype((heads, d, sk), 'f16')
        KT = f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [0, 2, 1]'
                  % (K, K.ty, f.empty((heads, d, sk), 'f16'), kt_ty), 'f16', (heads, d, sk),
                  hint='kt')
        S = named(f, 'linalg.batch_matmul', [Q, KT], [f.full(0.0, (heads, sq, sk), 'f32')])
        scaled = f.elementwise([S], 'f32', '''
^bb0(%x: f32, %o: f32):
  %c = arith.constant 0.125 : f32
  %y = arith.mulf %x, %c : f32
  linalg.yield %y : f32''')
        scores = np.einsum('hqd,hkd->hqk', f64(q), f64(k)) * 0.125
        f.expect_eq_const(scaled, exactly('f32', scores))
        out = f.empty((heads, sq, sk), 'f32')
        P = f.op('linalg.softmax dimension(2) ins(%s : %s) outs(%s : %s) -> %s'
                 % (scaled, scaled.ty, out, out.ty, out.ty), 'f32', (heads, sq, sk), (), 'p')
        P16 = f.elementwise([P], 'f16', '''
^bb0(%x: f32, %o: f16):
  %h = arith.truncf %x : f32 to f16
  linalg.yield %h : f16''')
        O = named(f, 'linalg.batch_matmul', [P16, V], [f.full(0.0, (heads, sq, d), 'f32')])
        p16 = store('f16', softmax_ref(scores, 2))
        f.expect_almost_eq_const(O, np.einsum('hqk,hkd->hqd', f64(p16), f64(v)),
                                 atol=1e-2, rtol=1e-2)

    attention('attention_f16_coop_ragged_2x20x24x16', 2, 20, 24, 16)
    attention('attention_f16_coop_2x32x32x32', 2, 32, 32, 32)


@testfile('quantized_matmul.mlir', '''
linalg.quantized_matmul and linalg.quantized_batch_matmul (ONNX's
MatMulInteger / QLinearMatMul through torch-mlir): C += (A - azp) * (B - bzp)
with i8 operands sign-extended to the i32 accumulator and i32 zero points
known only at run time; kiln reads each as the linalg.generic MLIR
generalizes it to. Expected values: numpy in int64, wrapped to i32.''')
def _(F):
    def case(f, shape_a, shape_b, azp, bzp, spec, init=0):
        a = store('i8', f.rng.ints(shape_a, -128, 127))
        b = store('i8', f.rng.ints(shape_b, -128, 127))
        A, B = f.const(a, 'i8'), f.const(b, 'i8')
        AZ = f.scalar(azp, 'i32', how='unfoldable')
        BZ = f.scalar(bzp, 'i32', how='unfoldable')
        batch = len(shape_a) == 3
        out_shape = shape_a[:-1] + shape_b[-1:]
        op = 'linalg.quantized_batch_matmul' if batch else 'linalg.quantized_matmul'
        r = named(f, op, [A, B, AZ, BZ], [f.full(init, out_shape, 'i32')])
        want = np.einsum(spec, a.astype(np.int64) - azp, b.astype(np.int64) - bzp) + init
        f.expect_eq_const(r, store('i32', wrap_int(want, 32)))

    case(F.fn('quantized_matmul_7x33x5'), (7, 33), (33, 5), 3, -7, 'ik,kj->ij')
    case(F.fn('quantized_matmul_zero_points_0_init_5_4x16x9'), (4, 16), (16, 9), 0, 0,
         'ik,kj->ij', init=5)
    case(F.fn('quantized_batch_matmul_3x5x8x6'), (3, 5, 8), (3, 8, 6), -128, 127,
         'bik,bkj->bij')


@testfile('quantized_weights.mlir', """
Block-quantized weights read by a contraction, as GGUF and ONNX store them: a
linalg.generic dequantizes (integer code, minus a zero point, times the
block's f16 or f32 scale) and linalg.matvec / linalg.matmul_transpose_b
consumes the result; kiln fuses the dequantization into the contraction's
loads (one dispatch, no f32 weight tensor). GGUF Q8_0 (i8 codes, one f16
scale per 32), GGUF Q4_0 (two 4-bit codes per byte, element j of a block of
32 in the low nibble of byte j and element j + 16 in the high one, code - 8),
ONNX MatMulNBits (element 2i in the low nibble of byte i, 2i + 1 in the
high; unsigned 4-bit zero points packed two per byte), prefill (M = 5) and a
4-bit matvec with f16 activations, and Q4_0 codes as bytes and as 32-bit
words in matvecs of 96 rows (row slices, reading codes and scales as 16-byte
groups). Expected values: numpy unpacks the bytes
with its own bit operations, dequantizes in float64 and contracts; exact
where every partial sum is representable (dyadic scales and activations).""")
def _(F):
    def q8_0(f, n, k, rng_x):
        q = f.rng.ints((n, k), -127, 127)
        d = exactly('f16', f.rng.ints((n, k // 32), 1, 31) / 64.0)
        return q, d

    def dequant_q8(f, Q, D, n, k):
        return f.generic([Q, D], [f.empty((n, k), 'f32')],
                         ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d0, d1 floordiv 32)',
                          '(d0, d1) -> (d0, d1)'], 'pp', """
^bb0(%q: i8, %d: f16, %o: f32):
  %qf = arith.sitofp %q : i8 to f32
  %df = arith.extf %d : f16 to f32
  %w = arith.mulf %qf, %df : f32
  linalg.yield %w : f32""", hint='w')

    f = F.fn('q8_0_matvec_64x256_exact')
    n, k = 64, 256
    q, d = q8_0(f, n, k, None)
    x = f.rng.dyadic((k,), 'f32', -4, 4, 4)
    Q, D, X = f.const(store('i8', q), 'i8'), f.const(d, 'f16'), f.const(x, 'f32')
    W = dequant_q8(f, Q, D, n, k)
    r = mm(f, 'linalg.matvec', W, X, f.full(0.0, (n,), 'f32'))
    w = q.astype(np.float64) * np.repeat(f64(d), 32, axis=1)
    assert order_free('mn,n->m', 'f32', w, x)
    f.expect_eq_const(r, contract('mn,n->m', 'f32', w, x))

    def gguf_q4_0_pack(codes):
        """codes: uint 0..15 of shape (n, k); GGUF's Q4_0 byte order."""
        n, k = codes.shape
        blocks = codes.reshape(n, k // 32, 32).astype(np.uint8)
        packed = blocks[:, :, :16] | (blocks[:, :, 16:] << 4)
        return packed.reshape(n, k // 2).view(np.int8).astype(np.int64)

    def dequant_q4_0(f, P, D, n, k):
        return f.generic([P, D], [f.empty((n, k), 'f32')],
                         ['(d0, d1) -> (d0, (d1 floordiv 32) * 16 + d1 mod 16)',
                          '(d0, d1) -> (d0, d1 floordiv 32)', '(d0, d1) -> (d0, d1)'],
                         'pp', """
^bb0(%p: i8, %d: f16, %o: f32):
  %k = linalg.index 1 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %in = arith.remui %k, %c32 : index
  %hi = arith.divui %in, %c16 : index
  %sh = arith.muli %hi, %c4 : index
  %shi = arith.index_cast %sh : index to i8
  %v = arith.shrui %p, %shi : i8
  %m = arith.constant 15 : i8
  %c = arith.andi %v, %m : i8
  %ci = arith.extui %c : i8 to i32
  %c8 = arith.constant 8 : i32
  %s = arith.subi %ci, %c8 : i32
  %sf = arith.sitofp %s : i32 to f32
  %df = arith.extf %d : f16 to f32
  %w = arith.mulf %sf, %df : f32
  linalg.yield %w : f32""", hint='w')

    f = F.fn('q8_0_matmul_transpose_b_65x128x72')
    m, n, k = 65, 72, 128
    q, d = q8_0(f, n, k, None)
    a = f.rng.floats((m, k), 'f32', -1, 1)
    Q, D, A = f.const(store('i8', q), 'i8'), f.const(d, 'f16'), f.const(a, 'f32')
    W = dequant_q8(f, Q, D, n, k)
    r = mm(f, 'linalg.matmul_transpose_b', A, W, f.full(0.0, (m, n), 'f32'))
    w = q.astype(np.float64) * np.repeat(f64(d), 32, axis=1)
    f.expect_almost_eq_const(r, store('f32', f64(a) @ w.T), atol=1e-3, rtol=1e-4)

    def q4_0_matvec_exact(name, n, k):
        """GGUF Q4_0 weights (n, k) times an f32 vector, checked exactly:
        dyadic inputs and scales, every summation order the same bits."""
        f = F.fn(name)
        codes = f.rng.ints((n, k), 0, 15)
        d = exactly('f16', f.rng.ints((n, k // 32), 1, 31) / 64.0)
        x = f.rng.dyadic((k,), 'f32', -8, 8, 4)
        P = f.const(store('i8', gguf_q4_0_pack(codes)), 'i8')
        D, X = f.const(d, 'f16'), f.const(x, 'f32')
        W = dequant_q4_0(f, P, D, n, k)
        r = mm(f, 'linalg.matvec', W, X, f.full(0.0, (n,), 'f32'))
        w = (codes - 8).astype(np.float64) * np.repeat(f64(d), 32, axis=1)
        assert order_free('mn,n->m', 'f32', w, x)
        f.expect_eq_const(r, contract('mn,n->m', 'f32', w, x))

    q4_0_matvec_exact('q4_0_matvec_gguf_layout_48x512_exact', 48, 512)

    def nbits_pack(codes):
        """codes: uint 0..15 of shape (n, k); ONNX MatMulNBits' byte order
        (element 2i low nibble, 2i + 1 high)."""
        c = codes.astype(np.uint8)
        return (c[:, 0::2] | (c[:, 1::2] << 4)).view(np.int8).astype(np.int64)

    def dequant_nbits(f, P, S, Z, n, k, block):
        return f.generic([P, S, Z], [f.empty((n, k), 'f32')],
                         ['(d0, d1) -> (d0, d1 floordiv 2)',
                          '(d0, d1) -> (d0, d1 floordiv %d)' % block,
                          '(d0, d1) -> (d0, d1 floordiv %d)' % (2 * block),
                          '(d0, d1) -> (d0, d1)'], 'pp', """
^bb0(%p: i8, %s: f32, %z: i8, %o: f32):
  %k = linalg.index 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %cb = arith.constant BLOCK : index
  %odd = arith.remui %k, %c2 : index
  %sh = arith.muli %odd, %c4 : index
  %shi = arith.index_cast %sh : index to i8
  %v = arith.shrui %p, %shi : i8
  %m = arith.constant 15 : i8
  %c = arith.andi %v, %m : i8
  %blk = arith.divui %k, %cb : index
  %zodd = arith.remui %blk, %c2 : index
  %zsh = arith.muli %zodd, %c4 : index
  %zshi = arith.index_cast %zsh : index to i8
  %zv = arith.shrui %z, %zshi : i8
  %zc = arith.andi %zv, %m : i8
  %ci = arith.extui %c : i8 to i32
  %zi = arith.extui %zc : i8 to i32
  %q = arith.subi %ci, %zi : i32
  %qf = arith.sitofp %q : i32 to f32
  %w = arith.mulf %qf, %s : f32
  linalg.yield %w : f32""".replace('BLOCK', str(block)), hint='w')

    f = F.fn('matmul_nbits_4bit_zero_points_prefill_5x64x24')
    m, n, k, block = 5, 24, 64, 16
    codes = f.rng.ints((n, k), 0, 15)
    zp = f.rng.ints((n, k // block), 0, 15)
    s = store('f32', f.rng.uniform((n, k // block), 0.01, 0.2))
    a = f.rng.floats((m, k), 'f32', -1, 1)
    P = f.const(store('i8', nbits_pack(codes)), 'i8')
    S = f.const(s, 'f32')
    Z = f.const(store('i8', nbits_pack(zp)), 'i8')
    A = f.const(a, 'f32')
    W = dequant_nbits(f, P, S, Z, n, k, block)
    r = mm(f, 'linalg.matmul_transpose_b', A, W, f.full(0.0, (m, n), 'f32'))
    w = (codes - np.repeat(zp, block, axis=1)).astype(np.float64) \
        * np.repeat(f64(s), block, axis=1)
    f.expect_almost_eq_const(r, store('f32', f64(a) @ w.T))

    f = F.fn('q4_0_matvec_f16_activations_32x256')
    n, k = 32, 256
    codes = f.rng.ints((n, k), 0, 15)
    d = f.rng.floats((n, k // 32), 'f16', 0.01, 0.1)
    x = f.rng.floats((k,), 'f16', -1, 1)
    P = f.const(store('i8', gguf_q4_0_pack(codes)), 'i8')
    D, X = f.const(d, 'f16'), f.const(x, 'f16')
    W = dequant_q4_0(f, P, D, n, k)
    r = mm(f, 'linalg.matvec', W, X, f.full(0.0, (n,), 'f32'))
    w = (codes - 8).astype(np.float64) * np.repeat(f64(d), 32, axis=1)
    f.expect_almost_eq_const(r, store('f32', w @ f64(x)))

    # Enough rows for a row-slice matvec, whose kernel reads the codes and
    # scales as 16-byte groups (kernels/wide.rs); 96 rows: the last
    # workgroup's slices past the end compute a row again and store nothing.
    q4_0_matvec_exact('q4_0_matvec_gguf_layout_96x512_row_slices_exact', 96, 512)
    # Enough rows (520: at least 4 workgroups of 64 invocations taking 2
    # rows each) for 2 rows per invocation, which share the vector's reads
    # of each block of 32 (kernels/matvec.rs); 520 = 4 * 128 + 8, so the
    # last workgroup computes rows again and stores only 8.
    q4_0_matvec_exact('q4_0_matvec_gguf_layout_520x64_rows_per_invocation_exact', 520, 64)
    # The same rows with 256 per row: 2 rows per invocation and 4 blocks
    # of 32 per step of the row loop (kernels/matvec.rs: one 8-byte group
    # of the 4 blocks' scales, each step's loads issued first,
    # kernels/schedule.rs), 2 steps.
    q4_0_matvec_exact('q4_0_matvec_gguf_layout_520x256_rows_and_blocks_per_step_exact', 520, 256)

    # The same 4-bit codes packed eight per 32-bit word (element k of a row
    # in bits 4 (k mod 8) .. 4 (k mod 8) + 3 of word k / 8).
    f = F.fn('q4_words_matvec_96x256_row_slices_exact')
    n, k = 96, 256
    codes = f.rng.ints((n, k), 0, 15)
    d = exactly('f16', f.rng.ints((n, k // 32), 1, 31) / 64.0)
    x = f.rng.dyadic((k,), 'f32', -8, 8, 4)
    c8 = codes.reshape(n, k // 8, 8).astype(np.uint64)
    words = (c8 << (4 * np.arange(8, dtype=np.uint64))).sum(axis=2)
    P = f.const(store('i32', words.astype(np.uint32).view(np.int32).astype(np.int64)), 'i32')
    D, X = f.const(d, 'f16'), f.const(x, 'f32')
    W = f.generic([P, D], [f.empty((n, k), 'f32')],
                  ['(d0, d1) -> (d0, d1 floordiv 8)', '(d0, d1) -> (d0, d1 floordiv 32)',
                   '(d0, d1) -> (d0, d1)'], 'pp', """
^bb0(%p: i32, %d: f16, %o: f32):
  %k = linalg.index 1 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %in = arith.remui %k, %c8 : index
  %sh = arith.muli %in, %c4 : index
  %shi = arith.index_cast %sh : index to i32
  %v = arith.shrui %p, %shi : i32
  %m = arith.constant 15 : i32
  %c = arith.andi %v, %m : i32
  %eight = arith.constant 8 : i32
  %s = arith.subi %c, %eight : i32
  %sf = arith.sitofp %s : i32 to f32
  %df = arith.extf %d : f16 to f32
  %w = arith.mulf %sf, %df : f32
  linalg.yield %w : f32""", hint='w')
    r = mm(f, 'linalg.matvec', W, X, f.full(0.0, (n,), 'f32'))
    w = (codes - 8).astype(np.float64) * np.repeat(f64(d), 32, axis=1)
    assert order_free('mn,n->m', 'f32', w, x)
    f.expect_eq_const(r, contract('mn,n->m', 'f32', w, x))

    # A prefill's projection (linalg.matmul_transpose_b) with GGUF Q4_0
    # weights, checked exactly: a register tile per invocation whose
    # reduction reads the codes and scales as 16-byte groups
    # (kernels/tile.rs, kernels/wide.rs) and unpacks the nibbles from their
    # 32-bit words (kernels/narrow.rs); 37 rows (a tile past the last row),
    # 40 columns.
    f = F.fn('q4_0_matmul_transpose_b_gguf_layout_37x256x40_exact')
    m, n, k = 37, 40, 256
    codes = f.rng.ints((n, k), 0, 15)
    d = exactly('f16', f.rng.ints((n, k // 32), 1, 31) / 64.0)
    a = f.rng.dyadic((m, k), 'f32', -8, 8, 4)
    P = f.const(store('i8', gguf_q4_0_pack(codes)), 'i8')
    D, A = f.const(d, 'f16'), f.const(a, 'f32')
    W = dequant_q4_0(f, P, D, n, k)
    r = mm(f, 'linalg.matmul_transpose_b', A, W, f.full(0.0, (m, n), 'f32'))
    w = (codes - 8).astype(np.float64) * np.repeat(f64(d), 32, axis=1)
    assert order_free('mk,nk->mn', 'f32', a, w)
    f.expect_eq_const(r, contract('mk,nk->mn', 'f32', a, w))


@testfile('matmul_int.mlir', '''
Integer matmuls with MLIR's semantics: i8 x i8 into i32 (sign-extended),
i16 and i32 with deliberate wrap-around, i64 beyond 32 bits, an i8
accumulator that wraps, and i8 inputs into an f32 output (sitofp).''')
def _(F):
    f = F.fn('matmul_i8_i8_i32_17x64x19')
    a = store('i8', f.rng.ints((17, 64), -128, 127))
    b = store('i8', f.rng.ints((64, 19), -128, 127))
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    r = mm(f, 'linalg.matmul', A, B, f.full(0, (17, 19), 'i32'))
    f.expect_eq_const(r, int_contract('ik,kj->ij', 'i32', a, b))

    f = F.fn('matmul_i16_i16_i32_wraps_5x8x3')
    a = store('i16', f.rng.ints((5, 8), -32768, 32767))
    b = store('i16', f.rng.ints((8, 3), -32768, 32767))
    A, B = f.const(a, 'i16'), f.const(b, 'i16')
    r = mm(f, 'linalg.matmul', A, B, f.full(0, (5, 3), 'i32'))
    f.expect_eq_const(r, int_contract('ik,kj->ij', 'i32', a, b))

    f = F.fn('matmul_i32_wraps_4x6x5')
    a = f.rng.ints((4, 6), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    b = f.rng.ints((6, 5), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    A, B = f.const(a, 'i32'), f.const(b, 'i32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0, (4, 5), 'i32'))
    f.expect_eq_const(r, int_contract('ik,kj->ij', 'i32', a, b))

    f = F.fn('matmul_i64_3x5x2')
    a = f.rng.ints((3, 5), -2 ** 40, 2 ** 40)
    b = f.rng.ints((5, 2), -2 ** 40, 2 ** 40)
    A, B = f.const(a, 'i64'), f.const(b, 'i64')
    r = mm(f, 'linalg.matmul', A, B, f.full(0, (3, 2), 'i64'))
    f.expect_eq_const(r, int_contract('ik,kj->ij', 'i64', a, b))

    f = F.fn('matmul_i8_acc_i8_wraps_3x9x4')
    a = store('i8', f.rng.ints((3, 9), -128, 127))
    b = store('i8', f.rng.ints((9, 4), -128, 127))
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    r = mm(f, 'linalg.matmul', A, B, f.full(0, (3, 4), 'i8'))
    f.expect_eq_const(r, int_contract('ik,kj->ij', 'i8', a, b))

    f = F.fn('matmul_i8_inputs_f32_output_6x10x7')
    a = store('i8', f.rng.ints((6, 10), -128, 127))
    b = store('i8', f.rng.ints((10, 7), -128, 127))
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (6, 7), 'f32'))
    f.expect_eq_const(r, np.einsum('ik,kj->ij', a.astype(np.int64), b.astype(np.int64)))


def index_pattern(f, shape, et, mod, offset, scale=None):
    """A tensor generated in the program by linalg.index: element (i, j, ..)
    = ((linear index) mod `mod`) - `offset` (times `scale` for floats).
    Returns (value, numpy array)."""
    rank = len(shape)
    out = f.empty(shape, et)
    lines = ['^bb0(%o: ' + et + '):']
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    lines.append('%lin = arith.constant 0 : index')
    prev = '%lin'
    for k in range(rank):
        lines.append('%%i%s = linalg.index %d : index' % ('abcdefgh'[k], k))
        lines.append('%%s%s = arith.constant %d : index' % ('abcdefgh'[k], strides[k]))
        lines.append('%%m%s = arith.muli %%i%s, %%s%s : index' % (('abcdefgh'[k],) * 3))
        lines.append('%%l%s = arith.addi %s, %%m%s : index' % ('abcdefgh'[k], prev,
                                                              'abcdefgh'[k]))
        prev = '%%l%s' % 'abcdefgh'[k]
    lines.append('%%mod = arith.constant %d : index' % mod)
    lines.append('%%r = arith.remui %s, %%mod : index' % prev)
    lines.append('%v = arith.index_cast %r : index to i32')
    lines.append('%%off = arith.constant %d : i32' % offset)
    lines.append('%w = arith.subi %v, %off : i32')
    if is_float(et):
        lines.append('%x = arith.sitofp %w : i32 to f32')
        if scale is not None:
            lines.append('%%k = arith.constant %s : f32' % fmt_float('f32', scale))
            lines.append('%y = arith.mulf %x, %k : f32')
        else:
            lines.append('%y = arith.addf %x, %x : f32')
            lines.append('%h = arith.constant 0.5 : f32')
            lines.append('%z = arith.mulf %y, %h : f32')
        last = '%y' if scale is not None else '%z'
        if et != 'f32':
            lines.append('%%t = arith.truncf %s : f32 to %s' % (last, et))
            last = '%t'
        lines.append('linalg.yield %s : %s' % (last, et))
    elif et == 'i32':
        lines.append('linalg.yield %w : i32')
    else:
        conv = 'arith.extsi' if INT_BITS[et] > 32 else 'arith.trunci'
        lines.append('%%t = %s %%w : i32 to %s' % (conv, et))
        lines.append('linalg.yield %%t : %s' % et)
    v = f.generic([], [out], [ident(rank)], 'p' * rank, '\n'.join(lines), hint='gen')
    vals = (np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64) % mod) - offset
    vals = vals.reshape(shape)
    if is_float(et):
        vals = exactly(et, vals * (scale if scale is not None else 1.0))
    else:
        vals = store(et, vals)
    return v, vals


@testfile('matmul_large.mlir', '''
Larger matmuls: 256x256x256 on small integers held in f32 (exact in any
order), and 129x1000x65 whose inputs the program generates itself with
linalg.index (no large literals), both checked exactly.''')
def _(F):
    f = F.fn('matmul_256x256x256_exact')
    a = store('f32', f.rng.ints((256, 256), -3, 3))
    b = store('f32', f.rng.ints((256, 256), -3, 3))
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (256, 256), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('matmul_129x1000x65_generated_inputs')
    A, a = index_pattern(f, (129, 1000), 'f32', 7, 3)
    B, b = index_pattern(f, (1000, 65), 'f32', 5, 2, scale=0.25)
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (129, 65), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))


@testfile('matmul_read_transposed.mlir', '''
A matmul or batch_matmul whose one consumer reads it through a permutation
in the same dispatch (the matmul is that consumer's prologue): a
linalg.transpose of it, of a batch_matmul with the batch moved, a transpose
then an elementwise op, and a generic reading it through (d0, d1) -> (d1,
d0) beside another input (the random-program tester's seeds 1749, 10099 and
10130, reduced). Targets whose strategy picks a workgroup-memory tile
(every env whose driver facts kiln does not know) refused them ("the
block's rows and columns are not the root's last parallel loops"): the
dispatch's points now follow the root's loops through the transpose.
Small-integer data: every sum is exact, any order gives the same bits.''')
def _(F):
    def transpose(f, X, perm):
        shape = tuple(X.shape[p] for p in perm)
        out = f.empty(shape, X.et)
        return f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]'
                    % (X, X.ty, out, out.ty, ', '.join(map(str, perm))), X.et, shape, (),
                    'tr')

    def ints(f, shape, et, lo=-4, hi=4):
        return store(et, f.rng.ints(shape, lo, hi))

    def matmul(f, op, a, b, et, acc_shape):
        A, B = f.const(a, et), f.const(b, et)
        return mm(f, op, A, B, f.full(0 if et[0] == 'i' else 0.0, acc_shape, et))

    # The refused program of FINDINGS.md, and a square one (the transpose
    # has the matmul's sizes, but not its rows and columns).
    for m, k, n in ((67, 8, 64), (64, 8, 64), (3, 2, 2)):
        f = F.fn('matmul_transposed_f32_%dx%dx%d' % (m, k, n))
        a, b = ints(f, (m, k), 'f32'), ints(f, (k, n), 'f32')
        r = transpose(f, matmul(f, 'linalg.matmul', a, b, 'f32', (m, n)), (1, 0))
        assert order_free('ik,kj->ij', 'f32', a, b)
        f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b).T)

    # A batch_matmul with the batch moved inside, and to the end.
    for perm in ((1, 0, 2), (2, 0, 1), (0, 2, 1)):
        f = F.fn('batch_matmul_transposed_%s_f32_3x20x16x24' % ''.join(map(str, perm)))
        a, b = ints(f, (3, 20, 16), 'f32'), ints(f, (3, 16, 24), 'f32')
        r = transpose(f, matmul(f, 'linalg.batch_matmul', a, b, 'f32', (3, 20, 24)), perm)
        assert order_free('bik,bkj->bij', 'f32', a, b)
        f.expect_eq_const(r, contract('bik,bkj->bij', 'f32', a, b).transpose(perm))

    # A transpose, then an elementwise op on it (its dispatch's op): the
    # path from the dispatch to the matmul crosses two ops.
    f = F.fn('matmul_transposed_then_addf_f32_33x12x40')
    a, b, c = ints(f, (33, 12), 'f32'), ints(f, (12, 40), 'f32'), ints(f, (40, 33), 'f32')
    t = transpose(f, matmul(f, 'linalg.matmul', a, b, 'f32', (33, 40)), (1, 0))
    C = f.const(c, 'f32')
    r = f.elementwise([t, C], 'f32', '''
^bb0(%x: f32, %y: f32, %o: f32):
  %s = arith.addf %x, %y : f32
  linalg.yield %s : f32''', hint='add')
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b).T + f64(c))

    # A generic reading an i32 matmul through a transposed map beside
    # another input read directly (seed 10130's shape, in i32).
    f = F.fn('matmul_read_through_transposed_map_i32_67x8x64')
    a, b = ints(f, (67, 8), 'i32', -100, 100), ints(f, (8, 64), 'i32', -100, 100)
    y = ints(f, (64, 67), 'i32', -1000, 1000)
    p = matmul(f, 'linalg.matmul', a, b, 'i32', (67, 64))
    Y = f.const(y, 'i32')
    r = f.generic([p, Y], [f.empty((64, 67), 'i32')],
                  ['(d0, d1) -> (d1, d0)', ident(2), ident(2)], 'pp', '''
^bb0(%x: i32, %y: i32, %o: i32):
  %s = arith.subi %x, %y : i32
  linalg.yield %s : i32''', hint='sub')
    f.expect_eq_const(r, store('i32', np.asarray(
        int_contract('ik,kj->ij', 'i32', a, b), dtype=object).T - y.astype(object)))


@testfile('matmul_dynamic.mlir', '''
linalg.matmul on dynamic shapes (tensor<?x?xf32>, sizes from tensor.dim):
all dims dynamic, only M dynamic, 1x1x1, and the same program text on two
different sizes.''')
def _(F):
    def dyn_matmul(f, a, b, dyn_a=(0, 1), dyn_b=(0, 1), et='f32'):
        A = f.const(a, et, 'dynamic', dyn=dyn_a) if dyn_a else f.const(a, et)
        B = f.const(b, et, 'dynamic', dyn=dyn_b) if dyn_b else f.const(b, et)
        sizes, dyn = {}, []
        if 0 in A.dyn:
            sizes[0] = f.dim(A, 0)
            dyn.append(0)
        if 1 in B.dyn:
            sizes[1] = f.dim(B, 1)
            dyn.append(1)
        C = f.fill(f.scalar(0.0, et), f.empty((a.shape[0], b.shape[1]), et, dyn, sizes))
        return mm(f, 'linalg.matmul', A, B, C)

    for m, k, n in ((13, 21, 7), (1, 1, 1), (64, 3, 33)):
        f = F.fn('matmul_dynamic_%dx%dx%d' % (m, k, n))
        a = f.rng.dyadic((m, k), 'f32', -32, 32, 8)
        b = f.rng.dyadic((k, n), 'f32', -32, 32, 8)
        r = dyn_matmul(f, a, b)
        f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('matmul_dynamic_m_only_random_37x31x9')
    a = f.rng.floats((37, 31), 'f32', -1, 1)
    b = f.rng.floats((31, 9), 'f32', -1, 1)
    r = dyn_matmul(f, a, b, dyn_a=(0,), dyn_b=())
    f.expect_almost_eq_const(r, contract('ik,kj->ij', 'f32', a, b))


@testfile('batch_matmul.mlir', '''
linalg.batch_matmul (C[b,m,n] += A[b,m,k] * B[b,k,n]): random data with the
default tolerance, an exact dyadic case, a batch of 1, i32, and a dynamic
batch size.''')
def _(F):
    f = F.fn('batch_matmul_3x13x7x5_random')
    a = f.rng.floats((3, 13, 7), 'f32', -1, 1)
    b = f.rng.floats((3, 7, 5), 'f32', -1, 1)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.batch_matmul', A, B, f.full(0.0, (3, 13, 5), 'f32'))
    f.expect_almost_eq_const(r, contract('bik,bkj->bij', 'f32', a, b))

    f = F.fn('batch_matmul_4x17x33x9_exact')
    a = f.rng.dyadic((4, 17, 33), 'f32', -32, 32, 8)
    b = f.rng.dyadic((4, 33, 9), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.batch_matmul', A, B, f.full(0.0, (4, 17, 9), 'f32'))
    f.expect_eq_const(r, contract('bik,bkj->bij', 'f32', a, b))

    f = F.fn('batch_matmul_1x1x31x1_and_i32')
    a = f.rng.dyadic((1, 1, 31), 'f32', -32, 32, 8)
    b = f.rng.dyadic((1, 31, 1), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.batch_matmul', A, B, f.full(0.0, (1, 1, 1), 'f32'))
    f.expect_eq_const(r, contract('bik,bkj->bij', 'f32', a, b))
    x = f.rng.ints((2, 3, 4), -1000, 1000).astype(np.int32)
    y = f.rng.ints((2, 4, 5), -1000, 1000).astype(np.int32)
    X, Y = f.const(x, 'i32'), f.const(y, 'i32')
    r = mm(f, 'linalg.batch_matmul', X, Y, f.full(0, (2, 3, 5), 'i32'))
    f.expect_eq_const(r, int_contract('bik,bkj->bij', 'i32', x, y))

    f = F.fn('batch_matmul_dynamic_batch_5x6x7x8')
    a = f.rng.dyadic((5, 6, 7), 'f32', -32, 32, 8)
    b = f.rng.dyadic((5, 7, 8), 'f32', -32, 32, 8)
    A = f.const(a, 'f32', 'dynamic', dyn=(0,))
    B = f.const(b, 'f32', 'dynamic', dyn=(0,))
    C = f.fill(f.scalar(0.0, 'f32'), f.empty((5, 6, 8), 'f32', (0,), {0: f.dim(A, 0)}))
    r = mm(f, 'linalg.batch_matmul', A, B, C)
    f.expect_eq_const(r, contract('bik,bkj->bij', 'f32', a, b))


@testfile('matvec.mlir', '''
linalg.matvec (y[m] += A[m,n] * x[n]): 31x1021 exact, random, i32,
f16 inputs into an f32 accumulator, 1x1, and dynamic sizes.''')
def _(F):
    f = F.fn('matvec_31x1021_exact')
    a = f.rng.dyadic((31, 1021), 'f32', -8, 8, 4)
    x = f.rng.dyadic((1021,), 'f32', -8, 8, 4)
    A, X = f.const(a, 'f32'), f.const(x, 'f32')
    r = mm(f, 'linalg.matvec', A, X, f.full(0.0, (31,), 'f32'))
    assert order_free('mn,n->m', 'f32', a, x)
    f.expect_eq_const(r, contract('mn,n->m', 'f32', a, x))

    f = F.fn('matvec_random_9x40_and_1x1')
    a, x = f.rng.floats((9, 40), 'f32', -1, 1), f.rng.floats((40,), 'f32', -1, 1)
    A, X = f.const(a, 'f32'), f.const(x, 'f32')
    r = mm(f, 'linalg.matvec', A, X, f.full(0.0, (9,), 'f32'))
    f.expect_almost_eq_const(r, contract('mn,n->m', 'f32', a, x))
    A1 = f.const(store('f32', [[0.75]]), 'f32')
    X1 = f.const(store('f32', [4.0]), 'f32')
    r = mm(f, 'linalg.matvec', A1, X1, f.full(1.0, (1,), 'f32'))
    f.expect_eq_const(r, store('f32', [4.0]))

    f = F.fn('matvec_i32_and_f16_inputs')
    a = f.rng.ints((6, 11), -100, 100).astype(np.int32)
    x = f.rng.ints((11,), -100, 100).astype(np.int32)
    A, X = f.const(a, 'i32'), f.const(x, 'i32')
    r = mm(f, 'linalg.matvec', A, X, f.full(0, (6,), 'i32'))
    f.expect_eq_const(r, int_contract('mn,n->m', 'i32', a, x))
    h = f.rng.floats((4, 13), 'f16', -1, 1)
    y = f.rng.floats((13,), 'f16', -1, 1)
    H, Y = f.const(h, 'f16'), f.const(y, 'f16')
    r = mm(f, 'linalg.matvec', H, Y, f.full(0.0, (4,), 'f32'))
    f.expect_almost_eq_const(r, contract('mn,n->m', 'f32', h, y))

    f = F.fn('matvec_dynamic_33x65')
    a = f.rng.dyadic((33, 65), 'f32', -8, 8, 4)
    x = f.rng.dyadic((65,), 'f32', -8, 8, 4)
    A, X = f.const(a, 'f32', 'dynamic'), f.const(x, 'f32', 'dynamic')
    C = f.fill(f.scalar(0.0, 'f32'), f.empty((33,), 'f32', (0,), {0: f.dim(A, 0)}))
    r = mm(f, 'linalg.matvec', A, X, C)
    f.expect_eq_const(r, contract('mn,n->m', 'f32', a, x))


@testfile('vecmat.mlir', '''
linalg.vecmat (y[n] += x[m] * A[m,n]): 1021x31 exact, random, i64, bf16
inputs into an f32 accumulator, and dynamic sizes.''')
def _(F):
    f = F.fn('vecmat_1021x31_exact')
    x = f.rng.dyadic((1021,), 'f32', -8, 8, 4)
    a = f.rng.dyadic((1021, 31), 'f32', -8, 8, 4)
    X, A = f.const(x, 'f32'), f.const(a, 'f32')
    r = mm(f, 'linalg.vecmat', X, A, f.full(0.0, (31,), 'f32'))
    assert order_free('m,mn->n', 'f32', x, a)
    f.expect_eq_const(r, contract('m,mn->n', 'f32', x, a))

    f = F.fn('vecmat_random_40x9')
    x, a = f.rng.floats((40,), 'f32', -1, 1), f.rng.floats((40, 9), 'f32', -1, 1)
    X, A = f.const(x, 'f32'), f.const(a, 'f32')
    r = mm(f, 'linalg.vecmat', X, A, f.full(0.0, (9,), 'f32'))
    f.expect_almost_eq_const(r, contract('m,mn->n', 'f32', x, a))

    f = F.fn('vecmat_i64_and_bf16_inputs')
    x = f.rng.ints((5,), -2 ** 30, 2 ** 30)
    a = f.rng.ints((5, 3), -2 ** 30, 2 ** 30)
    X, A = f.const(x, 'i64'), f.const(a, 'i64')
    r = mm(f, 'linalg.vecmat', X, A, f.full(0, (3,), 'i64'))
    f.expect_eq_const(r, int_contract('m,mn->n', 'i64', x, a))
    g = f.rng.floats((21,), 'bf16', -1, 1)
    b = f.rng.floats((21, 4), 'bf16', -1, 1)
    G, B = f.const(g, 'bf16'), f.const(b, 'bf16')
    r = mm(f, 'linalg.vecmat', G, B, f.full(0.0, (4,), 'f32'))
    f.expect_almost_eq_const(r, contract('m,mn->n', 'f32', g, b))

    f = F.fn('vecmat_dynamic_65x33')
    x = f.rng.dyadic((65,), 'f32', -8, 8, 4)
    a = f.rng.dyadic((65, 33), 'f32', -8, 8, 4)
    X, A = f.const(x, 'f32', 'dynamic'), f.const(a, 'f32', 'dynamic')
    C = f.fill(f.scalar(0.0, 'f32'), f.empty((33,), 'f32', (0,), {0: f.dim(A, 1)}))
    r = mm(f, 'linalg.vecmat', X, A, C)
    f.expect_eq_const(r, contract('m,mn->n', 'f32', x, a))


@testfile('dot.mlir', '''
linalg.dot into a 0-d tensor: 1021 exact, 31 random, i64, bf16 inputs into
f32, a dynamic length, and a 1,000,003-element dot whose inputs the program
generates with linalg.index (exact: every partial sum is an integer below
2^24).''')
def _(F):
    f = F.fn('dot_1021_exact_and_31_random')
    x, y = f.rng.dyadic((1021,), 'f32', -16, 16, 4), f.rng.dyadic((1021,), 'f32', -16, 16, 4)
    X, Y = f.const(x, 'f32'), f.const(y, 'f32')
    r = mm(f, 'linalg.dot', X, Y, f.full(0.0, (), 'f32'))
    assert order_free('i,i->', 'f32', x, y)
    f.expect_eq_const(r, contract('i,i->', 'f32', x, y))
    x, y = f.rng.floats((31,), 'f32', -1, 1), f.rng.floats((31,), 'f32', -1, 1)
    X, Y = f.const(x, 'f32'), f.const(y, 'f32')
    r = mm(f, 'linalg.dot', X, Y, f.full(0.0, (), 'f32'))
    f.expect_almost_eq_const(r, contract('i,i->', 'f32', x, y))

    f = F.fn('dot_i64_and_bf16')
    x, y = f.rng.ints((7,), -2 ** 31, 2 ** 31), f.rng.ints((7,), -2 ** 31, 2 ** 31)
    X, Y = f.const(x, 'i64'), f.const(y, 'i64')
    r = mm(f, 'linalg.dot', X, Y, f.full(0, (), 'i64'))
    f.expect_eq_const(r, int_contract('i,i->', 'i64', x, y))
    g, h = f.rng.floats((50,), 'bf16', -1, 1), f.rng.floats((50,), 'bf16', -1, 1)
    G, H = f.const(g, 'bf16'), f.const(h, 'bf16')
    r = mm(f, 'linalg.dot', G, H, f.full(0.0, (), 'f32'))
    f.expect_almost_eq_const(r, contract('i,i->', 'f32', g, h))

    f = F.fn('dot_dynamic_4099')
    x, y = f.rng.dyadic((4099,), 'f32', -16, 16, 4), f.rng.dyadic((4099,), 'f32', -16, 16, 4)
    X, Y = f.const(x, 'f32', 'dynamic'), f.const(y, 'f32', 'dynamic')
    r = mm(f, 'linalg.dot', X, Y, f.full(0.0, (), 'f32'))
    f.expect_eq_const(r, contract('i,i->', 'f32', x, y))

    f = F.fn('dot_1000003_generated')
    X, x = index_pattern(f, (1000003,), 'f32', 7, 3)
    Y, y = index_pattern(f, (1000003,), 'f32', 5, 2)
    r = mm(f, 'linalg.dot', X, Y, f.full(0.0, (), 'f32'))
    exact = int(np.dot(x.astype(np.int64), y.astype(np.int64)))
    assert int(np.abs(x).astype(np.int64) @ np.abs(y).astype(np.int64)) < 2 ** 24
    f.expect_eq_const(r, np.float32(exact))


def conv_nhwc(f, X, K, out, strides, dilations, op='linalg.conv_2d_nhwc_hwcf'):
    return named(f, op, [X, K], [out], conv_attrs(strides, dilations), 'conv')


CONV_LAYOUTS = {
    # op, input dims, filter dims, output dims (by letter), einsum of the
    # [N, OH, OW, KH, KW, C] windows with the filter
    'nhwc_hwcf': ('linalg.conv_2d_nhwc_hwcf', 'nhwc', 'ijcf', 'nhwf', 'nhwijc,ijcf->nhwf'),
    'nchw_fchw': ('linalg.conv_2d_nchw_fchw', 'nchw', 'fcij', 'nfhw', 'nhwijc,fcij->nfhw'),
    'depthwise': ('linalg.depthwise_conv_2d_nhwc_hwc', 'nhwc', 'ijc', 'nhwc',
                  'nhwijc,ijc->nhwc'),
    'depthwise_nchw': ('linalg.depthwise_conv_2d_nchw_chw', 'nchw', 'cij', 'nchw',
                       'nhwijc,cij->nchw'),
}


def expect_contraction(f, r, spec, out_et, how, arrays, init=0):
    """Checks `r` against einsum(spec, *arrays) (+ init): exactly when the
    data make every summation order agree, else with IREE's default
    tolerance; integers with wrap-around."""
    if not is_float(out_et):
        f.expect_eq_const(r, int_contract(spec, out_et, *arrays))
        return
    ref = f64(contract(spec, out_et, *arrays)) + init
    if how == 'exact':
        assert order_free(spec, out_et, *arrays)
        f.expect_eq_const(r, ref)
    else:
        f.expect_almost_eq_const(r, ref)


def conv_case(f, layout, n, c, h, w, fo, kh, kw, strides, dilations, et='f32', out_et=None,
              init=0, data=None, how='exact'):
    """One convolution of the given layout against numpy sliding windows;
    dyadic data (exact) unless `data(shape)` makes the inputs."""
    op, xl, kl, ol, spec = CONV_LAYOUTS[layout]
    out_et = out_et or et
    oh, ow = out_size(h, kh, strides[0], dilations[0]), out_size(w, kw, strides[1], dilations[1])
    size = dict(n=n, c=c, h=h, w=w, f=fo, i=kh, j=kw)
    xs, ks = tuple(size[d] for d in xl), tuple(size[d] for d in kl)
    size.update(h=oh, w=ow)
    os_ = tuple(size[d] for d in ol)
    if data is None:
        x, k = f.rng.dyadic(xs, et, -16, 16, 8), f.rng.dyadic(ks, et, -16, 16, 8)
    else:
        x, k = data(xs), data(ks)
    X, K = f.const(x, et), f.const(k, et)
    r = named(f, op, [X, K], [f.full(init, os_, out_et)], conv_attrs(strides, dilations), 'conv')
    nhwc = np.transpose(x, (0, 2, 3, 1)) if xl == 'nchw' else x
    win = windows_nhwc(nhwc, kh, kw, oh, ow, strides, dilations)
    expect_contraction(f, r, spec, out_et, how, [win, k], init)


@testfile('conv_2d_nhwc_hwcf.mlir', '''
linalg.conv_2d_nhwc_hwcf (O[n,oh,ow,f] += I[n, oh*sh + kh*dh, ow*sw + kw*dw,
c] * K[kh,kw,c,f]) against numpy sliding windows: 3x3 on 5x5, strides
[2, 1] with dilations [1, 2], dilation 2 with a bias in the init, random
data, i8 into i32, f16 into f32, and a dynamic batch.''')
def _(F):
    def case(f, n, h, w, c, kh, kw, fo, strides, dilations, **kw_):
        conv_case(f, 'nhwc_hwcf', n, c, h, w, fo, kh, kw, strides, dilations, **kw_)

    case(F.fn('conv_1x5x5x1_3x3x1x1'), 1, 5, 5, 1, 3, 3, 1, (1, 1), (1, 1))
    case(F.fn('conv_2x9x11x3_3x2x3x4_strides_2_1_dilations_1_2'), 2, 9, 11, 3, 3, 2, 4, (2, 1),
         (1, 2))
    case(F.fn('conv_1x7x7x2_3x3x2x3_dilation_2_bias_init'), 1, 7, 7, 2, 3, 3, 3, (1, 1), (2, 2),
         init=0.5)
    f = F.fn('conv_1x6x6x4_3x3x4x5_random')
    case(f, 1, 6, 6, 4, 3, 3, 5, (1, 1), (1, 1),
         data=lambda s: f.rng.floats(s, 'f32', -1, 1), how='tol')
    f = F.fn('conv_i8_into_i32_1x8x8x3_2x2x3x2_stride_2')
    case(f, 1, 8, 8, 3, 2, 2, 2, (2, 2), (1, 1), et='i8', out_et='i32', init=0,
         data=lambda s: store('i8', f.rng.ints(s, -128, 127)))
    f = F.fn('conv_f16_into_f32_1x5x6x2_2x3x2x2')
    case(f, 1, 5, 6, 2, 2, 3, 2, (1, 1), (1, 1), et='f16', out_et='f32',
         data=lambda s: f.rng.floats(s, 'f16', -1, 1), how='tol')

    f = F.fn('conv_dynamic_batch_3x8x8x2_3x3x2x3')
    x = f.rng.dyadic((3, 8, 8, 2), 'f32', -16, 16, 8)
    k = f.rng.dyadic((3, 3, 2, 3), 'f32', -16, 16, 8)
    X = f.const(x, 'f32', 'dynamic', dyn=(0,))
    K = f.const(k, 'f32')
    out = f.fill(f.scalar(0.0, 'f32'), f.empty((3, 6, 6, 3), 'f32', (0,), {0: f.dim(X, 0)}))
    r = conv_nhwc(f, X, K, out, (1, 1), (1, 1))
    win = windows_nhwc(x, 3, 3, 6, 6, (1, 1), (1, 1))
    f.expect_eq_const(r, contract('nhwijc,ijcf->nhwf', 'f32', win, k))


@testfile('conv_2d_nchw_fchw.mlir', '''
linalg.conv_2d_nchw_fchw (O[n,f,oh,ow] += I[n,c, oh*sh + kh*dh, ow*sw +
kw*dw] * K[f,c,kh,kw]): exact dyadic data with strides and dilations,
random data, an odd-sized single-channel case and i32; unit spatial dims
(a 1-D convolution as 2-D with a width or a height of 1, as ONNX and
Keras models write it), whose register tile runs over the filters and
the other spatial dim, with tails on both, a batch of 2 and random data.''')
def _(F):
    def case(f, n, c, h, w, fo, kh, kw, strides, dilations, **kw_):
        conv_case(f, 'nchw_fchw', n, c, h, w, fo, kh, kw, strides, dilations, **kw_)

    case(F.fn('conv_nchw_1x2x4x4_1x2x3x2'), 1, 2, 4, 4, 1, 3, 2, (1, 1), (1, 1))
    case(F.fn('conv_nchw_2x3x10x9_4x3x3x3_strides_2_dilations_1_2'), 2, 3, 10, 9, 4, 3, 3,
         (2, 2), (1, 2))
    f = F.fn('conv_nchw_1x4x7x7_2x4x3x3_random')
    case(f, 1, 4, 7, 7, 2, 3, 3, (1, 1), (1, 1), data=lambda s: f.rng.floats(s, 'f32', -1, 1),
         how='tol')
    case(F.fn('conv_nchw_1x1x13x13_1x1x1x1'), 1, 1, 13, 13, 1, 1, 1, (1, 1), (1, 1))
    f = F.fn('conv_nchw_i32_1x2x6x5_3x2x2x2_dilation_2')
    case(f, 1, 2, 6, 5, 3, 2, 2, (1, 1), (2, 2), et='i32',
         data=lambda s: f.rng.ints(s, -100, 100).astype(np.int32))
    case(F.fn('conv_nchw_width_1_1x4x36x1_24x4x5x1'), 1, 4, 36, 1, 24, 5, 1, (1, 1), (1, 1))
    case(F.fn('conv_nchw_height_1_2x3x1x30_20x3x1x3_stride_1_2'), 2, 3, 1, 30, 20, 1, 3, (1, 2),
         (1, 1))
    f = F.fn('conv_nchw_width_1_1x16x70x1_40x16x5x1_random')
    case(f, 1, 16, 70, 1, 40, 5, 1, (1, 1), (1, 1), data=lambda s: f.rng.floats(s, 'f32', -1, 1),
         how='tol')


@testfile('conv_2d_grouped.mlir', '''
Grouped convolution as torch-mlir writes it for groups > 1:
linalg.conv_2d_ngchw_gfchw (O[n,g,f,oh,ow] += I[n,g,c, oh*sh + kh*dh,
ow*sw + kw*dw] * K[g,f,c,kh,kw]) and linalg.conv_2d_ngchw_fgchw (K[f,g,c,kh,kw]),
which kiln reads as the linalg.generic MLIR 19 generalizes them to (a
rewrite at import): exact dyadic data with strides and dilations, random
data, i8 into i32, against numpy sliding windows per group.''')
def _(F):
    def case(f, fgchw, n, g, c, h, w, fo, kh, kw, strides, dilations, et='f32', out_et=None,
             data=None, how='exact'):
        out_et = out_et or et
        oh = out_size(h, kh, strides[0], dilations[0])
        ow = out_size(w, kw, strides[1], dilations[1])
        ks = (fo, g, c, kh, kw) if fgchw else (g, fo, c, kh, kw)
        if data is None:
            x = f.rng.dyadic((n, g, c, h, w), et, -16, 16, 8)
            k = f.rng.dyadic(ks, et, -16, 16, 8)
        else:
            x, k = data((n, g, c, h, w)), data(ks)
        X, K = f.const(x, et), f.const(k, et)
        op = 'linalg.conv_2d_ngchw_fgchw' if fgchw else 'linalg.conv_2d_ngchw_gfchw'
        r = named(f, op, [X, K], [f.full(0, (n, g, fo, oh, ow), out_et)],
                  conv_attrs(strides, dilations), 'conv')
        nhwc = np.transpose(x.reshape(n, g * c, h, w), (0, 2, 3, 1))
        win = windows_nhwc(nhwc, kh, kw, oh, ow, strides, dilations)
        win = win.reshape(n, oh, ow, kh, kw, g, c)
        spec = 'nhwijgc,fgcij->ngfhw' if fgchw else 'nhwijgc,gfcij->ngfhw'
        expect_contraction(f, r, spec, out_et, how, [win, k])

    case(F.fn('conv_gfchw_1x2x3x6x6_2x4x3x3x3'), False, 1, 2, 3, 6, 6, 4, 3, 3, (1, 1), (1, 1))
    case(F.fn('conv_gfchw_2x3x2x9x8_3x2x2x3x2_strides_2_1_dilations_1_2'), False, 2, 3, 2, 9, 8,
         2, 3, 2, (2, 1), (1, 2))
    case(F.fn('conv_fgchw_1x2x2x7x7_3x2x2x3x3_stride_2'), True, 1, 2, 2, 7, 7, 3, 3, 3, (2, 2),
         (1, 1))
    f = F.fn('conv_gfchw_1x4x2x8x8_4x2x2x3x3_random')
    case(f, False, 1, 4, 2, 8, 8, 2, 3, 3, (1, 1), (1, 1),
         data=lambda s: f.rng.floats(s, 'f32', -1, 1), how='tol')
    f = F.fn('conv_fgchw_i8_into_i32_1x2x3x5x5_2x2x3x2x2')
    case(f, True, 1, 2, 3, 5, 5, 2, 2, 2, (1, 1), (1, 1), et='i8', out_et='i32',
         data=lambda s: store('i8', f.rng.ints(s, -128, 127)))


@testfile('depthwise_conv_2d_nhwc_hwc.mlir', '''
linalg.depthwise_conv_2d_nhwc_hwc (O[n,oh,ow,c] += I[n, oh*sh + kh*dh,
ow*sw + kw*dw, c] * K[kh,kw,c]) with strides and dilations, equal and
different per axis; exact dyadic data, random data and i32.''')
def _(F):
    def case(f, n, h, w, c, kh, kw, strides, dilations, **kw_):
        conv_case(f, 'depthwise', n, c, h, w, c, kh, kw, strides, dilations, **kw_)

    case(F.fn('depthwise_1x10x10x3_3x3_stride_2'), 1, 10, 10, 3, 3, 3, (2, 2), (1, 1))
    case(F.fn('depthwise_1x11x13x4_2x3_strides_1_2_dilations_2_1'), 1, 11, 13, 4, 2, 3, (1, 2),
         (2, 1))
    case(F.fn('depthwise_2x9x9x5_3x3_dilation_3'), 2, 9, 9, 5, 3, 3, (1, 1), (3, 3))
    f = F.fn('depthwise_1x8x8x16_3x3_random')
    case(f, 1, 8, 8, 16, 3, 3, (1, 1), (1, 1), data=lambda s: f.rng.floats(s, 'f32', -1, 1),
         how='tol')
    f = F.fn('depthwise_i32_1x7x7x2_2x2_stride_3')
    case(f, 1, 7, 7, 2, 2, 2, (3, 3), (1, 1), et='i32',
         data=lambda s: f.rng.ints(s, -1000, 1000).astype(np.int32))


@testfile('conv_large.mlir', '''
A 1x56x56x8 input convolved with a 3x3x8x16 filter (NHWC / HWCF) and a
3x3 depthwise convolution of it, on small integers held in f32 (exact in
any summation order).''')
def _(F):
    f = F.fn('conv_1x56x56x8_3x3x8x16')
    x = store('f32', f.rng.ints((1, 56, 56, 8), -3, 3))
    k = store('f32', f.rng.ints((3, 3, 8, 16), -2, 2))
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    r = conv_nhwc(f, X, K, f.full(0.0, (1, 54, 54, 16), 'f32'), (1, 1), (1, 1))
    win = windows_nhwc(x, 3, 3, 54, 54, (1, 1), (1, 1))
    assert order_free('nhwijc,ijcf->nhwf', 'f32', win, k)
    f.expect_eq_const(r, contract('nhwijc,ijcf->nhwf', 'f32', win, k))

    f = F.fn('depthwise_1x56x56x8_3x3_stride_2')
    x = store('f32', f.rng.ints((1, 56, 56, 8), -3, 3))
    k = store('f32', f.rng.ints((3, 3, 8), -2, 2))
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    r = named(f, 'linalg.depthwise_conv_2d_nhwc_hwc', [X, K],
              [f.full(0.0, (1, 27, 27, 8), 'f32')], conv_attrs((2, 2), (1, 1)), 'conv')
    win = windows_nhwc(x, 3, 3, 27, 27, (2, 2), (1, 1))
    f.expect_eq_const(r, contract('nhwijc,ijc->nhwc', 'f32', win, k))


def pooling_file(F, kind, layout='nhwc'):
    """Cases of linalg.pooling_<layout>_<kind>; `case` takes the sizes in
    NHWC order whatever the layout."""
    op = 'linalg.pooling_%s_%s' % (layout, kind)
    nchw = layout == 'nchw'

    def lay(shape):
        n, h, w, c = shape
        return (n, c, h, w) if nchw else (n, h, w, c)
    combine = {'max': lambda w: w.max(axis=(3, 4)), 'min': lambda w: w.min(axis=(3, 4)),
               'sum': None}[kind]

    def init_of(et):
        if kind == 'sum':
            return 0
        big = math.inf if is_float(et) else (1 << (INT_BITS[et] - 1)) - 1
        if kind == 'min':
            return big
        return -big if is_float(et) else -big - 1

    def case(f, n, h, w, c, kh, kw, strides, dilations, et='f32', out_et=None, data=None,
             dyn=False):
        out_et = out_et or et
        oh, ow = out_size(h, kh, strides[0], dilations[0]), out_size(w, kw, strides[1],
                                                                    dilations[1])
        xs = lay((n, h, w, c))
        x = data(xs) if data else f.rng.dyadic(xs, et, -64, 64, 8)
        if dyn:
            X = f.const(x, et, 'dynamic', dyn=(0,))
            out = f.fill(f.scalar(init_of(out_et), out_et),
                         f.empty(lay((n, oh, ow, c)), out_et, (0,), {0: f.dim(X, 0)}))
        else:
            X = f.const(x, et)
            out = f.full(init_of(out_et), lay((n, oh, ow, c)), out_et)
        window = f.empty((kh, kw), et)
        r = named(f, op, [X, window], [out], conv_attrs(strides, dilations), 'pool')
        win = windows_nhwc(np.transpose(x, (0, 2, 3, 1)) if nchw else x, kh, kw, oh, ow,
                           strides, dilations)
        back = (lambda a: np.transpose(a, (0, 3, 1, 2))) if nchw else (lambda a: a)
        if kind == 'sum':
            if is_float(out_et):
                assert order_free('nhwijc->nhwc', out_et, win)
                f.expect_eq_const(r, back(contract('nhwijc->nhwc', out_et, win)))
            else:
                f.expect_eq_const(r, back(store(out_et,
                                                win.astype(np.int64).sum(axis=(3, 4)))))
        else:
            f.expect_eq_const(r, back(combine(win)))
    return case


@testfile('pooling_nhwc_max.mlir', '''
linalg.pooling_nhwc_max (the window is the shape of the second input) with
a -inf (or INT_MIN) init: 3x3 stride 2, 2x2 with dilations [1, 2], a global
pool, i32, f16, and a dynamic batch.''')
def _(F):
    case = pooling_file(F, 'max')
    case(F.fn('max_2x9x9x3_3x3_stride_2'), 2, 9, 9, 3, 3, 3, (2, 2), (1, 1))
    case(F.fn('max_1x7x10x2_2x2_dilations_1_2'), 1, 7, 10, 2, 2, 2, (1, 1), (1, 2))
    case(F.fn('max_global_1x13x13x5'), 1, 13, 13, 5, 13, 13, (1, 1), (1, 1))
    f = F.fn('max_i32_1x6x6x4_3x2_strides_3_2')
    case(f, 1, 6, 6, 4, 3, 2, (3, 2), (1, 1), et='i32',
         data=lambda s: f.rng.ints(s, -2 ** 31, 2 ** 31 - 1).astype(np.int32))
    f = F.fn('max_f16_1x5x5x3_2x2')
    case(f, 1, 5, 5, 3, 2, 2, (1, 1), (1, 1), et='f16',
         data=lambda s: f.rng.floats(s, 'f16', -100, 100))
    case(F.fn('max_dynamic_batch_3x8x8x2_2x2_stride_2'), 3, 8, 8, 2, 2, 2, (2, 2), (1, 1),
         dyn=True)


@testfile('pooling_nchw.mlir', '''
linalg.pooling_nchw_max and linalg.pooling_nchw_sum, the layout torch-mlir
emits for every torchvision CNN's pooling (max pooling; average pooling is
the sum, then a division): strides, dilations, a global pool, i32 and a
dynamic batch, against numpy sliding windows on the NHWC transpose.''')
def _(F):
    mx = pooling_file(F, 'max', 'nchw')
    sm = pooling_file(F, 'sum', 'nchw')
    # sizes in NHWC order: n, h, w, c, kh, kw
    mx(F.fn('max_nchw_2x3x9x9_3x3_stride_2'), 2, 9, 9, 3, 3, 3, (2, 2), (1, 1))
    mx(F.fn('max_nchw_1x2x7x10_2x2_dilations_1_2'), 1, 7, 10, 2, 2, 2, (1, 1), (1, 2))
    f = F.fn('max_nchw_i32_1x4x6x6_3x2_strides_3_2')
    mx(f, 1, 6, 6, 4, 3, 2, (3, 2), (1, 1), et='i32',
       data=lambda s: f.rng.ints(s, -2 ** 31, 2 ** 31 - 1).astype(np.int32))
    mx(F.fn('max_nchw_dynamic_batch_3x2x8x8_2x2_stride_2'), 3, 8, 8, 2, 2, 2, (2, 2), (1, 1),
       dyn=True)
    sm(F.fn('sum_nchw_2x2x11x9_3x2_strides_2_3_dilations_2_1'), 2, 11, 9, 2, 3, 2, (2, 3),
       (2, 1))
    sm(F.fn('sum_nchw_global_1x5x7x7'), 1, 7, 7, 5, 7, 7, (1, 1), (1, 1))


@testfile('depthwise_conv_2d_nchw_chw.mlir', '''
linalg.depthwise_conv_2d_nchw_chw (O[n,c,oh,ow] += I[n, c, oh*sh + kh*dh,
ow*sw + kw*dw] * K[c,kh,kw]; MLIR orders its loops n, oh, ow, c, kh, kw),
the layout torch-mlir emits for MobileNet's and EfficientNet's depthwise
convolutions: strides and dilations, exact dyadic data, random data, i32.''')
def _(F):
    def case(f, n, c, h, w, kh, kw, strides, dilations, **kw_):
        conv_case(f, 'depthwise_nchw', n, c, h, w, c, kh, kw, strides, dilations, **kw_)

    case(F.fn('depthwise_nchw_1x3x10x10_3x3_stride_2'), 1, 3, 10, 10, 3, 3, (2, 2), (1, 1))
    case(F.fn('depthwise_nchw_2x4x11x13_2x3_strides_1_2_dilations_2_1'), 2, 4, 11, 13, 2, 3,
         (1, 2), (2, 1))
    f = F.fn('depthwise_nchw_1x16x8x8_3x3_random')
    case(f, 1, 16, 8, 8, 3, 3, (1, 1), (1, 1), data=lambda s: f.rng.floats(s, 'f32', -1, 1),
         how='tol')
    f = F.fn('depthwise_nchw_i32_1x2x7x7_2x2_stride_3')
    case(f, 1, 2, 7, 7, 2, 2, (3, 3), (1, 1), et='i32',
         data=lambda s: f.rng.ints(s, -1000, 1000).astype(np.int32))


def windows_nd(x, ks, outs, strides, dilations):
    """[N, O1..Od, K1..Kd, C] windows of a channels-last array with d
    spatial dims: x[n, o1*s1 + k1*l1, ..., c]."""
    d = len(ks)
    n, c = x.shape[0], x.shape[-1]
    w = np.empty((n,) + tuple(outs) + tuple(ks) + (c,), dtype=x.dtype)
    for kk in itertools.product(*[range(k) for k in ks]):
        sl = tuple(slice(kk[i] * dilations[i], kk[i] * dilations[i]
                         + strides[i] * (outs[i] - 1) + 1, strides[i]) for i in range(d))
        w[(slice(None),) * (d + 1) + kk] = x[(slice(None),) + sl]
    return w


@testfile('conv_pool_1d_3d.mlir', '''
The 1-D and 3-D convolutions and poolings torch-mlir emits (ONNX Conv and
AveragePool / MaxPool on 3-D and 5-D tensors): linalg.conv_1d_ncw_fcw,
linalg.pooling_ncw_max / _sum, linalg.conv_3d_ncdhw_fcdhw and
linalg.pooling_ndhwc_max / _sum, with strides and dilations, on exact
dyadic data (every summation order gives the same bits), against numpy
sliding windows.''')
def _(F):
    def conv(f, n, c, sp, fo, ks, strides, dilations):
        d = len(sp)
        outs = [out_size(sp[i], ks[i], strides[i], dilations[i]) for i in range(d)]
        x = f.rng.dyadic((n, c) + tuple(sp), 'f32', -16, 16, 8)
        k = f.rng.dyadic((fo, c) + tuple(ks), 'f32', -16, 16, 8)
        X, K = f.const(x, 'f32'), f.const(k, 'f32')
        op = 'linalg.conv_1d_ncw_fcw' if d == 1 else 'linalg.conv_3d_ncdhw_fcdhw'
        r = named(f, op, [X, K], [f.full(0.0, (n, fo) + tuple(outs), 'f32')],
                  conv_attrs(strides, dilations), 'conv')
        last = np.moveaxis(x, 1, -1)
        win = windows_nd(last, ks, outs, strides, dilations)
        sp_letters = 'xyz'[:d]
        k_letters = 'ijk'[:d]
        spec = 'n%s%sc,fc%s->nf%s' % (sp_letters, k_letters, k_letters, sp_letters)
        assert order_free(spec, 'f32', win, k)
        f.expect_eq_const(r, contract(spec, 'f32', win, k))

    def pool(f, kind, n, c, sp, ks, strides, dilations):
        d = len(sp)
        outs = [out_size(sp[i], ks[i], strides[i], dilations[i]) for i in range(d)]
        channels_first = d == 1  # ncw; the 3-D pooling is ndhwc
        shape = (n, c) + tuple(sp) if channels_first else (n,) + tuple(sp) + (c,)
        x = f.rng.dyadic(shape, 'f32', -64, 64, 8)
        X = f.const(x, 'f32')
        oshape = (n, c) + tuple(outs) if channels_first else (n,) + tuple(outs) + (c,)
        init = 0.0 if kind == 'sum' else -math.inf
        op = 'linalg.pooling_%s_%s' % ('ncw' if d == 1 else 'ndhwc', kind)
        r = named(f, op, [X, f.empty(tuple(ks), 'f32')], [f.full(init, oshape, 'f32')],
                  conv_attrs(strides, dilations), 'pool')
        last = np.moveaxis(x, 1, -1) if channels_first else x
        win = windows_nd(last, ks, outs, strides, dilations)
        axes = tuple(range(d + 1, 2 * d + 1))
        if kind == 'sum':
            want = win.astype(np.float64).sum(axis=axes)
            assert np.array_equal(want, want.astype(np.float32)), 'sum not exact'
        else:
            want = win.max(axis=axes)
        if channels_first:
            want = np.moveaxis(want, -1, 1)
        f.expect_eq_const(r, want.astype(np.float32))

    conv(F.fn('conv_1d_ncw_2x3x17_4x3x3_stride_2_dilation_2'), 2, 3, (17,), 4, (3,), (2,),
         (2,))
    pool(F.fn('pooling_ncw_max_2x3x11_3_stride_2'), 'max', 2, 3, (11,), (3,), (2,), (1,))
    pool(F.fn('pooling_ncw_sum_1x4x9_2_dilation_3'), 'sum', 1, 4, (9,), (2,), (1,), (3,))
    conv(F.fn('conv_3d_ncdhw_1x2x5x6x5_3x2x2x3x2_strides_1_2_1'), 1, 2, (5, 6, 5), 3,
         (2, 3, 2), (1, 2, 1), (1, 1, 1))
    pool(F.fn('pooling_ndhwc_sum_1x5x5x6x2_2x2x3_stride_2'), 'sum', 1, 2, (5, 5, 6), (2, 2, 3),
         (2, 2, 1), (1, 1, 1))
    pool(F.fn('pooling_ndhwc_max_2x4x5x5x3_2x2x2_dilations_1_2_1'), 'max', 2, 3, (4, 5, 5),
         (2, 2, 2), (1, 1, 1), (1, 2, 1))


@testfile('pooling_nhwc_sum.mlir', '''
linalg.pooling_nhwc_sum: 3x3 windows with strides and dilations on exact
dyadic data, i8 inputs summed into i32, f16 inputs into f32, a global sum
pool and a dynamic batch.''')
def _(F):
    case = pooling_file(F, 'sum')
    case(F.fn('sum_1x8x8x3_3x3_stride_1'), 1, 8, 8, 3, 3, 3, (1, 1), (1, 1))
    case(F.fn('sum_2x11x9x2_3x2_strides_2_3_dilations_2_1'), 2, 11, 9, 2, 3, 2, (2, 3), (2, 1))
    f = F.fn('sum_i8_into_i32_1x6x6x4_3x3')
    case(f, 1, 6, 6, 4, 3, 3, (1, 1), (1, 1), et='i8', out_et='i32',
         data=lambda s: store('i8', f.rng.ints(s, -128, 127)))
    f = F.fn('sum_f16_into_f32_1x4x4x2_2x2')
    case(f, 1, 4, 4, 2, 2, 2, (2, 2), (1, 1), et='f16', out_et='f32',
         data=lambda s: f.rng.dyadic(s, 'f16', -64, 64, 8))
    case(F.fn('sum_global_1x31x31x1'), 1, 31, 31, 1, 31, 31, (1, 1), (1, 1))
    case(F.fn('sum_dynamic_batch_2x5x5x3_2x2'), 2, 5, 5, 3, 2, 2, (1, 1), (1, 1), dyn=True)


@testfile('pooling_nhwc_min.mlir', '''
linalg.pooling_nhwc_min with a +inf (or INT_MAX) init: strides, dilations,
i16 data and a dynamic batch.''')
def _(F):
    case = pooling_file(F, 'min')
    case(F.fn('min_1x9x9x4_3x3_stride_2'), 1, 9, 9, 4, 3, 3, (2, 2), (1, 1))
    case(F.fn('min_2x8x7x3_2x3_dilations_2_1'), 2, 8, 7, 3, 2, 3, (1, 1), (2, 1))
    f = F.fn('min_i16_1x5x7x2_2x2_stride_2')
    case(f, 1, 5, 7, 2, 2, 2, (2, 2), (1, 1), et='i16',
         data=lambda s: store('i16', f.rng.ints(s, -32768, 32767)))
    case(F.fn('min_dynamic_batch_4x6x6x1_3x3'), 4, 6, 6, 1, 3, 3, (1, 1), (1, 1), dyn=True)


def softmax_ref(x, axis):
    d = f64(x)
    e = np.exp(d - d.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@testfile('softmax.mlir', '''
linalg.softmax: exp(x - max) / sum(exp(x - max)) along one dimension, against
float64 numpy: 1x7, 13x1021 (the last dim), 3-D along dims 0 and 1, inputs
near 100 (exp(x) alone would overflow f32: the max must be subtracted), a
dynamic shape, and f16 (computed in f16 by MLIR's decomposition: 2% rtol).''')
def _(F):
    def softmax(f, X, dim):
        out = f.empty(X.shape, X.et, X.dyn, f.sizes_of(X) if X.dyn else None)
        return f.op('linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s'
                    % (dim, X, X.ty, out, out.ty, out.ty), X.et, X.shape, X.dyn, 'sm')

    f = F.fn('softmax_1x7')
    x = f.rng.floats((1, 7), 'f32', -2, 2)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1))

    f = F.fn('softmax_13x1021_last_dim')
    x = f.rng.floats((13, 1021), 'f32', -5, 5)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1), atol=1e-7, rtol=1e-4)

    f = F.fn('softmax_3d_4x5x6_dims_0_and_1')
    x = f.rng.floats((4, 5, 6), 'f32', -3, 3)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(softmax(f, X, 0), softmax_ref(x, 0), atol=1e-6, rtol=1e-4)
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1), atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_large_inputs_3x40')
    x = f.rng.floats((3, 40), 'f32', 90, 100)
    X = f.const(x, 'f32')
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1), atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_dynamic_7x127')
    x = f.rng.floats((7, 127), 'f32', -4, 4)
    X = f.const(x, 'f32', 'dynamic')
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1), atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_f16_2x33')
    x = f.rng.floats((2, 33), 'f16', -3, 3)
    X = f.const(x, 'f16')
    f.expect_almost_eq_const(softmax(f, X, 1), softmax_ref(x, 1), atol=1e-3, rtol=2e-2)


@testfile('softmax_epilogue.mlir', '''
linalg.softmax followed by the elementwise ops kiln's ONNX importer writes
after it for Attention (expanded): a select that zeroes fully masked query
rows (the row mask broadcast over batch, heads and keys), a scale and
shift over long rows and over many short ones, a truncation to f16 of a softmax along a middle
dimension, a dynamic shape whose consumer also reads the softmax's input,
an f16 softmax doubled in f16, and a consumer that reads the softmax
transposed (not fusable into the softmax's rows: the softmax is stored
first). Tolerances as softmax.mlir's (rtol 1e-4, atol 1e-6), plus one f16
ulp for the truncation; the f16 softmax as softmax.mlir's f16 case.''')
def _(F):
    def softmax(f, X, dim):
        out = f.empty(X.shape, X.et, X.dyn, f.sizes_of(X) if X.dyn else None)
        return f.op('linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s'
                    % (dim, X, X.ty, out, out.ty, out.ty), X.et, X.shape, X.dyn, 'sm')

    f = F.fn('softmax_then_select_masked_rows_2x3x4x8')
    x = f.rng.floats((2, 3, 4, 8), 'f32', -3, 3)
    rows = np.array([False, True, False, True])
    X, R = f.const(x, 'f32'), f.const(rows, 'i1')
    S = softmax(f, X, 3)
    out = f.generic([R, S], [f.empty((2, 3, 4, 8), 'f32')],
                    ['(d0, d1, d2, d3) -> (d2)', ident(4), ident(4)], 'pppp', '''
^bb0(%m: i1, %p: f32, %o: f32):
  %z = arith.constant 0.0 : f32
  %r = arith.select %m, %z, %p : f32
  linalg.yield %r : f32''')
    ref = softmax_ref(x, 3)
    ref[:, :, rows, :] = 0.0
    f.expect_almost_eq_const(out, ref, atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_then_scale_and_shift_5x256')
    x = f.rng.floats((5, 256), 'f32', -4, 4)
    S = softmax(f, f.const(x, 'f32'), 1)
    out = f.elementwise([S], 'f32', '''
^bb0(%p: f32, %o: f32):
  %k = arith.constant 3.0 : f32
  %one = arith.constant 1.0 : f32
  %a = arith.mulf %p, %k : f32
  %b = arith.subf %a, %one : f32
  linalg.yield %b : f32''')
    # |error| <= 3 * 1e-4 * p + one rounding near 1: atol 1e-5.
    f.expect_almost_eq_const(out, softmax_ref(x, 1) * 3.0 - 1.0, atol=1e-5, rtol=1e-5)

    f = F.fn('softmax_dim1_then_truncf_3x5x7')
    x = f.rng.floats((3, 5, 7), 'f32', -3, 3)
    S = softmax(f, f.const(x, 'f32'), 1)
    out = f.elementwise([S], 'f16', '''
^bb0(%p: f32, %o: f16):
  %h = arith.truncf %p : f32 to f16
  linalg.yield %h : f16''')
    f.expect_almost_eq_const(out, softmax_ref(x, 1), atol=1e-6, rtol=1.1e-3)

    f = F.fn('softmax_dynamic_then_add_input_7x36')
    x = f.rng.floats((7, 36), 'f32', -2, 2)
    X = f.const(x, 'f32', 'dynamic')
    S = softmax(f, X, 1)
    out = f.elementwise([S, X], 'f32', '''
^bb0(%p: f32, %x: f32, %o: f32):
  %a = arith.addf %p, %x : f32
  linalg.yield %a : f32''')
    f.expect_almost_eq_const(out, softmax_ref(x, 1) + f64(x), atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_f16_then_double_2x3x16')
    x = f.rng.floats((2, 3, 16), 'f16', -3, 3)
    S = softmax(f, f.const(x, 'f16'), 2)
    out = f.elementwise([S], 'f16', '''
^bb0(%p: f16, %o: f16):
  %k = arith.constant 2.0 : f16
  %w = arith.mulf %p, %k : f16
  linalg.yield %w : f16''')
    f.expect_almost_eq_const(out, softmax_ref(x, 2) * 2.0, atol=1e-3, rtol=2e-2)

    f = F.fn('softmax_short_rows_then_scale_64x5')
    x = f.rng.floats((64, 5), 'f32', -3, 3)
    S = softmax(f, f.const(x, 'f32'), 1)
    out = f.elementwise([S], 'f32', '''
^bb0(%p: f32, %o: f32):
  %k = arith.constant 2.0 : f32
  %a = arith.mulf %p, %k : f32
  linalg.yield %a : f32''')
    f.expect_almost_eq_const(out, softmax_ref(x, 1) * 2.0, atol=1e-6, rtol=1e-4)

    f = F.fn('softmax_then_transposed_read_4x6')
    x = f.rng.floats((4, 6), 'f32', -3, 3)
    S = softmax(f, f.const(x, 'f32'), 1)
    out = f.generic([S], [f.empty((6, 4), 'f32')], ['(d0, d1) -> (d1, d0)', ident(2)], 'pp', '''
^bb0(%p: f32, %o: f32):
  %k = arith.constant 2.0 : f32
  %a = arith.mulf %p, %k : f32
  linalg.yield %a : f32''')
    f.expect_almost_eq_const(out, softmax_ref(x, 1).T * 2.0, atol=1e-6, rtol=1e-4)


def random_of(f, et, shape, lo=-100, hi=100):
    """Random data of any element type."""
    if et == 'i1':
        return f.rng.ints(shape, 0, 1).astype(bool)
    if is_float(et):
        return f.rng.floats(shape, et, lo, hi)
    if et == 'i64':
        return f.rng.bits64(shape)
    b = INT_BITS[et]
    return store(et, f.rng.ints(shape, -(1 << (b - 1)), (1 << (b - 1)) - 1))


@testfile('tensor_dim_empty.mlir', '''
tensor.dim on dynamic and static tensors (constant and run-time dim
indices), tensor.empty with dynamic sizes taken from or computed from
tensor.dim, checked with check.expect_true / check.expect_false.''')
def _(F):
    f = F.fn('dim_of_dynamic_and_static')
    x = f.rng.floats((7, 13), 'f32')
    X = f.const(x, 'f32', 'dynamic')
    d0, d1 = f.dim(X, 0), f.dim(X, 1)
    f.expect_index(d0, 7)
    f.expect_index(d1, 13)
    wrong = f.op('arith.cmpi eq, %s, %s : index' % (d0, f.idx(13)), 'i1', hint='ok')
    f.expect_false(wrong)
    S = f.const(np.zeros((4, 1), np.int8), 'i8')
    f.expect_index(f.dim(S, 0), 4)
    k = f.scalar(1, 'i32', how='unfoldable')
    ki = f.op('arith.index_cast %s : i32 to index' % k, 'index', hint='k')
    dk = f.op('tensor.dim %s, %s : %s' % (X, ki, X.ty), 'index', hint='d')
    f.expect_index(dk, 13)
    as_i32 = f.op('arith.index_cast %s : index to i32' % dk, 'i32', hint='n')
    f.expect_true(as_i32)
    zero = f.op('arith.subi %s, %s : i32' % (as_i32, as_i32), 'i32', hint='n')
    f.expect_false(zero)

    f = F.fn('empty_from_dims_and_arithmetic')
    x = f.rng.ints((5, 3), -9, 9).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic', dyn=(0,))
    d0 = f.dim(X, 0)
    two = f.idx(2)
    dd = f.op('arith.muli %s, %s : index' % (d0, two), 'index', hint='d')
    E = f.empty((10, 3), 'i32', (0,), {0: dd})
    r = f.fill(f.scalar(-4, 'i32'), E)
    f.expect_index(f.dim(r, 0), 10)
    f.expect_eq_const(r, np.full((10, 3), -4, np.int32))

    f = F.fn('dim_of_op_result')
    x = f.rng.floats((3, 9), 'f16')
    X = f.const(x, 'f16', 'dynamic')
    r = f.elementwise([X], 'f16', '''
^bb0(%a: f16, %o: f16):
  %n = arith.negf %a : f16
  linalg.yield %n : f16''')
    f.expect_index(f.dim(r, 1), 9)
    f.expect_eq_const(r, -x)


@testfile('extract_slice.mlir', '''
tensor.extract_slice: static offsets / sizes / strides, rank-reducing
slices, strided 3-D slices, run-time offsets and sizes, slices of dynamic
tensors, and f16 / bf16 / i1 / i8 / i64 data.''')
def _(F):
    def slice_(f, X, offs, sizes, strides, out_shape, dyn=()):
        def part(v):
            return ', '.join(str(p) for p in v)
        t = ttype(out_shape, X.et, dyn)
        return f.op('tensor.extract_slice %s[%s] [%s] [%s] : %s to %s'
                    % (X, part(offs), part(sizes), part(strides), X.ty, t), X.et,
                    tuple(out_shape), dyn, 'sl')

    f = F.fn('slice_static_2d_f32')
    x = f.rng.floats((10, 12), 'f32')
    X = f.const(x, 'f32')
    f.expect_eq_const(slice_(f, X, (2, 1), (3, 4), (2, 1), (3, 4)), x[2:8:2, 1:5])
    f.expect_eq_const(slice_(f, X, (9, 11), (1, 1), (1, 1), (1, 1)), x[9:10, 11:12])

    f = F.fn('slice_rank_reducing_and_strided_3d')
    x = random_of(f, 'i8', (5, 7, 3))
    X = f.const(x, 'i8')
    f.expect_eq_const(slice_(f, X, (2, 0, 1), (1, 7, 1), (1, 1, 1), (7,)), x[2, :, 1])
    f.expect_eq_const(slice_(f, X, (0, 1, 0), (3, 2, 2), (2, 3, 2), (3, 2, 2)),
                      x[0:5:2, 1:7:3, 0:3:2])
    h = random_of(f, 'f16', (4, 6))
    H = f.const(h, 'f16')
    f.expect_eq_const(slice_(f, H, (0, 3), (4, 1), (1, 1), (4,)), h[:, 3])

    f = F.fn('slice_runtime_offsets_and_sizes')
    x = f.rng.floats((10, 8), 'f32')
    X = f.const(x, 'f32')
    o = f.op('arith.index_cast %s : i32 to index' % f.scalar(3, 'i32', how='unfoldable'),
             'index', hint='off')
    sizer = f.const(np.zeros((5,), np.float32), 'f32', 'dynamic')
    n = f.dim(sizer, 0)
    r = f.op('tensor.extract_slice %s[%s, 2] [%s, 4] [1, 1] : %s to %s'
             % (X, o, n, X.ty, ttype((5, 4), 'f32', (0,))), 'f32', (5, 4), (0,), 'sl')
    f.expect_eq_const(r, x[3:8, 2:6])

    f = F.fn('slice_of_dynamic_tensor_i64_bf16_i1')
    x = random_of(f, 'i64', (6, 9))
    X = f.const(x, 'i64', 'dynamic')
    f.expect_eq_const(slice_(f, X, (1, 2), (4, 3), (1, 2), (4, 3)), x[1:5, 2:8:2])
    g = random_of(f, 'bf16', (31,))
    G = f.const(g, 'bf16', 'dynamic')
    f.expect_eq_const(slice_(f, G, (30,), (1,), (1,), (1,)), g[30:])
    b = random_of(f, 'i1', (3, 7))
    B = f.const(b, 'i1')
    f.expect_eq_const(slice_(f, B, (1, 0), (2, 7), (1, 1), (2, 7)), b[1:3])

    # A slice of no elements is in bounds at any offset (MLIR checks only
    # that a non-empty slice ends inside): a size of 0 known only at run
    # time, at the end of a dim and in a dim of size 0. The device and the
    # CPU runner refused both (the last index of an empty slice counted
    # as its offset when the size came from tensor data; tensor_random
    # seed 142 at h/fuzzgen).
    f = F.fn('slice_runtime_size_zero')
    x = f.rng.floats((4, 6), 'f32')
    X = f.const(x, 'f32')
    # Offset and size read from tensor data, as importers compute them
    # (an unfoldable scalar took another path that was right).
    IX = f.const(np.array([4, 0], np.int32), 'i32', 'dynamic')

    def from_data(k, hint):
        e = f.op('tensor.extract %s[%s] : %s' % (IX, f.idx(k), IX.ty), 'i32', hint='ix')
        return f.op('arith.index_cast %s : i32 to index' % e, 'index', hint=hint)
    o = from_data(0, 'off')
    z = from_data(1, 'n')
    r = f.op('tensor.extract_slice %s[%s, 1] [%s, 3] [1, 1] : %s to %s'
             % (X, o, z, X.ty, ttype((0, 3), 'f32', (0,))), 'f32', (0, 3), (0,), 'sl')
    f.expect_index(f.dim(r, 0), 0)
    E0 = f.op('tensor.extract_slice %s[0, 0] [0, 5] [1, 1] : %s to %s'
              % (X, X.ty, ttype((0, 5), 'f32')), 'f32', (0, 5), (), 'sl')
    E = f.op('tensor.cast %s : %s to %s' % (E0, E0.ty, ttype((0, 5), 'f32', (0,))),
             'f32', (0, 5), (0,), 'dyn')
    e = f.op('tensor.extract_slice %s[%s, 1] [%s, 2] [1, 1] : %s to %s'
             % (E, z, z, E.ty, ttype((0, 2), 'f32', (0,))), 'f32', (0, 2), (0,), 'sl')
    f.expect_index(f.dim(e, 0), 0)
    d = f.rng.floats((4, 6), 'f32')
    D = f.const(d, 'f32')
    w = f.op('tensor.insert_slice %s into %s[%s, 2] [%s, 3] [1, 1] : %s into %s'
             % (r, D, o, z, r.ty, D.ty), 'f32', (4, 6), (), 'ins')
    f.expect_eq_const(w, d)

    # MLIR drops a unit slice dim only where the result's next dim is not
    # a static 1: [1, 2, 1, 2] to 1x2x2 keeps dims 0, 1 and 3 (kiln dropped
    # dim 0 and refused the program on every backend).
    f = F.fn('slice_rank_reducing_keeps_a_leading_unit_dim')
    x = f.rng.floats((1, 2, 3, 4), 'f32')
    X = f.const(x, 'f32')
    f.expect_eq_const(slice_(f, X, (0, 0, 1, 0), (1, 2, 1, 4), (1, 1, 1, 1), (1, 2, 4)),
                      x[0:1, :, 1, :])
    f.expect_eq_const(slice_(f, X, (0, 1, 2, 1), (1, 1, 1, 3), (1, 1, 1, 1), (1, 3)),
                      x[0:1, 1, 2, 1:4])


@testfile('insert_slice.mlir', '''
tensor.insert_slice: into zeros, strided, a 1-D row into a 2-D tensor
(rank-expanding), at run-time offsets, into a dynamic destination, and
i32 / i1 / bf16 / i16 data.''')
def _(F):
    def insert(f, S, D, offs, sizes, strides):
        def part(v):
            return ', '.join(str(p) for p in v)
        return f.op('tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s'
                    % (S, D, part(offs), part(sizes), part(strides), S.ty, D.ty), D.et,
                    D.shape, D.dyn, 'ins')

    f = F.fn('insert_static_and_strided_f32')
    s = f.rng.floats((2, 3), 'f32')
    S = f.const(s, 'f32')
    D = f.full(0.0, (5, 7), 'f32')
    ref = np.zeros((5, 7), np.float32)
    ref[1:3, 2:5] = s
    f.expect_eq_const(insert(f, S, D, (1, 2), (2, 3), (1, 1)), ref)
    ref2 = np.zeros((5, 7), np.float32)
    ref2[0:4:3, 0:7:3] = s
    f.expect_eq_const(insert(f, S, D, (0, 0), (2, 3), (3, 3)), ref2)

    # The rank-expanding insert keeps the source's leading unit dim, as
    # MLIR does: a 1x2x4 source fills [1, 2, 1, 4] at [0, 0, 2, 0].
    f = F.fn('insert_rank_expanding_keeps_a_leading_unit_dim')
    src = f.rng.floats((1, 2, 4), 'f32')
    Sr = f.const(src, 'f32')
    Dz = f.full(0.0, (1, 2, 3, 4), 'f32')
    ref = np.zeros((1, 2, 3, 4), np.float32)
    ref[:, :, 2, :] = src
    f.expect_eq_const(insert(f, Sr, Dz, (0, 0, 2, 0), (1, 2, 1, 4), (1, 1, 1, 1)), ref)

    f = F.fn('insert_row_rank_expanding_i32')
    row = f.rng.ints((4,), -99, 99).astype(np.int32)
    dst = f.rng.ints((3, 4), -99, 99).astype(np.int32)
    R, Dd = f.const(row, 'i32'), f.const(dst, 'i32')
    ref = dst.copy()
    ref[1] = row
    f.expect_eq_const(insert(f, R, Dd, (1, 0), (1, 4), (1, 1)), ref)

    f = F.fn('insert_runtime_offset_dynamic_destination_i16')
    s = random_of(f, 'i16', (3,))
    d = random_of(f, 'i16', (11,))
    S = f.const(s, 'i16')
    Dd = f.const(d, 'i16', 'dynamic')
    o = f.op('arith.index_cast %s : i32 to index' % f.scalar(6, 'i32', how='unfoldable'),
             'index', hint='off')
    r = f.op('tensor.insert_slice %s into %s[%s] [3] [1] : %s into %s'
             % (S, Dd, o, S.ty, Dd.ty), 'i16', (11,), (0,), 'ins')
    ref = d.copy()
    ref[6:9] = s
    f.expect_eq_const(r, ref)

    f = F.fn('insert_i1_and_bf16')
    b = random_of(f, 'i1', (2, 2))
    B = f.const(b, 'i1')
    D = f.full(False, (4, 4), 'i1')
    ref = np.zeros((4, 4), bool)
    ref[2:4, 1:3] = b
    f.expect_eq_const(insert(f, B, D, (2, 1), (2, 2), (1, 1)), ref)
    g = random_of(f, 'bf16', (5,))
    G = f.const(g, 'bf16')
    D = f.full(1.0, (2, 5), 'bf16')
    ref = np.ones((2, 5), np.float32)
    ref[0] = g
    f.expect_eq_const(insert(f, G, D, (0, 0), (1, 5), (1, 1)), ref)


@testfile('collapse_shape.mlir', '''
tensor.collapse_shape: grouping leading and trailing dims, everything into
1-D, dropping unit dims, 1x1 into 0-d, a dynamic dim, followed by an
elementwise op on the collapsed view.''')
def _(F):
    def collapse(f, X, groups, shape, dyn=()):
        g = '[%s]' % ', '.join('[%s]' % ', '.join(map(str, grp)) for grp in groups)
        t = ttype(shape, X.et, dyn)
        return f.op('tensor.collapse_shape %s %s : %s into %s' % (X, g, X.ty, t), X.et,
                    tuple(shape), dyn, 'col')

    f = F.fn('collapse_2x3x4_f32')
    x = f.rng.floats((2, 3, 4), 'f32')
    X = f.const(x, 'f32')
    f.expect_eq_const(collapse(f, X, [[0, 1], [2]], (6, 4)), x.reshape(6, 4))
    f.expect_eq_const(collapse(f, X, [[0], [1, 2]], (2, 12)), x.reshape(2, 12))
    f.expect_eq_const(collapse(f, X, [[0, 1, 2]], (24,)), x.reshape(24))

    f = F.fn('collapse_unit_dims_i8_and_0d')
    x = random_of(f, 'i8', (1, 7, 1))
    X = f.const(x, 'i8')
    f.expect_eq_const(collapse(f, X, [[0, 1, 2]], (7,)), x.reshape(7))
    y = random_of(f, 'i64', (1, 1))
    Y = f.const(y, 'i64')
    f.expect_eq_const(collapse(f, Y, [], ()), y.reshape(()))

    f = F.fn('collapse_dynamic_then_add_f16')
    x = random_of(f, 'f16', (5, 4), -10, 10)
    X = f.const(x, 'f16', 'dynamic', dyn=(0,))
    c = collapse(f, X, [[0, 1]], (20,), (0,))
    r = f.op('arith.addf %s, %s : %s' % (c, c, c.ty), 'f16', (20,), (0,))
    f.expect_eq_const(r, f64(x.reshape(20)) * 2)


@testfile('expand_shape.mlir', '''
tensor.expand_shape in MLIR 19's syntax (reassociation groups plus
`output_shape [...]`): 1-D to 2-D and 3-D, adding unit dims, 0-d to 1x1, a
dynamic dim whose size is computed from tensor.dim, and an op on the view.''')
def _(F):
    def expand(f, X, groups, shape, out_sizes=None, dyn=()):
        g = '[%s]' % ', '.join('[%s]' % ', '.join(map(str, grp)) for grp in groups)
        os_ = out_sizes or [str(d) for d in shape]
        t = ttype(shape, X.et, dyn)
        return f.op('tensor.expand_shape %s %s output_shape [%s] : %s into %s'
                    % (X, g, ', '.join(map(str, os_)), X.ty, t), X.et, tuple(shape), dyn,
                    'exp')

    f = F.fn('expand_6_to_2x3_and_24_to_2x3x4')
    x = f.rng.floats((6,), 'f32')
    X = f.const(x, 'f32')
    f.expect_eq_const(expand(f, X, [[0, 1]], (2, 3)), x.reshape(2, 3))
    y = random_of(f, 'i16', (24,))
    Y = f.const(y, 'i16')
    f.expect_eq_const(expand(f, Y, [[0, 1, 2]], (2, 3, 4)), y.reshape(2, 3, 4))
    f.expect_eq_const(expand(f, Y, [[0, 1]], (4, 6)), y.reshape(4, 6))

    f = F.fn('expand_unit_dims_and_0d')
    x = random_of(f, 'bf16', (5,))
    X = f.const(x, 'bf16')
    f.expect_eq_const(expand(f, X, [[0, 1, 2]], (1, 5, 1)), x.reshape(1, 5, 1))
    z = np.array(True)
    Z = f.const(z, 'i1')
    f.expect_eq_const(expand(f, Z, [], (1, 1)), z.reshape(1, 1))

    f = F.fn('expand_dynamic_then_reduce')
    x = f.rng.ints((20,), -50, 50).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    n = f.dim(X, 0)
    q = f.op('arith.divui %s, %s : index' % (n, f.idx(4)), 'index', hint='q')
    e = expand(f, X, [[0, 1]], (5, 4), [q, 4], (0,))
    init = f.fill(f.scalar(0, 'i32'), f.empty((5,), 'i32', (0,), {0: q}))
    r = f.op('linalg.reduce { arith.addi } ins(%s : %s) outs(%s : %s) dimensions = [1]'
             % (e, e.ty, init, init.ty), 'i32', (5,), (0,), 'red')
    f.expect_eq_const(r, x.reshape(5, 4).sum(axis=1))


@testfile('reshape_generate_affine.mlir', '''
Ops importers emit that kiln reads as ops it already compiles (rewrites at
import): tensor.reshape with a shape operand (a constant, an index tensor,
sizes computed from tensor.dim through tensor.from_elements, a dynamic
source to a static result, to and from 1-D), tensor.generate (a dynamic
iota-like tensor from its region's indices, a value captured from outside)
and affine.apply / affine.min / affine.max on index values (floordiv,
ceildiv and mod of negative values: Python's // and % are the oracle, as
affine's floordiv rounds toward -inf and mod is non-negative for a positive
divisor), used as sizes of a slice; IREE's util.assume.int on sizes (a
range and a divisor, or a list of them; kiln reads the facts and drops the
op); ml_program.global values read with
ml_program.global_load (a constant global and a mutable one never stored to;
global_load_const reads the same way, but MLIR 19 does not bufferize it, so
gen.py --run-mlir could not run it).''')
def _(F):
    f = F.fn('reshape_constant_shape_f32_2x3')
    x = f.rng.floats((2, 3), 'f32')
    X = f.const(x, 'f32')
    s = f.const(np.array([3, 2], dtype=np.int64), 'i64', 'arith', hint='shape')
    r = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s' % (X, s, X.ty, s.ty, ttype((3, 2), 'f32')),
             'f32', (3, 2), hint='rs')
    f.expect_eq_const(r, x.reshape(3, 2))
    s1 = f.const(np.array([6], dtype=np.int64), 'i64', 'arith', hint='shape')
    r1 = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s' % (X, s1, X.ty, s1.ty, ttype((6,), 'f32')),
              'f32', (6,), hint='rs')
    f.expect_eq_const(r1, x.reshape(6))
    y = random_of(f, 'i16', (2, 3, 4))
    Y = f.const(y, 'i16')
    s3 = f.op('arith.constant dense<[4, 1, 6]> : tensor<3xindex>', 'index', (3,), hint='shape')
    r3 = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s'
              % (Y, s3, Y.ty, s3.ty, ttype((4, 1, 6), 'i16')), 'i16', (4, 1, 6), hint='rs')
    f.expect_eq_const(r3, y.reshape(4, 1, 6))

    f = F.fn('reshape_sizes_from_dims_i32_dynamic_4x6')
    x = f.rng.ints((4, 6), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    n = f.op('arith.muli %s, %s : index' % (f.dim(X, 0), f.dim(X, 1)), 'index', hint='n')
    q = f.op('arith.divui %s, %s : index' % (n, f.idx(3)), 'index', hint='q')
    q64 = f.op('arith.index_cast %s : index to i64' % q, 'i64', hint='q')
    three = f.scalar(3, 'i64')
    s = f.op('tensor.from_elements %s, %s : %s' % (q64, three, ttype((2,), 'i64')), 'i64', (2,),
             hint='shape')
    r = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s'
             % (X, s, X.ty, s.ty, ttype((8, 3), 'i32', (0,))), 'i32', (8, 3), (0,), hint='rs')
    f.expect_eq_const(r, x.reshape(8, 3))
    f.expect_index(f.dim(r, 0), 8)

    f = F.fn('reshape_dynamic_source_to_static_f32')
    x = f.rng.floats((3, 4), 'f32')
    X = f.const(x, 'f32', 'dynamic')
    s = f.const(np.array([3, 2, 2], dtype=np.int64), 'i64', 'arith', hint='shape')
    r = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s'
             % (X, s, X.ty, s.ty, ttype((3, 2, 2), 'f32')), 'f32', (3, 2, 2), hint='rs')
    e = f.elementwise([r], 'f32', '''
^bb0(%x: f32, %o: f32):
  %n = arith.negf %x : f32
  linalg.yield %n : f32''')
    f.expect_eq_const(e, -x.reshape(3, 2, 2))
    z = np.array([2.5], dtype=np.float32)
    Z = f.const(z, 'f32')
    s0 = f.op('arith.constant dense<> : tensor<0xi64>', 'i64', (0,), hint='shape')
    r0 = f.op('tensor.reshape %s(%s) : (%s, %s) -> %s' % (Z, s0, Z.ty, s0.ty, ttype((), 'f32')),
              'f32', (), hint='rs')
    f.expect_eq_const(r0, z.reshape(()))

    f = F.fn('generate_dynamic_i32_and_captured_f32')
    X = f.const(f.rng.ints((5,), 0, 9).astype(np.int32), 'i32', 'dynamic')
    n = f.dim(X, 0)
    g = f.op('''tensor.generate %s {
^bb0(%%i: index, %%j: index):
  %%m = arith.muli %%i, %%j : index
  %%k = arith.subi %%m, %%j : index
  %%v = arith.index_cast %%k : index to i32
  tensor.yield %%v : i32
} : %s''' % (n, ttype((5, 4), 'i32', (0,))), 'i32', (5, 4), (0,), hint='gen')
    i, j = np.meshgrid(np.arange(5), np.arange(4), indexing='ij')
    f.expect_eq_const(g, (i * j - j).astype(np.int32))
    w = f.scalar(0.5, 'f32')
    h = f.op('''tensor.generate {
^bb0(%%i: index, %%j: index):
  %%s = arith.addi %%i, %%j : index
  %%t = arith.index_cast %%s : index to i32
  %%u = arith.sitofp %%t : i32 to f32
  %%v = arith.mulf %%u, %s : f32
  tensor.yield %%v : f32
} : %s''' % (w, ttype((3, 7), 'f32')), 'f32', (3, 7), hint='gen')
    i, j = np.meshgrid(np.arange(3), np.arange(7), indexing='ij')
    f.expect_eq_const(h, (i + j) * 0.5)

    f = F.fn('affine_apply_min_max_index')
    x = f.rng.ints((10,), -100, 100).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    d = f.dim(X, 0)
    m = f.op('arith.subi %s, %s : index' % (f.idx(3), d), 'index', hint='m')  # -7
    cases = [
        ('(d0)[s0] -> (d0 * 3 + s0 - 7)', [d], [f.idx(2)], lambda a, s: a * 3 + s - 7, (10, 2)),
        ('(d0) -> (d0 floordiv 4)', [m], [], lambda a: a // 4, (-7,)),
        ('(d0) -> (d0 ceildiv 4)', [m], [], lambda a: -(-a // 4), (-7,)),
        ('(d0) -> (d0 mod 4)', [m], [], lambda a: a % 4, (-7,)),
        ('(d0, d1) -> ((d0 + d1 * 2) mod 3 + d1 floordiv 2)', [d, m], [],
         lambda a, b: (a + b * 2) % 3 + b // 2, (10, -7)),
        ('(d0) -> (d0)', [d], [], lambda a: a, (10,)),
    ]
    for text, dims, syms, fn, args in cases:
        sym = '[%s]' % ', '.join(map(str, syms)) if syms else ''
        v = f.op('affine.apply %s(%s)%s' % (amap(text), ', '.join(map(str, dims)), sym), 'index',
                 hint='ap')
        f.expect_index(v, fn(*args))
    lo = f.op('affine.min %s(%s)' % (amap('(d0)[s0] -> (d0 - 4, s0, 5)'), d) + '[%s]' % f.idx(9),
              'index', hint='mn')
    f.expect_index(lo, min(10 - 4, 9, 5))
    hi = f.op('affine.max %s(%s)' % (amap('(d0) -> (d0 ceildiv 3, d0 mod 7, 1)'), m), 'index',
              hint='mx')
    f.expect_index(hi, max(-(7 // 3), -7 % 7, 1))
    # A size from affine.apply drives a slice.
    sz = f.op('affine.apply %s(%s)' % (amap('(d0) -> (d0 floordiv 2 - 1)'), d), 'index',
              hint='ap')
    sl = f.op('tensor.extract_slice %s[1] [%s] [2] : %s to %s'
              % (X, sz, X.ty, ttype((4,), 'i32', (0,))), 'i32', (4,), (0,), hint='sl')
    f.expect_eq_const(sl, x[1:9:2])

    f = F.fn('assume_int_on_sizes_i32')
    x = f.rng.ints((12,), -100, 100).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic')
    d = f.dim(X, 0)
    a = f.op('util.assume.int %s<umin = 1, umax = 4096, udiv = 4> : index' % d, 'index', hint='a')
    h = f.op('arith.divui %s, %s : index' % (a, f.idx(2)), 'index', hint='h')
    b = f.op('util.assume.int %s[<umin = 0, umax = 8>, <udiv = 2>, <>] : index' % h, 'index',
             hint='b')
    f.expect_index(b, 6)
    sl = f.op('tensor.extract_slice %s[%s] [%s] [1] : %s to %s'
              % (X, f.idx(2), b, X.ty, ttype((6,), 'i32', (0,))), 'i32', (6,), (0,), hint='sl')
    f.expect_eq_const(sl, x[2:8])

    f = F.fn('ml_program_global_loads_f32_i64')
    w = f.rng.floats((2, 3), 'f32')
    F.prelude.append('ml_program.global private @weights(%s : %s) : %s'
                     % (dense(w, 'f32'), ttype((2, 3), 'f32'), ttype((2, 3), 'f32')))
    F.prelude.append('ml_program.global private mutable @seed(dense<7> : tensor<i64>) : '
                     'tensor<i64>')
    W = f.op('ml_program.global_load @weights : %s' % ttype((2, 3), 'f32'), 'f32', (2, 3),
             hint='w')
    f.expect_eq_const(W, w)
    twice = f.elementwise([W], 'f32', '''
^bb0(%x: f32, %o: f32):
  %y = arith.addf %x, %x : f32
  linalg.yield %y : f32''')
    f.expect_eq_const(twice, f64(w) * 2)
    S = f.op('ml_program.global_load @seed : tensor<i64>', 'i64', (), hint='seed')
    f.expect_eq_const(S, np.array(7))


@testfile('scf_tensor.mlir', """
scf.for and scf.if on tensors, as torch-mlir writes LSTMs/RNNs and MLIR 19's
TOSA lowering writes tosa.cond_if (kiln resolves them at import: a loop
whose bounds are constants or static sizes is unrolled; an if whose
condition is known takes its branch, one known only at run time computes
both branches and selects). A loop carrying a tensor (with a non-zero lower
bound and a step of 2, the induction variable used in the body), a loop over
the rows of a tensor bounded by tensor.dim, nested loops carrying a scalar,
an RNN cell (matmul + tanh) over time steps, if on a constant condition
and on one read from tensor data, and scf.while loops whose condition
follows from a counter and a static size (unrolled at import; one runs no
trip). An if on a condition read from tensor data whose branch can fail
(slices, an element and an insert at an offset read from data, a slice of a
tensor sized by data, a cf.assert), taken on one input and not on another,
where the branch not taken would fail if it ran. numpy computes every
expected value (float64, rounded once).""")
def _(F):
    m1 = amap(ident(1))
    m2 = amap(ident(2))
    f = F.fn('scf_for_carried_tensor_f32_step_2')
    x = f.rng.dyadic((6,), 'f32', -64, 64, 16)
    X = f.const(x, 'f32')
    lb, ub, st = f.idx(1), f.idx(8), f.idx(2)
    T1 = X.ty
    body = '\n'.join([
        'scf.for %%iv = %s to %s step %s iter_args(%%acc = %s) -> (%s) {' % (lb, ub, st, X, T1),
        '    %bi = arith.index_cast %iv : index to i32',
        '    %bf = arith.sitofp %bi : i32 to f32',
        '    %%be = tensor.empty() : %s' % T1,
        '    %%bn = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = ["parallel"]}'
        ' ins(%%acc, %s : %s, %s) outs(%%be : %s) {' % (m1, m1, m1, X, T1, T1, T1),
        '    ^bb0(%a: f32, %b: f32, %o: f32):',
        '      %h = arith.constant 0.5 : f32',
        '      %m = arith.mulf %a, %h : f32',
        '      %s = arith.addf %m, %b : f32',
        '      %t = arith.addf %s, %bf : f32',
        '      linalg.yield %t : f32',
        '    } -> %s' % T1,
        '    scf.yield %%bn : %s' % T1,
        '  }'])
    r = f.op(body, 'f32', (6,), hint='loop')
    acc = f64(x)
    for iv in range(1, 8, 2):
        acc = acc * 0.5 + f64(x) + iv
    f.expect_eq_const(r, acc)

    f = F.fn('scf_for_rows_by_dim_i32_5x3')
    x = f.rng.ints((5, 3), -1000, 1000).astype(np.int32)
    X = f.const(x, 'i32')
    n = f.dim(X, 0)
    z = f.full(0, (3,), 'i32')
    T3 = z.ty
    body = '\n'.join([
        'scf.for %%i = %s to %s step %s iter_args(%%acc = %s) -> (%s) {' % (f.idx(0), n, f.idx(1),
                                                                          z, T3),
        '    %%row = tensor.extract_slice %s[%%i, 0] [1, 3] [1, 1] : %s to %s' % (X, X.ty, T3),
        '    %%be = tensor.empty() : %s' % T3,
        '    %%bn = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = ["parallel"]}'
        ' ins(%%acc, %%row : %s, %s) outs(%%be : %s) {' % (m1, m1, m1, T3, T3, T3),
        '    ^bb0(%a: i32, %b: i32, %o: i32):',
        '      %s = arith.addi %a, %b : i32',
        '      linalg.yield %s : i32',
        '    } -> %s' % T3,
        '    scf.yield %%bn : %s' % T3,
        '  }'])
    r = f.op(body, 'i32', (3,), hint='loop')
    f.expect_eq_const(r, x.sum(axis=0, dtype=np.int64).astype(np.int32))

    f = F.fn('scf_for_nested_scalar_i32')
    zero = f.scalar(0, 'i32')
    body = '\n'.join([
        'scf.for %%i = %s to %s step %s iter_args(%%acc = %s) -> (i32) {' % (f.idx(0), f.idx(3),
                                                                           f.idx(1), zero),
        '    %%inner = scf.for %%j = %s to %s step %s iter_args(%%a = %%acc) -> (i32) {'
        % (f.idx(1), f.idx(5), f.idx(1)),
        '      %k = arith.muli %i, %j : index',
        '      %ki = arith.index_cast %k : index to i32',
        '      %s = arith.addi %a, %ki : i32',
        '      scf.yield %s : i32',
        '    }',
        '    scf.yield %inner : i32',
        '  }'])
    r = f.op(body, 'i32', hint='loop')
    t = f.op('tensor.from_elements %s : %s' % (r, ttype((1,), 'i32')), 'i32', (1,), hint='t')
    f.expect_eq_const(t, np.array([sum(i * j for i in range(3) for j in range(1, 5))],
                                  dtype=np.int32))

    f = F.fn('scf_for_rnn_cell_f32_3_steps')
    T, D = 3, 4
    x = f.rng.floats((T, D), 'f32')
    w = f.rng.floats((D, D), 'f32', -0.5, 0.5)
    u = f.rng.floats((D, D), 'f32', -0.5, 0.5)
    X, W, U = f.const(x, 'f32'), f.const(w, 'f32'), f.const(u, 'f32')
    h0 = f.full(0.0, (1, D), 'f32')
    ht = ttype((1, D), 'f32')
    body = '\n'.join([
        'scf.for %%t = %s to %s step %s iter_args(%%h = %s) -> (%s) {' % (f.idx(0), f.idx(T),
                                                                        f.idx(1), h0, ht),
        '    %%xt = tensor.extract_slice %s[%%t, 0] [1, %d] [1, 1] : %s to %s' % (X, D, X.ty, ht),
        '    %z = arith.constant 0.0 : f32',
        '    %%e = tensor.empty() : %s' % ht,
        '    %%f = linalg.fill ins(%%z : f32) outs(%%e : %s) -> %s' % (ht, ht),
        '    %%xw = linalg.matmul ins(%%xt, %s : %s, %s) outs(%%f : %s) -> %s'
        % (W, ht, W.ty, ht, ht),
        '    %%hu = linalg.matmul ins(%%h, %s : %s, %s) outs(%%xw : %s) -> %s'
        % (U, ht, U.ty, ht, ht),
        '    %%n = linalg.generic {indexing_maps = [%s, %s], iterator_types = ["parallel", '
        '"parallel"]} ins(%%hu : %s) outs(%%e : %s) {' % (m2, m2, ht, ht),
        '    ^bb0(%a: f32, %o: f32):',
        '      %th = math.tanh %a : f32',
        '      linalg.yield %th : f32',
        '    } -> %s' % ht,
        '    scf.yield %%n : %s' % ht,
        '  }'])
    r = f.op(body, 'f32', (1, D), hint='loop')
    h = np.zeros((1, D))
    for t in range(T):
        h = np.tanh(f64(x)[t:t + 1] @ f64(w) + h @ f64(u))
    f.expect_almost_eq_const(r, h, atol=1e-5, rtol=1e-5)

    f = F.fn('scf_if_known_and_runtime_conditions_i32')
    a = f.rng.ints((4,), -1000, 1000).astype(np.int32)
    b = f.rng.ints((4,), -1000, 1000).astype(np.int32)
    A, B = f.const(a, 'i32'), f.const(b, 'i32')
    TA = A.ty

    def branch(op, tag):
        return [
            '    %%e%s = tensor.empty() : %s' % (tag, TA),
            '    %%s%s = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = '
            '["parallel"]} ins(%s, %s : %s, %s) outs(%%e%s : %s) {'
            % (tag, m1, m1, m1, A, B, TA, TA, tag, TA),
            '    ^bb0(%x: i32, %y: i32, %o: i32):',
            '      %%v = %s %%x, %%y : i32' % op,
            '      linalg.yield %v : i32',
            '    } -> %s' % TA,
            '    scf.yield %%s%s : %s' % (tag, TA)]

    def if_op(cond):
        text = '\n'.join(['scf.if %s -> (%s) {' % (cond, TA)] + branch('arith.addi', '1')
                         + ['  } else {'] + branch('arith.subi', '2') + ['  }'])
        return f.op(text, 'i32', (4,), hint='if')
    known = f.op('arith.cmpi slt, %s, %s : index' % (f.idx(2), f.idx(3)), 'i1', hint='c')
    f.expect_eq_const(if_op(known), a + b)
    for flag in (True, False):
        G = f.op('util.unfoldable_constant dense<%s> : tensor<i1>' % ('true' if flag else 'false'),
                 'i1', (), hint='flag')
        c = f.op('tensor.extract %s[] : tensor<i1>' % G, 'i1', hint='c')
        f.expect_eq_const(if_op(c), a + b if flag else a - b)

    # An if on a condition read from tensor data whose `then` branch can
    # fail (NonMaxSuppression through torch-mlir): a slice and an element
    # at an offset read from data, a slice inserted there, a slice of a
    # tensor whose size is read from data, a cf.assert. The branch not
    # taken must not fail: on the second input its offset is far out of
    # bounds and its dynamic tensor too short.
    for taken in (True, False):
        f = F.fn('scf_if_runtime_branch_that_can_fail_i32_%s' % ('taken' if taken else 'not_taken'))
        x = f.rng.ints((8,), -1000, 1000).astype(np.int32)
        X = f.const(x, 'i32')
        flag, off, n = (1, 3, 6) if taken else (0, 100, 1)
        P = f.const(np.array([flag, off, n], dtype=np.int64), 'i64', hint='p')
        z8 = f.full(0, (8,), 'i32')
        ps = [f.op('tensor.extract %s[%s] : %s' % (P, f.idx(k), P.ty), 'i64', hint='q')
              for k in range(3)]
        c = f.op('arith.cmpi ne, %s, %s : i64' % (ps[0], f.scalar(0, 'i64')), 'i1', hint='c')
        o = f.op('arith.index_cast %s : i64 to index' % ps[1], 'index', hint='o')
        m = f.op('arith.index_cast %s : i64 to index' % ps[2], 'index', hint='m')
        D = f.op('tensor.extract_slice %s[0] [%s] [1] : %s to %s'
                 % (X, m, X.ty, ttype((8,), 'i32', (0,))), 'i32', (8,), (0,), hint='dyn')
        T4, T8, T2 = ttype((4,), 'i32'), z8.ty, ttype((2,), 'i32')
        ok = f.op('arith.cmpi sle, %s, %s : index' % (o, f.idx(4)), 'i1', hint='ok')
        body = '\n'.join([
            'scf.if %s -> (%s, %s, i32, %s) {' % (c, T4, T8, T2),
            '    cf.assert %s, "offset within the tensor"' % ok,
            '    %%sa = tensor.extract_slice %s[%s] [4] [1] : %s to %s' % (X, o, X.ty, T4),
            '    %%ia = tensor.insert_slice %%sa into %s[%s] [4] [1] : %s into %s'
            % (z8, o, T4, T8),
            '    %%ea = tensor.extract %s[%s] : %s' % (X, o, X.ty),
            '    %%da = tensor.extract_slice %s[%s] [2] [1] : %s to %s' % (D, o, D.ty, T2),
            '    scf.yield %%sa, %%ia, %%ea, %%da : %s, %s, i32, %s' % (T4, T8, T2),
            '  } else {',
            '    %%sb = tensor.extract_slice %s[0] [4] [1] : %s to %s' % (X, X.ty, T4),
            '    %%eb = tensor.extract %s[%s] : %s' % (X, f.idx(0), X.ty),
            '    %%db = tensor.extract_slice %s[0] [2] [1] : %s to %s' % (X, X.ty, T2),
            '    scf.yield %%sb, %s, %%eb, %%db : %s, %s, i32, %s' % (z8, T4, T8, T2),
            '  }'])
        w = f.fresh('if')
        f.emit('%s:4 = %s' % (w, body))
        k = off if taken else 0
        f.expect_eq_const(V(w + '#0', 'i32', (4,), ()), x[k:k + 4])
        ins = np.zeros(8, dtype=np.int32)
        if taken:
            ins[off:off + 4] = x[off:off + 4]
        f.expect_eq_const(V(w + '#1', 'i32', (8,), ()), ins)
        e = f.op('tensor.from_elements %s#2 : %s' % (w, ttype((1,), 'i32')), 'i32', (1,),
                 hint='t')
        f.expect_eq_const(e, x[k:k + 1])
        f.expect_eq_const(V(w + '#3', 'i32', (2,), ()), x[k:k + 2])


    for trips in (4, 0):
        f = F.fn('scf_while_counter_carried_tensor_f32_%d_trips' % trips)
        x = f.rng.dyadic((6,), 'f32', -64, 64, 16)
        X = f.const(x, 'f32')
        T1 = X.ty
        zero = f.scalar(0, 'i32')
        n = f.dim(X, 0)
        body = '\n'.join([
            'scf.while (%%i = %s, %%acc = %s) : (i32, %s) -> (i32, %s) {' % (zero, X, T1, T1),
            '    %ii = arith.index_cast %i : i32 to index',
            '    %%lim = arith.subi %s, %s : index' % (n, f.idx(6 - trips)),
            '    %go = arith.cmpi slt, %ii, %lim : index',
            '    scf.condition(%%go) %%i, %%acc : i32, %s' % T1,
            '  } do {',
            '  ^bb0(%%j: i32, %%a: %s):' % T1,
            '    %bf = arith.sitofp %j : i32 to f32',
            '    %%be = tensor.empty() : %s' % T1,
            '    %%bn = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = ["parallel"]}'
            ' ins(%%a, %s : %s, %s) outs(%%be : %s) {' % (m1, m1, m1, X, T1, T1, T1),
            '    ^bb0(%p: f32, %q: f32, %o: f32):',
            '      %h = arith.constant 0.5 : f32',
            '      %m = arith.mulf %p, %h : f32',
            '      %s = arith.addf %m, %q : f32',
            '      %t = arith.addf %s, %bf : f32',
            '      linalg.yield %t : f32',
            '    } -> %s' % T1,
            '    %one = arith.constant 1 : i32',
            '    %next = arith.addi %j, %one : i32',
            '    scf.yield %%next, %%bn : i32, %s' % T1,
            '  }'])
        w = f.fresh('while')
        f.emit('%s:2 = %s' % (w, body))
        acc = f64(x)
        for i in range(trips):
            acc = acc * 0.5 + f64(x) + i
        f.expect_eq_const(V(w + '#1', 'f32', (6,), ()), acc)
        cnt = f.op('tensor.from_elements %s#0 : %s' % (w, ttype((1,), 'i32')), 'i32', (1,),
                   hint='t')
        f.expect_eq_const(cnt, np.array([trips], dtype=np.int32))


@testfile('dense_resource.mlir', """
dense_resource<name> constants with their blobs in the file's
`{-# dialect_resources: { builtin: { ... } } #-}` section, as torch-mlir's FX
importer writes weights: a blob is the hex of a 4-byte little-endian
alignment and the elements' little-endian bytes (numpy's tobytes). f32,
f16, i8 and i64 blobs read by arith.constant, util.unfoldable_constant and an
ml_program.global, then used by a computation. (No i1 blob: MLIR 19's
translation to LLVM IR refuses one, so gen.py --run-mlir could not check it.)""")
def _(F):
    blobs = []

    def blob(name, a, et):
        np_t = {'f32': '<f4', 'f16': '<f2', 'i8': 'i1', 'i64': '<i8', 'i1': 'u1'}[et]
        align = {'f32': 4, 'f16': 2, 'i8': 1, 'i64': 8, 'i1': 1}[et]
        data = np.asarray(a).astype(np_t).tobytes()
        blobs.append('      %s: "0x%s%s"' % (name, align.to_bytes(4, 'little').hex().upper(),
                                              data.hex().upper()))
        return 'dense_resource<%s> : %s' % (name, ttype(np.shape(a), et))

    f = F.fn('resource_f32_f16_weights')
    w = f.rng.dyadic((3, 4), 'f32', -8, 8, 16)
    W = f.op('arith.constant %s' % blob('torch_tensor_3_4_torch.float32', w, 'f32'), 'f32',
             (3, 4), hint='w')
    f.expect_eq_const(W, w)
    h = store('f16', f.rng.floats((5,), 'f16'))
    H = f.op('util.unfoldable_constant %s' % blob('torch_tensor_5_torch.float16', h, 'f16'),
             'f16', (5,), hint='h')
    f.expect_eq_const(H, h)
    x = f.rng.dyadic((3, 4), 'f32', -8, 8, 4)
    X = f.const(x, 'f32')
    s = f.elementwise([X, W], 'f32', """
^bb0(%a: f32, %b: f32, %o: f32):
  %m = arith.addf %a, %b : f32
  linalg.yield %m : f32""")
    f.expect_eq_const(s, f64(x) + f64(w))

    f = F.fn('resource_int_and_global')
    q = store('i8', f.rng.ints((2, 3), -128, 127))
    Q = f.op('arith.constant %s' % blob('q_i8', q, 'i8'), 'i8', (2, 3), hint='q')
    f.expect_eq_const(Q, q)
    big = f.rng.bits64((4,))
    B = f.op('arith.constant %s' % blob('big_i64', big, 'i64'), 'i64', (4,), hint='b')
    f.expect_eq_const(B, big)
    g = store('f32', f.rng.floats((2, 2), 'f32'))
    F.prelude.append('ml_program.global private @bias(%s) : %s'
                     % (blob('bias_f32', g, 'f32'), ttype((2, 2), 'f32')))
    G = f.op('ml_program.global_load @bias : %s' % ttype((2, 2), 'f32'), 'f32', (2, 2),
             hint='g')
    f.expect_eq_const(G, g)

    F.epilogue += ['{-#', '  dialect_resources: {', '    builtin: {']
    F.epilogue += [b + (',' if i + 1 < len(blobs) else '') for i, b in enumerate(blobs)]
    F.epilogue += ['    }', '  }', '#-}']


@testfile('pad.mlir', '''
tensor.pad with constant padding: low and high amounts per dim, a padding
value captured from outside the region, i8 / f16 / bf16 / i1 data, a
dynamic source, run-time pad amounts, and SAME padding before a
convolution.''')
def _(F):
    def pad(f, X, low, high, value, shape, dyn=(), inside=True):
        rank = len(X.shape)
        args = ', '.join('%%%s: index' % 'ijklmn'[k] for k in range(rank))
        if inside:
            body = ('  ^bb0(%s):\n    %%pv = arith.constant %s\n    tensor.yield %%pv : %s'
                    % (args, fmt_scalar(X.et, value) + ('' if X.et == 'i1' else ' : ' + X.et),
                       X.et))
        else:
            body = '  ^bb0(%s):\n    tensor.yield %s : %s' % (args, value, X.et)
        t = ttype(shape, X.et, dyn)
        return f.op('tensor.pad %s low[%s] high[%s] {\n%s\n  } : %s to %s'
                    % (X, ', '.join(map(str, low)), ', '.join(map(str, high)), body, X.ty, t),
                    X.et, tuple(shape), dyn, 'pad')

    def np_pad(x, low, high, value):
        return np.pad(x, list(zip(low, high)), constant_values=value)

    f = F.fn('pad_2d_f32_and_1d_high_only')
    x = f.rng.floats((3, 4), 'f32')
    X = f.const(x, 'f32')
    f.expect_eq_const(pad(f, X, (1, 2), (2, 1), 0.0, (6, 7)), np_pad(x, (1, 2), (2, 1), 0))
    y = f.rng.floats((5,), 'f32')
    Y = f.const(y, 'f32')
    f.expect_eq_const(pad(f, Y, (0,), (3,), -1.5, (8,)), np_pad(y, (0,), (3,), -1.5))

    f = F.fn('pad_captured_value_i8_f16_bf16_i1')
    x = random_of(f, 'i8', (2, 3))
    X = f.const(x, 'i8')
    v = f.scalar(-1, 'i8', how='unfoldable')
    f.expect_eq_const(pad(f, X, (1, 0), (0, 2), v, (3, 5), inside=False),
                      np_pad(x, (1, 0), (0, 2), -1))
    h = random_of(f, 'f16', (4,))
    H = f.const(h, 'f16')
    f.expect_eq_const(pad(f, H, (2,), (2,), 0.5, (8,)), np_pad(h, (2,), (2,), 0.5))
    g = random_of(f, 'bf16', (1, 2))
    G = f.const(g, 'bf16')
    f.expect_eq_const(pad(f, G, (1, 1), (1, 1), 2.0, (3, 4)), np_pad(g, (1, 1), (1, 1), 2.0))
    b = random_of(f, 'i1', (3,))
    B = f.const(b, 'i1')
    f.expect_eq_const(pad(f, B, (1,), (2,), True, (6,)), np_pad(b, (1,), (2,), True))

    f = F.fn('pad_dynamic_source_and_runtime_amounts')
    x = f.rng.ints((4, 5), -9, 9).astype(np.int32)
    X = f.const(x, 'i32', 'dynamic', dyn=(0,))
    f.expect_eq_const(pad(f, X, (0, 1), (0, 2), 0, (4, 8), (0,)), np_pad(x, (0, 1), (0, 2), 0))
    lo = f.op('arith.index_cast %s : i32 to index' % f.scalar(2, 'i32', how='unfoldable'),
              'index', hint='lo')
    Y = f.const(x, 'i32')
    f.expect_eq_const(pad(f, Y, (lo, 0), (1, 0), 7, (7, 5), (0,)), np_pad(x, (2, 0), (1, 0), 7))

    f = F.fn('same_padding_then_conv_1x6x6x2')
    x = f.rng.dyadic((1, 6, 6, 2), 'f32', -16, 16, 8)
    k = f.rng.dyadic((3, 3, 2, 3), 'f32', -16, 16, 8)
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    P = pad(f, X, (0, 1, 1, 0), (0, 1, 1, 0), 0.0, (1, 8, 8, 2))
    r = named(f, 'linalg.conv_2d_nhwc_hwcf', [P, K], [f.full(0.0, (1, 6, 6, 3), 'f32')],
              conv_attrs((1, 1), (1, 1)), 'conv')
    xp = np_pad(x, (0, 1, 1, 0), (0, 1, 1, 0), 0.0)
    win = windows_nhwc(xp, 3, 3, 6, 6, (1, 1), (1, 1))
    f.expect_eq_const(r, contract('nhwijc,ijcf->nhwf', 'f32', win, k))


@testfile('tensor_cast.mlir', '''
tensor.cast between static and dynamic types: static to dynamic and back,
partially dynamic types, dynamic to more static, feeding a dynamic-shape
op with a cast of a static tensor.''')
def _(F):
    f = F.fn('cast_static_dynamic_static')
    x = f.rng.floats((2, 3), 'f32')
    X = f.const(x, 'f32')
    d = f.cast(X, (0, 1))
    b = f.barrier(d)
    s = f.cast(b, ())
    f.expect_eq_const(s, x)

    f = F.fn('cast_partially_dynamic_i64')
    x = random_of(f, 'i64', (4, 3))
    X = f.const(x, 'i64', 'dynamic')
    p = f.cast(X, (1,))
    f.expect_index(f.dim(p, 1), 3)
    f.expect_eq_const(f.cast(f.barrier(p), ()), x)

    f = F.fn('cast_static_into_dynamic_op_i8')
    x = random_of(f, 'i8', (9,))
    X = f.const(x, 'i8')
    d = f.cast(X, (0,))
    r = f.op('arith.addi %s, %s : %s' % (d, d, d.ty), 'i8', (9,), (0,))
    f.expect_eq_const(r, store('i8', x.astype(np.int64) * 2))


@testfile('extract.mlir', '''
tensor.extract of scalars: static and run-time indices, dynamic tensors,
0-d tensors, i1 / i64 / i8 / f16 elements; checked with
check.expect_true / check.expect_false, and by splatting the scalar back
into a tensor.''')
def _(F):
    f = F.fn('extract_static_indices_f32_i64')
    x = f.rng.floats((4, 5), 'f32')
    X = f.const(x, 'f32')
    v = f.op('tensor.extract %s[%s, %s] : %s' % (X, f.idx(3), f.idx(1), X.ty), 'f32', hint='v')
    want = f.scalar(float(x[3, 1]), 'f32')
    f.expect_true(f.op('arith.cmpf oeq, %s, %s : f32' % (v, want), 'i1', hint='ok'))
    other = f.scalar(float(x[1, 3]) + 1.0 if x[1, 3] == x[3, 1] else float(x[1, 3]), 'f32')
    f.expect_false(f.op('arith.cmpf oeq, %s, %s : f32' % (v, other), 'i1', hint='ok'))
    y = random_of(f, 'i64', (3,))
    Y = f.const(y, 'i64')
    w = f.op('tensor.extract %s[%s] : %s' % (Y, f.idx(2), Y.ty), 'i64', hint='v')
    f.expect_true(f.op('arith.cmpi eq, %s, %s : i64' % (w, f.scalar(int(y[2]), 'i64')), 'i1',
                       hint='ok'))

    f = F.fn('extract_runtime_index_dynamic_i8')
    x = random_of(f, 'i8', (2, 3, 7))
    X = f.const(x, 'i8', 'dynamic')
    i = f.op('arith.index_cast %s : i32 to index' % f.scalar(5, 'i32', how='unfoldable'),
             'index', hint='i')
    v = f.op('tensor.extract %s[%s, %s, %s] : %s' % (X, f.idx(1), f.idx(2), i, X.ty), 'i8',
             hint='v')
    t = f.op('tensor.splat %s : %s' % (v, ttype((3,), 'i8')), 'i8', (3,), hint='sp')
    f.expect_eq_const(t, np.full((3,), x[1, 2, 5], np.int8))

    f = F.fn('extract_i1_and_0d_f16')
    b = np.array([[True, False], [False, True]])
    B = f.const(b, 'i1')
    t = f.op('tensor.extract %s[%s, %s] : %s' % (B, f.idx(1), f.idx(1), B.ty), 'i1', hint='v')
    u = f.op('tensor.extract %s[%s, %s] : %s' % (B, f.idx(0), f.idx(1), B.ty), 'i1', hint='v')
    f.expect_true(t)
    f.expect_false(u)
    h = store('f16', 0.333)
    H = f.const(h, 'f16')
    v = f.op('tensor.extract %s[] : %s' % (H, H.ty), 'f16', hint='v')
    r = f.op('tensor.splat %s : %s' % (v, ttype((2, 2), 'f16')), 'f16', (2, 2), hint='sp')
    f.expect_eq_const(r, np.full((2, 2), h, np.float16))


@testfile('concat.mlir', '''
tensor.concat along dims 0, 1 and 2, with two and three operands, unequal
sizes, dynamic operands, and every element type.''')
def _(F):
    def concat(f, dim, vals, shape, dyn=()):
        t = ttype(shape, vals[0].et, dyn)
        return f.op('tensor.concat dim(%d) %s : (%s) -> %s'
                    % (dim, ', '.join(v.name for v in vals), ', '.join(v.ty for v in vals), t),
                    vals[0].et, tuple(shape), dyn, 'cat')

    f = F.fn('concat_every_type_dim0')
    for et in ELEMENT_TYPES:
        a, b = random_of(f, et, (3,)), random_of(f, et, (2,))
        A, B = f.const(a, et), f.const(b, et, how='arith')
        f.expect_eq_const(concat(f, 0, [A, B], (5,)), np.concatenate([a, b]))

    f = F.fn('concat_dim1_i32_and_dim2_three_f32')
    a, b = random_of(f, 'i32', (2, 3)), random_of(f, 'i32', (2, 5))
    A, B = f.const(a, 'i32'), f.const(b, 'i32')
    f.expect_eq_const(concat(f, 1, [A, B], (2, 8)), np.concatenate([a, b], axis=1))
    xs = [f.rng.floats((2, 3, n), 'f32') for n in (1, 4, 2)]
    Xs = [f.const(x, 'f32') for x in xs]
    f.expect_eq_const(concat(f, 2, Xs, (2, 3, 7)), np.concatenate(xs, axis=2))

    f = F.fn('concat_dynamic_operands')
    a, b = f.rng.floats((4, 3), 'f32'), f.rng.floats((6, 3), 'f32')
    A = f.const(a, 'f32', 'dynamic', dyn=(0,))
    B = f.const(b, 'f32', 'dynamic', dyn=(0,))
    f.expect_eq_const(concat(f, 0, [A, B], (10, 3), (0,)), np.concatenate([a, b]))
    c = random_of(f, 'i16', (2, 5))
    C = f.const(c, 'i16', 'dynamic', dyn=(1,))
    D = f.const(c, 'i16')
    f.expect_eq_const(concat(f, 1, [C, D], (2, 10), (1,)), np.concatenate([c, c], axis=1))

    # Many operands (an ONNX Gather with indices known at import is a
    # concat of one slice per index): 120 slices of a table along dim 0,
    # and 97 unequal slices along dim 1. lavapipe ignores selections nested
    # deeper than 80 (llvmpipe's LP_MAX_TGSI_NESTING), so one selection per
    # operand read zeros from element 78 on.
    f = F.fn('concat_many_operands')
    w = f.rng.floats((5,), 'f32')
    W = f.const(w, 'f32')
    picks = [int(k) for k in f.rng.ints((120,), 0, 4)]
    parts = [f.op('tensor.extract_slice %s[%d] [1] [1] : %s to %s'
                  % (W, k, W.ty, ttype((1,), 'f32')), 'f32', (1,), hint='s')
             for k in picks]
    f.expect_eq_const(concat(f, 0, parts, (120,)), w[picks])
    m = f.rng.ints((3, 200), -1000, 1000).astype(np.int32)
    M = f.const(m, 'i32')
    cuts = [0]
    while cuts[-1] < 200:
        cuts.append(min(200, cuts[-1] + 1 + len(cuts) % 3))
    cols = []
    for lo, hi in zip(cuts, cuts[1:]):
        cols.append(f.op('tensor.extract_slice %s[0, %d] [3, %d] [1, 1] : %s to %s'
                         % (M, lo, hi - lo, M.ty, ttype((3, hi - lo), 'i32')),
                         'i32', (3, hi - lo), hint='s'))
    f.expect_eq_const(concat(f, 1, cols[::-1], (3, 200)),
                      np.concatenate([m[:, lo:hi] for lo, hi in zip(cuts, cuts[1:])][::-1], axis=1))

    # A concat of a matmul's element-wise epilogue (an LSTM's hidden states
    # of both directions, as ONNX's bidirectional LSTM gives them): the
    # matmul cannot be the prologue of a concat's dispatch (a concat has no
    # loop point to map it through), so it is stored; kiln compile
    # panicked on it ("no entry found for key").
    f = F.fn('concat_of_a_matmul_epilogue')
    a, b, c = f.rng.floats((1, 4), 'f32'), f.rng.floats((4, 3), 'f32'), f.rng.floats((1, 3), 'f32')
    A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
    T = unary(f, 'math.tanh', mm(f, 'linalg.matmul', A, B, f.full(0.0, (1, 3), 'f32')))
    f.expect_almost_eq_const(concat(f, 0, [T, C], (2, 3)),
                             np.concatenate([np.tanh(f64(a) @ f64(b)), f64(c)]),
                             atol=1e-5, rtol=1e-4)


@testfile('split_buffers.mlir', '''
Tensors of more than 4 KiB: a device whose maxStorageBufferRange is lowered
to 4 KiB (gpu tensor_split_buffers) binds them in chunks of 4 KiB, an array
of descriptors. Element-wise ops whose inputs and result span chunks, row and
column sums, a matmul whose operands span chunks, a gather of rows that lie
in the first, middle and last chunks of its table, and i8 elements.''')
def _(F):
    f = F.fn('split_subf_mulf_40x48', 'Two correctly rounded ops in a row: exact.')
    a, b = f.rng.floats((40, 48), 'f32', -2, 2), f.rng.floats((40, 48), 'f32', -2, 2)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    s = f.op('arith.subf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape)
    m = f.op('arith.mulf %s, %s : %s' % (s, B, A.ty), 'f32', A.shape)
    f.expect_eq_const(m, (a - b) * b)

    f = F.fn('split_sums_24x96', 'Dyadic data: every partial sum is exact.')
    x = f.rng.dyadic((24, 96), 'f32', -64, 64, 16)
    X = f.const(x, 'f32')
    for dim, shape in ((1, (24,)), (0, (96,))):
        init = f.full(0.0, shape, 'f32')
        r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [%d]'
                 % (X, X.ty, init, init.ty, dim), 'f32', shape, hint='red')
        f.expect_eq_const(r, f64(x).sum(axis=dim))

    f = F.fn('split_matmul_24x64x48_exact')
    a = f.rng.dyadic((24, 64), 'f32', -64, 64, 16)
    b = f.rng.dyadic((64, 48), 'f32', -64, 64, 16)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (24, 48), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('split_gather_rows_300x8',
             'Rows 0..127 lie in the first chunk, 128..255 in the second, 256.. in the last.')
    t = f.rng.floats((300, 8), 'f32', -4, 4)
    idx = np.array([299, 0, 257, 128, 127, 280], np.int32)
    T, I = f.const(t, 'f32'), f.const(idx, 'i32')
    init = f.empty((6, 8), 'f32')
    g = f.op('''linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : %s) outs(%s : %s) {
^bb0(%%i: i32, %%o: f32):
  %%r = arith.index_cast %%i : i32 to index
  %%c = linalg.index 1 : index
  %%v = tensor.extract %s[%%r, %%c] : %s
  linalg.yield %%v : f32
} -> %s''' % (I, I.ty, init, init.ty, T, T.ty, init.ty), 'f32', (6, 8), hint='g')
    f.expect_eq_const(g, t[idx])

    f = F.fn('split_addi_i8_5000', 'Wraps around as MLIR does.')
    a, b = f.rng.ints((5000,), -128, 127).astype(np.int8), f.rng.ints((5000,), -128, 127).astype(np.int8)
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    r = f.op('arith.addi %s, %s : %s' % (A, B, A.ty), 'i8', A.shape)
    f.expect_eq_const(r, (a.astype(np.int32) + b.astype(np.int32)).astype(np.int8))


@testfile('split_buffers_dynamic.mlir', '''
Tensors sized at run time (flow.tensor.dynamic_constant) of more than 4 KiB:
a device whose maxStorageBufferRange is lowered to 4 KiB (gpu
tensor_split_buffers) runs the `_chunked` variant of their dispatches, which
binds each such tensor as an array of descriptors of 4 KiB chunks, the last
chunk repeated past the tensor's end; one under 4 KiB runs the plain kernels.
Element-wise ops, row and column sums, a matmul, a gather of rows from every
chunk of its table (its small index tensor also sized at run time), i8
elements.''')
def _(F):
    f = F.fn('dyn_split_subf_mulf_40x48', 'Two correctly rounded ops in a row: exact.')
    a, b = f.rng.floats((40, 48), 'f32', -2, 2), f.rng.floats((40, 48), 'f32', -2, 2)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    s = f.op('arith.subf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape, A.dyn)
    m = f.op('arith.mulf %s, %s : %s' % (s, B, A.ty), 'f32', A.shape, A.dyn)
    f.expect_eq_const(m, (a - b) * b)

    f = F.fn('dyn_small_addf_7x9', 'Under 4 KiB: the plain kernel.')
    a, b = f.rng.floats((7, 9), 'f32', -2, 2), f.rng.floats((7, 9), 'f32', -2, 2)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    r = f.op('arith.addf %s, %s : %s' % (A, B, A.ty), 'f32', A.shape, A.dyn)
    f.expect_eq_const(r, a + b)

    f = F.fn('dyn_split_sums_24x96', 'Dyadic data: every partial sum is exact.')
    x = f.rng.dyadic((24, 96), 'f32', -64, 64, 16)
    X = f.const(x, 'f32', 'dynamic')
    sizes = f.sizes_of(X)
    for dim, keep in ((1, 0), (0, 1)):
        init = f.full(0.0, (x.shape[keep],), 'f32', (0,), {0: sizes[keep]})
        r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [%d]'
                 % (X, X.ty, init, init.ty, dim), 'f32', init.shape, init.dyn, hint='red')
        f.expect_eq_const(r, f64(x).sum(axis=dim))

    f = F.fn('dyn_split_matmul_24x64x48_exact',
             'The reduction of run-time length: operands of 6 and 12 KiB.')
    a = f.rng.dyadic((24, 64), 'f32', -64, 64, 16)
    b = f.rng.dyadic((64, 48), 'f32', -64, 64, 16)
    A, B = f.const(a, 'f32', 'dynamic', dyn=(1,)), f.const(b, 'f32', 'dynamic', dyn=(0,))
    r = mm(f, 'linalg.matmul', A, B, f.full(0.0, (24, 48), 'f32'))
    assert order_free('ik,kj->ij', 'f32', a, b)
    f.expect_eq_const(r, contract('ik,kj->ij', 'f32', a, b))

    f = F.fn('dyn_split_gather_rows_300x8',
             'Rows 0..127 lie in the first chunk, 128..255 in the second, 256.. in the last.')
    t = f.rng.floats((300, 8), 'f32', -4, 4)
    idx = np.array([299, 0, 257, 128, 127, 280], np.int32)
    T, I = f.const(t, 'f32', 'dynamic'), f.const(idx, 'i32', 'dynamic')
    init = f.empty((6, 8), 'f32', (0,), {0: f.dim(I, 0)})
    g = f.op('''linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : %s) outs(%s : %s) {
^bb0(%%i: i32, %%o: f32):
  %%r = arith.index_cast %%i : i32 to index
  %%c = linalg.index 1 : index
  %%v = tensor.extract %s[%%r, %%c] : %s
  linalg.yield %%v : f32
} -> %s''' % (I, I.ty, init, init.ty, T, T.ty, init.ty), 'f32', (6, 8), (0,), hint='g')
    f.expect_eq_const(g, t[idx])

    f = F.fn('dyn_split_addi_i8_5000', 'Wraps around as MLIR does.')
    a, b = f.rng.ints((5000,), -128, 127).astype(np.int8), f.rng.ints((5000,), -128, 127).astype(np.int8)
    A, B = f.const(a, 'i8', 'dynamic'), f.const(b, 'i8', 'dynamic')
    r = f.op('arith.addi %s, %s : %s' % (A, B, A.ty), 'i8', A.shape, A.dyn)
    f.expect_eq_const(r, (a.astype(np.int32) + b.astype(np.int32)).astype(np.int8))


@testfile('splat.mlir', '''
tensor.splat of a run-time scalar into static and dynamic shapes (sizes
as operands: `tensor.splat %v[%d0, %d1]`), for f32, i8, i1, bf16, i64.''')
def _(F):
    f = F.fn('splat_static_types')
    for et, value in (('f32', -0.625), ('i8', -7), ('i1', True), ('bf16', 1.5), ('i64', 1 << 45)):
        v = f.scalar(value, et, how='unfoldable')
        shape = (3, 4) if et != 'i64' else (13,)
        r = f.op('tensor.splat %s : %s' % (v, ttype(shape, et)), et, shape, hint='sp')
        one = store(et, value)
        f.expect_eq_const(r, np.full(shape, one, dtype=one.dtype))

    f = F.fn('splat_dynamic_sizes')
    x = f.const(np.zeros((5, 2), np.float32), 'f32', 'dynamic')
    d0, d1 = f.dim(x, 0), f.dim(x, 1)
    v = f.scalar(2.25, 'f32', how='unfoldable')
    r = f.op('tensor.splat %s[%s, %s] : %s' % (v, d0, d1, ttype((5, 2), 'f32', (0, 1))),
             'f32', (5, 2), (0, 1), 'sp')
    f.expect_eq_const(r, np.full((5, 2), 2.25, np.float32))
    w = f.scalar(-3, 'i32', how='unfoldable')
    r = f.op('tensor.splat %s[%s] : %s' % (w, d0, ttype((5, 7), 'i32', (0,))), 'i32', (5, 7),
             (0,), 'sp')
    f.expect_eq_const(r, np.full((5, 7), -3, np.int32))


@testfile('constants.mlir', '''
arith.constant with dense and splat tensor attributes of every element type
(and 0-d), used directly and compared with the same data given through
util.unfoldable_constant; hex float literals (+-inf) in dense attributes.''')
def _(F):
    f = F.fn('dense_and_splat_every_type')
    for et in ELEMENT_TYPES:
        x = random_of(f, et, (2, 3))
        A = f.const(x, et, how='arith')
        B = f.const(x, et)
        f.expect_eq(A, B)
        one = x.reshape(-1)[:1].reshape(())
        S = f.op('arith.constant %s : %s' % (dense(np.full((4,), one), et), ttype((4,), et)),
                 et, (4,), hint='cst')
        f.expect_eq_const(S, np.full((4,), one))

    f = F.fn('zero_d_and_infinities')
    z = f.op('arith.constant dense<7> : tensor<i16>', 'i16', (), hint='cst')
    f.expect_eq_const(z, np.int16(7))
    inf = store('f32', [math.inf, -math.inf, 1.0])
    I = f.const(inf, 'f32', how='arith')
    J = f.const(inf, 'f32')
    r = f.op('arith.addf %s, %s : %s' % (I, J, I.ty), 'f32', (3,))
    f.expect_eq_const(r, store('f32', [math.inf, -math.inf, 2.0]))
    h = store('f16', [-math.inf, 65504.0])
    H = f.const(h, 'f16', how='arith')
    f.expect_eq_const(H, h)


@testfile('reduce_long.mlir', '''
Long reductions, far beyond lavapipe's 65,535 loop iterations per
invocation, on inputs the program generates with linalg.index (exact in f32
in any order unless stated): sums of 65,535 / 65,536 / 65,537 elements,
rows of 1,000,003 i32, 100,003 x 5 column sums, a 2048 x 2048 whole-tensor
sum, max and argmax over 1,048,573 elements with one peak, f16 data summed
in f32, i64, and a non-exact sum of 1,000,000 tenths (rtol 5e-3: a plain
sequential f32 sum is 0.24% off there; losing or repeating one 65,535-element
chunk is 6.5% off).''')
def _(F):
    def reduce_all(f, X, init_value, comb='arith.addf', out_et=None):
        out_et = out_et or X.et
        init = f.full(init_value, (), out_et)
        dims = ', '.join(str(d) for d in range(len(X.shape)))
        return f.op('linalg.reduce { %s } ins(%s : %s) outs(%s : %s) dimensions = [%s]'
                    % (comb, X, X.ty, init, init.ty, dims), out_et, (), (), 'red')

    f = F.fn('sum_65535_65536_65537')
    for n in (65535, 65536, 65537):
        X, x = index_pattern(f, (n,), 'f32', 7, 3)
        f.expect_eq_const(reduce_all(f, X, 0.0), f64(x).sum())

    f = F.fn('row_sums_3x1000003_i32')
    X, x = index_pattern(f, (3, 1000003), 'i32', 13, 6)
    init = f.full(0, (3,), 'i32')
    r = f.op('linalg.reduce { arith.addi } ins(%s : %s) outs(%s : %s) dimensions = [1]'
             % (X, X.ty, init, init.ty), 'i32', (3,), (), 'red')
    f.expect_eq_const(r, x.astype(np.int64).sum(axis=1))

    f = F.fn('column_sums_100003x5_f32')
    X, x = index_pattern(f, (100003, 5), 'f32', 11, 5)
    init = f.full(0.0, (5,), 'f32')
    r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [0]'
             % (X, X.ty, init, init.ty), 'f32', (5,), (), 'red')
    f.expect_eq_const(r, f64(x).sum(axis=0))

    f = F.fn('whole_2048x2048_f32')
    X, x = index_pattern(f, (2048, 2048), 'f32', 7, 3)
    assert np.abs(x).astype(np.int64).sum() < 2 ** 24
    f.expect_eq_const(reduce_all(f, X, 0.0), f64(x).sum())

    f = F.fn('max_and_argmax_1048573_one_peak')
    n, peak = 1048573, 777777
    X, x = index_pattern(f, (n,), 'f32', 101, 50)
    out = f.empty((n,), 'f32')
    Y = f.generic([X], [out], [ident(1), ident(1)], 'p', '''
^bb0(%%x: f32, %%o: f32):
  %%i = linalg.index 0 : index
  %%p = arith.constant %d : index
  %%is = arith.cmpi eq, %%i, %%p : index
  %%big = arith.constant 1000.0 : f32
  %%v = arith.select %%is, %%big, %%x : f32
  linalg.yield %%v : f32''' % peak)
    y = x.copy()
    y[peak] = 1000.0
    f.expect_eq_const(reduce_all(f, Y, -math.inf, 'arith.maximumf'), y.max())
    f.expect_eq_const(reduce_all(f, Y, math.inf, 'arith.minimumf'), y.min())
    v0 = f.full(-math.inf, (), 'f32')
    i0 = f.full(0, (), 'i32')
    rv, ri = f.generic([Y], [v0, i0], ['(d0) -> (d0)', '(d0) -> ()', '(d0) -> ()'], 'r', '''
^bb0(%x: f32, %v: f32, %i: i32):
  %j = linalg.index 0 : index
  %jj = arith.index_cast %j : index to i32
  %gt = arith.cmpf ogt, %x, %v : f32
  %nv = arith.select %gt, %x, %v : f32
  %ni = arith.select %gt, %jj, %i : i32
  linalg.yield %nv, %ni : f32, i32''')
    f.expect_eq_const(rv, np.float32(1000.0))
    f.expect_eq_const(ri, np.int32(peak))

    f = F.fn('f16_data_f32_sum_300007')
    X, x = index_pattern(f, (300007,), 'f16', 9, 4, scale=0.25)
    init = f.full(0.0, (), 'f32')
    r = f.op('''linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [0]
  (%%x: f16, %%acc: f32) {
    %%w = arith.extf %%x : f16 to f32
    %%s = arith.addf %%w, %%acc : f32
    linalg.yield %%s : f32
  }''' % (X, X.ty, init, init.ty), 'f32', (), (), 'red')
    f.expect_eq_const(r, f64(x).sum())

    f = F.fn('i64_sum_200003')
    X, x = index_pattern(f, (200003,), 'i64', 7, 3)
    out = f.empty((200003,), 'i64')
    big = f.generic([X], [out], [ident(1), ident(1)], 'p', '''
^bb0(%x: i64, %o: i64):
  %k = arith.constant 1099511627776 : i64
  %m = arith.muli %x, %k : i64
  linalg.yield %m : i64''')
    f.expect_eq_const(reduce_all(f, big, 0, 'arith.addi'),
                      store('i64', int(x.astype(np.int64).sum()) * (1 << 40)))

    f = F.fn('sum_1000000_tenths_tolerance')
    n = 1000000
    out = f.empty((n,), 'f32')
    X = f.generic([], [out], ['(d0) -> (d0)'], 'p', '''
^bb0(%o: f32):
  %i = linalg.index 0 : index
  %c7 = arith.constant 7 : index
  %r = arith.remui %i, %c7 : index
  %v = arith.index_cast %r : index to i32
  %one = arith.constant 1 : i32
  %w = arith.addi %v, %one : i32
  %x = arith.sitofp %w : i32 to f32
  %tenth = arith.constant 0.1 : f32
  %y = arith.mulf %x, %tenth : f32
  linalg.yield %y : f32''', hint='gen')
    vals = (np.arange(n) % 7 + 1).astype(np.float32) * np.float32(0.1)
    f.expect_almost_eq_const(reduce_all(f, X, 0.0), math.fsum(f64(vals).tolist()), atol=0.0,
                             rtol=5e-3)


@testfile('odd_sizes.mlir', '''
Sizes that are not a multiple of any workgroup size: 1, 1x1x1, 2, 3x5x7,
13x31, 127x3, 1x1021, 4099 and a generated 65,537, for elementwise ops
((a + b) * c: two correctly rounded ops, exact) and reductions along the
last dim.''')
def _(F):
    for shape in ((1,), (1, 1, 1), (2,), (3, 5, 7), (13, 31), (127, 3), (1, 1021), (4099,)):
        name = 'x'.join(map(str, shape))
        f = F.fn('elementwise_and_reduce_' + name)
        a, b, c = (f.rng.floats(shape, 'f32', -4, 4) for _ in range(3))
        A, B, C = f.const(a, 'f32'), f.const(b, 'f32'), f.const(c, 'f32')
        s = f.op('arith.addf %s, %s : %s' % (A, B, A.ty), 'f32', shape)
        m = f.op('arith.mulf %s, %s : %s' % (s, C, A.ty), 'f32', shape)
        f.expect_eq_const(m, (a + b) * c)
        d = f.rng.dyadic(shape, 'f32', -64, 64, 8)
        D = f.const(d, 'f32')
        init = f.full(0.0, shape[:-1], 'f32')
        r = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [%d]'
                 % (D, D.ty, init, init.ty, len(shape) - 1), 'f32', shape[:-1], (), 'red')
        f.expect_eq_const(r, f64(d).sum(axis=-1))

    f = F.fn('elementwise_i8_65537_generated')
    X, x = index_pattern(f, (65537,), 'i8', 256, 128)
    r = f.op('arith.muli %s, %s : %s' % (X, X, X.ty), 'i8', (65537,))
    f.expect_eq_const(r, store('i8', x.astype(np.int64) ** 2))


@testfile('matmul_epilogue.mlir', '''
Matmuls with the elementwise epilogues a compiler fuses into them: relu, a
bias added through a broadcasting map then GELU (tanh and erf forms), relu
on dynamic shapes, a bias and relu read through tensor.casts (static to
dynamic and back, as a captured graph joins op programs), and an int8
matmul requantized to i8 (scale, shift, clamp).''')
def _(F):
    def bias_add(f, M, bias_v, body_extra, yield_name):
        out = f.empty(M.shape, 'f32', M.dyn, f.sizes_of(M) if M.dyn else None)
        return f.generic([M, bias_v], [out], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)',
                                             '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%%m: f32, %%b: f32, %%o: f32):
  %%x = arith.addf %%m, %%b : f32
%s
  linalg.yield %s : f32''' % (body_extra, yield_name))

    f = F.fn('matmul_relu_33x65x17')
    a = f.rng.dyadic((33, 65), 'f32', -32, 32, 8)
    b = f.rng.dyadic((65, 17), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32'), f.const(b, 'f32')
    M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (33, 17), 'f32'))
    zero = f.scalar(0.0, 'f32')
    out = f.empty((33, 17), 'f32')
    r = f.generic([M], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%%x: f32, %%o: f32):
  %%y = arith.maximumf %%x, %s : f32
  linalg.yield %%y : f32''' % zero)
    f.expect_eq_const(r, np.maximum(contract('ik,kj->ij', 'f32', a, b), 0))

    gelu_tanh = '''  %x3 = arith.mulf %x, %x : f32
  %x4 = arith.mulf %x3, %x : f32
  %c = arith.constant 0.044715 : f32
  %t1 = arith.mulf %x4, %c : f32
  %t2 = arith.addf %x, %t1 : f32
  %s = arith.constant 0.7978846 : f32
  %t3 = arith.mulf %t2, %s : f32
  %th = math.tanh %t3 : f32
  %one = arith.constant 1.0 : f32
  %t4 = arith.addf %th, %one : f32
  %half = arith.constant 0.5 : f32
  %t5 = arith.mulf %x, %half : f32
  %g = arith.mulf %t5, %t4 : f32'''
    gelu_erf = '''  %r2 = arith.constant 0.70710677 : f32
  %t1 = arith.mulf %x, %r2 : f32
  %e = math.erf %t1 : f32
  %one = arith.constant 1.0 : f32
  %t2 = arith.addf %e, %one : f32
  %half = arith.constant 0.5 : f32
  %t3 = arith.mulf %x, %half : f32
  %g = arith.mulf %t3, %t2 : f32'''
    erf = np.vectorize(math.erf)
    for form, body, ref in (
            ('tanh', gelu_tanh, lambda x: 0.5 * x * (1 + np.tanh(
                float(np.float32(0.7978846)) * (x + float(np.float32(0.044715)) * x ** 3)))),
            ('erf', gelu_erf, lambda x: 0.5 * x * (1 + erf(x * float(np.float32(0.70710677)))))):
        f = F.fn('matmul_bias_gelu_%s_8x31x64' % form)
        a = f.rng.dyadic((8, 31), 'f32', -8, 8, 16)
        b = f.rng.dyadic((31, 64), 'f32', -8, 8, 16)
        bias = f.rng.dyadic((64,), 'f32', -8, 8, 8)
        A, B, Bi = f.const(a, 'f32'), f.const(b, 'f32'), f.const(bias, 'f32')
        M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (8, 64), 'f32'))
        r = bias_add(f, M, Bi, body, '%g')
        x = f64(contract('ik,kj->ij', 'f32', a, b)) + f64(bias)[None, :]
        f.expect_almost_eq_const(r, ref(x), atol=1e-5, rtol=1e-4)

    f = F.fn('matmul_relu_dynamic_19x23x11')
    a = f.rng.dyadic((19, 23), 'f32', -32, 32, 8)
    b = f.rng.dyadic((23, 11), 'f32', -32, 32, 8)
    A, B = f.const(a, 'f32', 'dynamic'), f.const(b, 'f32', 'dynamic')
    C = f.fill(f.scalar(0.0, 'f32'), f.empty((19, 11), 'f32', (0, 1),
                                             {0: f.dim(A, 0), 1: f.dim(B, 1)}))
    M = mm(f, 'linalg.matmul', A, B, C)
    out = f.empty((19, 11), 'f32', (0, 1), f.sizes_of(M))
    r = f.generic([M], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%x: f32, %o: f32):
  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32
  linalg.yield %y : f32''')
    f.expect_eq_const(r, np.maximum(contract('ik,kj->ij', 'f32', a, b), 0))

    f = F.fn('matmul_cast_bias_relu_6x20x12')
    a = f.rng.dyadic((6, 20), 'f32', -32, 32, 8)
    b = f.rng.dyadic((20, 12), 'f32', -32, 32, 8)
    bias = f.rng.dyadic((12,), 'f32', -32, 32, 8)
    A, B, Bi = f.const(a, 'f32'), f.const(b, 'f32'), f.const(bias, 'f32')
    M = mm(f, 'linalg.matmul', A, B, f.full(0.0, (6, 12), 'f32'))
    # Static to dynamic, then partially static: the bias add reads the
    # matmul through two casts.
    C = f.cast(f.cast(M, (0, 1)), (0,))
    r = bias_add(f, C, f.cast(Bi, (0,)), '''  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32''', '%y')
    f.expect_eq_const(f.cast(r, ()),
                      np.maximum(contract('ik,kj->ij', 'f32', a, b) + f64(bias)[None, :], 0))

    f = F.fn('matmul_i8_requantize_9x32x6')
    a = store('i8', f.rng.ints((9, 32), -128, 127))
    b = store('i8', f.rng.ints((32, 6), -128, 127))
    A, B = f.const(a, 'i8'), f.const(b, 'i8')
    M = mm(f, 'linalg.matmul', A, B, f.full(0, (9, 6), 'i32'))
    out = f.empty((9, 6), 'i8')
    r = f.generic([M], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%x: i32, %o: i8):
  %k = arith.constant 3 : i32
  %m = arith.muli %x, %k : i32
  %s = arith.constant 9 : i32
  %y = arith.shrsi %m, %s : i32
  %lo = arith.constant -128 : i32
  %hi = arith.constant 127 : i32
  %c = arith.maxsi %y, %lo : i32
  %d = arith.minsi %c, %hi : i32
  %t = arith.trunci %d : i32 to i8
  linalg.yield %t : i8''')
    acc = a.astype(np.int64) @ b.astype(np.int64)
    f.expect_eq_const(r, np.clip((acc * 3) >> 9, -128, 127).astype(np.int8))


@testfile('multi_read_epilogue.mlir', '''
Roots whose result an epilogue reads more than once, each read at the
root's own point (kiln makes the root the prologue of that epilogue's
dispatch): PP-OCR's convolution, batch norm and hard-swish
(bn * relu6(bn + 3) / 6, the batch norm read twice) on an NCHW
convolution and on an NCHW depthwise convolution; a matmul with SiLU
written as two ops (m * sigmoid(m)); a row sum squared through two reads;
and two kiln keeps apart: a depthwise NHWC convolution read through a
transpose to NCHW (its loops permuted), and a matmul added to its own
transpose (two reads at different points).''')
def _(F):
    def relu6_plus3(f, x):
        return f.elementwise([x], 'f32', '''
^bb0(%a: f32, %o: f32):
  %k3 = arith.constant 3.0 : f32
  %z = arith.constant 0.0 : f32
  %k6 = arith.constant 6.0 : f32
  %s = arith.addf %a, %k3 : f32
  %m = arith.maximumf %s, %z : f32
  %r = arith.minimumf %m, %k6 : f32
  linalg.yield %r : f32''')

    def hardswish(f, x):
        """x * relu6(x + 3) / 6 in three ops, as the ONNX importer writes
        HardSwish after a batch norm: `x` read by two of them."""
        t = relu6_plus3(f, x)
        m = f.elementwise([x, t], 'f32', binary_body('arith.mulf', 'f32'))
        return f.elementwise([m], 'f32', '''
^bb0(%a: f32, %o: f32):
  %k6 = arith.constant 6.0 : f32
  %r = arith.divf %a, %k6 : f32
  linalg.yield %r : f32''')

    def hardswish_ref(x):
        return x * np.minimum(np.maximum(x + 3, 0), 6) / 6

    def batch_norm(f, x, scale, shift, rank, axis):
        """x * scale[c] + shift[c] along dim `axis` of a rank-`rank` x."""
        S, B = f.const(scale, 'f32'), f.const(shift, 'f32')
        out = f.empty(x.shape, 'f32')
        per = '(%s) -> (d%d)' % (', '.join('d%d' % i for i in range(rank)), axis)
        return f.generic([x, S, B], [out], [ident(rank), per, per, ident(rank)], 'p' * rank,
                         '''
^bb0(%a: f32, %s: f32, %b: f32, %o: f32):
  %m = arith.mulf %a, %s : f32
  %r = arith.addf %m, %b : f32
  linalg.yield %r : f32''')

    f = F.fn('conv_nchw_batch_norm_hardswish_1x3x10x12_8x3x3x3')
    x = f.rng.floats((1, 3, 10, 12), 'f32', -1, 1)
    k = f.rng.floats((8, 3, 3, 3), 'f32', -1, 1)
    scale = f.rng.floats((8,), 'f32', 0.5, 2)
    shift = f.rng.floats((8,), 'f32', -1, 1)
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    C = named(f, 'linalg.conv_2d_nchw_fchw', [X, K], [f.full(0.0, (1, 8, 8, 10), 'f32')],
              conv_attrs((1, 1), (1, 1)), 'conv')
    r = hardswish(f, batch_norm(f, C, scale, shift, 4, 1))
    win = windows_nhwc(np.transpose(x, (0, 2, 3, 1)), 3, 3, 8, 10, (1, 1), (1, 1))
    y = f64(contract('nhwijc,fcij->nfhw', 'f32', win, k)) * f64(scale)[None, :, None, None] \
        + f64(shift)[None, :, None, None]
    f.expect_almost_eq_const(r, hardswish_ref(y), atol=1e-5, rtol=1e-5)

    f = F.fn('depthwise_nchw_batch_norm_hardswish_1x5x9x11_3x3_stride_2')
    x = f.rng.floats((1, 5, 9, 11), 'f32', -1, 1)
    k = f.rng.floats((5, 3, 3), 'f32', -1, 1)
    scale = f.rng.floats((5,), 'f32', 0.5, 2)
    shift = f.rng.floats((5,), 'f32', -1, 1)
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    D = named(f, 'linalg.depthwise_conv_2d_nchw_chw', [X, K],
              [f.full(0.0, (1, 5, 4, 5), 'f32')], conv_attrs((2, 2), (1, 1)), 'conv')
    r = hardswish(f, batch_norm(f, D, scale, shift, 4, 1))
    win = windows_nhwc(np.transpose(x, (0, 2, 3, 1)), 3, 3, 4, 5, (2, 2), (1, 1))
    y = f64(contract('nhwijc,cij->nchw', 'f32', win, k)) * f64(scale)[None, :, None, None] \
        + f64(shift)[None, :, None, None]
    f.expect_almost_eq_const(r, hardswish_ref(y), atol=1e-5, rtol=1e-5)

    f = F.fn('depthwise_nhwc_transposed_hardswish_1x9x11x6_3x3_stride_2')
    x = f.rng.floats((1, 9, 11, 6), 'f32', -1, 1)
    k = f.rng.floats((3, 3, 6), 'f32', -1, 1)
    X, K = f.const(x, 'f32'), f.const(k, 'f32')
    D = named(f, 'linalg.depthwise_conv_2d_nhwc_hwc', [X, K],
              [f.full(0.0, (1, 4, 5, 6), 'f32')], conv_attrs((2, 2), (1, 1)), 'conv')
    T = f.op('linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [0, 3, 1, 2]'
             % (D, D.ty, *(lambda e: (e, e.ty))(f.empty((1, 6, 4, 5), 'f32'))),
             'f32', (1, 6, 4, 5), hint='tr')
    r = hardswish(f, T)
    win = windows_nhwc(x, 3, 3, 4, 5, (2, 2), (1, 1))
    d = np.transpose(f64(contract('nhwijc,ijc->nhwc', 'f32', win, k)), (0, 3, 1, 2))
    f.expect_almost_eq_const(r, hardswish_ref(d), atol=1e-5, rtol=1e-5)

    f = F.fn('matmul_silu_two_ops_13x21x17')
    a = f.rng.floats((13, 21), 'f32', -1, 1)
    b = f.rng.floats((21, 17), 'f32', -1, 1)
    M = mm(f, 'linalg.matmul', f.const(a, 'f32'), f.const(b, 'f32'),
           f.full(0.0, (13, 17), 'f32'))
    sig = f.elementwise([M], 'f32', '''
^bb0(%a: f32, %o: f32):
  %one = arith.constant 1.0 : f32
  %n = arith.negf %a : f32
  %e = math.exp %n : f32
  %d = arith.addf %e, %one : f32
  %r = arith.divf %one, %d : f32
  linalg.yield %r : f32''')
    r = f.elementwise([M, sig], 'f32', binary_body('arith.mulf', 'f32'))
    m = f64(contract('ik,kj->ij', 'f32', a, b))
    f.expect_almost_eq_const(r, m / (1 + np.exp(-m)), atol=1e-5, rtol=1e-5)

    f = F.fn('row_sum_squared_two_reads_7x33')
    x = f.rng.dyadic((7, 33), 'f32', -16, 16, 8)
    X = f.const(x, 'f32')
    S = f.op('linalg.reduce { arith.addf } ins(%s : %s) outs(%s : %s) dimensions = [1]'
             % (X, X.ty, *(lambda e: (e, e.ty))(f.full(0.0, (7,), 'f32'))), 'f32', (7,),
             hint='red')
    H = f.elementwise([S], 'f32', '''
^bb0(%a: f32, %o: f32):
  %h = arith.constant 0.5 : f32
  %r = arith.mulf %a, %h : f32
  linalg.yield %r : f32''')
    r = f.elementwise([S, H], 'f32', binary_body('arith.mulf', 'f32'))
    s = f64(x).sum(axis=1)
    f.expect_eq_const(r, s * (s * 0.5))

    f = F.fn('matmul_plus_its_transpose_9x14x9')
    a = f.rng.dyadic((9, 14), 'f32', -16, 16, 8)
    b = f.rng.dyadic((14, 9), 'f32', -16, 16, 8)
    M = mm(f, 'linalg.matmul', f.const(a, 'f32'), f.const(b, 'f32'),
           f.full(0.0, (9, 9), 'f32'))
    r = f.generic([M, M], [f.empty((9, 9), 'f32')],
                  [ident(2), '(d0, d1) -> (d1, d0)', ident(2)], 'pp',
                  binary_body('arith.addf', 'f32'))
    m = f64(contract('ik,kj->ij', 'f32', a, b))
    f.expect_eq_const(r, m + m.T)


@testfile('dynamic_programs.mlir', '''
One dynamic-shape program run on several sizes: a dense layer (matmul with
a dynamic batch, bias through a broadcasting map, relu, softmax over the
features) for batches 1, 7 and 64, and an elementwise + row-reduction
program with both dims dynamic on 3x5 and 17x129.''')
def _(F):
    for batch in (1, 7, 64):
        f = F.fn('dense_layer_dynamic_batch_%d' % batch)
        x = f.rng.dyadic((batch, 16), 'f32', -16, 16, 16)
        w = Rng('dense_layer_weights').dyadic((16, 8), 'f32', -16, 16, 16)
        bias = Rng('dense_layer_bias').dyadic((8,), 'f32', -8, 8, 8)
        X = f.const(x, 'f32', 'dynamic', dyn=(0,))
        W, Bi = f.const(w, 'f32'), f.const(bias, 'f32')
        C = f.fill(f.scalar(0.0, 'f32'), f.empty((batch, 8), 'f32', (0,), {0: f.dim(X, 0)}))
        M = mm(f, 'linalg.matmul', X, W, C)
        out = f.empty((batch, 8), 'f32', (0,), {0: f.dim(M, 0)})
        H = f.generic([M, Bi], [out], ['(d0, d1) -> (d0, d1)', '(d0, d1) -> (d1)',
                                       '(d0, d1) -> (d0, d1)'], 'pp', '''
^bb0(%m: f32, %b: f32, %o: f32):
  %x = arith.addf %m, %b : f32
  %z = arith.constant 0.0 : f32
  %y = arith.maximumf %x, %z : f32
  linalg.yield %y : f32''')
        out2 = f.empty((batch, 8), 'f32', (0,), {0: f.dim(H, 0)})
        S = f.op('linalg.softmax dimension(1) ins(%s : %s) outs(%s : %s) -> %s'
                 % (H, H.ty, out2, out2.ty, out2.ty), 'f32', (batch, 8), (0,), 'sm')
        h = np.maximum(f64(contract('ik,kj->ij', 'f32', x, w)) + f64(bias)[None, :], 0)
        f.expect_almost_eq_const(S, softmax_ref(h, 1), atol=1e-6, rtol=1e-4)

    for shape in ((3, 5), (17, 129)):
        f = F.fn('scale_and_row_max_%dx%d' % shape)
        x = f.rng.floats(shape, 'f32', -10, 10)
        X = f.const(x, 'f32', 'dynamic')
        sz = f.sizes_of(X)
        out = f.empty(shape, 'f32', (0, 1), sz)
        Y = f.generic([X], [out], [ident(2), ident(2)], 'pp', '''
^bb0(%x: f32, %o: f32):
  %k = arith.constant -2.0 : f32
  %y = arith.mulf %x, %k : f32
  linalg.yield %y : f32''')
        init = f.fill(f.scalar(-math.inf, 'f32'), f.empty(shape[:1], 'f32', (0,), {0: sz[0]}))
        r = f.op('linalg.reduce { arith.maximumf } ins(%s : %s) outs(%s : %s) dimensions = [1]'
                 % (Y, Y.ty, init, init.ty), 'f32', shape[:1], (0,), 'red')
        f.expect_eq_const(Y, x * np.float32(-2))
        f.expect_eq_const(r, (x * np.float32(-2)).max(axis=1))


# ---------------------------------------------------------------------------
# Coverage and README.
# ---------------------------------------------------------------------------

# Section 1 of the issue: every one of these must appear in some file.
REQUIRED_OPS = [
    'linalg.fill', 'linalg.generic', 'linalg.index', 'linalg.map', 'linalg.reduce',
    'linalg.transpose', 'linalg.broadcast', 'linalg.copy', 'linalg.matmul',
    'linalg.matmul_transpose_a', 'linalg.matmul_transpose_b', 'linalg.batch_matmul',
    'linalg.matvec', 'linalg.vecmat', 'linalg.dot', 'linalg.conv_2d_nhwc_hwcf',
    'linalg.conv_2d_nchw_fchw', 'linalg.depthwise_conv_2d_nhwc_hwc', 'linalg.pooling_nhwc_max',
    'linalg.pooling_nhwc_sum', 'linalg.pooling_nhwc_min', 'linalg.softmax', 'tensor.empty',
    'tensor.extract_slice', 'tensor.insert_slice', 'tensor.collapse_shape', 'tensor.expand_shape',
    'tensor.pad', 'tensor.cast', 'tensor.dim', 'tensor.extract', 'tensor.concat', 'tensor.splat',
    'arith.constant', 'arith.addf', 'arith.mulf', 'arith.addi', 'math.exp']
IREE_FORMAT_OPS = ['util.unfoldable_constant', 'util.optimization_barrier',
                   'flow.tensor.dynamic_constant', 'check.expect_eq', 'check.expect_eq_const',
                   'check.expect_almost_eq', 'check.expect_almost_eq_const', 'check.expect_true',
                   'check.expect_false']
OP_RE = re.compile(r'(?<![\w.%"])((?:linalg|tensor|arith|math|affine)\.[a-z_0-9]+)')
ELEMENT_RE = re.compile(r'(?<![%\w])(bf16|f16|f32|i1|i8|i16|i32|i64)(?!\w)')
STRUCTURAL = {'linalg.yield', 'tensor.yield'}


def angle_square_depth(s):
    depth = 0
    for i, c in enumerate(s):
        if c in '[<' :
            depth += 1
        elif c == ']' or (c == '>' and (i == 0 or s[i - 1] != '-')):
            depth -= 1
    return depth


def line_types(code):
    code = re.sub(r'\{dilations = [^}]*\}', '', code)
    types = set()
    for m in re.finditer(r'tensor<((?:[0-9?]+x)*)([A-Za-z0-9]+)>', code):
        types.add(m.group(2))
        if '?' in m.group(1):
            types.add('dyn')
    scalar = re.sub(r'tensor<[^>]*>', ' ', code)
    scalar = re.sub(r'dense<[^>]*>', ' ', scalar)
    return types | set(ELEMENT_RE.findall(scalar))


def coverage(text):
    """{op: set of element types (and 'dyn')} of one file: the element types
    named in the statement where the op appears (a literal spread over
    several lines is one statement; an op in a region body counts with its
    scalar types; tensor.pad also with the types after its region)."""
    cov = collections.defaultdict(set)
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        code = lines[i]
        j = i
        if code.lstrip().startswith('//'):
            i += 1
            continue
        depth = angle_square_depth(code)
        while depth > 0 and j + 1 < len(lines):
            j += 1
            depth += angle_square_depth(lines[j])
            code += ' ' + lines[j].strip()
        types = line_types(code)
        ops = set(OP_RE.findall(code))
        for name in IREE_FORMAT_OPS:
            if re.search(re.escape(name) + r'(?![\w.])', code):
                ops.add(name)
        if 'tensor.pad' in ops:
            k = j + 1
            while k < len(lines) and not lines[k].lstrip().startswith('} :'):
                k += 1
            if k < len(lines):
                types |= line_types(lines[k])
        for op in ops - STRUCTURAL:
            cov[op] |= types
        i = j + 1
    return cov


def coverage_problems(files):
    total = collections.defaultdict(set)
    for name, text in files.items():
        if name.endswith('.mlir'):
            for op, ts in coverage(text).items():
                total[op] |= ts
    problems = []
    for op in REQUIRED_OPS + IREE_FORMAT_OPS:
        if op not in total:
            problems.append('no test uses ' + op)
    seen = set().union(*total.values()) if total else set()
    for et in ELEMENT_TYPES + ['dyn']:
        if et not in seen:
            problems.append('no test uses element type ' + et)
    n = sum(1 for name in files if name.endswith('.mlir'))
    if n < 50:
        problems.append('only %d test files' % n)
    return problems


README_HEAD = """# Tensor-level end-to-end tests

Generated by `gen.py` from its own description of each file; do not edit the
`.mlir` files or this README by hand: change `gen.py` and run `python3 gen.py`.

Each file is a program in **IREE's end-to-end test format** (as in IREE's
`tests/e2e/linalg`, `tests/e2e/tensor_ops`): one or more `func.func @name()`
with no arguments and no results, whose inputs are
`util.unfoldable_constant` / `arith.constant` / `flow.tensor.dynamic_constant`
(a constant whose static type is erased to `?` dims, so the program is compiled
for dynamic shapes) and whose results are checked with IREE's `check` ops:

| check | passes when |
|---|---|
| `check.expect_eq(%a, %b) : T`, `check.expect_eq_const(%a, ATTR) : T` | the buffers are equal byte for byte (so `-0.0` differs from `0.0`) |
| `check.expect_almost_eq(%a, %b[, atol X][, rtol Y]) : T`, `check.expect_almost_eq_const(%a, ATTR[, atol X][, rtol Y]) : T` | for every element `actual == expected`, or `expected` is finite and `abs(actual - expected) <= atol + rtol * abs(expected)`, in f64 after widening f16/bf16 to f32; defaults **atol 1.0e-4, rtol 0** (IREE's) |
| `check.expect_true(%v) : iN`, `check.expect_false(%v) : iN` | the scalar is non-zero / zero |

`kiln run FILE.mlir` runs every function (`--function NAME` one of them;
`--reference` on the CPU reference evaluator) and prints, as iree-check-module
does, `[ RUN      ] name` then `[       OK ] name` or `[  FAILED  ] name` with
the first mismatching index, expected and actual values; exit status 1 when a
check fails.

Expected values come from numpy in `gen.py`, independently of kiln (its
docstring says how each is computed and why each tolerance is what it is).
Exact checks are used wherever the result is exactly determined: integers,
data movement, single correctly rounded float ops, and float sums whose inputs
are chosen so that every partial sum is representable (then every summation
order gives the same bits). Integer tests overflow on purpose and expect MLIR's
wrap-around; signed division rounds toward zero.

## Checking the corpus

    python3 gen.py              # rewrite every file
    python3 gen.py --check      # fail if a file differs from what gen.py writes; parse and
                                # verify every file's standard MLIR form with mlir-opt-19;
                                # check the errors/ folder and the coverage below
    python3 gen.py --run-mlir   # also run every file through MLIR 19's own CPU pipeline
                                # (bufferize, linalg to loops, LLVM; mlir-cpu-runner-19):
                                # every check must pass there too

`--check` rewrites each file to standard MLIR (`util.unfoldable_constant` ->
`arith.constant`, `util.optimization_barrier` -> an identity `tensor.cast`,
`flow.tensor.dynamic_constant` -> `arith.constant` + `tensor.cast`, every check
-> a call to a generated function counting mismatches by IREE's rule) and has
mlir-opt-19 parse and verify it; it also checks the IREE ops' own type rules.
`--run-mlir` lowers that module and runs it: numpy and MLIR's CPU lowering
agree on every expected value (a second, independent oracle). numpy (>= 1.24,
`python3-numpy`, installed by ci/setup.sh) and mlir-opt-19 are required; a
missing one is an error, never a silent pass. `--run-mlir` also needs
mlir-cpu-runner-19 and a C compiler (for MLIR's `memrefCopy` helper).
"""

README_SYNTAX = """## MLIR 19 syntax worth knowing (for the parser)

- `tensor.expand_shape %x [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>`:
  MLIR 19 requires `output_shape`, with SSA values for dynamic dims
  (`output_shape [%q, 4]`). Expanding a 0-d tensor: `[] output_shape [1, 1]`;
  collapsing to 0-d: `tensor.collapse_shape %x [] : tensor<1x1xi64> into tensor<i64>`.
- `linalg.map`, `linalg.reduce`, `linalg.transpose`, `linalg.broadcast` print **no**
  `-> type`; their attributes come after `outs(...)` (`dimensions = [1]`,
  `permutation = [1, 0]`). Their regions are written `(%x: f32, %acc: f32) { ... }`
  (no `^bb0`), or in the short form `linalg.map { arith.addf } ins(..) outs(..)` /
  `linalg.reduce { arith.addf } ins(..) outs(..) dimensions = [0]`. A map with no
  inputs has no `ins(...)` at all: `linalg.map outs(%o : T) () { ... }`.
  Several results: `%r:2 = linalg.reduce ins(%a, %b : ..) outs(%i, %j : ..) ...`.
- `linalg.generic`, `linalg.fill`, `linalg.copy`, the matmul family, convolutions,
  poolings and `linalg.softmax dimension(1) ins(..) outs(..)` do end in `-> type`
  (or `-> (T1, T2)` for several outputs, results `%g#0`, `%g#1`).
- Transposed matmuls are the named ops `linalg.matmul_transpose_a` (A is KxM) and
  `linalg.matmul_transpose_b` (B is NxK); MLIR 20 later folded them into
  `linalg.matmul` with `indexing_maps`.
- Named ops accept mixed element types and convert inputs to the output type
  (`cast_signed`): f16/bf16 x f16/bf16 -> f32 (`extf`), i8 x i8 -> i32 (`extsi`),
  i8 -> f32 (`sitofp`).
- Convolution and pooling attributes: `{dilations = dense<[2, 1]> : tensor<2xi64>,
  strides = dense<2> : tensor<2xi64>}` (`vector<2xi64>` is accepted too; IREE's
  files use it). Poolings take the window as a second *input*, a `tensor.empty`
  whose shape is the window size and whose contents are never read. MLIR's
  verifier does not insist on the exact output size of a strided convolution.
- `tensor.concat dim(1) %a, %b : (tensor<2x3xi32>, tensor<2x5xi32>) -> tensor<2x8xi32>`
  is in MLIR 19's tensor dialect (MLIR 19 itself does not bufferize it: its own
  CPU pipeline decomposes it first).
- `tensor.splat %v : tensor<3x4xf32>`, and with dynamic sizes
  `tensor.splat %v[%d0, %d1] : tensor<?x?xf32>`.
- `tensor.pad %x low[1, 2] high[2, %h] { ^bb0(%i: index, %j: index): tensor.yield %v : f32 } : T1 to T2`:
  the region has one `index` argument per dim and may yield a value defined
  outside it.
- `tensor.extract %t[] : tensor<f32>` for 0-d tensors; `tensor.dim %t, %i` takes an
  `index` SSA value, which may be computed at run time.
- `arith.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>` (elementwise) vs
  `arith.select %c, %a, %b : tensor<4xf32>` (an `i1` scalar picks a whole tensor).
- A bool constant carries its type: `arith.constant true`, `util.unfoldable_constant false`
  (`true : i1` is a parse error); other scalars: `util.unfoldable_constant 3 : i32`.
- Float literals need a `.` (`1.0e-05`, not `1e-05`); MLIR 19 reads a decimal
  literal as a double and then rounds it to the element type. A hexadecimal
  literal in a float `dense<...>` is the bit pattern: `0xFF800000` is -inf in f32,
  `0x7C00` is +inf in f16, `0x7F80` is +inf in bf16.
- `linalg.generic` infers each loop's range from the operand shapes; a map such as
  `(d0) -> (d0 + 1)` must not conflict with another operand's use of `d0`
  (mlir-opt checks). Inputs may use constant results (`(d0, d1) -> (d0, 2)`), sums
  of scaled dims (`(d0, d1, d2) -> (d0, d1 * 2 + d2 * 3)`) and `()` results (0-d
  operands); outputs are projected permutations.
- IREE's `check.expect_almost_eq_const(%x, dense<..> : T, atol 1.0e-05, rtol 1.0e-04) : T`:
  `atol` / `rtol` are optional keywords inside the parentheses, each after a comma.
  `check.expect_true` / `expect_false` take an integer *scalar* (`: i1`, `: i32`).
"""


def readme(files):
    out = [README_HEAD]
    tests = [(n, t) for n, t in files.items() if n.endswith('.mlir')]
    nfn = sum(len(re.findall(r'(?m)^func\.func ', t)) for _, t in tests)
    out.append('## Files\n\n%d files, %d test functions.\n\n| file | functions | covers |\n'
               '|---|---|---|' % (len(tests), nfn))
    for n, t in tests:
        doc = ' '.join(FILES[n][0].split())
        out.append('| `%s` | %d | %s |' % (n, len(re.findall(r'(?m)^func\.func ', t)), doc))
    # op x element type table
    per_file = {n: coverage(t) for n, t in tests}
    ops = sorted({op for cov in per_file.values() for op in cov},
                 key=lambda o: (['linalg', 'tensor', 'arith', 'math', 'affine', 'util', 'flow',
                                 'check'].index(o.split('.')[0]), o))
    cols = ELEMENT_TYPES + ['dyn']
    out.append('\n## Coverage: op x element type\n\nNumber of files in which the op '
               'appears in a statement naming that element type (`dyn`: a type with a '
               'dynamic `?` dim); ops in region bodies count with their scalar types. '
               '`files`: files using the op at all.\n')
    out.append('| op | files | ' + ' | '.join(cols) + ' |')
    out.append('|---|---|' + '---|' * len(cols))
    for op in ops:
        cells = [str(sum(1 for cov in per_file.values() if op in cov))]
        for c in cols:
            k = sum(1 for cov in per_file.values() if c in cov.get(op, ()))
            cells.append(str(k) if k else '')
        out.append('| `%s` | %s |' % (op, ' | '.join(cells)))
    # errors
    out.append('\n## Bad input: `errors/`\n\nEach file marks its faulty line with '
               '`// ERROR: <text>`: kiln must fail with a one-line `error:` containing '
               'that text, exit status 1, no panic and nothing written half-way. '
               '`// MLIR: rejects` files are invalid MLIR too (`--check` has mlir-opt-19 '
               'report its error on that same line); `// MLIR: accepts` files are valid '
               'MLIR that kiln must refuse (an unsupported type or op) or that fails only '
               'at run time (a dynamic size that does not fit).\n')
    out.append('| file | MLIR 19 | error text |\n|---|---|---|')
    folder = os.path.join(HERE, 'errors')
    for n in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not n.endswith('.mlir'):
            continue
        t = open(os.path.join(folder, n)).read()
        m = re.search(r'// ERROR: (.*)', t)
        mode = re.search(r'// MLIR: (\w+)', t)
        out.append('| `errors/%s` | %s | `%s` |' % (n, mode.group(1) if mode else '?',
                                                    m.group(1).strip() if m else '?'))
    out.append('')
    out.append(README_SYNTAX)
    return '\n'.join(out)


# ---------------------------------------------------------------------------
# Driver.
# ---------------------------------------------------------------------------

RUN_PIPELINE = [
    '--convert-elementwise-to-linalg',
    # Loops carrying tensors (scf_tensor.mlir) yield new buffers.
    '--one-shot-bufferize=bufferize-function-boundaries allow-return-allocs-from-loops',
    '--convert-linalg-to-loops', '--convert-scf-to-cf', '--expand-strided-metadata',
    '--lower-affine', '--arith-expand=include-bf16=true', '--convert-math-to-libm',
    '--convert-math-to-llvm', '--finalize-memref-to-llvm', '--convert-arith-to-llvm',
    '--convert-index-to-llvm', '--convert-func-to-llvm', '--convert-cf-to-llvm',
    '--reconcile-unrealized-casts']

# MLIR 19 bufferizes neither linalg.softmax nor tensor.concat: the CPU run
# decomposes them first with MLIR's own transforms.
DECOMPOSE = '''module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %s : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.decompose_concat
    } : !transform.any_op
    transform.yield
  }
}
'''

# MLIR lowers a memref.copy between strided views to a call to `memrefCopy`,
# which lives in MLIR's C runner-utils library (not packaged with
# mlir-19-tools): this is the same function, built for the CPU run.
MEMREF_COPY_C = r'''
#include <stdint.h>
#include <string.h>
typedef struct { int64_t rank; char *descriptor; } Unranked;
typedef struct { char *allocated; char *aligned; int64_t offset; } Head;
static void copy(int64_t es, int64_t rank, int64_t d, const int64_t *sizes,
                 const int64_t *ss, const int64_t *ds, const char *s, char *t) {
  if (d == rank) { memcpy(t, s, (size_t)es); return; }
  for (int64_t i = 0; i < sizes[d]; i++)
    copy(es, rank, d + 1, sizes, ss, ds, s + i * ss[d] * es, t + i * ds[d] * es);
}
void memrefCopy(int64_t es, Unranked *src, Unranked *dst) {
  Head *hs = (Head *)src->descriptor, *hd = (Head *)dst->descriptor;
  const int64_t *sizes = (const int64_t *)(src->descriptor + sizeof(Head));
  const int64_t *ss = sizes + src->rank;
  const int64_t *ds = (const int64_t *)(dst->descriptor + sizeof(Head)) + dst->rank;
  copy(es, src->rank, 0, sizes, ss, ds, hs->aligned + hs->offset * es,
       hd->aligned + hd->offset * es);
}
'''


def memref_copy_lib(tmp):
    path = os.path.join(tmp, 'libmemrefcopy.so')
    if not os.path.exists(path):
        src = os.path.join(tmp, 'memrefcopy.c')
        with open(src, 'w') as fh:
            fh.write(MEMREF_COPY_C)
        cc = shutil.which('cc') or shutil.which('gcc') or shutil.which('clang')
        if cc is None:
            sys.exit('gen.py: --run-mlir needs a C compiler (cc) for memrefCopy')
        subprocess.run([cc, '-shared', '-fPIC', '-O1', '-o', path, src], check=True)
    return path


def need_tool(tool):
    if shutil.which(tool) is None:
        sys.exit('gen.py: %s not found (ci/setup.sh installs mlir-19-tools); '
                 'the check cannot run' % tool)


def generate():
    """{file name: text} of every generated file."""
    out = collections.OrderedDict()
    for name in FILES:
        out[name] = build_file(name).render()
    out['README.md'] = readme(out)
    return out


def check_failure_text(text, fns, code):
    """The check a failure code (1000 * function + check) points at."""
    fi, ci = divmod(code, 1000)
    fn = fns[fi - 1]
    chunk = text[text.index('func.func @%s()' % fn):]
    n = 0
    for m in IREE_OP_RE.finditer(chunk):
        if m.group('op').startswith('check.'):
            n += 1
            if n == ci:
                line = chunk[m.start():statement_end(chunk, m.end())].strip()
                return '@%s, check %d: %s' % (fn, ci, line[:300])
    return '@%s, check %d' % (fn, ci)


# Files MLIR 19's CPU pipeline cannot run (parsed and verified only).
NO_MLIR_RUN = {
    'edge_values_bf16.mlir': 'bf16 arithmetic calls __truncsfbf2, absent from the JIT',
    # Fails check 1 of fma_f16_rounds_once on MLIR's CPU lowering (rows
    # built so that rounding to f32 first gives another f16; double
    # rounding suspected, its values not looked at); the fractions are the
    # oracle, and kiln's three backends agree with them.
    'fma_f16_bf16.mlir': 'MLIR 19 CPU lowering fails its f16 fma check (open)',
    'edge_values_casts_saturating.mlir': 'MLIR leaves these conversions undefined (poison)',
    # Fails check 1 of maximumf_f64_edges on MLIR's CPU lowering, though
    # its scalar arith.maximumf gives IEEE's results on the pairs tried by
    # hand (±0 both ways, NaN, inf, denormals); not narrowed down further
    # (edge_values.mlir's f32 cases do not run there either).
    'edge_values_f64.mlir': 'MLIR 19 CPU lowering disagrees on maximumf_f64_edges (open)',
    # mlir-cpu-runner-19 dies on a signal running it (not yet narrowed
    # down; numpy stays the oracle and lavapipe, the CPU runner and the
    # reference evaluator agree with it on every value).
    'edge_values.mlir': 'mlir-cpu-runner-19 crashes on it (cause not narrowed down)',
    # MLIR 19's CPU lowering disagrees with numpy (and kiln's three
    # backends) on maximumf / minimumf / maxnumf / minnumf with a constant
    # operand at the edge values (maximumf as in edge_values_f64.mlir,
    # maxnumf(NaN, +0.0) too; open); the other 21 functions pass there
    # (checked with those four ops' functions removed).
    'edge_values_constant_operand.mlir': 'MLIR 19 CPU lowering disagrees on its max/min '
                                         'functions (open)',
}


def verify_and_run(name, text, run, tmp):
    """Parses (and with `run`, executes) the standard form of one file;
    returns a list of problems."""
    try:
        std, fns = standard_module(name, text)
    except FormatError as e:
        return ['%s: %s' % (name, e)]
    path = os.path.join(tmp, name + '.std.mlir')
    with open(path, 'w') as fh:
        fh.write(std)
    p = subprocess.run([MLIR_OPT, path, '-o', os.devnull], capture_output=True, text=True)
    if p.returncode != 0:
        return ['%s: mlir-opt-19 rejects it (standard form kept at %s):\n%s'
                % (name, path, p.stderr[:3000])]
    if not run or name in NO_MLIR_RUN:
        return []
    passes = list(RUN_PIPELINE)
    if 'math.rsqrt' in text:
        # MLIR 19 lowers math.rsqrt to LLVM only through its expansion (1 / sqrt),
        # applied after bufferization so that no tensor constant is folded.
        k = passes.index('--convert-linalg-to-loops')
        passes.insert(k, '--test-expand-math')
    if any(op in text for op in ('math.ctpop', 'math.ctlz', 'math.cttz')):
        # MLIR 19's --convert-math-to-libm marks math.ctpop illegal without
        # a pattern for it ("failed to legalize"): the bit counts become
        # LLVM intrinsics first.
        k = passes.index('--convert-math-to-libm')
        passes.insert(k, '--convert-math-to-llvm')
    if 'linalg.softmax' in text or 'tensor.concat' in text:
        lib = os.path.join(tmp, 'decompose.mlir')
        with open(lib, 'w') as fh:
            fh.write(DECOMPOSE)
        passes = ['--transform-preload-library=transform-library-paths=' + lib,
                  '--transform-interpreter'] + passes
    llvm = os.path.join(tmp, name + '.llvm.mlir')
    p = subprocess.run([MLIR_OPT, path] + passes + ['-o', llvm], capture_output=True,
                       text=True)
    if p.returncode != 0:
        return ['%s: MLIR CPU lowering failed:\n%s' % (name, p.stderr[:3000])]
    p = subprocess.run([MLIR_RUNNER, '-e', 'main', '-entry-point-result=i32',
                        '--shared-libs=' + memref_copy_lib(tmp), llvm],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return ['%s: mlir-cpu-runner-19 failed:\n%s' % (name, p.stderr[:3000])]
    try:
        code = int(p.stdout.strip().split()[-1])
    except (ValueError, IndexError):
        return ['%s: unexpected mlir-cpu-runner-19 output %r' % (name, p.stdout[:200])]
    if code != 0:
        return ['%s: fails on MLIR\'s CPU lowering at %s'
                % (name, check_failure_text(text, fns, code))]
    return []


def generic_form_line(line):
    """One line with an IREE op rewritten to MLIR's generic form of an
    unregistered op (parsed with --allow-unregistered-dialect), so that
    mlir-opt-19's error lines are the file's own."""
    m = IREE_OP_RE.match(line)
    if not m:
        return line
    indent, lhs, op = m.group('indent'), m.group('lhs'), m.group('op')
    stmt = re.sub(r'//.*', '', line[m.end():]).strip()
    if op == 'util.unfoldable_constant':
        return '%s%s = arith.constant %s' % (indent, lhs, stmt)
    if op == 'util.optimization_barrier':
        operand, ty = [p.strip() for p in stmt.split(' : ', 1)]
        return '%s%s = "%s"(%s) : (%s) -> %s' % (indent, lhs, op, operand, ty, ty)
    if op == 'flow.tensor.dynamic_constant':
        k = stmt.rfind(' -> ')
        return '%s%s = "%s"() {value = %s} : () -> %s' % (indent, lhs, op, stmt[:k],
                                                          stmt[k + 4:].strip())
    close = stmt.rindex(')')
    args = split_top(stmt[1:close])
    ty = stmt[close + 1:].strip()[1:].strip()
    operands, attrs = [], []
    for a in args:
        if a.startswith('%'):
            operands.append(a)
        elif re.match(r'(atol|rtol) ', a):
            k, v = a.split(' ', 1)
            attrs.append('%s = %s : f32' % (k, v))
        else:
            attrs.append('value = ' + a)
    return '%s"%s"(%s)%s : (%s) -> ()' % (
        indent, op, ', '.join(operands), ' {%s}' % ', '.join(attrs) if attrs else '',
        ', '.join([ty] * len(operands)))


def check_errors_folder(tmp):
    """errors/*.mlir: each names its expected message (`// ERROR: text` on the
    faulty line) and says whether MLIR 19 rejects it too (`// MLIR:
    rejects` — mlir-opt-19 must report an error on that line) or accepts it
    (`// MLIR: accepts` — valid MLIR that fails only when run)."""
    problems = []
    folder = os.path.join(HERE, 'errors')
    if not os.path.isdir(folder):
        return ['errors/ is missing']
    names = sorted(n for n in os.listdir(folder) if n.endswith('.mlir'))
    if len(names) < 6:
        problems.append('errors/: %d files, expected at least 6' % len(names))
    for n in names:
        path = os.path.join(folder, n)
        text = open(path).read()
        err_lines = [i + 1 for i, ln in enumerate(text.split('\n'))
                     if re.search(r'// ERROR: \S', ln)]
        mode = re.search(r'^// MLIR: (rejects|accepts)\b', text, re.M)
        if len(err_lines) != 1 or not mode:
            problems.append('errors/%s: needs one `// ERROR:` line and a `// MLIR:` line' % n)
            continue
        if mode.group(1) == 'rejects':
            gp = os.path.join(tmp, 'error_generic_' + n)
            with open(gp, 'w') as fh:
                fh.write('\n'.join(generic_form_line(ln) for ln in text.split('\n')))
            p = subprocess.run([MLIR_OPT, '--allow-unregistered-dialect', gp, '-o', os.devnull],
                               capture_output=True, text=True)
            m = re.search(r':(\d+):\d+: error:', p.stderr)
            if p.returncode == 0 or not m:
                problems.append('errors/%s: mlir-opt-19 accepts it' % n)
            elif int(m.group(1)) != err_lines[0]:
                problems.append('errors/%s: mlir-opt-19 reports line %s, the ERROR comment is '
                                'on line %d:\n%s' % (n, m.group(1), err_lines[0], p.stderr))
        else:
            try:
                std, _ = standard_module(n, text)
            except FormatError as e:
                problems.append('errors/%s: %s' % (n, e))
                continue
            sp = os.path.join(tmp, 'error_' + n)
            with open(sp, 'w') as fh:
                fh.write(std)
            p = subprocess.run([MLIR_OPT, sp, '-o', os.devnull], capture_output=True, text=True)
            if p.returncode != 0:
                problems.append('errors/%s: says MLIR accepts it, but mlir-opt-19 says:\n%s'
                                % (n, p.stderr[:2000]))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--run-mlir', action='store_true')
    ap.add_argument('--only', default=None)
    ap.add_argument('--standard', metavar='DIR', default=None,
                    help='write the standard MLIR form of every committed file to DIR and stop')
    args = ap.parse_args()
    if np is None:
        sys.exit('gen.py: numpy is not installed (`pip install numpy`, or apt-get install '
                 'python3-numpy; ci/setup.sh does it); cannot regenerate or check')
    if args.standard:
        # The committed files as mlir-opt-19 reads them (kiln's generic-form
        # test prints them with --mlir-print-op-generic); no regeneration.
        os.makedirs(args.standard, exist_ok=True)
        for n in sorted(os.listdir(HERE)):
            if n.endswith('.mlir'):
                with open(os.path.join(HERE, n)) as fh:
                    text, _ = standard_module(n, fh.read())
                with open(os.path.join(args.standard, n), 'w') as fh:
                    fh.write(text)
        return
    files = generate()
    if not (args.check or args.run_mlir):
        for name, text in files.items():
            with open(os.path.join(HERE, name), 'w') as fh:
                fh.write(text)
        print('wrote %d files' % len(files))
        return
    need_tool(MLIR_OPT)
    if args.run_mlir:
        need_tool(MLIR_RUNNER)
    problems = []
    if args.check:
        committed = sorted(n for n in os.listdir(HERE) if n.endswith('.mlir'))
        for n in committed:
            if n not in files:
                problems.append('%s is not written by gen.py' % n)
        for name, text in files.items():
            path = os.path.join(HERE, name)
            if not os.path.exists(path):
                problems.append('%s is missing (run gen.py)' % name)
            elif open(path).read() != text:
                problems.append('%s differs from what gen.py writes (run gen.py)' % name)
    selected = [n for n in files if n.endswith('.mlir') and (args.only is None or args.only in n)]
    tmp = tempfile.mkdtemp(prefix='kiln-tensor-tests-')
    for name in selected:
        found = verify_and_run(name, files[name], args.run_mlir, tmp)
        problems += found
        print('%-40s %s' % (name, 'ok' if not found else 'FAILED'), flush=True)
    if args.check and args.only is None:
        problems += check_errors_folder(tmp)
        problems += coverage_problems(files)
    if args.run_mlir and args.only is None:
        # The oracle must notice a wrong expected value.
        good = files['elementwise_f32.mlir']
        bad = good.replace('dense<-3.375> : tensor<f32>', 'dense<-3.5> : tensor<f32>', 1)
        assert bad != good
        if not verify_and_run('canary_elementwise_f32.mlir', bad, True, tmp):
            problems.append('--run-mlir accepted a wrong expected value (canary)')
    if problems:
        print('\n'.join(problems), file=sys.stderr)
        print('gen.py: %d problem(s); intermediate files under %s' % (len(problems), tmp),
              file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(tmp, ignore_errors=True)
    what = []
    if args.check:
        what.append('%d files match gen.py and parse with mlir-opt-19' % len(selected))
    if args.run_mlir:
        what.append('every check passes on MLIR 19\'s CPU lowering')
    print('gen.py: ' + '; '.join(what))


if __name__ == '__main__':
    main()
