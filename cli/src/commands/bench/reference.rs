//! Host references for the benchmark set: the outputs each program must
//! produce, computed in f64 from the same f32 inputs, and the check that
//! compares an implementation's output with them (before anything is
//! timed).

use kiln_runtime::bench::host::host_threads;

use super::array::HostArray;

/// What an output must be.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The expected elements (row-major).
    pub values: Vec<f64>,
    /// Exact comparison (integers, sums of ones), else a normalised error
    /// `max |out - ref| / max |ref|` below [`TOLERANCE`].
    pub exact: bool,
}

/// The largest normalised error accepted (as the IREE baseline's check).
pub const TOLERANCE: f64 = 1e-4;

/// Checks `out` against `reference`: `Ok(what matched)` or `Err(why not)`.
pub fn check(out: &HostArray, reference: &Reference) -> Result<String, String> {
    let got = out.to_f64();
    if got.len() != reference.values.len() {
        return Err(format!(
            "{} elements, expected {}",
            got.len(),
            reference.values.len()
        ));
    }
    if reference.exact {
        return match got.iter().zip(&reference.values).position(|(g, w)| g != w) {
            None if got.len() == 1 => Ok(format!("exact ({})", got[0])),
            None => Ok("exact".to_owned()),
            Some(i) => Err(format!(
                "element {i} is {}, expected exactly {}",
                got[i], reference.values[i]
            )),
        };
    }
    compare(&got, &reference.values, tolerance(out.dtype))
}

/// The normalised error accepted for outputs of `dtype`: [`TOLERANCE`],
/// or a unit in the last place of a 16-bit float at the output's scale
/// (two implementations that sum in different orders may round an f16
/// result to neighbouring values: 2^-10 apart relative for f16, 2^-7 for
/// bf16).
pub fn tolerance(dtype: kiln_runtime::DType) -> f64 {
    match dtype {
        kiln_runtime::DType::F16 => TOLERANCE.max(2f64.powi(-10)),
        kiln_runtime::DType::BF16 => TOLERANCE.max(2f64.powi(-7)),
        _ => TOLERANCE,
    }
}

/// Normalised max error of `got` against `want` (see [`Reference::exact`])
/// within `tolerance`.
pub fn compare(got: &[f64], want: &[f64], tolerance: f64) -> Result<String, String> {
    if got.len() != want.len() {
        return Err(format!("{} elements, expected {}", got.len(), want.len()));
    }
    let scale = want.iter().fold(0f64, |m, x| m.max(x.abs())).max(1e-30);
    let mut worst = (0f64, 0usize);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (g - w).abs() / scale;
        if !e.is_finite() {
            return Err(format!("element {i} is {g}, expected {w}"));
        }
        if e > worst.0 {
            worst = (e, i);
        }
    }
    if worst.0 <= tolerance {
        Ok(format!("max normalised error {:.1e}", worst.0))
    } else {
        let i = worst.1;
        Err(format!(
            "element {i} is {}, expected {} (normalised error {:.1e} > {tolerance:.1e})",
            got[i], want[i], worst.0
        ))
    }
}

/// Deterministic pseudo-random f32 in [-scale, scale) (xorshift64*).
pub fn random(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let r = s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40; // 24 bits
            (r as f32 / (1u64 << 23) as f32 - 1.0) * scale
        })
        .collect()
}

fn f64s(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| f64::from(v)).collect()
}

/// `a + b`.
pub fn add(a: &[f32], b: &[f32]) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) + f64::from(*y))
        .collect()
}

/// `A B` for square `n`×`n` matrices, its rows split over the host's
/// cores. Each element is summed over `k` in ascending order, as a serial
/// loop sums it: the result does not depend on the number of threads.
pub fn matmul(a: &[f32], b: &[f32], n: usize) -> Vec<f64> {
    let (a, b) = (f64s(a), f64s(b));
    let mut c = vec![0f64; n * n];
    if n == 0 {
        return c;
    }
    let rows = n.div_ceil(host_threads().clamp(1, n));
    std::thread::scope(|s| {
        for (t, chunk) in c.chunks_mut(rows * n).enumerate() {
            let (a, b) = (&a, &b);
            s.spawn(move || matmul_rows(a, b, n, t * rows, chunk));
        }
    });
    c
}

