//! The tensor builder builds the same IR the parser reads from text.

use kiln_core::tensor::builder::FuncBuilder;
use kiln_core::tensor::eval::{self, Value};
use kiln_core::tensor::ops::{ArithOp, ContractionKind, LinalgKind, MathOp};
use kiln_core::tensor::{self, AffineMap, ElemType, IteratorType, TensorModule};

const TEXT: &str = "func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>) {
  %0 = arith.constant 0.000000e+00 : f32
  %1 = tensor.empty() : tensor<2x2xf32>
  %2 = linalg.fill ins(%0 : f32) outs(%1 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x2xf32>) outs(%2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %4 = math.exp %3 : tensor<2x2xf32>
  %5 = tensor.empty() : tensor<2xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]} ins(%4 : tensor<2x2xf32>) outs(%5 : tensor<2xf32>) {
  ^bb0(%arg2: f32, %arg3: f32):
    %7 = arith.addf %arg2, %arg3 : f32
    linalg.yield %7 : f32
  } -> tensor<2xf32>
  return %3, %6 : tensor<2x2xf32>, tensor<2xf32>
}
";

#[test]
fn builds_what_the_parser_reads() {
    let mut m = TensorModule::new();
    let a = m.types.static_tensor(&[2, 3], ElemType::F32);
    let b = m.types.static_tensor(&[3, 2], ElemType::F32);
    let c = m.types.static_tensor(&[2, 2], ElemType::F32);
    let v = m.types.static_tensor(&[2], ElemType::F32);
    let mut f = FuncBuilder::new(&mut m, "f", &[a, b], &[c, v]);
    let (x, y) = (f.arg(0), f.arg(1));
    let zero = f.constant_float(0.0, ElemType::F32);
    let init = f.empty(&[2, 2], ElemType::F32);
    let acc = f.fill(zero, init);
    let mm = f
        .linalg(
            LinalgKind::Contraction(ContractionKind::Matmul),
            &[x, y],
            &[acc],
        )
        .unwrap()[0];
    let e = f.math(MathOp::Exp, &[mm]);
    let out = f.empty(&[2], ElemType::F32);
    let sum = f.generic(
        vec![AffineMap::identity(2), AffineMap::select(2, &[0])],
        vec![IteratorType::Parallel, IteratorType::Reduction],
        &[e],
        &[out],
        |body, args| vec![body.arith(ArithOp::AddF, vec![args[0], args[1]], ElemType::F32)],
    )[0];
    f.ret(&[mm, sum]);
    f.finish();
    tensor::verify(&m).unwrap();
    assert_eq!(tensor::print(&m), TEXT);
    assert_eq!(tensor::print(&tensor::load(TEXT).unwrap()), TEXT);
    // And it runs: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]] = [[4,5],[10,11]].
    let t = |shape: Vec<usize>, v: Vec<f32>| {
        Value::Tensor(
            eval::Tensor {
                elem: ElemType::F32,
                shape,
                data: tensor::Elements::F32(v),
            }
            .into(),
        )
    };
    let r = eval::run(
        &m,
        "f",
        &[
            t(vec![2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
            t(vec![3, 2], vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0]),
        ],
    )
    .unwrap();
    assert_eq!(
        r[0].tensor().unwrap().data,
        tensor::Elements::F32(vec![4.0, 5.0, 10.0, 11.0])
    );
    let sums = &r[1].tensor().unwrap().data;
    let want = [4f32.exp() + 5f32.exp(), 10f32.exp() + 11f32.exp()];
    let tensor::Elements::F32(got) = sums else {
        panic!()
    };
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= w * 1e-6, "{g} vs {w}");
    }
}
