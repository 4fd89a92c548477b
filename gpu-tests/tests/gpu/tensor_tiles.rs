//! The register-tile strategy of contractions and convolutions
//! (`Distribution::Tile`) at the sizes that exercise its edges — a single
//! element, fewer rows or columns than a tile, one more than a tile,
//! unaligned sizes in every dimension, batches, transposed operands, fused
//! epilogues, columns and reductions a multiple of 4 (vec4 columns, the
//! reduction unrolled by 4), tiles 8 steps deep over reductions a
//! multiple of 8, of 4 only, or neither — each checked exactly against
//! the reference evaluator on small-integer data (every sum is exact in
//! f32, so a wrong or missed point cannot hide in a tolerance). And two target envs with different
//! workgroup limits choose different tiles that both validate and give the
//! same results.

use std::rc::Rc;

use kiln_core::codegen::strategy::Distribution;
use kiln_core::codegen::{compile, CodegenTarget, CompiledProgram};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program};

use crate::runtime_support::test_device;

pub(crate) fn device() -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
}

/// A tensor of small integers (-4..=4) in f32, different for each `seed`.
pub(crate) fn input(shape: &[usize], seed: u64) -> Value {
    let n: usize = shape.iter().product();
    let data = (0..n as u64)
        .map(|i| ((i * 7 + seed * 13 + (i / 5) * 3) % 9) as f32 - 4.0)
        .collect();
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape: shape.to_vec(),
        data: Elements::F32(data),
    }))
}

pub(crate) fn ty(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("tensor<{}xf32>", dims.join("x"))
}

/// `@f(a, b) = matmul(truncf(a), truncf(b))`: f32 inputs `m x k` and
/// `k x n` truncated to f16 in the dispatch (fused producers), accumulated
/// in f32 from a zero fill.
pub(crate) fn f16_operand_matmul(m: usize, k: usize, n: usize) -> String {
    let (a, b, c) = (ty(&[m, k]), ty(&[k, n]), ty(&[m, n]));
    let (a16, b16) = (
        format!("tensor<{m}x{k}xf16>"),
        format!("tensor<{k}x{n}xf16>"),
    );
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %a16 = arith.truncf %a : {a} to {a16}
  %b16 = arith.truncf %b : {b} to {b16}
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a16, %b16 : {a16}, {b16}) outs(%f : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

/// `@f(a, b, bias) = relu(a · bᵀ + bias)` over f32: `a` is `m x k`, `b`
/// is `n x k` (B transposed in the maps), the accumulator starts from the
/// bias broadcast over the rows and a ReLU is fused after the
/// contraction.
pub(crate) fn bias_relu_matmul(m: usize, k: usize, n: usize) -> String {
    let (a, b, c, bias) = (ty(&[m, k]), ty(&[n, k]), ty(&[m, n]), ty(&[n]));
    format!(
        r#"func.func @f(%a: {a}, %b: {b}, %bias: {bias}) -> {c} {{
  %e = tensor.empty() : {c}
  %init = linalg.broadcast ins(%bias : {bias}) outs(%e : {c}) dimensions = [0]
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %b : {a}, {b}) outs(%init : {c}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
%p = arith.mulf %x, %y : f32
%s = arith.addf %acc, %p : f32
linalg.yield %s : f32
  }} -> {c}
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : {c}
  %relu = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%r : {c}) outs(%e2 : {c}) {{
  ^bb0(%x: f32, %o: f32):
%m = arith.maximumf %x, %z : f32
linalg.yield %m : f32
  }} -> {c}
  return %relu : {c}
}}"#
    )
}

/// `@f(a, b) = linalg.{op}(a, b)` (a matmul or batch matmul into a
/// zero-filled output) over f32 tensors of these shapes.
pub(crate) fn fill_matmul(op: &str, a: &[usize], b: &[usize], c: &[usize]) -> String {
    let (a, b, c) = (ty(a), ty(b), ty(c));
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.{op} ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

/// `@f(i, w) = conv_2d_nhwc_hwcf(i, w)` (no padding, dilation 1) over f32
/// tensors of these shapes.
pub(crate) fn conv(i: &[usize], w: &[usize], o: &[usize], stride: u32) -> String {
    let (ti, tw, to) = (ty(i), ty(w), ty(o));
    format!(
        r#"func.func @f(%i: {ti}, %w: {tw}) -> {to} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {to}
  %f = linalg.fill ins(%z : f32) outs(%e : {to}) -> {to}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}} ins(%i, %w : {ti}, {tw}) outs(%f : {to}) -> {to}
  return %r : {to}
}}"#
    )
}

