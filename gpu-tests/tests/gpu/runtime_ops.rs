//! kiln-runtime's `ops` on the device, validation on: every op on small
//! random inputs (odd sizes, broadcasting, several element types) against
//! a host computation written here, the op cache (a second call with the
//! same shapes compiles nothing), and typed errors for bad operands.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::ops::{self, Compare, Conv2d, Pool2d};
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, Error, Stream, Tensor};

use crate::runtime_support::{device, test_device};

/// A deterministic stream of numbers (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[lo, hi)`.
    fn f32s(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n)
            .map(|_| lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32))
            .collect()
    }

    /// Uniform in `[lo, hi]`.
    fn i32s(&mut self, n: usize, lo: i32, hi: i32) -> Vec<i32> {
        (0..n)
            .map(|_| lo + (self.next() % (hi - lo + 1) as u64) as i32)
            .collect()
    }
}

fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

fn up<T: kiln_runtime::Element>(device: &Device, data: &[T], shape: &[usize]) -> Tensor {
    Tensor::from_slice(device, data, shape).unwrap()
}

/// Asserts `got` is within `atol + rtol * |want|` of `want` everywhere.
#[track_caller]
fn assert_close(what: &str, got: &[f32], want: &[f32], atol: f32, rtol: f32) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= atol + rtol * w.abs();
        assert!(ok, "{what}: element {i}: got {g}, want {w}");
    }
}

/// The row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// The index into an operand of `shape` broadcast to `out` of the result
/// element at flat index `i` (numpy's rules).
fn bcast_index(out: &[usize], shape: &[usize], i: usize) -> usize {
    let (os, is) = (strides(out), strides(shape));
    let offset = out.len() - shape.len();
    let mut idx = 0;
    for (j, &n) in shape.iter().enumerate() {
        let coord = (i / os[offset + j]) % out[offset + j];
        if n != 1 {
            idx += coord * is[j];
        }
    }
    idx
}

/// `f(a[..], b[..])` broadcast on the host.
fn host_binary<T: Copy, U>(
    a: &[T],
    sa: &[usize],
    b: &[T],
    sb: &[usize],
    out: &[usize],
    f: impl Fn(T, T) -> U,
) -> Vec<U> {
    (0..numel(out))
        .map(|i| f(a[bcast_index(out, sa, i)], b[bcast_index(out, sb, i)]))
        .collect()
}

/// Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7), in f64.
fn erf(x: f32) -> f32 {
    let x = f64::from(x);
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    (if x < 0.0 { -y } else { y }) as f32
}

const SHAPE_PAIRS: [(&[usize], &[usize], &[usize]); 6] = [
    (&[2, 3], &[3], &[2, 3]),
    (&[4, 1, 5], &[3, 1], &[4, 3, 5]),
    (&[13, 31], &[13, 1], &[13, 31]),
    (&[37], &[1], &[37]),
    (&[], &[2, 3], &[2, 3]),
    (&[1, 7], &[5, 1], &[5, 7]),
];

#[test]
fn binary_ops_broadcast_like_numpy() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(1);
    type F = fn(f32, f32) -> f32;
    let cases: [(ops::Binary, F); 7] = [
        (ops::Binary::Add, |a, b| a + b),
        (ops::Binary::Sub, |a, b| a - b),
        (ops::Binary::Mul, |a, b| a * b),
        (ops::Binary::Div, |a, b| a / b),
        (ops::Binary::Max, f32::max),
        (ops::Binary::Min, f32::min),
        (ops::Binary::Pow, f32::powf),
    ];
    for (sa, sb, out) in SHAPE_PAIRS {
        // Positive bases for pow; divisors away from zero.
        let a = rng.f32s(numel(sa), 0.5, 2.0);
        let b = rng.f32s(numel(sb), 0.5, 2.0);
        let (ta, tb) = (up(&device, &a, sa), up(&device, &b, sb));
        for (op, f) in cases {
            let y = ops::binary(&stream, op, &ta, &tb).unwrap();
            assert_eq!(y.shape(), out, "{op:?} {sa:?} {sb:?}");
            let want = host_binary(&a, sa, &b, sb, out, f);
            let rtol = if op == ops::Binary::Pow { 1e-5 } else { 1e-6 };
            assert_close(
                &format!("{op:?} {sa:?} {sb:?}"),
                &y.to_vec::<f32>().unwrap(),
                &want,
                0.0,
                rtol,
            );
            // The other way round broadcasts too.
            let z = ops::binary(&stream, op, &tb, &ta).unwrap();
            let want = host_binary(&b, sb, &a, sa, out, f);
            assert_close(
                &format!("{op:?} {sb:?} {sa:?}"),
                &z.to_vec::<f32>().unwrap(),
                &want,
                0.0,
                rtol,
            );
        }
    }
    // Integers: wrap-around and division toward zero.
    let a = rng.i32s(15, -1000, 1000);
    let b: Vec<i32> = rng
        .i32s(5, 1, 9)
        .iter()
        .zip([1, -1, 1, -1, 1])
        .map(|(x, s)| x * s)
        .collect();
    let (ta, tb) = (up(&device, &a, &[3, 5]), up(&device, &b, &[5]));
    let check = |y: Tensor, f: fn(i32, i32) -> i32, what: &str| {
        let want = host_binary(&a, &[3, 5], &b, &[5], &[3, 5], f);
        assert_eq!(y.to_vec::<i32>().unwrap(), want, "{what}");
    };
    check(
        ops::add(&stream, &ta, &tb).unwrap(),
        i32::wrapping_add,
        "add i32",
    );
    check(
        ops::sub(&stream, &ta, &tb).unwrap(),
        i32::wrapping_sub,
        "sub i32",
    );
    check(
        ops::mul(&stream, &ta, &tb).unwrap(),
        i32::wrapping_mul,
        "mul i32",
    );
    check(
        ops::div(&stream, &ta, &tb).unwrap(),
        |x, y| x / y,
        "div i32",
    );
    check(
        ops::maximum(&stream, &ta, &tb).unwrap(),
        i32::max,
        "max i32",
    );
    check(
        ops::minimum(&stream, &ta, &tb).unwrap(),
        i32::min,
        "min i32",
    );
    let big = up(&device, &[i32::MAX, i32::MIN], &[2]);
    let one = up(&device, &[1i32], &[1]);
    assert_eq!(
        ops::add(&stream, &big, &one)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        vec![i32::MIN, i32::MIN + 1]
    );
    // Half types: computed in f32, rounded once.
    let a = rng.f32s(12, -2.0, 2.0);
    let b = rng.f32s(4, -2.0, 2.0);
    let ah: Vec<f16> = a.iter().map(|&x| f16::from_f32(x)).collect();
    let bh: Vec<f16> = b.iter().map(|&x| f16::from_f32(x)).collect();
    let y = ops::mul(&stream, &up(&device, &ah, &[3, 4]), &up(&device, &bh, &[4])).unwrap();
    let want: Vec<f16> = host_binary(&ah, &[3, 4], &bh, &[4], &[3, 4], |x, y| {
        f16::from_f32(x.to_f32() * y.to_f32())
    });
    assert_eq!(y.to_vec::<f16>().unwrap(), want, "mul f16");
    let ab: Vec<bf16> = a.iter().map(|&x| bf16::from_f32(x)).collect();
    let bb: Vec<bf16> = b.iter().map(|&x| bf16::from_f32(x)).collect();
    let y = ops::add(&stream, &up(&device, &ab, &[3, 4]), &up(&device, &bb, &[4])).unwrap();
    let want: Vec<bf16> = host_binary(&ab, &[3, 4], &bb, &[4], &[3, 4], |x, y| {
        bf16::from_f32(x.to_f32() + y.to_f32())
    });
    assert_eq!(y.to_vec::<bf16>().unwrap(), want, "add bf16");
    assert_no_validation_messages(device.context());
}

