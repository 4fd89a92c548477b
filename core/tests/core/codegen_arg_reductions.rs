//! Arg-reductions (a value and its index folded together, as an argmax
//! is written) are combinable: a long row takes a cooperative strategy on
//! an H200's env and lavapipe's, whose kernels pass spirv-val (the index
//! combined by `OpGroupNonUniformSMin` on the lanes holding the maximum);
//! an `oge` comparison (the last index of the maximum) is not recognised
//! and stays serial. torch-mlir's integer form (`maxsi(x, v)` yielding
//! the value beside `select(x > v, k, i)`) is split the same way; its
//! float form (`maximumf`, NaN-propagating) and an extremum that does
//! not match the comparison stay serial.

use kiln_core::codegen::strategy::{Distribution, ReductionStrategy};

use crate::common::{compile_first, h200_target, kernels_validate, lavapipe_target};

const ARGMAX: &str = r#"func.func @f(%x: tensor<1x100000xf32>) -> (tensor<1xf32>, tensor<1xi64>) {
  %low = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<1xf32>
  %e1 = tensor.empty() : tensor<1xi64>
  %v0 = linalg.fill ins(%low : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
  %i0 = linalg.fill ins(%z : i64) outs(%e1 : tensor<1xi64>) -> tensor<1xi64>
  %res:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x100000xf32>) outs(%v0, %i0 : tensor<1xf32>, tensor<1xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %p = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %p, %a, %m : f32
    %ni = arith.select %p, %ki, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<1xf32>, tensor<1xi64>)
  return %res#0, %res#1 : tensor<1xf32>, tensor<1xi64>
}
"#;

#[test]
fn a_long_argmax_row_is_split_and_validates() {
    for target in [h200_target(), lavapipe_target()] {
        let f = compile_first(ARGMAX, &target);
        kernels_validate(&f);
        let s = &f.dispatches[0].strategy;
        assert_eq!(s.distribution, Distribution::WorkgroupPerPoint, "{s}");
        assert!(
            matches!(s.reduction, Some(ReductionStrategy::Cooperative { .. })),
            "{s}"
        );
    }
}

#[test]
fn a_last_index_argmax_stays_serial() {
    let src = ARGMAX.replace("arith.cmpf ogt", "arith.cmpf oge");
    let f = compile_first(&src, &h200_target());
    kernels_validate(&f);
    let s = &f.dispatches[0].strategy;
    assert!(
        matches!(s.reduction, Some(ReductionStrategy::Serial { .. })),
        "{s}"
    );
}

/// `ARGMAX` over i32 values written as torch-mlir writes it: the value
/// yielded by `value_op` (operands in `order`), the index selected by the
/// `pred` comparison.
fn torch_argmax(value_op: &str, order: &str, pred: &str) -> String {
    ARGMAX
        .replace(
            "arith.cmpf ogt, %a, %m : f32",
            &format!("arith.cmpi {pred}, %a, %m : f32"),
        )
        .replace(
            "arith.select %p, %a, %m : f32",
            &format!("arith.{value_op} {order} : f32"),
        )
        .replace("0xFF800000", "-2147483648")
        .replace("f32", "i32")
}

#[test]
fn torch_mlirs_integer_argmax_is_split_and_its_float_form_is_not() {
    for order in ["%a, %m", "%m, %a"] {
        let src = torch_argmax("maxsi", order, "sgt");
        assert!(src.contains("arith.maxsi"), "{src}");
        let f = compile_first(&src, &h200_target());
        kernels_validate(&f);
        let s = &f.dispatches[0].strategy;
        assert!(
            matches!(s.reduction, Some(ReductionStrategy::Cooperative { .. })),
            "{order}: {s}"
        );
    }
    let argmin = torch_argmax("minsi", "%a, %m", "slt");
    let f = compile_first(&argmin, &h200_target());
    assert!(matches!(
        f.dispatches[0].strategy.reduction,
        Some(ReductionStrategy::Cooperative { .. })
    ));
    // The extremum disagrees with the comparison: serial.
    for (op, pred) in [("maxsi", "slt"), ("maxui", "sgt")] {
        let f = compile_first(&torch_argmax(op, "%a, %m", pred), &h200_target());
        let s = &f.dispatches[0].strategy;
        assert!(
            matches!(s.reduction, Some(ReductionStrategy::Serial { .. })),
            "{op} with {pred}: {s}"
        );
    }
    let float = ARGMAX.replace(
        "arith.select %p, %a, %m : f32",
        "arith.maximumf %a, %m : f32",
    );
    let f = compile_first(&float, &h200_target());
    let s = &f.dispatches[0].strategy;
    assert!(
        matches!(s.reduction, Some(ReductionStrategy::Serial { .. })),
        "{s}"
    );
}