/// Rows `first..` of `A B` into `out` (whole rows, zeroed), eight rows at
/// a time so that each row of `B` is read once per eight rows of `C`.
fn matmul_rows(a: &[f64], b: &[f64], n: usize, first: usize, out: &mut [f64]) {
    const GROUP: usize = 8;
    for (g, rows) in out.chunks_mut(GROUP * n).enumerate() {
        let i0 = first + g * GROUP;
        for (k, brow) in b.chunks_exact(n).enumerate() {
            for (r, row) in rows.chunks_mut(n).enumerate() {
                let x = a[(i0 + r) * n + k];
                for (o, y) in row.iter_mut().zip(brow) {
                    *o += x * y;
                }
            }
        }
    }
}

/// Softmax over the last dimension of a `rows`×`cols` matrix.
pub fn softmax(x: &[f32], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        let row = f64s(&x[r * cols..(r + 1) * cols]);
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = row.iter().map(|v| (v - max).exp()).collect();
        let sum: f64 = e.iter().sum();
        out.extend(e.iter().map(|v| v / sum));
    }
    out
}

/// Layer norm over the rows of `cols` of `x` (`eps` 1e-5, the biased
/// variance) with scale `g` and shift `b`.
pub fn layer_norm(x: &[f32], g: &[f32], b: &[f32], cols: usize) -> Vec<f64> {
    let (g, b) = (f64s(g), f64s(b));
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(cols) {
        let row = f64s(row);
        let n = cols as f64;
        let mean = row.iter().sum::<f64>() / n;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let k = 1.0 / (var + 1e-5).sqrt();
        out.extend((0..cols).map(|j| (row[j] - mean) * k * g[j] + b[j]));
    }
    out
}

/// The sizes of a stride-1, unpadded NHWC × HWCF convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvShape {
    /// Input height and width.
    pub hw: usize,
    /// Input channels.
    pub c: usize,
    /// Filter height and width.
    pub k: usize,
    /// Output channels.
    pub f: usize,
}

impl ConvShape {
    /// Output height and width.
    pub fn out_hw(&self) -> usize {
        self.hw - self.k + 1
    }

    /// 2 × multiply-adds.
    pub fn flops(&self) -> f64 {
        let o = self.out_hw();
        2.0 * (o * o * self.f * self.k * self.k * self.c) as f64
    }
}

/// `out[0, y, x, f] = Σ in[0, y+i, x+j, c] · filter[i, j, c, f]`.
pub fn conv2d(input: &[f32], filter: &[f32], s: ConvShape) -> Vec<f64> {
    let (x, w) = (f64s(input), f64s(filter));
    let o = s.out_hw();
    let mut out = vec![0f64; o * o * s.f];
    for y in 0..o {
        for xx in 0..o {
            let acc = &mut out[(y * o + xx) * s.f..(y * o + xx + 1) * s.f];
            for i in 0..s.k {
                for j in 0..s.k {
                    for c in 0..s.c {
                        let v = x[((y + i) * s.hw + xx + j) * s.c + c];
                        let wrow = &w[((i * s.k + j) * s.c + c) * s.f..][..s.f];
                        for (a, b) in acc.iter_mut().zip(wrow) {
                            *a += v * b;
                        }
                    }
                }
            }
        }
    }
    out
}