#[test]
fn comparisons_and_where() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(2);
    // Small integers as floats: ties happen.
    let a: Vec<f32> = rng.i32s(24, -2, 2).iter().map(|&x| x as f32).collect();
    let b: Vec<f32> = rng.i32s(4, -2, 2).iter().map(|&x| x as f32).collect();
    let (ta, tb) = (up(&device, &a, &[2, 3, 4]), up(&device, &b, &[4]));
    type C = fn(f32, f32) -> bool;
    let cases: [(Compare, C); 6] = [
        (Compare::Eq, |x, y| x == y),
        (Compare::Ne, |x, y| x != y),
        (Compare::Lt, |x, y| x < y),
        (Compare::Le, |x, y| x <= y),
        (Compare::Gt, |x, y| x > y),
        (Compare::Ge, |x, y| x >= y),
    ];
    for (cmp, f) in cases {
        let y = ops::compare(&stream, cmp, &ta, &tb).unwrap();
        assert_eq!(y.dtype(), DType::Bool);
        let want = host_binary(&a, &[2, 3, 4], &b, &[4], &[2, 3, 4], f);
        assert_eq!(y.to_vec::<bool>().unwrap(), want, "{cmp:?}");
    }
    let ai: Vec<i32> = a.iter().map(|&x| x as i32).collect();
    let bi: Vec<i32> = b.iter().map(|&x| x as i32).collect();
    let y = ops::compare(
        &stream,
        Compare::Lt,
        &up(&device, &ai, &[2, 3, 4]),
        &up(&device, &bi, &[4]),
    )
    .unwrap();
    let want = host_binary(&ai, &[2, 3, 4], &bi, &[4], &[2, 3, 4], |x, y| x < y);
    assert_eq!(y.to_vec::<bool>().unwrap(), want, "lt i32");
    // where(a > b, a, 0): relu-like, three operands broadcast.
    let cond = ops::compare(&stream, Compare::Gt, &ta, &tb).unwrap();
    let zero = up(&device, &[0.0f32], &[]);
    let w = ops::where_(&stream, &cond, &ta, &zero).unwrap();
    let want = host_binary(&a, &[2, 3, 4], &b, &[4], &[2, 3, 4], |x, y| {
        if x > y {
            x
        } else {
            0.0
        }
    });
    assert_eq!(w.to_vec::<f32>().unwrap(), want, "where");
    assert_no_validation_messages(device.context());
}

#[test]
fn unary_ops_and_activations() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(3);
    let x = rng.f32s(37, -3.0, 3.0);
    let pos: Vec<f32> = x.iter().map(|v| v.abs() + 0.25).collect();
    let (tx, tp) = (up(&device, &x, &[37]), up(&device, &pos, &[37]));
    let sigmoid = |v: f32| 1.0 / (1.0 + (-v).exp());
    type F = fn(f32) -> f32;
    let cases: [(ops::Unary, F, bool, f32); 15] = [
        (ops::Unary::Neg, |v| -v, false, 0.0),
        (ops::Unary::Abs, f32::abs, false, 0.0),
        (ops::Unary::Relu, |v| v.max(0.0), false, 0.0),
        (ops::Unary::Exp, f32::exp, false, 1e-5),
        (ops::Unary::Log, f32::ln, true, 1e-5),
        (ops::Unary::Sqrt, f32::sqrt, true, 1e-5),
        (ops::Unary::Rsqrt, |v| 1.0 / v.sqrt(), true, 1e-5),
        (ops::Unary::Tanh, f32::tanh, false, 1e-5),
        (ops::Unary::Erf, erf, false, 1e-5),
        (
            ops::Unary::Sigmoid,
            |v| 1.0 / (1.0 + (-v).exp()),
            false,
            1e-5,
        ),
        (
            ops::Unary::Gelu,
            |v| 0.5 * v * (1.0 + erf(v / 2f32.sqrt())),
            false,
            1e-5,
        ),
        (
            ops::Unary::GeluTanh,
            |v| 0.5 * v * (1.0 + (0.797_884_6 * (v + 0.044_715 * v * v * v)).tanh()),
            false,
            1e-5,
        ),
        (ops::Unary::Silu, |v| v / (1.0 + (-v).exp()), false, 1e-5),
        (ops::Unary::Sin, f32::sin, false, 5e-4),
        (ops::Unary::Cos, f32::cos, false, 5e-4),
    ];
    for (op, f, positive, tol) in cases {
        let (t, data) = if positive { (&tp, &pos) } else { (&tx, &x) };
        let y = ops::unary(&stream, op, t).unwrap();
        let want: Vec<f32> = data.iter().map(|&v| f(v)).collect();
        assert_close(
            &format!("{op:?}"),
            &y.to_vec::<f32>().unwrap(),
            &want,
            tol,
            tol,
        );
    }
    // The named functions are the same ops.
    let want: Vec<f32> = x.iter().map(|&v| v * sigmoid(v)).collect();
    assert_close(
        "silu",
        &ops::silu(&stream, &tx).unwrap().to_vec::<f32>().unwrap(),
        &want,
        1e-5,
        1e-5,
    );
    // Integers: neg, abs, relu.
    let xi = rng.i32s(10, -50, 50);
    let ti = up(&device, &xi, &[2, 5]);
    let neg: Vec<i32> = xi.iter().map(|v| -v).collect();
    assert_eq!(
        ops::neg(&stream, &ti).unwrap().to_vec::<i32>().unwrap(),
        neg
    );
    let abs: Vec<i32> = xi.iter().map(|v| v.abs()).collect();
    assert_eq!(
        ops::abs(&stream, &ti).unwrap().to_vec::<i32>().unwrap(),
        abs
    );
    let relu: Vec<i32> = xi.iter().map(|&v| v.max(0)).collect();
    assert_eq!(
        ops::relu(&stream, &ti).unwrap().to_vec::<i32>().unwrap(),
        relu
    );
    // GELU on bf16 storage, computed in f32.
    let xb: Vec<bf16> = x[..36].iter().map(|&v| bf16::from_f32(v)).collect();
    let y = ops::gelu(&stream, &up(&device, &xb, &[6, 6])).unwrap();
    let want: Vec<f32> = xb
        .iter()
        .map(|v| {
            let v = v.to_f32();
            0.5 * v * (1.0 + erf(v / 2f32.sqrt()))
        })
        .collect();
    let got: Vec<f32> = y
        .to_vec::<bf16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    assert_close("gelu bf16", &got, &want, 1e-5, 1.0 / 128.0);
    assert_no_validation_messages(device.context());
}

/// `a [m, k] x b [k, n]` on the host, in f64.
fn host_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f64;
            for p in 0..k {
                s += f64::from(a[i * k + p]) * f64::from(b[p * n + j]);
            }
            c[i * n + j] = s as f32;
        }
    }
    c
}

