//! The workgroup-memory tiles of contractions and convolutions
//! (`Distribution::SharedTile`, a GPU's strategy) run on lavapipe by
//! compiling for a GPU-like target (the device's env with barriers as
//! cheap as on a GPU and a device type that is not a CPU's): sizes at their edges — a single element, fewer
//! rows or columns than a block, one more than a block, unaligned in
//! every dimension, several reduction steps with a partial last one,
//! vec4 staging, batches, transposed operands, a bias init with a ReLU
//! epilogue, convolutions — each checked exactly against the reference
//! evaluator on small-integer data, every kernel validated by spirv-val
//! at compile time and run under the validation layer, double- and
//! single-buffered. Also: lavapipe's
//! own target keeps register tiles, envs with different limits choose
//! different blocks, and a tuned choice selects a block on lavapipe.

use kiln_core::codegen::strategy::{Choice, Distribution, Tuning};
use kiln_core::codegen::{compile, CodegenTarget, CompiledProgram};
use kiln_core::tensor::eval::Value;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::{
    bias_relu_matmul, check, conv, device, f16_operand_matmul, fill_matmul, input, ty,
};

/// The device's target with barriers as cheap as on a GPU and a device
/// of unknown type (not a CPU, no known fill).
fn gpu_like(device: &kiln_runtime::Device) -> CodegenTarget {
    let mut t = device_target(device);
    assert!(t.facts.barriers_serialize, "the CI device is lavapipe");
    t.facts.barriers_serialize = false;
    t.env.device.device_type = kiln_core::target::DeviceType::Unknown;
    t
}

/// `@f` as a generic contraction with the given maps of A and B over
/// `(m, n, k)`.
fn generic(a_map: &str, b_map: &str, a: &[usize], b: &[usize], c: &[usize]) -> String {
    let (a, b, c) = (ty(a), ty(b), ty(c));
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> {a_map}>, affine_map<(d0, d1, d2) -> {b_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %b : {a}, {b}) outs(%f : {c}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {c}
  return %r : {c}
}}"#
    )
}

/// The programs (`@f`), their names and input shapes.
fn cases() -> Vec<(String, String, Vec<Vec<usize>>)> {
    let mut out = Vec::new();
    for (m, k, n) in [
        (1, 1, 1),
        (1, 5, 3),
        (3, 1, 2),
        // One more than a 32 block (small outputs) and a 64 block.
        (33, 17, 33),
        (65, 20, 65),
        (64, 64, 64),
        // Unaligned everywhere, several reduction steps, a partial last.
        (67, 33, 129),
        (5, 300, 70),
        // Multiples of 4: A and B staged as vec4.
        (70, 40, 72),
        // A reduction that is a multiple of the step: the fold unrolled.
        (20, 32, 36),
    ] {
        out.push((
            format!("matmul {m}x{k}x{n}"),
            fill_matmul("matmul", &[m, k], &[k, n], &[m, n]),
            vec![vec![m, k], vec![k, n]],
        ));
    }
    for (bt, m, k, n) in [(3, 9, 5, 70), (2, 33, 8, 68)] {
        out.push((
            format!("batch_matmul {bt}x{m}x{k}x{n}"),
            fill_matmul("batch_matmul", &[bt, m, k], &[bt, k, n], &[bt, m, n]),
            vec![vec![bt, m, k], vec![bt, k, n]],
        ));
    }
    // Attention's scores as torch-mlir and kiln's ONNX importer write
    // them: heads collapsed into the batch, the product scaled and
    // expanded back to 2x3 heads, a mask added through a broadcasting map
    // (the dispatch's op reads the root through the expand_shape; its rows
    // and columns must stay the block's).
    out.push((
        "batch_matmul 6x33x8x70 read through an expand_shape".into(),
        r#"func.func @f(%a: tensor<6x33x8xf32>, %b: tensor<6x8x70xf32>, %m: tensor<33x70xf32>) -> tensor<2x3x33x70xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x33x70xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x33x70xf32>) -> tensor<6x33x70xf32>
  %s = linalg.batch_matmul ins(%a, %b : tensor<6x33x8xf32>, tensor<6x8x70xf32>) outs(%f : tensor<6x33x70xf32>) -> tensor<6x33x70xf32>
  %e2 = tensor.empty() : tensor<6x33x70xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<6x33x70xf32>) outs(%e2 : tensor<6x33x70xf32>) {
  ^bb0(%x: f32, %o: f32):
    %k = arith.constant 0.5 : f32
    %y = arith.mulf %x, %k : f32
    linalg.yield %y : f32
  } -> tensor<6x33x70xf32>
  %x = tensor.expand_shape %h [[0, 1], [2], [3]] output_shape [2, 3, 33, 70] : tensor<6x33x70xf32> into tensor<2x3x33x70xf32>
  %e3 = tensor.empty() : tensor<2x3x33x70xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %m : tensor<2x3x33x70xf32>, tensor<33x70xf32>) outs(%e3 : tensor<2x3x33x70xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<2x3x33x70xf32>
  return %r : tensor<2x3x33x70xf32>
}"#
        .into(),
        vec![vec![6, 33, 8], vec![6, 8, 70], vec![33, 70]],
    ));
    out.push((
        "matmul with transposed A".into(),
        generic("(d2, d0)", "(d2, d1)", &[21, 37], &[21, 66], &[37, 66]),
        vec![vec![21, 37], vec![21, 66]],
    ));
    out.push((
        "matmul with both transposed".into(),
        generic("(d2, d0)", "(d1, d2)", &[24, 40], &[68, 24], &[40, 68]),
        vec![vec![24, 40], vec![68, 24]],
    ));
    // B transposed in the maps, a bias init and a ReLU epilogue.
    out.push((
        "matmul with transposed B, bias init, ReLU epilogue".into(),
        bias_relu_matmul(19, 23, 45),
        vec![vec![19, 23], vec![45, 23], vec![45]],
    ));
    // Rows and columns known only at run time (static reduction).
    out.push((
        "matmul ?x29 * 29x? (dynamic rows and columns)".into(),
        r#"func.func @f(%a: tensor<?x29xf32>, %b: tensor<29x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x29xf32>
  %n = tensor.dim %b, %c1 : tensor<29x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x29xf32>, tensor<29x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"#
        .into(),
        vec![vec![70, 29], vec![29, 45]],
    ));
    // f16 operands made by fused producers (staged by evaluating them),
    // accumulated in f32.
    out.push((
        "matmul of f16 operands truncated in the dispatch, f32 accumulator".into(),
        f16_operand_matmul(37, 20, 44),
        vec![vec![37, 20], vec![20, 44]],
    ));
    out.push((
        "conv_2d_nhwc_hwcf 1x7x9x8 * 3x3x8x36".into(),
        conv(&[1, 7, 9, 8], &[3, 3, 8, 36], &[1, 5, 7, 36], 1),
        vec![vec![1, 7, 9, 8], vec![3, 3, 8, 36]],
    ));
    // 3 x 3 x 16 = 144 reduction iterations, a multiple of the step.
    out.push((
        "conv_2d_nhwc_hwcf 1x6x7x16 * 3x3x16x20".into(),
        conv(&[1, 6, 7, 16], &[3, 3, 16, 20], &[1, 4, 5, 20], 1),
        vec![vec![1, 6, 7, 16], vec![3, 3, 16, 20]],
    ));
    out.push((
        "conv_2d_nhwc_hwcf 2x11x21x3 * 3x3x3x37, strides 2".into(),
        conv(&[2, 11, 21, 3], &[3, 3, 3, 37], &[2, 5, 10, 37], 2),
        vec![vec![2, 11, 21, 3], vec![3, 3, 3, 37]],
    ));
    out
}

