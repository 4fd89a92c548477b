//! kiln-runtime's scans, sorting, scatter, resizing, random numbers and
//! `out=` forms against independent oracles: plain host loops (sequential
//! sums, Rust's stable sort, PyTorch's formulas) and Random123's known
//! answers for Philox4x32-10.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::ops::{self, Binary, Interpolation, Philox, Unary};
use kiln_runtime::{CacheLocation, DType, DeviceOptions, Tensor};

use crate::runtime_support::{device, test_device};

/// Values in [-2, 2) from a fixed LCG, with some repeats.
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) % 64) as f32 / 16.0 - 2.0
        })
        .collect()
}

#[test]
fn cumsum_and_cumprod_match_a_sequential_loop() {
    let device = device();
    let s = device.stream();
    // 3 rows of 200: eight scan steps.
    let (rows, n) = (3, 200);
    let x = values(rows * n, 1);
    let t = Tensor::from_slice(&device, &x, &[rows, n]).unwrap();
    let got = ops::cumsum(&s, &t, 1).unwrap().to_vec::<f32>().unwrap();
    for r in 0..rows {
        let mut acc = 0f64;
        for i in 0..n {
            acc += f64::from(x[r * n + i]);
            let g = f64::from(got[r * n + i]);
            assert!(
                (g - acc).abs() <= 1e-4 * (1.0 + acc.abs()),
                "[{r}, {i}]: {g} vs {acc}"
            );
        }
    }
    // Integers: exact, wrapping (i8 overflows and wraps like numpy's).
    let xi: Vec<i8> = (0..40).map(|i| (i * 7 % 11) as i8 - 3).collect();
    let ti = Tensor::from_slice(&device, &xi, &[40]).unwrap();
    let mut acc = 0i8;
    let want: Vec<i8> = xi
        .iter()
        .map(|&v| {
            acc = acc.wrapping_add(v);
            acc
        })
        .collect();
    assert_eq!(
        ops::cumsum(&s, &ti, 0).unwrap().to_vec::<i8>().unwrap(),
        want
    );
    // cumprod along axis 0 of [5, 2] i32.
    let xp = [1i32, -2, 3, 2, -1, 5, 2, 2, 4, -3];
    let tp = Tensor::from_slice(&device, &xp, &[5, 2]).unwrap();
    let mut want = xp.to_vec();
    for i in 1..5 {
        for j in 0..2 {
            want[i * 2 + j] = want[(i - 1) * 2 + j] * xp[i * 2 + j];
        }
    }
    assert_eq!(
        ops::cumprod(&s, &tp, 0).unwrap().to_vec::<i32>().unwrap(),
        want
    );
    assert_no_validation_messages(device.context());
}

/// A stable ascending (or descending) order of `row` with NaN above every
/// number, as numpy (ascending) and PyTorch (descending) order it.
fn host_order(row: &[f32], descending: bool) -> Vec<usize> {
    let key = |v: f32| if v.is_nan() { f32::INFINITY } else { v };
    let mut idx: Vec<usize> = (0..row.len()).collect();
    idx.sort_by(|&a, &b| {
        let (x, y) = (row[a], row[b]);
        let o = match (x.is_nan(), y.is_nan()) {
            (true, true) => std::cmp::Ordering::Equal,
            (true, false) => std::cmp::Ordering::Greater,
            (false, true) => std::cmp::Ordering::Less,
            _ => key(x).partial_cmp(&key(y)).unwrap(),
        };
        if descending {
            o.reverse()
        } else {
            o
        }
    });
    idx
}

#[test]
fn sort_argsort_and_topk_match_a_stable_host_sort() {
    let device = device();
    let s = device.stream();
    let (rows, n) = (4, 37);
    let mut x = values(rows * n, 2);
    x[5] = f32::NAN;
    x[40] = f32::NAN;
    x[41] = f32::NAN;
    let t = Tensor::from_slice(&device, &x, &[rows, n]).unwrap();
    for descending in [false, true] {
        let (v, i) = ops::sort(&s, &t, 1, descending).unwrap();
        let (v, i) = (v.to_vec::<f32>().unwrap(), i.to_vec::<i64>().unwrap());
        let a = ops::argsort(&s, &t, 1, descending)
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        // topk: the largest (the descending sort's program).
        let (tv, ti) = ops::topk(&s, &t, 5, 1, true).unwrap();
        let (tv, ti) = (tv.to_vec::<f32>().unwrap(), ti.to_vec::<i64>().unwrap());
        for r in 0..rows {
            let row = &x[r * n..(r + 1) * n];
            let order = host_order(row, descending);
            for (k, &o) in order.iter().enumerate() {
                assert_eq!(i[r * n + k], o as i64, "row {r} pos {k} desc {descending}");
                assert_eq!(a[r * n + k], o as i64);
                let (g, w) = (v[r * n + k], row[o]);
                assert!(g == w || (g.is_nan() && w.is_nan()), "{g} vs {w}");
            }
            let largest = host_order(row, true);
            for k in 0..5 {
                assert_eq!(ti[r * 5 + k], largest[k] as i64, "topk row {r}");
                let (g, w) = (tv[r * 5 + k], row[largest[k]]);
                assert!(g == w || (g.is_nan() && w.is_nan()));
            }
        }
    }
    // Integer types: the ops x dtypes table (runtime_ops_dtypes.rs).
    assert!(ops::topk(&s, &t, 38, 1, true).is_err());
    assert_no_validation_messages(device.context());
}

