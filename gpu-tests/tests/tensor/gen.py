#!/usr/bin/env python3
"""Writes kiln's tensor-level end-to-end tests (this folder's *.mlir and
README.md) from the Python description of each file below, with every
expected value computed here by numpy, independently of kiln.

    python3 gen.py              write the files
    python3 gen.py --check      regenerate in memory; fail if a committed file
                                differs, then parse and verify the standard
                                part of every file with mlir-opt-19
    python3 gen.py --run-mlir   (alone or with --check) also compile every
                                file with MLIR 19's own CPU pipeline and run
                                it with mlir-cpu-runner-19: every check must
                                pass there too (a second, independent oracle
                                for the expected values)
    python3 gen.py --only NAME  restrict --check / --run-mlir to files whose
                                name contains NAME

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
    - long or non-dyadic f32 sums of n terms: rtol ~ n * 2^-24 (the worst
      case of a sequential order; trees do better).
    - f16 / bf16 results of a computation that is not exact: one ulp of the
      type, rtol 2^-10 (f16) or 2^-7 (bf16), on top of the f32 tolerance.

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
import math
import os
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
FLOAT_FORMATS = {'f32': (24, -126, 127), 'f16': (11, -14, 15), 'bf16': (8, -126, 127)}
INT_BITS = {'i1': 1, 'i8': 8, 'i16': 16, 'i32': 32, 'i64': 64}
ELEMENT_TYPES = ['f32', 'f16', 'bf16', 'i1', 'i8', 'i16', 'i32', 'i64']
INF_BITS = {'f32': (0x7F800000, 8), 'f16': (0x7C00, 4), 'bf16': (0x7F80, 4)}
STORAGE_BITS = {'f32': 32, 'f16': 16, 'bf16': 16, 'i1': 8, 'i8': 8, 'i16': 16, 'i32': 32,
                'i64': 64}


def is_float(et):
    return et in FLOAT_FORMATS


def round_fraction(q, et):
    """The value of `et` nearest the rational `q` (ties to even), as a Python
    float (exact: every f32/f16/bf16 value is a double)."""
    p, emin, emax = FLOAT_FORMATS[et]
    q = Fraction(q)
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - (p - 1))
    r = round(a / ulp)  # Fraction.__round__: ties to even
    v = r * ulp
    if v >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(v)


def bf16_from_f64(x):
    """float64 array -> float32 array of bf16 values, rounded once (ties to
    even). Normal range only (asserted): the tests stay away from bf16
    subnormals."""
    x = np.asarray(x, dtype=np.float64)
    m, e = np.frexp(x)
    r = np.round(m * 256.0)  # numpy rounds halves to even
    out = np.ldexp(r, e - 8)
    bad = (out != 0) & ((np.abs(out) < 2.0 ** -126) | (np.abs(out) >= 2.0 ** 128))
    assert not bad.any(), 'bf16 value out of the normal range'
    return out.astype(np.float32)


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
        assert np.array_equal(f64(s), f64(x)), 'value not exact in ' + et
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
        raise ValueError('NaN literals are not used')
    if math.isinf(v):
        bits, nd = INF_BITS[et]
        if v < 0:
            bits |= 1 << (4 * nd - 1)
        s = '0x%0*X' % (nd, bits)
    elif v == 0:
        s = '-0.0' if math.copysign(1.0, v) < 0 else '0.0'
    else:
        assert round_fraction(Fraction(v), et) == v, (et, v)
        for p in range(1, 18):
            s = mlir_float_text('%.*g' % (p, v))
            if reads_back(et, s, v):
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
        bits = flat.view(np.uint32 if flat.dtype == np.float32 else np.uint16)
        splat = bool((bits == bits[0]).all())
    else:
        splat = bool((flat == flat[0]).all())
    if a.ndim == 0 or splat:
        return 'dense<%s>' % fmt_scalar(et, flat[0])
    cache = {}
    words = []
    for x in flat.tolist():
        w = cache.get(x)
        if w is None:
            w = cache[x] = fmt_scalar(et, x)
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
    flat = [round_fraction(Fraction(int(n), 1 << scale), et) for n in np.asarray(num).reshape(-1)]
    return store(et, np.array(flat, dtype=np.float64).reshape(np.shape(num)))


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
            self.scalar_consts[key] = self.op('%s %s : %s' % (opname, key[1], et), et,
                                              hint='cst')
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
        return '\n'.join(head) + '\n\n' + '\n'.join(f.render() for f in self.fns)


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

IREE_OPS = ('util.unfoldable_constant', 'util.optimization_barrier',
            'flow.tensor.dynamic_constant', 'check.expect_eq_const', 'check.expect_eq',
            'check.expect_almost_eq_const', 'check.expect_almost_eq', 'check.expect_true',
            'check.expect_false')
IREE_OP_RE = re.compile(r'^(?P<indent>[ \t]*)(?:(?P<lhs>%[\w]+) = )?(?P<op>'
                        + '|'.join(re.escape(o) for o in IREE_OPS) + r')(?![\w.])', re.M)
TENSOR_TYPE_RE = re.compile(r'tensor<((?:[0-9?]+x)*)([a-z0-9]+)>')


class FormatError(Exception):
    pass


def statement_end(text, pos):
    """End of the statement starting at `pos`: the first newline outside
    (), [], {}, <> (the `->` arrow is not a bracket)."""
    depth = 0
    i = pos
    n = len(text)
    while i < n:
        c = text[i]
        if c == '-' and i + 1 < n and text[i + 1] == '>':
            i += 2
            continue
        if c in '([{<':
            depth += 1
        elif c in ')]}>':
            depth -= 1
        elif c == '\n' and depth == 0:
            return i
        i += 1
    return n


def split_top(s, sep=','):
    parts, depth, cur = [], 0, []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '-' and s[i:i + 2] == '->':
            cur.append('->')
            i += 2
            continue
        if c in '([{<':
            depth += 1
        elif c in ')]}>':
            depth -= 1
        if c == sep and depth == 0:
            parts.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append(''.join(cur).strip())
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
            if not is_float(et):
                raise FormatError('almost_eq on non-float type %s' % ty)
            widen = []
            for v in ('x', 'y'):
                if et == 'f32':
                    widen.append('%%%sd = arith.extf %%%s : f32 to f64' % (v, v))
                else:
                    widen.append('%%%sw = arith.extf %%%s : %s to f32' % (v, v, et))
                    widen.append('%%%sd = arith.extf %%%sw : f32 to f64' % (v, v))
            a = float(np.float32(atol if atol is not None else 1e-4))
            r = float(np.float32(rtol if rtol is not None else 0.0))
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
            stmt = text[m.end():end].strip()
            pieces.append(text[pos:m.start()])
            pieces.append(self.replace(m.group('indent'), m.group('lhs'), m.group('op'), stmt))
            pos = end
        pieces.append(text[pos:])
        return ''.join(pieces)

    def replace(self, indent, lhs, op, stmt):
        if op == 'util.unfoldable_constant':
            attr, ty = attr_and_type(stmt)
            return '%s%s = arith.constant %s : %s' % (indent, lhs, attr, ty)
        if op == 'util.optimization_barrier':
            operand, ty = [p.strip() for p in stmt.split(' : ', 1)]
            if parse_tensor_type(ty) is None:
                raise FormatError('barriers are on tensors here: ' + stmt)
            return '%s%s = tensor.cast %s : %s to %s' % (indent, lhs, operand, ty, ty)
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
        if v[0] == v[1]:
            return 'dense<%d> : tensor<2xi64>' % v[0]
        return 'dense<[%d, %d]> : tensor<2xi64>' % tuple(v)
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


def readme(files):
    return "stub\n"


# ---------------------------------------------------------------------------
# Driver.
# ---------------------------------------------------------------------------

RUN_PIPELINE = [
    '--convert-elementwise-to-linalg', '--one-shot-bufferize=bufferize-function-boundaries',
    '--convert-linalg-to-loops', '--convert-scf-to-cf', '--expand-strided-metadata',
    '--lower-affine', '--arith-expand=include-bf16=true', '--convert-math-to-libm',
    '--convert-math-to-llvm', '--finalize-memref-to-llvm', '--convert-arith-to-llvm',
    '--convert-index-to-llvm', '--convert-func-to-llvm', '--convert-cf-to-llvm',
    '--reconcile-unrealized-casts']

DECOMPOSE_SOFTMAX = '''module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
'''


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
    if not run:
        return []
    passes = list(RUN_PIPELINE)
    if 'linalg.softmax' in text:
        lib = os.path.join(tmp, 'decompose_softmax.mlir')
        with open(lib, 'w') as fh:
            fh.write(DECOMPOSE_SOFTMAX)
        passes = ['--transform-preload-library=transform-library-paths=' + lib,
                  '--transform-interpreter'] + passes
    llvm = os.path.join(tmp, name + '.llvm.mlir')
    p = subprocess.run([MLIR_OPT, path] + passes + ['-o', llvm], capture_output=True,
                       text=True)
    if p.returncode != 0:
        return ['%s: MLIR CPU lowering failed:\n%s' % (name, p.stderr[:3000])]
    p = subprocess.run([MLIR_RUNNER, '-e', 'main', '-entry-point-result=i32', llvm],
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
            p = subprocess.run([MLIR_OPT, '--allow-unregistered-dialect', path, '-o', os.devnull],
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
    args = ap.parse_args()
    if np is None:
        sys.exit('gen.py: numpy is not installed (`pip install numpy`, or apt-get install '
                 'python3-numpy; ci/setup.sh does it); cannot regenerate or check')
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
