//! Softmax rows split over several workgroups
//! (`ReductionStrategy::SplitRows`): few long rows — one row of an LLM's
//! 128,256-token vocabulary, 3 rows of 50,000 — each cut into slices
//! whose maxima and sums a second kernel combines, against an f64 host
//! softmax: vec4 rows whose slices cover them exactly and with a short
//! last slice, rows not a multiple of 4 (element by element), a softmax
//! along the first dimension, values spread over ±40 (partials with
//! maxima far apart), a row rising along its length (every slice's
//! maximum above the previous one's), a NaN in one slice (the whole row
//! NaN) and `-inf` elements (zero there). On lavapipe's env and one
//! without subgroup arithmetic (a workgroup-memory tree), with every
//! `kiln tune` candidate forced in turn (lavapipe's heuristic does not
//! split: the split is for GPUs, and a candidate here). f16 rows a
//! multiple of 4 long (read as vec4, computed in f32, rounded once) are
//! held to one f16 rounding of the f64 softmax, split or not.

use std::rc::Rc;

use kiln_core::codegen::strategy::{ReductionStrategy, Tuning};
use kiln_core::codegen::{compile, CodegenTarget};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::device;

/// `@f(x) = softmax(x)` along dimension `dim` of a tensor of `shape` and
/// element type `elem` (`f32` or `f16`).
fn program(shape: &[usize], dim: usize, elem: &str) -> String {
    let t = crate::tensor_tiles::ty(shape).replace("f32", elem);
    format!(
        r#"func.func @f(%x: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %s = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%e : {t}) -> {t}
  return %s : {t}
}}"#
    )
}

/// Which values fill the input.
#[derive(Clone, Copy, Debug)]
enum Fill {
    /// Pseudo-random values in ±`spread`.
    Spread(f32),
    /// Each row rising by 1e-3 per element.
    Rising,
    /// Spread over ±8 with a NaN in the middle of the first row.
    NaN,
    /// Spread over ±8 with every third element `-inf`.
    NegInf,
}

/// The input of `shape` filled with `fill`, f32 or (`f16`) rounded to
/// f16.
fn input(shape: &[usize], dim: usize, fill: Fill, f16: bool) -> Value {
    let n: usize = shape.iter().product();
    let along = |i: usize| (i / shape[dim + 1..].iter().product::<usize>()) % shape[dim];
    let spread = |i: usize, s: f32| {
        let h = (i as u64).wrapping_mul(2_654_435_761) % 10_007;
        (h as f32 / 10_007.0 * 2.0 - 1.0) * s
    };
    let mut data: Vec<f32> = (0..n)
        .map(|i| match fill {
            Fill::Spread(s) => spread(i, s),
            Fill::Rising => along(i) as f32 * 1e-3 - 5.0,
            Fill::NaN => spread(i, 8.0),
            Fill::NegInf if i % 3 == 0 => f32::NEG_INFINITY,
            Fill::NegInf => spread(i, 8.0),
        })
        .collect();
    if let Fill::NaN = fill {
        // The first row's middle element (rows along the last dimension).
        let stride: usize = shape[dim + 1..].iter().product();
        data[shape[dim] / 2 * stride] = f32::NAN;
    }
    let (elem, data) = if f16 {
        let bits = data
            .iter()
            .map(|&x| kiln_runtime::half::f16::from_f32(x).to_bits())
            .collect();
        (ElemType::F16, Elements::F16(bits))
    } else {
        (ElemType::F32, Elements::F32(data))
    };
    Value::Tensor(Rc::new(Tensor {
        elem,
        shape: shape.to_vec(),
        data,
    }))
}

/// The softmax of `x` along `dim` in f64.
fn expected(x: &Value, shape: &[usize], dim: usize) -> Vec<f64> {
    let Value::Tensor(t) = x else {
        panic!("expected a tensor");
    };
    let v: Vec<f64> = (0..t.len()).map(|i| t.get(i).float()).collect();
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    let d = shape[dim];
    let mut out = vec![0.0; v.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * d * inner + k * inner + i;
            let max = (0..d).map(|k| v[at(k)]).fold(f64::MIN, f64::max);
            let nan = (0..d).any(|k| v[at(k)].is_nan());
            let sum: f64 = (0..d).map(|k| (v[at(k)] - max).exp()).sum();
            for k in 0..d {
                out[at(k)] = if nan {
                    f64::NAN
                } else {
                    (v[at(k)] - max).exp() / sum
                };
            }
        }
    }
    out
}