#[test]
fn matmul_and_batch_matmul() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(4);
    for (m, k, n) in [(1, 1, 1), (5, 7, 3), (17, 33, 9), (64, 48, 40)] {
        let a = rng.f32s(m * k, -1.0, 1.0);
        let b = rng.f32s(k * n, -1.0, 1.0);
        let y = ops::matmul(
            &stream,
            &up(&device, &a, &[m, k]),
            &up(&device, &b, &[k, n]),
        )
        .unwrap();
        assert_eq!(y.shape(), [m, n]);
        let want = host_matmul(&a, &b, m, k, n);
        assert_close(
            &format!("matmul {m}x{k}x{n}"),
            &y.to_vec::<f32>().unwrap(),
            &want,
            1e-5,
            1e-5,
        );
    }
    // Leading dimensions are rows: [2, 3, 4] x [4, 5] = [2, 3, 5].
    let a = rng.f32s(24, -1.0, 1.0);
    let b = rng.f32s(20, -1.0, 1.0);
    let y = ops::matmul(
        &stream,
        &up(&device, &a, &[2, 3, 4]),
        &up(&device, &b, &[4, 5]),
    )
    .unwrap();
    assert_eq!(y.shape(), [2, 3, 5]);
    assert_close(
        "matmul 3-D",
        &y.to_vec::<f32>().unwrap(),
        &host_matmul(&a, &b, 6, 4, 5),
        1e-5,
        1e-5,
    );
    // A transposed view as an operand (made contiguous first).
    let bt2 = up(&device, &b, &[5, 4]).transpose(0, 1).unwrap();
    let mut b2 = vec![0.0; 20];
    for i in 0..5 {
        for j in 0..4 {
            b2[j * 5 + i] = b[i * 4 + j];
        }
    }
    let y = ops::matmul(&stream, &up(&device, &a[..12], &[3, 4]), &bt2).unwrap();
    assert_close(
        "matmul of a view",
        &y.to_vec::<f32>().unwrap(),
        &host_matmul(&a[..12], &b2, 3, 4, 5),
        1e-5,
        1e-5,
    );
    // Integers wrap; f16 accumulates in f32.
    let ai = rng.i32s(12, -9, 9);
    let bi = rng.i32s(8, -9, 9);
    let y = ops::matmul(
        &stream,
        &up(&device, &ai, &[6, 2]),
        &up(&device, &bi, &[2, 4]),
    )
    .unwrap();
    let mut want = vec![0i32; 24];
    for i in 0..6 {
        for j in 0..4 {
            want[i * 4 + j] = (0..2).map(|p| ai[i * 2 + p] * bi[p * 4 + j]).sum();
        }
    }
    assert_eq!(y.to_vec::<i32>().unwrap(), want, "matmul i32");
    let ah: Vec<f16> = rng
        .f32s(6 * 16, -1.0, 1.0)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let bh: Vec<f16> = rng
        .f32s(16 * 4, -1.0, 1.0)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let y = ops::matmul(
        &stream,
        &up(&device, &ah, &[6, 16]),
        &up(&device, &bh, &[16, 4]),
    )
    .unwrap();
    let af: Vec<f32> = ah.iter().map(|v| v.to_f32()).collect();
    let bf: Vec<f32> = bh.iter().map(|v| v.to_f32()).collect();
    let want = host_matmul(&af, &bf, 6, 16, 4);
    let got: Vec<f32> = y
        .to_vec::<f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    assert_close("matmul f16", &got, &want, 1e-3, 1.0 / 1024.0);
    // Batches.
    let (bn, m, k, n) = (3, 4, 5, 2);
    let a = rng.f32s(bn * m * k, -1.0, 1.0);
    let b = rng.f32s(bn * k * n, -1.0, 1.0);
    let y = ops::batch_matmul(
        &stream,
        &up(&device, &a, &[bn, m, k]),
        &up(&device, &b, &[bn, k, n]),
    )
    .unwrap();
    let mut want = Vec::new();
    for i in 0..bn {
        want.extend(host_matmul(
            &a[i * m * k..][..m * k],
            &b[i * k * n..][..k * n],
            m,
            k,
            n,
        ));
    }
    assert_close(
        "batch_matmul",
        &y.to_vec::<f32>().unwrap(),
        &want,
        1e-5,
        1e-5,
    );
    assert_no_validation_messages(device.context());
}

/// NHWC x HWCF on the host, zero padding.
#[allow(clippy::too_many_arguments)]
fn host_conv(
    x: &[f32],
    [n, h, w, c]: [usize; 4],
    k: &[f32],
    [kh, kw, _, f]: [usize; 4],
    p: &Conv2d,
    [oh, ow]: [usize; 2],
) -> Vec<f32> {
    let mut out = vec![0.0f32; n * oh * ow * f];
    for b in 0..n {
        for i in 0..oh {
            for j in 0..ow {
                for o in 0..f {
                    let mut s = 0.0f64;
                    for r in 0..kh {
                        for q in 0..kw {
                            let y = (i * p.stride[0] + r * p.dilation[0]) as isize
                                - p.padding[0][0] as isize;
                            let z = (j * p.stride[1] + q * p.dilation[1]) as isize
                                - p.padding[1][0] as isize;
                            if y < 0 || z < 0 || y >= h as isize || z >= w as isize {
                                continue;
                            }
                            for ci in 0..c {
                                let xv = x[((b * h + y as usize) * w + z as usize) * c + ci];
                                let kv = k[((r * kw + q) * c + ci) * f + o];
                                s += f64::from(xv) * f64::from(kv);
                            }
                        }
                    }
                    out[((b * oh + i) * ow + j) * f + o] = s as f32;
                }
            }
        }
    }
    out
}

/// Max (`avg` false) or average pooling of NHWC on the host; padding is
/// -inf for max, 0 for the average (counted).
fn host_pool(
    x: &[f32],
    [n, h, w, c]: [usize; 4],
    p: &Pool2d,
    avg: bool,
    [oh, ow]: [usize; 2],
) -> Vec<f32> {
    let mut out = Vec::with_capacity(n * oh * ow * c);
    for b in 0..n {
        for i in 0..oh {
            for j in 0..ow {
                for ci in 0..c {
                    let mut acc = if avg { 0.0 } else { f32::NEG_INFINITY };
                    for r in 0..p.kernel[0] {
                        for q in 0..p.kernel[1] {
                            let y = (i * p.stride[0] + r) as isize - p.padding[0][0] as isize;
                            let z = (j * p.stride[1] + q) as isize - p.padding[1][0] as isize;
                            if y < 0 || z < 0 || y >= h as isize || z >= w as isize {
                                continue;
                            }
                            let v = x[((b * h + y as usize) * w + z as usize) * c + ci];
                            acc = if avg { acc + v } else { acc.max(v) };
                        }
                    }
                    out.push(if avg {
                        acc / (p.kernel[0] * p.kernel[1]) as f32
                    } else {
                        acc
                    });
                }
            }
        }
    }
    out
}

#[test]
fn conv2d_and_pooling() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(5);
    let xs = [2, 7, 6, 3];
    let x = rng.f32s(numel(&xs), -1.0, 1.0);
    let tx = up(&device, &x, &xs);
    let cases = [
        ([3, 3, 3, 4], Conv2d::default(), [5, 4]),
        (
            [3, 2, 3, 4],
            Conv2d {
                stride: [2, 1],
                padding: [[1, 1], [1, 1]],
                dilation: [1, 2],
            },
            [4, 6],
        ),
        (
            [3, 2, 3, 4],
            Conv2d {
                stride: [2, 1],
                padding: [[1, 0], [1, 2]],
                dilation: [1, 2],
            },
            [3, 7],
        ),
        // SAME padding for an even filter: one more row and column after.
        (
            [2, 2, 3, 2],
            Conv2d {
                padding: [[0, 1], [0, 1]],
                ..Conv2d::default()
            },
            [7, 6],
        ),
        (
            [1, 1, 3, 5],
            Conv2d {
                stride: [3, 2],
                padding: [[0, 0]; 2],
                dilation: [1, 1],
            },
            [3, 3],
        ),
    ];
    for (ks, params, [oh, ow]) in cases {
        let k = rng.f32s(numel(&ks), -1.0, 1.0);
        let y = ops::conv2d(&stream, &tx, &up(&device, &k, &ks), &params).unwrap();
        assert_eq!(y.shape(), [2, oh, ow, ks[3]], "{params:?}");
        let want = host_conv(&x, xs, &k, ks, &params, [oh, ow]);
        assert_close(
            &format!("conv2d {params:?}"),
            &y.to_vec::<f32>().unwrap(),
            &want,
            1e-5,
            1e-5,
        );
    }
    for (params, [oh, ow]) in [
        (Pool2d::new([2, 2]), [3, 3]),
        (
            Pool2d {
                kernel: [3, 3],
                stride: [2, 2],
                padding: [[1, 1], [1, 1]],
            },
            [4, 3],
        ),
        (
            Pool2d {
                kernel: [2, 2],
                stride: [2, 2],
                padding: [[0, 1], [2, 0]],
            },
            [4, 4],
        ),
        (
            Pool2d {
                kernel: [7, 1],
                stride: [1, 1],
                padding: [[0, 0]; 2],
            },
            [1, 6],
        ),
    ] {
        let y = ops::max_pool2d(&stream, &tx, &params).unwrap();
        assert_eq!(y.shape(), [2, oh, ow, 3], "{params:?}");
        let want = host_pool(&x, xs, &params, false, [oh, ow]);
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "max_pool2d {params:?}");
        let y = ops::avg_pool2d(&stream, &tx, &params).unwrap();
        let want = host_pool(&x, xs, &params, true, [oh, ow]);
        assert_close(
            &format!("avg_pool2d {params:?}"),
            &y.to_vec::<f32>().unwrap(),
            &want,
            1e-6,
            1e-5,
        );
    }
    // i32 (exact) and f16 (computed in f32) convolutions.
    let (ks, params) = (
        [3, 2, 3, 2],
        Conv2d {
            stride: [1, 2],
            padding: [[1, 1], [0, 1]],
            dilation: [1, 1],
        },
    );
    let xi = rng.i32s(numel(&xs), -9, 9);
    let ki = rng.i32s(numel(&ks), -9, 9);
    let y = ops::conv2d(
        &stream,
        &up(&device, &xi, &xs),
        &up(&device, &ki, &ks),
        &params,
    )
    .unwrap();
    let to_f = |v: &[i32]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
    let want: Vec<i32> = host_conv(&to_f(&xi), xs, &to_f(&ki), ks, &params, [7, 3])
        .iter()
        .map(|&v| v as i32)
        .collect();
    assert_eq!(y.to_vec::<i32>().unwrap(), want, "conv2d i32");
    let xh: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    let kh: Vec<f16> = rng
        .f32s(numel(&ks), -1.0, 1.0)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let y = ops::conv2d(
        &stream,
        &up(&device, &xh, &xs),
        &up(&device, &kh, &ks),
        &params,
    )
    .unwrap();
    let h2f = |v: &[f16]| v.iter().map(|v| v.to_f32()).collect::<Vec<f32>>();
    let want = host_conv(&h2f(&xh), xs, &h2f(&kh), ks, &params, [7, 3]);
    let got = h2f(&y.to_vec::<f16>().unwrap());
    assert_close("conv2d f16", &got, &want, 1e-3, 1.0 / 1024.0);
    // Integer max pooling.
    let xi = rng.i32s(numel(&xs), -100, 100);
    let y = ops::max_pool2d(&stream, &up(&device, &xi, &xs), &Pool2d::new([2, 3])).unwrap();
    let xf: Vec<f32> = xi.iter().map(|&v| v as f32).collect();
    let want: Vec<i32> = host_pool(&xf, xs, &Pool2d::new([2, 3]), false, [3, 2])
        .iter()
        .map(|&v| v as i32)
        .collect();
    assert_eq!(y.to_vec::<i32>().unwrap(), want, "max_pool2d i32");
    assert_no_validation_messages(device.context());
}

