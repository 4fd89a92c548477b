//! 64-bit word stores on lavapipe: kernels compiled for the device store
//! each vec4 group of 32-bit elements as two `i64` words (a natively
//! stored f16 group as one) through a second view of the written buffer.
//! Every program below gives the same bits with word stores as with
//! vector stores and as the reference evaluator (small-integer data:
//! every sum is exact; softmax against vector stores only), at sizes that
//! exercise the edges: one group, a group past the last whole workgroup's, 2-D,
//! i32, f16 and bf16 elementwise (bf16 groups, `i16` bits, also load as
//! one word), softmax rows held in registers and rows
//! streamed twice, register-tiled matmuls with clamped columns, a
//! convolution.

use kiln_core::codegen::{compile, CodegenTarget, CompiledProgram};
use kiln_core::tensor::eval::Value;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_texel::{agree_with_reference, binary, f16_input, i32_input};
use crate::tensor_tiles::{conv, device, fill_matmul, input};
use crate::tensor_vec4::softmax_rows;

/// Kernels of `p` that bind a word view of a buffer.
fn word_kernels(p: &CompiledProgram) -> usize {
    p.functions[0]
        .dispatches
        .iter()
        .flat_map(|d| &d.kernels)
        .filter(|k| k.kernel_text.contains("xi64>> {spirv.interface_var_abi"))
        .count()
}

/// How a case's inputs are made.
#[derive(Clone, Copy)]
enum Data {
    F32,
    I32,
    F16,
    BF16,
}

/// [`input`]'s small integers as a bf16 tensor (their f32 bits' high
/// half: exact).
pub(crate) fn bf16_input(shape: &[usize], seed: u64) -> Value {
    let Value::Tensor(t) = input(shape, seed) else {
        unreachable!("inputs are tensors")
    };
    let kiln_core::tensor::attr::Elements::F32(d) = &t.data else {
        unreachable!("inputs are f32")
    };
    Value::Tensor(std::rc::Rc::new(kiln_core::tensor::eval::Tensor {
        elem: kiln_core::tensor::types::ElemType::BF16,
        shape: t.shape.clone(),
        data: kiln_core::tensor::attr::Elements::BF16(
            d.iter().map(|&x| (x.to_bits() >> 16) as u16).collect(),
        ),
    }))
}

#[test]
fn word_stores_match_vector_stores_and_the_reference() {
    let device = device();
    let words = device_target(&device);
    assert!(
        words.facts.word_stores,
        "the test device is lavapipe, whose facts store words"
    );
    let mut vectors: CodegenTarget = words.clone();
    vectors.facts.word_stores = false;
    let mut cases: Vec<(String, String, Vec<Vec<usize>>, Data)> = vec![
        (
            "add, one group".into(),
            binary("arith.addf", &[4], "f32"),
            vec![vec![4]; 2],
            Data::F32,
        ),
        (
            "add with a tail group".into(),
            binary("arith.addf", &[4 * 1024 * 3 + 8], "f32"),
            vec![vec![4 * 1024 * 3 + 8]; 2],
            Data::F32,
        ),
        (
            "mul 2-D".into(),
            binary("arith.mulf", &[33, 44], "f32"),
            vec![vec![33, 44]; 2],
            Data::F32,
        ),
        (
            "i32 add".into(),
            binary("arith.addi", &[1024], "i32"),
            vec![vec![1024]; 2],
            Data::I32,
        ),
        (
            "f16 add".into(),
            binary("arith.addf", &[4 * 257], "f16"),
            vec![vec![4 * 257]; 2],
            Data::F16,
        ),
        (
            "f16 add with a tail group".into(),
            binary("arith.addf", &[4 * 1024 * 2 + 4], "f16"),
            vec![vec![4 * 1024 * 2 + 4]; 2],
            Data::F16,
        ),
        (
            "bf16 add".into(),
            binary("arith.addf", &[4 * 1024 * 2 + 4], "bf16"),
            vec![vec![4 * 1024 * 2 + 4]; 2],
            Data::BF16,
        ),
        (
            "bf16 mul 2-D".into(),
            binary("arith.mulf", &[33, 44], "bf16"),
            vec![vec![33, 44]; 2],
            Data::BF16,
        ),
        (
            "softmax 3x8".into(),
            softmax_rows(&[3, 8]),
            vec![vec![3, 8]],
            Data::F32,
        ),
        (
            "softmax 64x1024, rows held".into(),
            softmax_rows(&[64, 1024]),
            vec![vec![64, 1024]],
            Data::F32,
        ),
        (
            "softmax 7x4100, rows streamed".into(),
            softmax_rows(&[7, 4100]),
            vec![vec![7, 4100]],
            Data::F32,
        ),
        (
            "conv 1x10x10x8 * 3x3x8x12".into(),
            conv(&[1, 10, 10, 8], &[3, 3, 8, 12], &[1, 8, 8, 12], 1),
            vec![vec![1, 10, 10, 8], vec![3, 3, 8, 12]],
            Data::F32,
        ),
    ];
    for (m, k, n) in [(1, 4, 4), (33, 100, 36), (61, 24, 132)] {
        cases.push((
            format!("matmul {m}x{k}x{n}"),
            fill_matmul("matmul", &[m, k], &[k, n], &[m, n]),
            vec![vec![m, k], vec![k, n]],
            Data::F32,
        ));
    }
    let mut with_words = 0;
    for (name, src, shapes, data) in cases {
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let args: Vec<Value> = shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| match data {
                Data::F32 => input(sh, s as u64),
                Data::I32 => i32_input(&input(sh, s as u64)),
                Data::F16 => f16_input(sh, s as u64),
                Data::BF16 => bf16_input(sh, s as u64),
            })
            .collect();
        let a = compile(&module, &words).unwrap_or_else(|e| panic!("{name}: {e}"));
        let b = compile(&module, &vectors).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(word_kernels(&b), 0, "{name}: words without word stores");
        if word_kernels(&a) > 0 {
            with_words += 1;
        } else {
            assert!(
                name.contains(", one group") || name.contains("3x8") || name.contains("1x4x4"),
                "{name}: no kernel stores words"
            );
        }
        agree_with_reference(
            &device,
            &name,
            &module,
            (a, b),
            &args,
            "word and vector stores",
        );
    }
    assert!(with_words >= 11, "only {with_words} programs store words");
    assert_no_validation_messages(device.context());
}