/// With tensors in unified memory (lavapipe's default) and device-local
/// (a discrete GPU's; `unified_memory: false` here): out-of-range indices
/// the host can read are refused at the call; device-local ones are
/// checked by the kernel, and the error comes with the result's read (the
/// H200 run of 2026-11-30 got a tensor from the call where this test
/// expected the host's refusal). Either way nothing is written out of
/// range: a scatter is a reduction over the indices per element of `x`,
/// and an index out of range matches no element.
#[test]
fn scatter_and_scatter_add_match_a_host_loop() {
    for unified in [true, false] {
        scatter_and_scatter_add(unified);
    }
}

fn scatter_and_scatter_add(unified: bool) {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        unified_memory: unified,
        ..DeviceOptions::default()
    });
    let s = device.stream();
    let x = values(4 * 6, 3);
    let src = values(4 * 9, 4);
    let idx: Vec<i64> = (0..36).map(|k| (k * 5 % 6) as i64).collect(); // duplicates
    let (tx, ts) = (
        Tensor::from_slice(&device, &x, &[4, 6]).unwrap(),
        Tensor::from_slice(&device, &src, &[4, 9]).unwrap(),
    );
    let ti = Tensor::from_slice(&device, &idx, &[4, 9]).unwrap();
    let mut set = x.clone();
    let mut add: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for r in 0..4 {
        for j in 0..9 {
            let k = idx[r * 9 + j] as usize;
            set[r * 6 + k] = src[r * 9 + j]; // the last duplicate wins
            add[r * 6 + k] += f64::from(src[r * 9 + j]);
        }
    }
    let got = ops::scatter(&s, &tx, 1, &ti, &ts)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(got, set);
    let got = ops::scatter_add(&s, &tx, 1, &ti, &ts)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for (g, w) in got.iter().zip(&add) {
        assert!((f64::from(*g) - w).abs() < 1e-5, "{g} vs {w}");
    }
    // Out of range: refused on the host where it can read the indices,
    // else by the kernel when the result is read; on the device too when
    // the indices are computed there; naming the op.
    let bad = Tensor::from_slice(&device, &[0i64, 6, 1, 2, 3, 4, 5, 0, 1], &[1, 9]).unwrap();
    let r = ops::scatter(
        &s,
        &tx.narrow(0, 0, 1).unwrap(),
        1,
        &bad,
        &ts.narrow(0, 0, 1).unwrap(),
    );
    let e = if device.info().unified_memory {
        r.expect_err("refused at the call").to_string()
    } else {
        let t = r.expect("enqueued: the kernel checks the indices");
        t.to_vec::<f32>()
            .expect_err("refused at the read")
            .to_string()
    };
    assert!(e.contains("ops::scatter"), "{e}");
    let one = Tensor::from_slice(&device, &[1i64], &[1]).unwrap();
    let shifted = ops::add(&s, &ti, &one).unwrap(); // 6 appears
    let r = ops::scatter_add(&s, &tx, 1, &shifted, &ts).unwrap();
    let e = r.to_vec::<f32>().unwrap_err().to_string();
    assert!(e.contains("ops::scatter_add"), "{e}");
    let _ = s.sync();
    assert_no_validation_messages(device.context());
}

