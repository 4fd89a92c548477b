//! Split softmax rows on a GPU's env: one row of 128,256 (vec4) and three
//! rows of 50,001 (element by element) on an H200's env split into
//! several workgroups per row — two kernels, the second reading the
//! first's partials — whose kernels pass spirv-val, and the strategy
//! comes back equal from a program archive; lavapipe's env keeps one
//! kernel.

use kiln_core::codegen::strategy::ReductionStrategy;
use kiln_core::codegen::{archive, CompiledProgram};

use crate::common::{compile_first, h200_target, kernels_validate, lavapipe_target};

fn softmax(rows: usize, len: usize) -> String {
    let t = format!("tensor<{rows}x{len}xf32>");
    format!(
        r#"func.func @f(%x: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %s = linalg.softmax dimension(1) ins(%x : {t}) outs(%e : {t}) -> {t}
  return %s : {t}
}}"#
    )
}

#[test]
fn few_long_softmax_rows_split_into_two_validated_kernels_on_a_gpu() {
    for (rows, len) in [(1, 128_256), (3, 50_001)] {
        let src = softmax(rows, len);
        let h200 = h200_target();
        let f = compile_first(&src, &h200);
        let d = &f.dispatches[0];
        let Some(ReductionStrategy::SplitRows { slices, .. }) = d.strategy.reduction else {
            panic!("{rows}x{len}: {}", d.strategy);
        };
        assert!(slices >= 2, "{}", d.strategy);
        assert_eq!(d.kernels.len(), 2, "{}", d.strategy);
        assert_eq!(d.kernels[1].name, format!("{}_combine", d.kernels[0].name));
        kernels_validate(&f);
        let program = CompiledProgram {
            target: h200.clone(),
            functions: vec![f],
        };
        let back = archive::decode(&archive::encode(&program).unwrap()).unwrap();
        assert_eq!(
            back.functions[0].dispatches[0].strategy,
            program.functions[0].dispatches[0].strategy
        );
        let f = compile_first(&src, &lavapipe_target());
        assert_eq!(
            f.dispatches[0].kernels.len(),
            1,
            "{}",
            f.dispatches[0].strategy
        );
    }
}