/// Reduces `x` of `shape` along `axes` on the host with `f` from `init`.
fn host_reduce(
    x: &[f32],
    shape: &[usize],
    axes: &[usize],
    init: f64,
    f: impl Fn(f64, f64) -> f64,
) -> Vec<f32> {
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
    let out: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
    let mut acc = vec![init; numel(&out)];
    let (xs, os) = (strides(shape), strides(&out));
    for (i, &v) in x.iter().enumerate() {
        let o: usize = kept
            .iter()
            .enumerate()
            .map(|(j, &d)| (i / xs[d]) % shape[d] * os[j])
            .sum();
        acc[o] = f(acc[o], f64::from(v));
    }
    acc.iter().map(|&v| v as f32).collect()
}

#[test]
fn reductions_along_axes() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(6);
    let shape = [3, 5, 7];
    let x = rng.f32s(numel(&shape), -2.0, 2.0);
    let tx = up(&device, &x, &shape);
    for axes in [&[0usize][..], &[1], &[2], &[0, 2], &[1, 0], &[]] {
        let all: Vec<usize> = if axes.is_empty() {
            vec![0, 1, 2]
        } else {
            axes.to_vec()
        };
        let count: usize = all.iter().map(|&d| shape[d]).product();
        let sum = host_reduce(&x, &shape, &all, 0.0, |a, b| a + b);
        let y = ops::sum(&stream, &tx, axes, false).unwrap();
        assert_close(
            &format!("sum {axes:?}"),
            &y.to_vec::<f32>().unwrap(),
            &sum,
            1e-5,
            1e-5,
        );
        let mean: Vec<f32> = sum.iter().map(|s| s / count as f32).collect();
        let y = ops::mean(&stream, &tx, axes, true).unwrap();
        let keep: Vec<usize> = (0..3)
            .map(|d| if all.contains(&d) { 1 } else { shape[d] })
            .collect();
        assert_eq!(y.shape(), keep, "mean keep_dims {axes:?}");
        assert_close(
            &format!("mean {axes:?}"),
            &y.to_vec::<f32>().unwrap(),
            &mean,
            1e-6,
            1e-5,
        );
        let max = host_reduce(&x, &shape, &all, f64::NEG_INFINITY, f64::max);
        assert_eq!(
            ops::max(&stream, &tx, axes, false)
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            max,
            "max {axes:?}"
        );
        let min = host_reduce(&x, &shape, &all, f64::INFINITY, f64::min);
        assert_eq!(
            ops::min(&stream, &tx, axes, false)
                .unwrap()
                .to_vec::<f32>()
                .unwrap(),
            min,
            "min {axes:?}"
        );
    }
    let all = ops::sum(&stream, &tx, &[], false).unwrap();
    assert_eq!(all.shape(), [] as [usize; 0]);
    // Integers: exact sums, max and min.
    let xi = rng.i32s(4 * 9, -1000, 1000);
    let ti = up(&device, &xi, &[4, 9]);
    let rows: Vec<i32> = xi.chunks(9).map(|r| r.iter().sum()).collect();
    assert_eq!(
        ops::sum(&stream, &ti, &[1], false)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        rows
    );
    let cols: Vec<i32> = (0..9)
        .map(|j| (0..4).map(|i| xi[i * 9 + j]).max().unwrap())
        .collect();
    assert_eq!(
        ops::max(&stream, &ti, &[0], false)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        cols
    );
    let lo = *xi.iter().min().unwrap();
    assert_eq!(
        ops::min(&stream, &ti, &[], true)
            .unwrap()
            .to_vec::<i32>()
            .unwrap(),
        vec![lo]
    );
    // f16 data summed in f32.
    let xh: Vec<f16> = x[..20].iter().map(|&v| f16::from_f32(v)).collect();
    let y = ops::sum(&stream, &up(&device, &xh, &[2, 10]), &[1], false).unwrap();
    let want: Vec<f32> = xh
        .chunks(10)
        .map(|r| r.iter().map(|v| v.to_f32()).sum())
        .collect();
    let got: Vec<f32> = y
        .to_vec::<f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    assert_close("sum f16", &got, &want, 1e-3, 1.0 / 1024.0);
    assert_no_validation_messages(device.context());
}