#[test]
fn interpolate_matches_pytorchs_formulas() {
    let device = device();
    let s = device.stream();
    let (h, w, c) = (3, 4, 2);
    let x = values(h * w * c, 5);
    let t = Tensor::from_slice(&device, &x, &[1, h, w, c]).unwrap();
    let at = |y: usize, xx: usize, ch: usize| x[(y * w + xx) * c + ch];
    let (oh, ow) = (5, 7);
    let near = ops::interpolate(&s, &t, [oh, ow], Interpolation::Nearest).unwrap();
    let near = near.to_vec::<f32>().unwrap();
    let bil = ops::interpolate(&s, &t, [oh, ow], Interpolation::Bilinear).unwrap();
    let bil = bil.to_vec::<f32>().unwrap();
    let src = |o: usize, n: usize, m: usize| {
        let v = ((o as f64 + 0.5) * n as f64 / m as f64 - 0.5).max(0.0);
        let i0 = v.floor() as usize;
        (i0, (i0 + 1).min(n - 1), v - i0 as f64)
    };
    for y in 0..oh {
        for xx in 0..ow {
            for ch in 0..c {
                let k = (y * ow + xx) * c + ch;
                assert_eq!(near[k], at(y * h / oh, xx * w / ow, ch), "nearest {y} {xx}");
                let (y0, y1, ly) = src(y, h, oh);
                let (x0, x1, lx) = src(xx, w, ow);
                let p = |a: usize, b: usize| f64::from(at(a, b, ch));
                let want = (1.0 - ly) * ((1.0 - lx) * p(y0, x0) + lx * p(y0, x1))
                    + ly * ((1.0 - lx) * p(y1, x0) + lx * p(y1, x1));
                assert!(
                    (f64::from(bil[k]) - want).abs() < 1e-5,
                    "bilinear {y} {xx}: {} vs {want}",
                    bil[k]
                );
            }
        }
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn philox_gives_random123s_known_answers_and_dropout_follows_it() {
    let device = device();
    let s = device.stream();
    // Random123's kat_vectors for philox4x32-10: (counter, key) -> words.
    let kat: [(Philox, [u32; 4]); 3] = [
        (
            Philox::new(0),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
        ),
        (
            Philox {
                seed: u64::MAX,
                subsequence: u64::MAX,
                offset: u64::MAX,
            },
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
        ),
        (
            Philox {
                seed: 0x299f31d0_a4093822,
                subsequence: 0x03707344_13198a2e,
                offset: 0x85a308d3_243f6a88,
            },
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
        ),
    ];
    for (key, want) in kat {
        let bits = ops::random_bits(&s, &[4], key)
            .unwrap()
            .to_vec::<i32>()
            .unwrap();
        let bits: Vec<u32> = bits.iter().map(|&b| b as u32).collect();
        assert_eq!(bits, want, "{key:?}");
    }
    // Element 4 + k is word k of the next counter.
    let key = Philox::new(0).advance(4);
    let next = ops::random_bits(&s, &[8], Philox::new(0))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let again = ops::random_bits(&s, &[4], key)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    assert_eq!(&next[4..], &again[..]);
    // rand: top 24 bits / 2^24.
    let u = ops::rand(&s, &[4], DType::F32, Philox::new(0))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let want: Vec<f32> = [0x6627e8d5u32, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        .iter()
        .map(|&w| (w >> 8) as f32 / (1u32 << 24) as f32)
        .collect();
    assert_eq!(u, want);
    // Dropout zeroes where rand < p and scales the rest by 1 / (1 - p).
    let n = 4096;
    let x: Vec<f32> = (0..n).map(|i| (i % 13) as f32 + 1.0).collect();
    let t = Tensor::from_slice(&device, &x, &[64, 64]).unwrap();
    let key = Philox::new(1234).advance(100);
    let p = 0.25;
    let y = ops::dropout(&s, &t, p, key)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let u = ops::rand(&s, &[n], DType::F32, key)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let mut dropped = 0;
    for i in 0..n {
        if f64::from(u[i]) < p {
            assert_eq!(y[i], 0.0);
            dropped += 1;
        } else {
            assert_eq!(y[i], x[i] * (1.0 / (1.0 - p)) as f32);
        }
    }
    assert!(
        (900..1150).contains(&dropped),
        "{dropped} of {n} dropped at p = {p}"
    );
    assert_eq!(
        ops::dropout(&s, &t, p, key)
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        y
    );
    assert_ne!(
        ops::dropout(&s, &t, p, key.advance(1))
            .unwrap()
            .to_vec::<f32>()
            .unwrap(),
        y
    );
    assert!(ops::dropout(&s, &t, 1.5, key).is_err());
    assert_no_validation_messages(device.context());
}

#[test]
fn out_forms_write_into_a_given_tensor_even_an_operand() {
    let device = device();
    let s = device.stream();
    let a = Tensor::from_slice(&device, &[1f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let b = Tensor::from_slice(&device, &[10f32, 20.0], &[2]).unwrap();
    let out = Tensor::zeros(&device, DType::F32, &[2, 2]).unwrap();
    ops::binary_out(&s, Binary::Add, &a, &b, &out).unwrap();
    assert_eq!(out.to_vec::<f32>().unwrap(), vec![11.0, 22.0, 13.0, 24.0]);
    // In place: a = a * a, then a = -a.
    ops::binary_out(&s, Binary::Mul, &a, &a, &a).unwrap();
    ops::unary_out(&s, Unary::Neg, &a, &a).unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![-1.0, -4.0, -9.0, -16.0]);
    let wrong = Tensor::zeros(&device, DType::F32, &[4]).unwrap();
    assert!(ops::binary_out(&s, Binary::Add, &a, &b, &wrong).is_err());
    let wrong = Tensor::zeros(&device, DType::I32, &[2, 2]).unwrap();
    assert!(ops::unary_out(&s, Unary::Neg, &a, &wrong).is_err());
    assert_no_validation_messages(device.context());
}
