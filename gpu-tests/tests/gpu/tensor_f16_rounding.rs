//! f16 rounding on the device (`arith.truncf` f32 -> f16, the rounding
//! every f16 op's result takes) is round-to-nearest-even, bit for bit,
//! at every place it can go wrong: each f16 value, the midpoints between
//! neighbours and one f32 step either side of them (ties to even), the
//! f16 subnormals (multiples of 2^-24) and the values below them (2^-25
//! ties to zero), f32 subnormals, the overflow threshold (65,520 rounds
//! to infinity, the f32 just below it to 65,504), infinities and NaN, in
//! both signs; against the host's conversion (`half`) and the reference
//! evaluator. With f16 stored natively (lavapipe's env) and as i16 bits
//! (an env without Float16). Elementwise f16 and bf16 are bit-exact
//! against the evaluator, f16 moving as vec4 groups.

use std::rc::Rc;

use kiln_core::codegen::compile;
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::half::f16;

use crate::tensor_tiles::device;

/// The f32 inputs: every place rounding to f16 can go wrong.
fn cases() -> Vec<f32> {
    let mut out = Vec::new();
    let step = |x: f32, d: i32| f32::from_bits((x.to_bits() as i32 + d) as u32);
    for h in 0u16..0x7c00 {
        let x = f16::from_bits(h).to_f32();
        let next = f16::from_bits(h + 1).to_f32();
        let mid = ((f64::from(x) + f64::from(next)) / 2.0) as f32;
        out.extend([x, mid, step(mid, -1), step(mid, 1)]);
        if x > 0.0 {
            out.extend([step(x, -1), step(x, 1)]);
        }
    }
    // Below the smallest f16 subnormal, f32 subnormals, overflow.
    let two = |e: i32| 2f32.powi(e);
    out.extend([
        two(-25),
        step(two(-25), 1),
        step(two(-25), -1),
        two(-26),
        1.5 * two(-25),
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        65504.0,
        65519.996,
        65520.0,
        65536.0,
        1e10,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
    ]);
    let negated: Vec<f32> = out.iter().map(|x| -x).collect();
    out.extend(negated);
    out
}

fn program(n: usize) -> String {
    format!(
        r#"func.func @f(%x: tensor<{n}xf32>) -> tensor<{n}xf16> {{
  %e = tensor.empty() : tensor<{n}xf16>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%x : tensor<{n}xf32>) outs(%e : tensor<{n}xf16>) {{
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }} -> tensor<{n}xf16>
  return %r : tensor<{n}xf16>
}}"#
    )
}

/// The f16 bits of `v`'s elements.
fn bits(v: &Value) -> Vec<u16> {
    let Value::Tensor(t) = v else {
        panic!("expected a tensor");
    };
    let Elements::F16(b) = &t.data else {
        panic!("expected f16 elements");
    };
    b.clone()
}

#[test]
fn f16_rounding_is_nearest_even_at_every_boundary() {
    let device = device();
    let xs = cases();
    let n = xs.len();
    let module = kiln_core::tensor::load(&program(n)).unwrap();
    let arg = Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape: vec![n],
        data: Elements::F32(xs.clone()),
    }));
    let want: Vec<u16> = xs.iter().map(|&x| f16::from_f32(x).to_bits()).collect();
    let reference = eval::run(&module, "f", std::slice::from_ref(&arg)).unwrap();
    let same =
        |a: u16, b: u16| a == b || (f16::from_bits(a).is_nan() && f16::from_bits(b).is_nan());
    for (i, (&r, &w)) in bits(&reference[0]).iter().zip(&want).enumerate() {
        assert!(
            same(r, w),
            "evaluator: {:e} -> {r:#06x}, expected {w:#06x}",
            xs[i]
        );
    }
    let lavapipe = device_target(&device);
    let no_f16 = crate::tensor_programs::minimal_target(&device);
    for (target, env) in [
        (lavapipe, "f16 stored natively"),
        (no_f16, "f16 as i16 bits"),
    ] {
        let compiled = compile(&module, &target).unwrap();
        let program = kiln_runtime::Program::load(&device, compiled).unwrap();
        let got = program.run("f", std::slice::from_ref(&arg)).unwrap();
        for (i, (&g, &w)) in bits(&got[0]).iter().zip(&want).enumerate() {
            assert!(
                same(g, w),
                "{env}: {:e} ({:#010x}) -> {g:#06x}, expected {w:#06x}",
                xs[i],
                xs[i].to_bits()
            );
        }
    }
    assert_no_validation_messages(device.context());
}

/// `(a + b) * a` over 16-bit floats of `shape`.
fn fused16(shape: &[usize], elem: &str) -> String {
    crate::tensor_vec4::fused(shape).replace("f32", elem)
}

/// A tensor of `shape` with values spread over ±300 in steps that
/// exercise f16's rounding, as `elem` (`F16` or `BF16`) bits.
fn input16(shape: &[usize], seed: u64, elem: ElemType) -> Value {
    let n: usize = shape.iter().product();
    let xs = (0..n as u64).map(|i| {
        let h = (i * 2_654_435_761 + seed * 97) % 60_001;
        (h as f32 - 30_000.0) / 97.0
    });
    let data = match elem {
        ElemType::F16 => Elements::F16(xs.map(|x| f16::from_f32(x).to_bits()).collect()),
        _ => Elements::BF16(
            xs.map(|x| kiln_runtime::half::bf16::from_f32(x).to_bits())
                .collect(),
        ),
    };
    Value::Tensor(Rc::new(Tensor {
        elem,
        shape: shape.to_vec(),
        data,
    }))
}

/// Elementwise f16 stored natively moves as vec4 groups (f16x4 loads and
/// stores) on lavapipe, and bf16 (i16 bits, 16-bit integers native there)
/// as vec4 groups of i16; both bit-exact against the reference evaluator
/// (every op rounded as it rounds), with a last group cut by the
/// workgroup grid.
#[test]
fn sixteen_bit_elementwise_is_exact_and_moves_as_vec4() {
    use kiln_core::codegen::strategy::Distribution;
    let device = device();
    let target = device_target(&device);
    for (elem, name, vec4) in [(ElemType::F16, "f16", true), (ElemType::BF16, "bf16", true)] {
        for shape in [vec![3usize, 1028], vec![64 * 1024 + 4]] {
            let module = kiln_core::tensor::load(&fused16(&shape, name)).unwrap();
            let compiled = compile(&module, &target).unwrap();
            let s = &compiled.functions[0].dispatches[0].strategy;
            assert_eq!(
                matches!(s.distribution, Distribution::Vector4 { .. }),
                vec4,
                "{name} {shape:?}: {s}"
            );
            let args = [input16(&shape, 1, elem), input16(&shape, 2, elem)];
            let want = eval::run(&module, "f", &args).unwrap();
            let program = kiln_runtime::Program::load(&device, compiled).unwrap();
            let got = program.run("f", &args).unwrap();
            let (Value::Tensor(g), Value::Tensor(w)) = (&got[0], &want[0]) else {
                panic!("tensors");
            };
            assert_eq!(g.data, w.data, "{name} {shape:?}");
        }
    }
    assert_no_validation_messages(device.context());
}