#[test]
fn softmax_layer_norm_rms_norm() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(7);
    let shape = [2, 3, 37];
    let x = rng.f32s(numel(&shape), -4.0, 4.0);
    let tx = up(&device, &x, &shape);
    for axis in 0..3 {
        let y = ops::softmax(&stream, &tx, axis).unwrap();
        let max = host_reduce(&x, &shape, &[axis], f64::NEG_INFINITY, f64::max);
        let red: Vec<usize> = (0..3)
            .map(|d| if d == axis { 1 } else { shape[d] })
            .collect();
        let e: Vec<f32> = (0..x.len())
            .map(|i| (x[i] - max[bcast_index(&shape, &red, i)]).exp())
            .collect();
        let s = host_reduce(&e, &shape, &[axis], 0.0, |a, b| a + b);
        let want: Vec<f32> = (0..x.len())
            .map(|i| e[i] / s[bcast_index(&shape, &red, i)])
            .collect();
        assert_close(
            &format!("softmax {axis}"),
            &y.to_vec::<f32>().unwrap(),
            &want,
            1e-6,
            1e-5,
        );
    }
    // Inputs near 100: exp alone would overflow.
    let big: Vec<f32> = x[..37].iter().map(|v| v + 100.0).collect();
    let y = ops::softmax(&stream, &up(&device, &big, &[37]), 0).unwrap();
    let total: f32 = y.to_vec::<f32>().unwrap().iter().sum();
    assert!(
        (total - 1.0).abs() < 1e-5,
        "softmax near 100 sums to {total}"
    );

    let d = 37;
    let gamma = rng.f32s(d, 0.5, 1.5);
    let beta = rng.f32s(d, -0.5, 0.5);
    let (tg, tb) = (up(&device, &gamma, &[d]), up(&device, &beta, &[d]));
    let eps = 1e-5;
    let y = ops::layer_norm(&stream, &tx, &tg, &tb, eps).unwrap();
    assert_eq!(y.shape(), shape);
    let mut want = Vec::new();
    for row in x.chunks(d) {
        let mean = row.iter().map(|&v| f64::from(v)).sum::<f64>() / d as f64;
        let var = row
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / d as f64;
        let inv = 1.0 / (var + f64::from(eps)).sqrt();
        want.extend(row.iter().enumerate().map(|(j, &v)| {
            ((f64::from(v) - mean) * inv * f64::from(gamma[j]) + f64::from(beta[j])) as f32
        }));
    }
    assert_close("layer_norm", &y.to_vec::<f32>().unwrap(), &want, 1e-5, 1e-5);
    let y = ops::rms_norm(&stream, &tx, &tg, eps).unwrap();
    let mut want = Vec::new();
    for row in x.chunks(d) {
        let ms = row.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / d as f64;
        let inv = 1.0 / (ms + f64::from(eps)).sqrt();
        want.extend(
            row.iter()
                .enumerate()
                .map(|(j, &v)| (f64::from(v) * inv * f64::from(gamma[j])) as f32),
        );
    }
    assert_close("rms_norm", &y.to_vec::<f32>().unwrap(), &want, 1e-5, 1e-5);
    // f16 layer norm: computed in f32, rounded once.
    let xh: Vec<f16> = x[..4 * 8].iter().map(|&v| f16::from_f32(v)).collect();
    let gh = vec![f16::ONE; 8];
    let bh = vec![f16::ZERO; 8];
    let y = ops::layer_norm(
        &stream,
        &up(&device, &xh, &[4, 8]),
        &up(&device, &gh, &[8]),
        &up(&device, &bh, &[8]),
        eps,
    )
    .unwrap();
    let got: Vec<f32> = y
        .to_vec::<f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    let mut want = Vec::new();
    for row in xh.chunks(8) {
        let r: Vec<f64> = row.iter().map(|v| f64::from(v.to_f32())).collect();
        let mean = r.iter().sum::<f64>() / 8.0;
        let var = r.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 8.0;
        want.extend(
            r.iter()
                .map(|v| ((v - mean) / (var + f64::from(eps)).sqrt()) as f32),
        );
    }
    assert_close("layer_norm f16", &got, &want, 2e-3, 1.0 / 512.0);
    assert_no_validation_messages(device.context());
}

#[test]
fn transpose_concat_slice_cast() {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(8);
    let shape = [2, 3, 5];
    let x = rng.f32s(30, -5.0, 5.0);
    let tx = up(&device, &x, &shape);
    // transpose [2, 0, 1]: out[i][j][k] = x[j][k][i].
    let y = ops::transpose(&stream, &tx, &[2, 0, 1]).unwrap();
    assert_eq!(y.shape(), [5, 2, 3]);
    let mut want = Vec::new();
    for i in 0..5 {
        for j in 0..2 {
            for k in 0..3 {
                want.push(x[(j * 3 + k) * 5 + i]);
            }
        }
    }
    assert_eq!(y.to_vec::<f32>().unwrap(), want, "transpose");
    // The copy equals the view.
    assert_eq!(
        tx.permute(&[2, 0, 1]).unwrap().to_vec::<f32>().unwrap(),
        want
    );
    // concat along 1: [2,3,5] + [2,1,5] + [2,4,5].
    let b = rng.f32s(10, -5.0, 5.0);
    let c = rng.f32s(40, -5.0, 5.0);
    let (tb, tc) = (up(&device, &b, &[2, 1, 5]), up(&device, &c, &[2, 4, 5]));
    let y = ops::concat(&stream, &[&tx, &tb, &tc], 1).unwrap();
    assert_eq!(y.shape(), [2, 8, 5]);
    let mut want = Vec::new();
    for i in 0..2 {
        want.extend_from_slice(&x[i * 15..][..15]);
        want.extend_from_slice(&b[i * 5..][..5]);
        want.extend_from_slice(&c[i * 20..][..20]);
    }
    assert_eq!(y.to_vec::<f32>().unwrap(), want, "concat");
    let one = ops::concat(&stream, &[&tb], 0).unwrap();
    assert_eq!(one.to_vec::<f32>().unwrap(), b, "concat of one");
    // i32 concat along 0.
    let p = rng.i32s(6, -9, 9);
    let q = rng.i32s(9, -9, 9);
    let y = ops::concat(
        &stream,
        &[&up(&device, &p, &[2, 3]), &up(&device, &q, &[3, 3])],
        0,
    )
    .unwrap();
    assert_eq!(y.to_vec::<i32>().unwrap(), [p, q].concat());
    // slice [0..2, 1..3, 0..5 step 2].
    let y = ops::slice(&stream, &tx, &[0, 1, 0], &[2, 3, 5], &[1, 1, 2]).unwrap();
    assert_eq!(y.shape(), [2, 2, 3]);
    let mut want = Vec::new();
    for i in 0..2 {
        for j in 1..3 {
            for k in (0..5).step_by(2) {
                want.push(x[(i * 3 + j) * 5 + k]);
            }
        }
    }
    assert_eq!(y.to_vec::<f32>().unwrap(), want, "slice");
    let y = ops::slice(&stream, &tx, &[1, 0, 3], &[2, 3, 4], &[1, 2, 1]).unwrap();
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        vec![x[15 + 3], x[15 + 10 + 3]],
        "slice 2"
    );
    // Casts.
    let toward_zero: Vec<i32> = x.iter().map(|&v| v as i32).collect();
    let yi = ops::cast(&stream, &tx, DType::I32).unwrap();
    assert_eq!(yi.to_vec::<i32>().unwrap(), toward_zero, "f32 -> i32");
    let back: Vec<f32> = toward_zero.iter().map(|&v| v as f32).collect();
    assert_eq!(
        ops::cast(&stream, &yi, DType::F32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        back,
        "i32 -> f32"
    );
    let yh = ops::cast(&stream, &tx, DType::F16).unwrap();
    let want: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    assert_eq!(yh.to_vec::<f16>().unwrap(), want, "f32 -> f16");
    let yb = ops::cast(&stream, &yh, DType::BF16).unwrap();
    let want: Vec<bf16> = want.iter().map(|v| bf16::from_f32(v.to_f32())).collect();
    assert_eq!(yb.to_vec::<bf16>().unwrap(), want, "f16 -> bf16");
    let small = up(&device, &[0.0f32, -1.5, 0.25, 0.0], &[4]);
    let yb = ops::cast(&stream, &small, DType::Bool).unwrap();
    assert_eq!(
        yb.to_vec::<bool>().unwrap(),
        vec![false, true, true, false],
        "f32 -> bool"
    );
    let yi8 = ops::cast(&stream, &yb, DType::I8).unwrap();
    assert_eq!(yi8.to_vec::<i8>().unwrap(), vec![0, 1, 1, 0], "bool -> i8");
    let wide = up(&device, &[300i32, -129, 127, 70000], &[4]);
    let y8 = ops::cast(&stream, &wide, DType::I8).unwrap();
    assert_eq!(
        y8.to_vec::<i8>().unwrap(),
        vec![44, 127, 127, 112],
        "i32 -> i8 keeps the low bits"
    );
    let y64 = ops::cast(&stream, &y8, DType::I64).unwrap();
    assert_eq!(
        y64.to_vec::<i64>().unwrap(),
        vec![44, 127, 127, 112],
        "i8 -> i64"
    );
    assert_no_validation_messages(device.context());
}