/// `@f(a, b) = matmul(a, b)` for `m x k` times `k x n`.
fn matmul(m: usize, k: usize, n: usize) -> String {
    fill_matmul("matmul", &[m, k], &[k, n], &[m, n])
}

/// The programs (`@f`), their names and input shapes.
fn cases() -> Vec<(String, String, Vec<Vec<usize>>)> {
    let mut out = Vec::new();
    for (m, k, n) in [
        (1, 1, 1),
        (1, 5, 3),
        (3, 1, 2),
        (8, 16, 256),
        (9, 17, 257),
        (67, 33, 129),
        (5, 300, 1030),
        // Columns a multiple of 4 (adjacent vec4 columns, the last group
        // clamped), K a multiple of 4 (unrolled, A read as vec4).
        (13, 20, 132),
        (70, 12, 36),
        (9, 8, 2052),
    ] {
        out.push((
            format!("matmul {m}x{k}x{n}"),
            matmul(m, k, n),
            vec![vec![m, k], vec![k, n]],
        ));
    }
    // A batch of 3, rows and columns unaligned.
    out.push((
        "batch_matmul 3x9x5x70".into(),
        fill_matmul("batch_matmul", &[3, 9, 5], &[3, 5, 70], &[3, 9, 70]),
        vec![vec![3, 9, 5], vec![3, 5, 70]],
    ));
    // B transposed in the maps, then a bias and a ReLU fused as the
    // epilogue; the accumulator starts from the bias broadcast, not 0.
    out.push((
        "matmul with transposed B, bias init, ReLU epilogue".into(),
        bias_relu_matmul(19, 23, 45),
        vec![vec![19, 23], vec![45, 23], vec![45]],
    ));
    // Vec4 columns and an unrolled reduction in a batch.
    out.push((
        "batch_matmul 2x5x8x68".into(),
        fill_matmul("batch_matmul", &[2, 5, 8], &[2, 8, 68], &[2, 5, 68]),
        vec![vec![2, 5, 8], vec![2, 8, 68]],
    ));
    // A convolution with 36 filters and 8 input channels (vec4 filters
    // and outputs, input channels as vec4), padding-free, strides 1.
    out.push((
        "conv_2d_nhwc_hwcf 1x7x9x8 * 3x3x8x36".into(),
        conv(&[1, 7, 9, 8], &[3, 3, 8, 36], &[1, 5, 7, 36], 1),
        vec![vec![1, 7, 9, 8], vec![3, 3, 8, 36]],
    ));
    // A convolution: strides 2, output width and channels both unaligned.
    out.push((
        "conv_2d_nhwc_hwcf 2x11x21x3 * 3x3x3x37, strides 2".into(),
        conv(&[2, 11, 21, 3], &[3, 3, 3, 37], &[2, 5, 10, 37], 2),
        vec![vec![2, 11, 21, 3], vec![3, 3, 3, 37]],
    ));
    out
}

fn tile_of(p: &CompiledProgram) -> Option<(Distribution, [u32; 3])> {
    p.functions[0]
        .dispatches
        .iter()
        .map(|d| (d.strategy.distribution, d.strategy.workgroup_size))
        .find(|(dist, _)| matches!(dist, Distribution::Tile { .. }))
}

/// Runs `@f` of `program` on `device` and checks it equals the reference.
pub(crate) fn check(
    device: &Device,
    name: &str,
    compiled: CompiledProgram,
    src: &str,
    args: &[Value],
) {
    let module = kiln_core::tensor::load(src).unwrap();
    let reference = eval::run(&module, "f", args).unwrap_or_else(|e| panic!("{name}: {e}"));
    let program = Program::load(device, compiled).unwrap();
    let got = program
        .run("f", args)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(got.len(), reference.len(), "{name}");
    for (g, r) in got.iter().zip(&reference) {
        let (Value::Tensor(g), Value::Tensor(r)) = (g, r) else {
            panic!("{name}: expected tensors");
        };
        assert_eq!(g.shape, r.shape, "{name}");
        assert_eq!(g.data, r.data, "{name}: results differ from the reference");
    }
}

