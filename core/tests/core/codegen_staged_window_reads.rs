//! A pad or transpose of data computed on the device that a convolution
//! or pooling reads is written once by a dispatch of its own, not
//! recomputed at every read of the window (PP-OCR's depthwise
//! convolutions read their NCHW input through a pad and a transpose to
//! NHWC: recomputed there, the pad is a select and the transpose strided
//! scalar loads at each of the 25 reads of a 5x5 window; on lavapipe the
//! staged form of that function took 1.1 ms against 2.2 ms, and ocr_cls
//! 20-35% less CPU per call). The same reads of an argument or constant
//! (weights) stay recomputed: staging them would copy them on every call.
//! A matmul reading a transpose keeps it recomputed. Values: the corpus
//! runs these patterns on every engine; here the dispatches and their ops.

use crate::common::{compile_first, kernels_validate, lavapipe_target};

const COMPUTED_INPUT: &str = r#"
func.func @f(%x: tensor<1x8x6x10xf32>, %w: tensor<3x3x8xf32>) -> tensor<1x4x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x10xf32>
  %n = linalg.negf ins(%x : tensor<1x8x6x10xf32>) outs(%e : tensor<1x8x6x10xf32>) -> tensor<1x8x6x10xf32>
  %p = tensor.pad %n low[0, 0, 0, 0] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x8x6x10xf32> to tensor<1x8x6x10xf32>
  %e1 = tensor.empty() : tensor<1x6x10x8xf32>
  %t = linalg.transpose ins(%p : tensor<1x8x6x10xf32>) outs(%e1 : tensor<1x6x10x8xf32>) permutation = [0, 2, 3, 1]
  %e2 = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x6x10x8xf32>, tensor<3x3x8xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}
"#;

#[test]
fn a_transpose_of_computed_data_read_by_a_convolution_is_its_own_dispatch() {
    let cf = compile_first(COMPUTED_INPUT, &lavapipe_target());
    let ops: Vec<&str> = cf.dispatches.iter().map(|d| d.op.as_str()).collect();
    assert_eq!(
        ops,
        ["linalg.transpose", "linalg.depthwise_conv_2d_nhwc_hwc"],
        "the negation and the pad are computed inside the transpose's dispatch"
    );
    kernels_validate(&cf);
}

#[test]
fn a_transpose_of_an_argument_read_by_a_convolution_stays_recomputed() {
    // The same program without the negation: the pad and transpose read
    // the argument itself.
    let text = COMPUTED_INPUT
        .replace(
            "  %n = linalg.negf ins(%x : tensor<1x8x6x10xf32>) outs(%e : tensor<1x8x6x10xf32>) -> tensor<1x8x6x10xf32>\n",
            "",
        )
        .replace("tensor.pad %n", "tensor.pad %x");
    let cf = compile_first(&text, &lavapipe_target());
    let ops: Vec<&str> = cf.dispatches.iter().map(|d| d.op.as_str()).collect();
    assert_eq!(ops, ["linalg.depthwise_conv_2d_nhwc_hwc"]);
    kernels_validate(&cf);
}

#[test]
fn a_transpose_of_computed_data_read_by_a_matmul_stays_recomputed() {
    let text = r#"
func.func @f(%x: tensor<16x8xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %n = linalg.negf ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e1 = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%n : tensor<16x8xf32>) outs(%e1 : tensor<8x16xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%t, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m : tensor<8x4xf32>
}
"#;
    let cf = compile_first(text, &lavapipe_target());
    let ops: Vec<&str> = cf.dispatches.iter().map(|d| d.op.as_str()).collect();
    assert!(!ops.contains(&"linalg.transpose"), "{ops:?}");
    kernels_validate(&cf);
}