/// Inputs and reference output of `function` in the tensor program
/// `text` (f32 tensor arguments of static shapes, one f32 result), with
/// seeded random inputs scaled like a model's: 1 for the first argument
/// (activations), 1/sqrt(rows) for matrices (weights), 0.5 for vectors
/// (gains and biases). The reference is kiln's evaluator (f32 rounding
/// after every op, as the compiled kernels compute).
pub fn model(text: &str, function: &str) -> (Vec<HostArray>, Vec<f64>) {
    use kiln_core::tensor::eval::{self, Tensor, Value};
    use kiln_core::tensor::types::{Dim, ElemType, TypeKind};
    let module = kiln_core::tensor::load(text).expect("a benchmark program parses");
    let f = module
        .func_by_name(function)
        .expect("the benchmark function");
    let body = module.func(f).body.expect("a body");
    let mut inputs = Vec::new();
    let mut args = Vec::new();
    for (i, &v) in module.block(body).args.iter().enumerate() {
        let TypeKind::Tensor {
            shape,
            elem: ElemType::F32,
        } = module.value_kind(v)
        else {
            panic!("benchmark arguments are f32 tensors");
        };
        let shape: Vec<usize> = shape
            .iter()
            .map(|d| match d {
                Dim::Static(n) => *n as usize,
                Dim::Dynamic => panic!("benchmark arguments have static shapes"),
            })
            .collect();
        let scale = match (i, shape.len()) {
            (0, _) => 1.0,
            (_, 2) => 1.0 / (shape[0] as f32).sqrt(),
            _ => 0.5,
        };
        let data = random(shape.iter().product(), 100 + i as u64, scale);
        inputs.push(HostArray::f32(&shape, &data));
        args.push(Value::Tensor(std::rc::Rc::new(Tensor {
            elem: ElemType::F32,
            shape,
            data: kiln_core::tensor::attr::Elements::F32(data),
        })));
    }
    let out = eval::run(&module, function, &args).expect("the reference evaluator runs it");
    let Some(Value::Tensor(t)) = out.first() else {
        panic!("benchmark programs return a tensor");
    };
    let values = (0..t.len()).map(|i| t.get(i).float()).collect();
    (inputs, values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_by_hand() {
        // [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
        assert_eq!(
            matmul(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0, 7.0, 8.0], 2),
            vec![19.0, 22.0, 43.0, 50.0]
        );
        let s = softmax(&[0.0, 0.0, 1.0, 1.0], 2, 2);
        assert_eq!(s, vec![0.5; 4]);
        // Rows [1, 3] and [5, 5]: mean 2, variance 1; mean 5, variance 0.
        // Scales 2 and 1, shifts 0 and 10.
        let l = layer_norm(&[1.0, 3.0, 5.0, 5.0], &[2.0, 1.0], &[0.0, 10.0], 2);
        let k = 1.0 / (1.0f64 + 1e-5).sqrt();
        assert_eq!(l, vec![-2.0 * k, k + 10.0, 0.0, 10.0]);
        // A 3x3 input of ones, a 2x2 filter of twos, one channel: 8 each.
        let shape = ConvShape {
            hw: 3,
            c: 1,
            k: 2,
            f: 1,
        };
        assert_eq!(conv2d(&[1.0; 9], &[2.0; 4], shape), vec![8.0; 4]);
        assert_eq!(shape.flops(), 2.0 * 4.0 * 4.0);
    }

    #[test]
    fn threaded_matmul_equals_the_serial_loop_bit_for_bit() {
        // An odd size: the rows split unevenly over threads and groups.
        let n = 37;
        let (a, b) = (random(n * n, 11, 1.0), random(n * n, 12, 1.0));
        let (a64, b64) = (f64s(&a), f64s(&b));
        let mut serial = vec![0f64; n * n];
        for i in 0..n {
            for k in 0..n {
                for j in 0..n {
                    serial[i * n + j] += a64[i * n + k] * b64[k * n + j];
                }
            }
        }
        let threaded = matmul(&a, &b, n);
        assert!(threaded
            .iter()
            .zip(&serial)
            .all(|(t, s)| t.to_bits() == s.to_bits()));
        // One thread's share, several groups of eight and a partial one.
        let mut rows = vec![0f64; 19 * n];
        matmul_rows(&a64, &b64, n, 5, &mut rows);
        assert_eq!(rows, serial[5 * n..24 * n]);
        assert!(matmul(&[], &[], 0).is_empty());
    }

    #[test]
    fn checks_accept_and_reject() {
        let out = HostArray::f32(&[2], &[1.0, 2.0]);
        let exact = Reference {
            values: vec![1.0, 2.0],
            exact: true,
        };
        assert!(check(&out, &exact).is_ok());
        let off = Reference {
            values: vec![1.0, 2.001],
            exact: false,
        };
        assert!(check(&out, &off).unwrap_err().contains("element 1"));
        let close = Reference {
            values: vec![1.0, 2.000_01],
            exact: false,
        };
        assert!(check(&out, &close).is_ok());
        assert!(compare(&[f64::NAN], &[1.0], TOLERANCE).is_err());
        // An f16 output one unit in the last place off at its scale (a
        // rounding flipped by another summation order) passes; the same
        // error in f32 does not.
        let ulp = 2f64.powi(-10) * 2.0;
        let want = [1.0, 2.0];
        let tol16 = tolerance(kiln_runtime::DType::F16);
        assert!(compare(&[1.0, 2.0 - ulp], &want, tol16).is_ok());
        assert!(compare(&[1.0, 2.0 - 2.0 * ulp], &want, tol16).is_err());
        let tol32 = tolerance(kiln_runtime::DType::F32);
        assert!(compare(&[1.0, 2.0 - ulp], &want, tol32).is_err());
    }

    #[test]
    fn random_is_deterministic_and_in_range() {
        let a = random(1000, 7, 2.0);
        assert_eq!(a, random(1000, 7, 2.0));
        assert_ne!(a, random(1000, 8, 2.0));
        assert!(a.iter().all(|x| (-2.0..2.0).contains(x)));
    }
}