#[test]
fn register_tiles_are_exact_at_their_edges() {
    let device = device();
    let target = device_target(&device);
    for (name, src, shapes) in cases() {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tiled = tile_of(&compiled);
        // A single row of fewer columns than a tile's has nothing to
        // share (the serial strategy); every other case is tiled.
        let untiled = ["matmul 1x1x1", "matmul 1x5x3"].contains(&name.as_str());
        assert_eq!(tiled.is_some(), !untiled, "{name}: {tiled:?}");
        let args: Vec<Value> = shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| input(sh, s as u64))
            .collect();
        check(&device, &name, compiled, &src, &args);
    }
    assert_no_validation_messages(device.context());
}

/// Tiles 8 steps deep (what a CPU device reading texels takes): every
/// such `kiln tune` candidate, exact against the reference, where the
/// innermost reduction is a multiple of 8 (two vec4 groups per step), a
/// multiple of 4 only (4 steps per iteration), or neither (one); with
/// rows, columns and batches that leave partial tiles, and convolutions
/// whose input channels are the unrolled loop inside the filter window's.
#[test]
fn deep_tiles_are_exact_at_their_edges() {
    let device = device();
    let mut target = device_target(&device);
    // Off a CPU device the heuristic offers no deep tiles: take
    // llvmpipe's driver facts so that the same candidates are run.
    if !target.facts.barriers_serialize {
        target.facts =
            kiln_core::codegen::DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
    }
    let mut cases = Vec::new();
    for (m, k, n) in [(100, 24, 64), (100, 20, 64), (100, 13, 64), (61, 40, 128)] {
        cases.push((
            format!("matmul {m}x{k}x{n}"),
            matmul(m, k, n),
            vec![vec![m, k], vec![k, n]],
        ));
    }
    cases.push((
        "batch_matmul 2x40x16x64".into(),
        fill_matmul("batch_matmul", &[2, 40, 16], &[2, 16, 64], &[2, 40, 64]),
        vec![vec![2, 40, 16], vec![2, 16, 64]],
    ));
    for c in [8, 12] {
        cases.push((
            format!("conv_2d_nhwc_hwcf 1x5x30x{c} * 3x3x{c}x64"),
            conv(&[1, 5, 30, c], &[3, 3, c, 64], &[1, 3, 28, 64], 1),
            vec![vec![1, 5, 30, c], vec![3, 3, c, 64]],
        ));
    }
    for (name, src, shapes) in cases {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = &compiled.functions[0].dispatches[0];
        let deep: Vec<_> = d
            .candidates
            .iter()
            .filter(|c| matches!(c.distribution, Distribution::Tile { depth: 8, .. }))
            .cloned()
            .collect();
        assert!(deep.len() >= 4, "{name}: {:?}", d.candidates);
        let args: Vec<Value> = shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| input(sh, s as u64))
            .collect();
        for choice in deep {
            let mut tuning = kiln_core::codegen::strategy::Tuning::new();
            tuning.insert(&d.tuning_key, choice, "test");
            let tuned = target.clone().with_tuning(tuning);
            let compiled = compile(&module, &tuned).unwrap();
            let got = compiled.functions[0].dispatches[0].strategy.distribution;
            assert_eq!(got, choice.distribution, "{name}");
            let label = format!("{name} with {}", choice.to_text());
            check(&device, &label, compiled, &src, &args);
        }
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn two_envs_with_different_limits_choose_different_tiles() {
    let device = device();
    let full = device_target(&device);
    let mut small: CodegenTarget = full.clone();
    small.env.limits.max_compute_workgroup_invocations = 16;
    small.env.limits.max_compute_workgroup_size = [16, 16, 16];
    small.env.limits.subgroup_size = 4;
    let src = matmul(37, 41, 300);
    let module = kiln_core::tensor::load(&src).unwrap();
    let a = compile(&module, &full).unwrap();
    let b = compile(&module, &small).unwrap();
    let (ta, wa) = tile_of(&a).expect("a tile on the device's env");
    let (tb, wb) = tile_of(&b).expect("a tile on the small env");
    assert_ne!((ta, wa), (tb, wb), "the same tile for both envs");
    assert!(wb[0] <= 16, "{wb:?} exceeds the small env's limit");
    assert!(
        wa[0] > 16,
        "{wa:?}: the device's tile should use more invocations"
    );
    let args = [input(&[37, 41], 1), input(&[41, 300], 2)];
    check(&device, "device env", a, &src, &args);
    check(&device, "small env", b, &src, &args);
    assert_no_validation_messages(device.context());
}
