//! Dynamic sizes that decide between two kernels at run time. Softmax
//! rows of dynamic length: on lavapipe's env (barriers serialize a
//! workgroup there) two validated kernels, a row per subgroup and a row
//! per workgroup, of which a run's host values give workgroups to the one
//! its row length calls for; on an H200's env one kernel, a workgroup per
//! row. A matmul's reduction of dynamic length: on both envs a register
//! tile, and a chunked kernel for reductions past the loop budget. The
//! strategies survive a program archive.

use kiln_core::codegen::strategy::Distribution;
use kiln_core::codegen::{archive, explain, CompiledFunction, CompiledProgram};

use crate::common::{compile_first, h200_target, kernels_validate, lavapipe_target};

/// The softmax of `tensor<?x?xf32>` rows the bench times.
const SOFTMAX: &str = include_str!("../../../bench/programs/dynamic/softmax.mlir");

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
    // Each with its `_chunked` variant for rows past maxStorageBufferRange.
    assert_eq!(
        names,
        [
            "main_dispatch_0",
            "main_dispatch_0_long_rows",
            "main_dispatch_0_chunked",
            "main_dispatch_0_long_rows_chunked"
        ]
    );
    kernels_validate(&f);
    // 32 rows per workgroup while three passes of ceil(len / 8) fit
    // 65,279 iterations; a workgroup per row past that.
    assert_eq!(workgroups(&f, 1024, 4096), [32, 0, 0, 0]);
    assert_eq!(workgroups(&f, 33, 1), [2, 0, 0, 0]);
    assert_eq!(workgroups(&f, 3, 174_072), [1, 0, 0, 0]);
    assert_eq!(workgroups(&f, 3, 174_073), [0, 3, 0, 0]);
    assert_eq!(workgroups(&f, 0, 4096), [0, 0, 0, 0]);
    // Past 128 MiB (32 Mi f32): the variants.
    assert_eq!(workgroups(&f, 1025, 32 * 1024), [0, 0, 33, 0]);
    assert!(
        explain(&f).contains("else a workgroup per row"),
        "{}",
        explain(&f)
    );
    // Past the workgroup's budget too, the run is refused.
    let vals = f.evaluate_host(&|_, d| [2, 6_000_000u64].get(d).copied(), &|_| None);
    assert!(
        vals.as_ref()
            .is_err_and(|e| e.to_string().contains("loop iterations")),
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
    assert_eq!(back.functions[0].dispatches[0].kernels.len(), 4);

    // One kernel and its `_chunked` variant.
    let f = compile_first(SOFTMAX, &h200_target());
    let d = &f.dispatches[0];
    assert_eq!(d.kernels.len(), 2, "{}", d.strategy);
    assert_eq!(d.strategy.distribution, Distribution::WorkgroupPerPoint);
}

#[test]
fn a_dynamic_reduction_takes_a_tile_within_the_budget_and_chunks_past_it() {
    let src = r#"func.func @f(%a: tensor<64x?xf32>, %b: tensor<?x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x?xf32>, tensor<?x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}"#;
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(src, &target);
        let d = &f.dispatches[0];
        assert!(
            matches!(d.strategy.distribution, Distribution::Tile { .. }),
            "{}",
            d.strategy
        );
        let names: Vec<&str> = d.kernels.iter().map(|k| k.name.as_str()).collect();
        // Each with its `_chunked` variant (operands past the range).
        assert_eq!(
            names,
            [
                "f_dispatch_0",
                "f_dispatch_0_long_reduction",
                "f_dispatch_0_chunked",
                "f_dispatch_0_long_reduction_chunked"
            ]
        );
        kernels_validate(&f);
        let on = |k: u64| -> Vec<bool> {
            let vals = f
                .evaluate_host(&|arg, d| [[64, k], [k, 256]][arg].get(d).copied(), &|_| {
                    None
                })
                .expect("host values");
            d.kernels
                .iter()
                .map(|x| !x.launches(&f.host, &vals).is_empty())
                .collect()
        };
        let budget = d.strategy.loop_budget;
        // The tile within the budget, the chunked kernel past it; each
        // `_chunked` variant (kernels 2 and 3) where the larger operand,
        // k x 256 f32, is past the range (an H200's budget is).
        let range = u64::from(target.env.limits.max_storage_buffer_range);
        let want = |k: u64| -> Vec<bool> {
            let at = usize::from(k > budget) + 2 * usize::from(k * 256 * 4 > range);
            (0..4).map(|i| i == at).collect()
        };
        for k in [1024, budget, budget + 1] {
            assert_eq!(on(k), want(k), "k = {k}");
        }
        // The chunked kernel: a dispatch per budget's worth of iterations.
        let vals = f
            .evaluate_host(
                &|arg, x| [[64, 3 * budget], [3 * budget, 256]][arg].get(x).copied(),
                &|_| None,
            )
            .expect("host values");
        // Its `_chunked` variant where an operand is past the range
        // (lavapipe's 128 MiB: 3 * budget x 256 f32 is).
        let long = if 3 * budget * 256 * 4 > range { 3 } else { 1 };
        let launched: Vec<usize> = d
            .kernels
            .iter()
            .map(|k| k.launches(&f.host, &vals).len())
            .collect();
        let mut want = vec![0; 4];
        want[long] = 3;
        assert_eq!(launched, want);
        let program = CompiledProgram {
            target,
            functions: vec![f],
        };
        let back = archive::decode(&archive::encode(&program).unwrap()).unwrap();
        assert_eq!(back.functions[0].dispatches[0].kernels.len(), 4);
    }
}

/// The dynamic-shape programs in `bench/programs/dynamic/` compile for
/// lavapipe's env and an H200's, every kernel passing spirv-val.
#[test]
fn the_dynamic_bench_programs_compile_to_valid_kernels() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/programs/dynamic");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("bench/programs/dynamic") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("mlir") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for target in [lavapipe_target(), h200_target()] {
            let f = compile_first(&text, &target);
            assert!(!f.dispatches.is_empty(), "{}", path.display());
            kernels_validate(&f);
        }
        seen += 1;
    }
    assert!(seen >= 5, "{seen} programs in {}", dir.display());
}
