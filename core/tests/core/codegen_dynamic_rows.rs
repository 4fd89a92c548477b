//! Softmax rows of dynamic length: on lavapipe's env (barriers serialize
//! a workgroup there) two validated kernels, a row per subgroup and a row
//! per workgroup, of which a run's host values give workgroups to the one
//! its row length calls for; on an H200's env one kernel, a workgroup per
//! row. The strategy survives a program archive.

use kiln_core::codegen::strategy::Distribution;
use kiln_core::codegen::{archive, explain, CompiledFunction, CompiledProgram};

use crate::common::{compile_first, h200_target, kernels_validate, lavapipe_target};

const SOFTMAX: &str = r#"func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"#;

/// The workgroups each kernel of `f`'s only dispatch gets for an input
/// of `rows` x `len`.
fn workgroups(f: &CompiledFunction, rows: u64, len: u64) -> Vec<u64> {
    let vals = f
        .evaluate_host(&|_, d| [rows, len].get(d).copied(), &|_| None)
        .expect("host values");
    f.dispatches[0]
        .kernels
        .iter()
        .map(|k| {
            k.launches(&f.host, &vals)
                .iter()
                .map(|l| l.workgroups)
                .sum()
        })
        .collect()
}

#[test]
fn dynamic_rows_pick_a_subgroup_or_a_workgroup_per_row_at_run_time() {
    let f = compile_first(SOFTMAX, &lavapipe_target());
    let d = &f.dispatches[0];
    assert_eq!(
        d.strategy.distribution,
        Distribution::RowSlices { slice: 8 },
        "{}",
        d.strategy
    );
    assert_eq!(d.strategy.workgroup_size, [256, 1, 1]);
    let names: Vec<&str> = d.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["f_dispatch_0", "f_dispatch_0_long_rows"]);
    kernels_validate(&f);
    // 32 rows per workgroup while three passes of ceil(len / 8) fit
    // 65,279 iterations; a workgroup per row past that.
    assert_eq!(workgroups(&f, 1024, 4096), [32, 0]);
    assert_eq!(workgroups(&f, 33, 1), [2, 0]);
    assert_eq!(workgroups(&f, 3, 174_072), [1, 0]);
    assert_eq!(workgroups(&f, 3, 174_073), [0, 3]);
    assert_eq!(workgroups(&f, 0, 4096), [0, 0]);
    assert!(
        explain(&f).contains("else a workgroup per row"),
        "{}",
        explain(&f)
    );
    // Past the workgroup's budget too, the run is refused.
    let vals = f.evaluate_host(&|_, d| [2, 6_000_000u64].get(d).copied(), &|_| None);
    assert!(
        vals.as_ref().is_err_and(|e| e.contains("loop iterations")),
        "{vals:?}"
    );
    let program = CompiledProgram {
        target: lavapipe_target(),
        functions: vec![f],
    };
    let back = archive::decode(&archive::encode(&program).unwrap()).unwrap();
    assert_eq!(
        back.functions[0].dispatches[0].strategy,
        program.functions[0].dispatches[0].strategy
    );
    assert_eq!(back.functions[0].dispatches[0].kernels.len(), 2);

    let f = compile_first(SOFTMAX, &h200_target());
    let d = &f.dispatches[0];
    assert_eq!(d.kernels.len(), 1, "{}", d.strategy);
    assert_eq!(d.strategy.distribution, Distribution::WorkgroupPerPoint);
}