#[test]
fn second_call_of_a_shape_class_compiles_nothing() {
    let device = device();
    let stream = device.stream();
    let a = up(&device, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    let b = up(&device, &[0.5f32, 0.25, 0.125], &[3]);
    let before = ops::cache_stats(&device);
    assert_eq!(before, ops::OpCacheStats::default());
    let y1 = ops::add(&stream, &a, &b).unwrap();
    let first = ops::cache_stats(&device);
    assert_eq!((first.compiled, first.hits, first.entries), (1, 0, 1));
    let y2 = ops::add(&stream, &a, &b).unwrap();
    let second = ops::cache_stats(&device);
    assert_eq!((second.compiled, second.hits, second.entries), (1, 1, 1));
    assert_eq!(y1.to_vec::<f32>().unwrap(), y2.to_vec::<f32>().unwrap());
    // Other tensors of the same shapes share the program too, and so do
    // other sizes of the same shape class (rank 2 plus a row broadcast).
    let c = up(&device, &[9.0f32; 6], &[2, 3]);
    ops::add(&stream, &c, &b).unwrap();
    assert_eq!(ops::cache_stats(&device).compiled, 1);
    let tall = up(&device, &[1.0f32; 35], &[7, 5]);
    let row5 = up(&device, &[0.5f32, 1.5, 2.5, 3.5, 4.5], &[5]);
    let y = ops::add(&stream, &tall, &row5).unwrap();
    assert_eq!(y.shape(), [7, 5]);
    assert_eq!(y.to_vec::<f32>().unwrap()[5..10], [1.5, 2.5, 3.5, 4.5, 5.5]);
    let s = ops::cache_stats(&device);
    assert_eq!((s.compiled, s.hits, s.entries), (1, 3, 1));
    // Another shape, dtype, op or parameter is another program.
    ops::add(&stream, &b, &b).unwrap();
    ops::mul(&stream, &a, &b).unwrap();
    ops::softmax(&stream, &a, 0).unwrap();
    ops::softmax(&stream, &a, 1).unwrap();
    ops::softmax(&stream, &a, 1).unwrap();
    let s = ops::cache_stats(&device);
    assert_eq!((s.compiled, s.hits, s.entries), (5, 4, 5));
    // Row ops: one program for every number of rows of one width.
    let g = up(&device, &[1.0f32; 5], &[5]);
    ops::rms_norm(&stream, &tall, &g, 1e-5).unwrap();
    ops::rms_norm(&stream, &up(&device, &[1.0f32; 10], &[2, 5]), &g, 1e-5).unwrap();
    ops::mean(&stream, &tall, &[1], false).unwrap();
    ops::mean(&stream, &up(&device, &[2.0f32; 15], &[3, 5]), &[1], false).unwrap();
    let s = ops::cache_stats(&device);
    assert_eq!((s.compiled, s.hits, s.entries), (7, 6, 7));
    // The device's kernel pipelines were made once each: a cached op call
    // reuses the kernels its program loaded (no kernel-cache lookup).
    let kernels = device.cache_stats();
    ops::mul(&stream, &a, &b).unwrap();
    let after = device.cache_stats();
    assert_eq!(after.compiled, kernels.compiled);
    assert_eq!(after.memory_hits, kernels.memory_hits);
    assert_eq!(ops::cache_stats(&device).compiled, 7);
    // Cleared, the next call compiles again.
    assert_eq!(ops::clear_cache(&device), 7);
    assert_eq!(ops::cache_stats(&device).entries, 0);
    ops::mul(&stream, &a, &b).unwrap();
    let s = ops::cache_stats(&device);
    assert_eq!((s.compiled, s.entries), (8, 1));
    assert_no_validation_messages(device.context());
}

#[test]
fn bad_operands_are_typed_errors() {
    let device = device();
    let stream = device.stream();
    let f = |shape: &[usize]| Tensor::zeros(&device, DType::F32, shape).unwrap();
    let shape_err = |r: Result<Tensor, Error>, op: &str, words: &str| match r {
        Err(Error::Shape { what, reason }) => {
            assert_eq!(what, op, "{reason}");
            assert!(reason.contains(words), "{op}: {reason:?} lacks {words:?}");
        }
        other => panic!("{op}: expected a shape error, got {other:?}"),
    };
    shape_err(
        ops::add(&stream, &f(&[2, 3]), &f(&[4, 3])),
        "ops::add",
        "do not broadcast",
    );
    shape_err(
        ops::add(
            &stream,
            &f(&[2]),
            &Tensor::zeros(&device, DType::I32, &[2]).unwrap(),
        ),
        "ops::add",
        "ops::cast",
    );
    shape_err(
        ops::add(
            &stream,
            &Tensor::zeros(&device, DType::U32, &[2]).unwrap(),
            &Tensor::zeros(&device, DType::U32, &[2]).unwrap(),
        ),
        "ops::add",
        "not supported",
    );
    shape_err(
        ops::matmul(&stream, &f(&[2, 3]), &f(&[4, 5])),
        "ops::matmul",
        "inner dimensions",
    );
    shape_err(
        ops::matmul(&stream, &f(&[2, 3]), &f(&[3])),
        "ops::matmul",
        "[K, N]",
    );
    shape_err(
        ops::batch_matmul(&stream, &f(&[2, 3, 4]), &f(&[3, 4, 5])),
        "ops::batch_matmul",
        "[B, K, N]",
    );
    shape_err(
        ops::sum(&stream, &f(&[2, 3]), &[2], false),
        "ops::sum",
        "out of range",
    );
    shape_err(
        ops::sum(&stream, &f(&[2, 3]), &[1, 1], false),
        "ops::sum",
        "twice",
    );
    shape_err(
        ops::softmax(&stream, &f(&[2, 3]), 2),
        "ops::softmax",
        "out of range",
    );
    shape_err(
        ops::transpose(&stream, &f(&[2, 3]), &[0, 0]),
        "ops::transpose",
        "permutation",
    );
    shape_err(
        ops::concat(&stream, &[&f(&[2, 3]), &f(&[3, 3])], 1),
        "ops::concat",
        "dimension 1",
    );
    shape_err(ops::concat(&stream, &[], 0), "ops::concat", "no tensors");
    shape_err(
        ops::slice(&stream, &f(&[4]), &[3], &[5], &[1]),
        "ops::slice",
        "not a slice",
    );
    shape_err(
        ops::conv2d(
            &stream,
            &f(&[1, 2, 2, 3]),
            &f(&[3, 3, 3, 1]),
            &Conv2d::default(),
        ),
        "ops::conv2d",
        "window spans 3",
    );
    shape_err(
        ops::conv2d(
            &stream,
            &f(&[1, 5, 5, 3]),
            &f(&[3, 3, 2, 1]),
            &Conv2d::default(),
        ),
        "ops::conv2d",
        "filter",
    );
    shape_err(
        ops::max_pool2d(&stream, &f(&[5, 5]), &Pool2d::new([2, 2])),
        "ops::max_pool2d",
        "[N, H, W, C]",
    );
    shape_err(
        ops::layer_norm(&stream, &f(&[2, 3]), &f(&[2]), &f(&[3]), 1e-5),
        "ops::layer_norm",
        "shape [3]",
    );
    let ints = Tensor::zeros(&device, DType::I32, &[4]).unwrap();
    shape_err(ops::exp(&stream, &ints), "ops::exp", "not defined on i32");
    shape_err(ops::mean(&stream, &ints, &[], false), "ops::mean", "float");
    shape_err(
        ops::where_(&stream, &ints, &f(&[4]), &f(&[4])),
        "ops::where",
        "bool",
    );
    // A tensor of another device.
    let other = crate::runtime_support::device();
    let foreign = Tensor::zeros(&other, DType::F32, &[3]).unwrap();
    assert!(matches!(
        ops::add(&stream, &foreign, &f(&[3])),
        Err(Error::ForeignDevice { .. })
    ));
    // Nothing compiled for any of them, and the device is still usable.
    assert_eq!(ops::cache_stats(&device).compiled, 0);
    let y = ops::add(&stream, &f(&[2]), &up(&device, &[1.0f32, 2.0], &[2])).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
    assert_no_validation_messages(device.context());
}

/// Ops chain on one stream without host reads between them: a small MLP
/// layer `gelu(x W + b)` then a softmax, checked at the end.
#[test]
fn ops_chain_on_one_stream() {
    // Tensors in unified memory, and device-local behind staging copies.
    for unified in [true, false] {
        let device = test_device(DeviceOptions {
            cache: CacheLocation::Disabled,
            unified_memory: unified,
            ..DeviceOptions::default()
        });
        mlp_layer(&device);
    }
}

fn mlp_layer(device: &Device) {
    let device = device.clone();
    let stream: Stream = device.stream();
    let mut rng = Rng::new(9);
    let (m, k, n) = (7, 12, 5);
    let x = rng.f32s(m * k, -1.0, 1.0);
    let w = rng.f32s(k * n, -1.0, 1.0);
    let b = rng.f32s(n, -1.0, 1.0);
    let h = ops::matmul(
        &stream,
        &up(&device, &x, &[m, k]),
        &up(&device, &w, &[k, n]),
    )
    .unwrap();
    let h = ops::add(&stream, &h, &up(&device, &b, &[n])).unwrap();
    let h = ops::gelu(&stream, &h).unwrap();
    let y = ops::softmax(&stream, &h, 1).unwrap();
    let mut want = host_matmul(&x, &w, m, k, n);
    for (i, v) in want.iter_mut().enumerate() {
        let z = *v + b[i % n];
        *v = 0.5 * z * (1.0 + erf(z / 2f32.sqrt()));
    }
    for row in want.chunks_mut(n) {
        let mx = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let s: f32 = row.iter().map(|v| (v - mx).exp()).sum();
        row.iter_mut().for_each(|v| *v = (*v - mx).exp() / s);
    }
    assert_close("mlp layer", &y.to_vec::<f32>().unwrap(), &want, 1e-5, 1e-4);
    assert_no_validation_messages(device.context());
}

/// Results of 1- and 2-byte element types whose size is not a whole number
/// of 32-bit words.
#[test]
fn odd_sizes_of_small_element_types() {
    for unified in [true, false] {
        let device = test_device(DeviceOptions {
            cache: CacheLocation::Disabled,
            unified_memory: unified,
            ..DeviceOptions::default()
        });
        odd_sizes(&device);
    }
}

fn odd_sizes(device: &Device) {
    let device = device.clone();
    let stream = device.stream();
    let mut rng = Rng::new(10);
    let x = rng.f32s(7, -2.0, 2.0);
    let tx = up(&device, &x, &[7]);
    let zero = up(&device, &[0.0f32], &[1]);
    let y = ops::compare(&stream, Compare::Gt, &tx, &zero).unwrap();
    let want: Vec<bool> = x.iter().map(|&v| v > 0.0).collect();
    assert_eq!(y.to_vec::<bool>().unwrap(), want, "bool x7");
    let h = ops::cast(&stream, &tx, DType::F16).unwrap();
    let want: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    assert_eq!(h.to_vec::<f16>().unwrap(), want, "f16 x7");
    let h2 = ops::add(&stream, &h, &h).unwrap();
    let want: Vec<f16> = want
        .iter()
        .map(|v| f16::from_f32(v.to_f32() * 2.0))
        .collect();
    assert_eq!(h2.to_vec::<f16>().unwrap(), want, "f16 add x7");
    let i = ops::cast(&stream, &tx, DType::I8).unwrap();
    let want: Vec<i8> = x.iter().map(|&v| v as i8).collect();
    assert_eq!(i.to_vec::<i8>().unwrap(), want, "i8 x7");
    let s = ops::slice(&stream, &i, &[1], &[4], &[1]).unwrap();
    assert_eq!(
        s.to_vec::<i8>().unwrap(),
        want[1..4].to_vec(),
        "i8 slice x3"
    );
    assert_no_validation_messages(device.context());
}

/// Views (an offset into the buffer, strides) are operands like any tensor.
#[test]
fn views_as_operands() {
    let device = device();
    let stream = device.stream();
    let x: Vec<f32> = (0..24).map(|v| v as f32 * 0.5).collect();
    let t = up(&device, &x, &[4, 6]);
    // Rows 1..4, columns 1..4: offset 7, strides [6, 1].
    let v = t.narrow(0, 1, 3).unwrap().narrow(1, 1, 3).unwrap();
    let y = ops::mul(&stream, &v, &v).unwrap();
    let want: Vec<f32> = (1..4)
        .flat_map(|i| (1..4).map(move |j| (i * 6 + j) as f32 * 0.5))
        .map(|v| v * v)
        .collect();
    assert_eq!(y.to_vec::<f32>().unwrap(), want);
    // One element from the middle of a buffer.
    let e = t.reshape(&[24]).unwrap().narrow(0, 5, 1).unwrap();
    let y = ops::neg(&stream, &e).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![-2.5]);
    let tt = t.transpose(0, 1).unwrap();
    let s = ops::sum(&stream, &tt, &[1], false).unwrap();
    let want: Vec<f32> = (0..6).map(|j| (0..4).map(|i| x[i * 6 + j]).sum()).collect();
    assert_eq!(s.to_vec::<f32>().unwrap(), want);
    assert_no_validation_messages(device.context());
}

