//! A root whose result an elementwise epilogue reads more than once, each
//! read at the root's own point, is that epilogue's prologue: one
//! dispatch (PP-OCR's convolution + batch norm + hard-swish, which reads
//! the batch norm twice, was two dispatches, the convolution written to
//! memory and read back). Two reads at different points (a matmul added
//! to its transpose), or reads through a permutation of the root's loops
//! (an NHWC depthwise convolution transposed to NCHW), keep the root a
//! dispatch of its own. The values are
//! checked on lavapipe against numpy by the corpus file
//! `gpu-tests/tests/tensor/multi_read_epilogue.mlir`; here the dispatch
//! count per function and the kernels' validity for lavapipe's env.

use kiln_core::codegen::compile_function;

use crate::common::{kernels_validate, lavapipe_target, prepared_tensor_module};

#[test]
fn roots_read_twice_at_their_own_point_join_their_epilogue() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gpu-tests/tests/tensor/multi_read_epilogue.mlir");
    let prepared = prepared_tensor_module(&path);
    let target = lavapipe_target();
    let expected = [
        ("conv_nchw_batch_norm_hardswish_1x3x10x12_8x3x3x3", 1),
        (
            "depthwise_nchw_batch_norm_hardswish_1x5x9x11_3x3_stride_2",
            1,
        ),
        // Read through a transpose: the dispatch's tiles would be the
        // convolution's in another order, so it is stored.
        (
            "depthwise_nhwc_transposed_hardswish_1x9x11x6_3x3_stride_2",
            2,
        ),
        ("matmul_silu_two_ops_13x21x17", 1),
        ("row_sum_squared_two_reads_7x33", 1),
        // Read at (i, j) and at (j, i): the matmul is stored.
        ("matmul_plus_its_transpose_9x14x9", 2),
    ];
    let mut seen = 0;
    for &f in prepared.funcs() {
        let func = prepared.func(f);
        if func.body.is_none() {
            continue;
        }
        let name = func.name.clone();
        let Some(&(_, want)) = expected.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        let cf = compile_function(&prepared, f, &target).expect("compiles");
        assert_eq!(cf.dispatches.len(), want, "{name}: dispatches");
        kernels_validate(&cf);
        seen += 1;
    }
    assert_eq!(seen, expected.len(), "functions of the corpus file");
}
