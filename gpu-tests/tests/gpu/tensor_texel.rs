//! Texel reads on lavapipe: kernels compiled for the device read their
//! read-only 32-bit vec4 operands through uniform texel buffers (RGBA32
//! views of the tensors' buffers). Every program below gives the same
//! bits with texel reads as with storage-buffer reads and as the
//! reference evaluator (small-integer data: every sum is exact), at sizes
//! that exercise the edges: one texel, a tail beyond the last whole
//! group, unaligned matmuls (texels only where a row is whole texels), a
//! softmax and a layer-norm-like row reduction, a convolution, i32, an
//! operand read both as texels and element by element; and f16 matmuls,
//! whose natively stored operands are read through RGBA16F views.

use kiln_core::codegen::{compile, CodegenTarget, CompiledProgram};
use kiln_core::tensor::eval::{self, Value};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{Device, Program};

use crate::tensor_tiles::{conv, device, fill_matmul, input, ty};
use crate::tensor_vec4::softmax_rows;

fn texel_kernels(p: &CompiledProgram) -> usize {
    p.functions[0]
        .dispatches
        .iter()
        .flat_map(|d| &d.kernels)
        .filter(|k| {
            k.kernel_text
                .contains("#spirv.storage_class<UniformConstant>")
        })
        .count()
}

pub(crate) fn binary(op: &str, shape: &[usize], elem: &str) -> String {
    let t = ty(shape).replace("f32", elem);
    format!(
        r#"func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %c = {op} %a, %b : {t}
  %d = {op} %c, %a : {t}
  return %d : {t}
}}"#
    )
}

/// Row sums of `rows x cols` `%a`, which `prelude` defines from the
/// function's argument `arg`.
fn row_sums_of(arg: &str, prelude: &str, rows: usize, cols: usize) -> String {
    let (t, r) = (ty(&[rows, cols]), ty(&[rows]));
    format!(
        r#"func.func @f({arg}) -> {r} {{
{prelude}  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {r}
  %i = linalg.fill ins(%z : f32) outs(%e : {r}) -> {r}
  %s = linalg.reduce ins(%a : {t}) outs(%i : {r}) dimensions = [1]
    (%x: f32, %acc: f32) {{
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }}
  return %s : {r}
}}"#
    )
}

fn row_sums(rows: usize, cols: usize) -> String {
    row_sums_of(&format!("%a: {}", ty(&[rows, cols])), "", rows, cols)
}

/// Row sums of a 1-D tensor reshaped to `rows x cols`: the rows are read
/// as vectors of the 1-D buffer (a reshape keeps the linear index).
fn reshaped_row_sums(rows: usize, cols: usize) -> String {
    let n = rows * cols;
    let prelude = format!(
        "  %a = tensor.expand_shape %v [[0, 1]] output_shape [{rows}, {cols}] : tensor<{n}xf32> into {}\n",
        ty(&[rows, cols])
    );
    row_sums_of(&format!("%v: tensor<{n}xf32>"), &prelude, rows, cols)
}