/// The strategies of the program's dispatches that have a reduction.
fn reducing(p: &CompiledProgram) -> Vec<(Distribution, [u32; 3], u32)> {
    p.functions[0]
        .dispatches
        .iter()
        .filter(|d| d.strategy.reduction.is_some())
        .map(|d| {
            (
                d.strategy.distribution,
                d.strategy.workgroup_size,
                d.strategy.workgroup_memory,
            )
        })
        .collect()
}

fn args_for(shapes: &[Vec<usize>]) -> Vec<Value> {
    shapes
        .iter()
        .enumerate()
        .map(|(s, sh)| input(sh, s as u64))
        .collect()
}

/// The same block with the other buffering: `double` toggled.
fn other_buffering(d: Distribution) -> Distribution {
    match d {
        Distribution::SharedTile {
            block_rows,
            block_cols,
            depth,
            rows,
            cols,
            double,
        } => Distribution::SharedTile {
            block_rows,
            block_cols,
            depth,
            rows,
            cols,
            double: !double,
        },
        other => other,
    }
}

/// Every case runs with the heuristic's block (double-buffered where its two
/// stages take at most half the workgroup memory, single-buffered
/// otherwise; lavapipe's limits) and, through a tuned choice, the same
/// block with the other buffering where that fits.
#[test]
fn shared_tiles_are_exact_at_their_edges() {
    let device = device();
    let target = gpu_like(&device);
    for (name, src, shapes) in cases() {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let strategies = reducing(&compiled);
        assert_eq!(strategies.len(), 1, "{name}: {strategies:?}");
        let (dist, wg, memory) = strategies[0];
        assert!(
            matches!(dist, Distribution::SharedTile { .. }),
            "{name}: {dist:?}"
        );
        assert_eq!(dist.shared_tile_invocations(), Some(wg[0]), "{name}");
        assert_eq!(memory, dist.shared_tile_bytes(), "{name}");
        let d = compiled.functions[0]
            .dispatches
            .iter()
            .find(|d| d.strategy.reduction.is_some())
            .unwrap();
        let other = Choice {
            workgroup: wg[0],
            distribution: other_buffering(dist),
            split_k: None,
        };
        let args = args_for(&shapes);
        check(&device, &name, compiled.clone(), &src, &args);
        // The block double-buffered where its two stages take at most half
        // the memory (the heuristic prefers it), else single-buffered, the
        // double-buffered one a candidate where it fits at all.
        let limit = target.env.limits.max_compute_shared_memory_size;
        if other.distribution.shared_tile_bytes() > limit {
            assert!(
                matches!(dist, Distribution::SharedTile { double: false, .. }),
                "{name}: {dist:?}"
            );
            assert!(!d.candidates.contains(&other), "{name}: {other:?}");
            continue;
        }
        let Distribution::SharedTile {
            block_rows,
            block_cols,
            depth,
            double,
            ..
        } = dist
        else {
            unreachable!()
        };
        assert_eq!(
            double,
            !kiln_core::codegen::strategy::double_fills_half(block_rows, block_cols, depth, limit),
            "{name}: {dist:?}"
        );
        assert!(d.candidates.contains(&other), "{name}: {other:?}");
        let mut tuning = Tuning::new();
        tuning.insert(&d.tuning_key, other, "test");
        let tuned = target.clone().with_tuning(tuning);
        let compiled = compile(&module, &tuned).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            reducing(&compiled)[0].0,
            other.distribution,
            "{name}: single-buffered"
        );
        check(
            &device,
            &format!("{name}, single-buffered"),
            compiled,
            &src,
            &args,
        );
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn lavapipe_keeps_register_tiles() {
    let device = device();
    let target = device_target(&device);
    let src = fill_matmul("matmul", &[67, 33], &[33, 129], &[67, 129]);
    let module = kiln_core::tensor::load(&src).unwrap();
    let compiled = compile(&module, &target).unwrap();
    let strategies = reducing(&compiled);
    assert!(
        matches!(strategies[..], [(Distribution::Tile { .. }, _, _)]),
        "{strategies:?}"
    );
}

#[test]
fn two_envs_with_different_limits_choose_different_blocks() {
    let device = device();
    let full = gpu_like(&device);
    let mut small = full.clone();
    small.env.limits.max_compute_workgroup_invocations = 64;
    small.env.limits.max_compute_workgroup_size = [64, 64, 64];
    small.env.limits.max_compute_shared_memory_size = 4096;
    let src = fill_matmul("matmul", &[131, 45], &[45, 140], &[131, 140]);
    let module = kiln_core::tensor::load(&src).unwrap();
    let a = compile(&module, &full).unwrap();
    let b = compile(&module, &small).unwrap();
    let (sa, sb) = (reducing(&a), reducing(&b));
    let [(da, wa, ma)] = sa[..] else {
        panic!("{sa:?}")
    };
    let [(db, wb, mb)] = sb[..] else {
        panic!("{sb:?}")
    };
    assert!(matches!(da, Distribution::SharedTile { .. }), "{da:?}");
    assert!(matches!(db, Distribution::SharedTile { .. }), "{db:?}");
    assert_ne!(da, db, "the same block for both envs");
    assert!(
        wb[0] <= 64 && mb <= 4096,
        "{wb:?} {mb}: over the small env's limits"
    );
    assert!(wa[0] > 64 && ma > mb, "{wa:?} {ma}");
    let args = [input(&[131, 45], 1), input(&[45, 140], 2)];
    check(&device, "device env", a, &src, &args);
    check(&device, "small env", b, &src, &args);
    assert_no_validation_messages(device.context());
}

/// Every workgroup-memory candidate `kiln tune` would try on lavapipe
/// (where they are not the heuristic's) is selected by a tuned choice,
/// validates, and is exact.
#[test]
fn tuned_shared_tiles_run_on_lavapipe() {
    let device = device();
    let lavapipe = device_target(&device);
    let (m, k, n) = (70, 37, 90);
    let src = fill_matmul("matmul", &[m, k], &[k, n], &[m, n]);
    let module = kiln_core::tensor::load(&src).unwrap();
    let plain = compile(&module, &lavapipe).unwrap();
    let d = &plain.functions[0].dispatches[0];
    let shared: Vec<Choice> = d
        .candidates
        .iter()
        .copied()
        .filter(|c| matches!(c.distribution, Distribution::SharedTile { .. }))
        .collect();
    assert!(shared.len() >= 3, "{shared:?}");
    for double in [false, true] {
        assert!(
            shared
                .iter()
                .any(|c| matches!(c.distribution, Distribution::SharedTile { double: d, .. } if d == double)),
            "{shared:?}"
        );
    }
    let key = d.tuning_key.clone();
    for choice in shared {
        assert_eq!(Choice::parse(&choice.to_text()), Ok(choice));
        let mut tuning = Tuning::new();
        tuning.insert(&key, choice, "test");
        let target = lavapipe.clone().with_tuning(tuning);
        let compiled = compile(&module, &target).unwrap();
        let got = reducing(&compiled);
        assert_eq!(
            got[..],
            [(
                choice.distribution,
                [choice.workgroup, 1, 1],
                choice.distribution.shared_tile_bytes()
            )],
            "{}",
            choice.to_text()
        );
        let args = [input(&[m, k], 3), input(&[k, n], 4)];
        check(&device, &choice.to_text(), compiled, &src, &args);
    }
    assert_no_validation_messages(device.context());
}