/// 0-d tensors, empty dimensions and rank-1 rows: results, no panics.
#[test]
fn scalars_and_empty_tensors() {
    let device = device();
    let stream = device.stream();
    let s = up(&device, &[2.5f32], &[]);
    let t = up(&device, &[-4.0f32], &[]);
    assert_eq!(
        ops::add(&stream, &s, &t).unwrap().to_vec::<f32>().unwrap(),
        vec![-1.5]
    );
    let n = ops::neg(&stream, &s).unwrap();
    assert_eq!(n.shape(), [] as [usize; 0]);
    assert_eq!(n.to_vec::<f32>().unwrap(), vec![-2.5]);
    let c = ops::cast(&stream, &t, DType::I32).unwrap();
    assert_eq!(c.to_vec::<i32>().unwrap(), vec![-4]);
    assert_eq!(
        ops::sum(&stream, &s, &[], false)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![2.5]
    );
    assert_eq!(
        ops::transpose(&stream, &s, &[])
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        vec![2.5]
    );
    // Empty dimensions: empty results of the right shape, or zeros for
    // sums and products over an empty axis.
    let e = Tensor::zeros(&device, DType::F32, &[0, 3]).unwrap();
    let row = up(&device, &[1.0f32, 2.0, 3.0], &[3]);
    assert_eq!(ops::add(&stream, &e, &row).unwrap().shape(), [0, 3]);
    assert_eq!(ops::exp(&stream, &e).unwrap().shape(), [0, 3]);
    let k0 = Tensor::zeros(&device, DType::F32, &[2, 0]).unwrap();
    let k1 = Tensor::zeros(&device, DType::F32, &[0, 4]).unwrap();
    let m = ops::matmul(&stream, &k0, &k1).unwrap();
    assert_eq!(m.to_vec::<f32>().unwrap(), vec![0.0; 8]);
    let sums = ops::sum(&stream, &k0, &[1], false).unwrap();
    assert_eq!(sums.to_vec::<f32>().unwrap(), vec![0.0; 2]);
    assert!(matches!(
        ops::max(&stream, &k0, &[1], false),
        Err(Error::Shape { .. })
    ));
    let cat = ops::concat(&stream, &[&e, &up(&device, &[7.0f32; 3], &[1, 3])], 0).unwrap();
    assert_eq!(cat.to_vec::<f32>().unwrap(), vec![7.0; 3]);
    let whole = ops::slice(&stream, &s, &[], &[], &[]).unwrap();
    assert_eq!(whole.to_vec::<f32>().unwrap(), vec![2.5]);
    let sl = ops::slice(&stream, &row, &[2], &[2], &[1]).unwrap();
    assert_eq!(sl.shape(), [0]);
    // A rank-1 row normalizes as one row; a softmax over one element is 1.
    let g = up(&device, &[1.0f32; 3], &[3]);
    let z = up(&device, &[0.0f32; 3], &[3]);
    let y = ops::layer_norm(&stream, &row, &g, &z, 0.0)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let want = [-(1.5f32).sqrt(), 0.0, 1.5f32.sqrt()];
    assert_close("layer_norm rank 1", &y, &want, 1e-5, 1e-5);
    let one = ops::softmax(&stream, &up(&device, &[3.0f32], &[1]), 0).unwrap();
    assert_eq!(one.to_vec::<f32>().unwrap(), vec![1.0]);
    assert!(matches!(
        ops::layer_norm(&stream, &s, &s, &s, 1e-5),
        Err(Error::Shape { .. })
    ));
    assert_no_validation_messages(device.context());
}