/// Attention heads back into rows: `collapse_shape(transpose(o))` times
/// `w`; the matmul's A rows are lanes of `o`'s own vectors.
fn heads_matmul(heads: usize, rows: usize, dim: usize, n: usize) -> String {
    let (o, ot, a, w, c) = (
        ty(&[heads, rows, dim]),
        ty(&[rows, heads, dim]),
        ty(&[rows, heads * dim]),
        ty(&[heads * dim, n]),
        ty(&[rows, n]),
    );
    format!(
        r#"func.func @f(%o: {o}, %w: {w}) -> {c} {{
  %te = tensor.empty() : {ot}
  %t = linalg.transpose ins(%o : {o}) outs(%te : {ot}) permutation = [1, 0, 2]
  %a = tensor.collapse_shape %t [[0], [1, 2]] : {ot} into {a}
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %c0 = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %w : {a}, {w}) outs(%c0 : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

pub(crate) fn i32_input(v: &Value) -> Value {
    let Value::Tensor(t) = v else {
        unreachable!("inputs are tensors")
    };
    let kiln_core::tensor::attr::Elements::F32(d) = &t.data else {
        unreachable!("inputs are f32")
    };
    Value::Tensor(std::rc::Rc::new(kiln_core::tensor::eval::Tensor {
        elem: kiln_core::tensor::types::ElemType::Int(32),
        shape: t.shape.clone(),
        data: kiln_core::tensor::attr::Elements::I32(
            d.iter().map(|&x| x as i32 * 1000 + 7).collect(),
        ),
    }))
}

pub(crate) fn run(
    device: &kiln_runtime::Device,
    name: &str,
    p: CompiledProgram,
    args: &[Value],
) -> Vec<Value> {
    Program::load(device, p)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .run("f", args)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs program `f` of `module` compiled two ways (`a`, `b`) on `args`:
/// both must give the same values (`differ` names the two ways in the
/// message) and, but for softmaxes (rounded differently), the reference
/// evaluator's.
pub(crate) fn agree_with_reference(
    device: &kiln_runtime::Device,
    name: &str,
    module: &kiln_core::tensor::TensorModule,
    (a, b): (CompiledProgram, CompiledProgram),
    args: &[Value],
    differ: &str,
) {
    let got_a = run(device, name, a, args);
    let got_b = run(device, name, b, args);
    assert_eq!(got_a, got_b, "{name}: {differ} differ");
    if !name.starts_with("softmax") {
        let reference = eval::run(module, "f", args).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got_a, reference, "{name}: differs from the reference");
    }
}

/// The device's target (lavapipe: texel reads on) and the same target
/// with storage-buffer reads.
fn texel_and_storage_targets(device: &Device) -> (CodegenTarget, CodegenTarget) {
    let texel = device_target(device);
    assert!(
        texel.facts.texel_reads.is_some(),
        "the test device is lavapipe, whose facts read texels"
    );
    let mut ssbo = texel.clone();
    ssbo.facts.texel_reads = None;
    (texel, ssbo)
}

#[test]
fn texel_reads_match_storage_buffer_reads_and_the_reference() {
    let device = device();
    let (texel, ssbo) = texel_and_storage_targets(&device);
    let mut cases: Vec<(String, String, Vec<Vec<usize>>, bool)> = vec![
        (
            "add, one texel".into(),
            binary("arith.addf", &[4], "f32"),
            vec![vec![4]; 2],
            false,
        ),
        (
            "add with a tail group".into(),
            binary("arith.addf", &[4 * 1024 * 3 + 8], "f32"),
            vec![vec![4 * 1024 * 3 + 8]; 2],
            false,
        ),
        (
            "add 2-D".into(),
            binary("arith.mulf", &[33, 44], "f32"),
            vec![vec![33, 44]; 2],
            false,
        ),
        (
            "i32 add".into(),
            binary("arith.addi", &[1024], "i32"),
            vec![vec![1024]; 2],
            true,
        ),
        (
            "softmax 3x8".into(),
            softmax_rows(&[3, 8]),
            vec![vec![3, 8]],
            false,
        ),
        (
            "softmax 7x4100".into(),
            softmax_rows(&[7, 4100]),
            vec![vec![7, 4100]],
            false,
        ),
        (
            "row sums 70x1024".into(),
            row_sums(70, 1024),
            vec![vec![70, 1024]],
            false,
        ),
        (
            "matmul of heads collapsed into rows".into(),
            heads_matmul(4, 40, 16, 64),
            vec![vec![4, 40, 16], vec![64, 64]],
            false,
        ),
        (
            "row sums of a reshaped vector".into(),
            reshaped_row_sums(65, 1028),
            vec![vec![65 * 1028]],
            false,
        ),
    ];
    for (m, k, n) in [
        (1, 4, 4),
        (16, 64, 64),
        (33, 100, 36),
        (5, 7, 12),
        (64, 256, 128),
    ] {
        cases.push((
            format!("matmul {m}x{k}x{n}"),
            fill_matmul("matmul", &[m, k], &[k, n], &[m, n]),
            vec![vec![m, k], vec![k, n]],
            false,
        ));
    }
    cases.push((
        "conv 1x10x10x8 * 3x3x8x12".into(),
        conv(&[1, 10, 10, 8], &[3, 3, 8, 12], &[1, 8, 8, 12], 1),
        vec![vec![1, 10, 10, 8], vec![3, 3, 8, 12]],
        false,
    ));
    let mut with_texels = 0;
    for (name, src, shapes, ints) in cases {
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let args: Vec<Value> = shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| {
                let x = input(sh, s as u64);
                if ints {
                    i32_input(&x)
                } else {
                    x
                }
            })
            .collect();
        let a = compile(&module, &texel).unwrap_or_else(|e| panic!("{name}: {e}"));
        let b = compile(&module, &ssbo).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(texel_kernels(&b), 0, "{name}: texels without texel reads");
        if name.starts_with("matmul of heads") {
            // Both operands, A through the transpose and the collapse.
            let bound = a.functions[0]
                .dispatches
                .iter()
                .flat_map(|d| &d.kernels)
                .map(|k| {
                    k.kernel_text
                        .matches("UniformConstant>> {spirv.interface_var_abi")
                        .count()
                })
                .max();
            assert_eq!(bound, Some(2), "{name}: A is not read as texels");
        }
        if texel_kernels(&a) > 0 {
            with_texels += 1;
        } else {
            assert!(!name.contains("reshaped"), "{name}: no texel reads");
        }
        let both = (a, b);
        agree_with_reference(
            &device,
            &name,
            &module,
            both,
            &args,
            "texel and storage-buffer reads",
        );
    }
    assert!(with_texels >= 10, "only {with_texels} programs read texels");
    assert_no_validation_messages(device.context());
}

/// The f16 bits of integer `v` (|v| < 2048, exact in f16).
fn f16_bits_of_int(v: i32) -> u16 {
    if v == 0 {
        return 0;
    }
    let sign = if v < 0 { 0x8000u16 } else { 0 };
    let m = v.unsigned_abs();
    let e = 31 - m.leading_zeros();
    let mantissa = ((m << (10 - e)) & 0x3ff) as u16;
    sign | (((e + 15) as u16) << 10) | mantissa
}

/// [`input`]'s small integers as an f16 tensor.
pub(crate) fn f16_input(shape: &[usize], seed: u64) -> Value {
    let Value::Tensor(t) = input(shape, seed) else {
        unreachable!("inputs are tensors")
    };
    let kiln_core::tensor::attr::Elements::F32(d) = &t.data else {
        unreachable!("inputs are f32")
    };
    Value::Tensor(std::rc::Rc::new(kiln_core::tensor::eval::Tensor {
        elem: kiln_core::tensor::types::ElemType::F16,
        shape: t.shape.clone(),
        data: kiln_core::tensor::attr::Elements::F16(
            d.iter().map(|&x| f16_bits_of_int(x as i32)).collect(),
        ),
    }))
}

/// `m x k` times `k x n` f16 tensors accumulated into `acc` from a zero
/// fill.
fn f16_matmul(m: usize, k: usize, n: usize, acc: &str) -> String {
    let (a, b, c) = (
        format!("tensor<{m}x{k}xf16>"),
        format!("tensor<{k}x{n}xf16>"),
        format!("tensor<{m}x{n}x{acc}>"),
    );
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %z = arith.constant 0.0 : {acc}
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : {acc}) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

/// f16 matmuls (f16 stored natively on lavapipe) read their operands
/// through RGBA16F views, fetched as f32 and converted to f16: the same
/// bits as storage-buffer reads and the reference evaluator, accumulated
/// in f32 and in f16 (small integers, every partial sum exact in f16), at
/// aligned, unaligned and wide-tile sizes.
#[test]
fn f16_texel_reads_match_storage_buffer_reads_and_the_reference() {
    let device = device();
    let (texel, ssbo) = texel_and_storage_targets(&device);
    // An f16 operand bound as a texel buffer (its kernel argument).
    let f16_texel =
        "vector<4xf16>, #spirv.storage_class<UniformConstant>> {spirv.interface_var_abi";
    let mut with_texels = 0;
    for acc in ["f32", "f16"] {
        for (m, k, n) in [
            (1, 4, 4),
            (5, 7, 12),
            (33, 100, 36),
            (16, 64, 64),
            (64, 96, 128),
            (256, 80, 128),
        ] {
            let name = format!("f16 matmul {m}x{k}x{n} into {acc}");
            let src = f16_matmul(m, k, n, acc);
            let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
            let args = [f16_input(&[m, k], 0), f16_input(&[k, n], 1)];
            let a = compile(&module, &texel).unwrap_or_else(|e| panic!("{name}: {e}"));
            let b = compile(&module, &ssbo).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(texel_kernels(&b), 0, "{name}: texels without texel reads");
            let f16_texels = a.functions[0]
                .dispatches
                .iter()
                .flat_map(|d| &d.kernels)
                .map(|k| k.kernel_text.matches(f16_texel).count())
                .max()
                .unwrap_or(0);
            if k % 4 == 0 && n % 4 == 0 && m > 1 {
                assert_eq!(f16_texels, 2, "{name}: both operands should be texels");
            }
            if f16_texels > 0 {
                with_texels += 1;
            }
            let got_texel = run(&device, &name, a, &args);
            let got_ssbo = run(&device, &name, b, &args);
            assert_eq!(
                got_texel, got_ssbo,
                "{name}: texel and storage-buffer reads differ"
            );
            let reference =
                eval::run(&module, "f", &args).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got_texel, reference, "{name}: differs from the reference");
        }
    }
    assert!(with_texels >= 8, "only {with_texels} programs read texels");
    assert_no_validation_messages(device.context());
}