/// Whether `got` matches `want` within `tol` relative and `floor`
/// absolute (NaN where NaN).
fn check(name: &str, got: &Value, want: &[f64], (tol, floor): (f64, f64)) {
    let Value::Tensor(g) = got else {
        panic!("{name}: expected a tensor");
    };
    assert_eq!(g.len(), want.len(), "{name}");
    for (i, &y) in want.iter().enumerate() {
        let x = g.get(i).float();
        if y.is_nan() {
            assert!(x.is_nan(), "{name}[{i}]: {x}, expected NaN");
            continue;
        }
        assert!(
            (x - y).abs() <= tol * y.abs() + floor,
            "{name}[{i}]: {x} vs {y}"
        );
    }
}

/// Whether the dispatch's strategy splits rows, and over how many
/// workgroups.
fn split_of(p: &kiln_core::codegen::CompiledProgram) -> Option<u32> {
    match p.functions[0].dispatches[0].strategy.reduction {
        Some(ReductionStrategy::SplitRows { slices, .. }) => Some(slices),
        _ => None,
    }
}

fn run_cases(device: &kiln_runtime::Device, target: &CodegenTarget, env: &str, f16: bool) {
    let mut cases: Vec<(Vec<usize>, usize, Fill)> = vec![
        (vec![1, 128_256], 1, Fill::Spread(40.0)),
        (vec![3, 50_000], 1, Fill::Spread(8.0)),
        (vec![1, 40_960], 1, Fill::Rising),
        (vec![2, 30_001], 1, Fill::Spread(8.0)),
        (vec![30_000, 2], 0, Fill::Spread(8.0)),
        (vec![2, 20_000], 1, Fill::NaN),
        (vec![1, 24_000], 1, Fill::NegInf),
        (vec![2, 5_000], 1, Fill::Spread(8.0)),
    ];
    let elem = if f16 { "f16" } else { "f32" };
    if f16 {
        // f16 rows a multiple of 4 long (read as vec4, computed in f32),
        // from a row held in registers to one split 15 ways.
        cases.retain(|(shape, dim, _)| *dim == 1 && shape[1] % 4 == 0);
        cases.push((vec![5, 64], 1, Fill::Spread(8.0)));
        cases.push((vec![2, 1024], 1, Fill::Spread(4.0)));
    }
    for (shape, dim, fill) in cases {
        let module = kiln_core::tensor::load(&program(&shape, dim, elem)).unwrap();
        let compiled = compile(&module, target).unwrap();
        let d = &compiled.functions[0].dispatches[0];
        // lavapipe's heuristic keeps a workgroup per row (the split is
        // for GPUs); `kiln tune` may force it.
        assert_eq!(
            split_of(&compiled),
            None,
            "{shape:?} on {env}: {}",
            d.strategy
        );
        let x = input(&shape, dim, fill, f16);
        let want = expected(&x, &shape, dim);
        let mut splits = 0;
        for choice in d.candidates.clone() {
            let mut tuning = Tuning::new();
            tuning.insert(&d.tuning_key, choice, "test");
            let tuned = target.clone().with_tuning(tuning);
            let compiled = compile(&module, &tuned).unwrap();
            let split = split_of(&compiled).is_some();
            splits += usize::from(split);
            // A split row's sums are short and combined as a tree: within
            // 1e-5. Other candidates sum up to 128,256 exponentials in one
            // invocation's serial f32 chain (2e-5 measured on 20,000).
            // An f16 output is within one f16 rounding of the f32 result
            // (half a unit in the last place, 2^-11 relative; 2^-25
            // absolute among subnormals).
            let tol = match (f16, split) {
                (true, _) => (1e-3, 6e-8),
                (false, true) => (1e-5, 1e-12),
                (false, false) => (2e-4, 1e-12),
            };
            let program = kiln_runtime::Program::load(device, compiled).unwrap();
            let got = program.run("f", std::slice::from_ref(&x)).unwrap();
            let name = format!("{elem} {shape:?} {fill:?} on {env}, {}", choice.to_text());
            check(&name, &got[0], &want, tol);
        }
        assert!(
            splits >= 2 || shape[1] < 2048,
            "{elem} {shape:?} on {env}: {splits} split candidates"
        );
    }
}

#[test]
fn split_softmax_rows_match_an_f64_softmax() {
    let device = device();
    let lavapipe = device_target(&device);
    let no_subgroups = crate::tensor_programs::minimal_target(&device);
    run_cases(&device, &lavapipe, "lavapipe", false);
    run_cases(&device, &no_subgroups, "no subgroup arithmetic", false);
    run_cases(&device, &lavapipe, "lavapipe", true);
    assert_no_validation_messages(device.context());
}