/// Ops only enqueue: a chain of 200 dependent ops is submitted in a few
/// batches (the stream's default is 100 dispatches per submit), not one
/// submit and wait per op, and the barriers between them keep the result
/// right.
#[test]
fn ops_enqueue_without_waiting() {
    let device = device();
    let stream = device.stream();
    let x = up(&device, &[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[7]);
    let one = up(&device, &[1.0f32], &[1]);
    ops::add(&stream, &x, &one).unwrap(); // compiled (and warm) before counting
    stream.sync().unwrap();
    let before = device.counters();
    let mut y = x.clone();
    for _ in 0..200 {
        y = ops::add(&stream, &y, &one).unwrap();
    }
    let after = device.counters();
    let dispatches = after.dispatches - before.dispatches;
    let submits = after.submits - before.submits;
    assert!(dispatches >= 200, "{dispatches} dispatches");
    assert!(
        submits <= dispatches.div_ceil(100) + 1,
        "{submits} submits for {dispatches} dispatches"
    );
    let want: Vec<f32> = (0..7).map(|v| v as f32 + 200.0).collect();
    assert_eq!(y.to_vec::<f32>().unwrap(), want);
    stream.sync().unwrap();
    assert_no_validation_messages(device.context());
}

/// Integer ops on every signed width, and data movement of every element
/// type ops take, against the host.
#[test]
fn every_element_type() {
    fn ints<T>(device: &Device, stream: &Stream, rng: &mut Rng)
    where
        T: kiln_runtime::Element + PartialEq + std::fmt::Debug + Ord + TryFrom<i64>,
        <T as TryFrom<i64>>::Error: std::fmt::Debug,
        i64: From<T>,
    {
        let conv =
            |v: &[i32]| -> Vec<T> { v.iter().map(|&x| T::try_from(x as i64).unwrap()).collect() };
        let a = conv(&rng.i32s(15, -100, 100));
        let b = conv(&rng.i32s(5, -100, 100));
        let (ta, tb) = (up(device, &a, &[3, 5]), up(device, &b, &[5]));
        let name = T::DTYPE;
        let y = ops::maximum(stream, &ta, &tb).unwrap();
        let want = host_binary(&a, &[3, 5], &b, &[5], &[3, 5], std::cmp::max);
        assert_eq!(y.to_vec::<T>().unwrap(), want, "maximum {name}");
        let y = ops::max(stream, &ta, &[0], false).unwrap();
        let want: Vec<T> = (0..5)
            .map(|j| *(0..3).map(|i| &a[i * 5 + j]).max().unwrap())
            .collect();
        assert_eq!(y.to_vec::<T>().unwrap(), want, "max {name}");
        let y = ops::min(stream, &ta, &[], false).unwrap();
        assert_eq!(
            y.to_vec::<T>().unwrap(),
            vec![*a.iter().min().unwrap()],
            "min {name}"
        );
        let y = ops::max_pool2d(
            stream,
            &ta.reshape(&[1, 3, 5, 1]).unwrap(),
            &Pool2d::new([3, 1]),
        )
        .unwrap();
        assert_eq!(y.to_vec::<T>().unwrap(), want, "max_pool2d {name}");
        let y = ops::cast(stream, &ta, DType::F32).unwrap();
        let want: Vec<f32> = a.iter().map(|&x| i64::from(x) as f32).collect();
        assert_eq!(y.to_vec::<f32>().unwrap(), want, "cast {name}");
        let y = ops::neg(stream, &tb).unwrap();
        let back = ops::neg(stream, &y).unwrap();
        assert_eq!(back.to_vec::<T>().unwrap(), b, "neg neg {name}");
        let m = ops::matmul(stream, &ta, &up(device, &b, &[5, 1])).unwrap();
        assert_eq!(m.shape(), [3, 1], "matmul {name}");
    }
    let device = device();
    let stream = device.stream();
    let mut rng = Rng::new(11);
    ints::<i8>(&device, &stream, &mut rng);
    ints::<i16>(&device, &stream, &mut rng);
    ints::<i32>(&device, &stream, &mut rng);
    ints::<i64>(&device, &stream, &mut rng);
    // Data movement of bool, i8, f16, bf16 (odd sizes), i64.
    let bools: Vec<bool> = rng.i32s(15, 0, 1).iter().map(|&v| v == 1).collect();
    let t = up(&device, &bools, &[3, 5]);
    let tt = ops::transpose(&stream, &t, &[1, 0]).unwrap();
    let want: Vec<bool> = (0..5)
        .flat_map(|j| (0..3).map(move |i| (i, j)))
        .map(|(i, j)| bools[i * 5 + j])
        .collect();
    assert_eq!(tt.to_vec::<bool>().unwrap(), want, "transpose bool");
    let c = ops::concat(&stream, &[&t, &t], 0).unwrap();
    assert_eq!(
        c.to_vec::<bool>().unwrap(),
        [bools.clone(), bools.clone()].concat(),
        "concat bool"
    );
    let e = ops::compare(&stream, Compare::Eq, &t, &tt.transpose(0, 1).unwrap()).unwrap();
    assert_eq!(e.to_vec::<bool>().unwrap(), vec![true; 15], "eq bool");
    let hs: Vec<bf16> = rng
        .f32s(15, -3.0, 3.0)
        .iter()
        .map(|&v| bf16::from_f32(v))
        .collect();
    let th = up(&device, &hs, &[3, 5]);
    let s = ops::slice(&stream, &th, &[0, 1], &[3, 5], &[2, 3]).unwrap();
    assert_eq!(
        s.to_vec::<bf16>().unwrap(),
        vec![hs[1], hs[4], hs[11], hs[14]],
        "slice bf16"
    );
    let w = ops::where_(&stream, &t, &th, &up(&device, &[bf16::ZERO], &[])).unwrap();
    let want: Vec<bf16> = hs
        .iter()
        .zip(&bools)
        .map(|(&v, &b)| if b { v } else { bf16::ZERO })
        .collect();
    assert_eq!(w.to_vec::<bf16>().unwrap(), want, "where bf16");
    let big = up(&device, &[1i64 << 40, -(1i64 << 40) - 3], &[2]);
    let s = ops::sum(&stream, &big, &[], false).unwrap();
    assert_eq!(
        s.to_vec::<i64>().unwrap(),
        vec![-3],
        "sum i64 beyond 32 bits"
    );
    assert_no_validation_messages(device.context());
}

/// Threads share a device's op cache, each on its own stream.
#[test]
fn ops_from_several_threads() {
    let device = device();
    let a: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let ta = up(&device, &a, &[3, 4]);
    let tw = up(&device, &[1.0f32; 8], &[4, 2]);
    ops::matmul(&device.stream(), &ta, &tw).unwrap(); // compiled once here
    std::thread::scope(|s| {
        for t in 0..4 {
            let (device, ta, tw, a) = (&device, &ta, &tw, &a);
            s.spawn(move || {
                let stream = device.stream();
                for i in 0..10 {
                    let bias = up(device, &[(t * 100 + i) as f32], &[1]);
                    let y =
                        ops::add(&stream, &ops::matmul(&stream, ta, tw).unwrap(), &bias).unwrap();
                    let want: Vec<f32> = (0..3)
                        .flat_map(|r| {
                            let s: f32 = a[r * 4..][..4].iter().sum();
                            [s + (t * 100 + i) as f32; 2]
                        })
                        .collect();
                    assert_eq!(y.to_vec::<f32>().unwrap(), want, "thread {t} call {i}");
                }
            });
        }
    });
    let stats = ops::cache_stats(&device);
    assert_eq!(stats.entries, 2);
    assert_eq!(stats.hits + stats.compiled, 81);
    assert_no_validation_messages(device.context());
}
