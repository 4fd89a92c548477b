//! The tensor compiler for a discrete GPU's target env (an NVIDIA H200's,
//! `core/tests/lower/envs/nvidia-h200.env`, with its driver's facts):
//! every function of the tensor corpus and the examples' models that
//! compiles for lavapipe compiles for it too, every kernel passes
//! spirv-val, and dispatches are sized to fill the device — the
//! heuristics lavapipe measured (16x4 register tiles, an invocation per
//! row) left 132 multiprocessors nearly idle on the transformer block.

use std::path::{Path, PathBuf};

use kiln_core::codegen::host::Size;
use kiln_core::codegen::strategy::{Distribution, ReductionStrategy};
use kiln_core::codegen::{compile_function, CodegenTarget, CompiledFunction};

use crate::common::{
    compile_first, h200_target as h200, lavapipe_target as lavapipe, mlir_files,
    prepared_tensor_module,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every function of `path` with a body: its name and what compiling it
/// for `target` gave.
fn compile_file(
    path: &Path,
    target: &CodegenTarget,
) -> Vec<(String, Result<CompiledFunction, String>)> {
    let prepared = prepared_tensor_module(path);
    prepared
        .funcs()
        .iter()
        .filter(|&&f| prepared.func(f).body.is_some())
        .map(|&f| {
            (
                prepared.func(f).name.clone(),
                compile_function(&prepared, f, target).map_err(|e| e.to_string()),
            )
        })
        .collect()
}

#[test]
fn the_corpus_compiles_and_validates_for_a_discrete_gpu() {
    let mut files = mlir_files(&root().join("gpu-tests/tests/tensor"));
    files.extend(mlir_files(&root().join("examples/models")));
    assert!(files.len() >= 50, "corpus files are missing");
    let (gpu, cpu) = (h200(), lavapipe());
    let mut kernels = 0;
    for path in &files {
        let on_cpu = compile_file(path, &cpu);
        let on_gpu = compile_file(path, &gpu);
        assert_eq!(on_cpu.len(), on_gpu.len());
        for ((name, c), (_, g)) in on_cpu.iter().zip(&on_gpu) {
            let (Ok(_), g) = (c, g) else { continue };
            let g = g.as_ref().unwrap_or_else(|e| {
                panic!(
                    "{} @{name}: compiles for lavapipe, not the H200: {e}",
                    path.display()
                )
            });
            for d in &g.dispatches {
                for k in &d.kernels {
                    kiln_core::validate::validate(&k.words, k.validation_env)
                        .unwrap_or_else(|e| panic!("{} @{name} {}: {e}", path.display(), k.name));
                    kernels += 1;
                }
            }
        }
    }
    assert!(kernels >= 300, "{kernels} kernels");
}

/// Invocations a dispatch's first kernel runs, when static.
fn invocations(d: &kiln_core::codegen::CompiledDispatch) -> Option<u64> {
    let k = d.kernels.first()?;
    let groups = match k.workgroups {
        Size::Static(n) => n,
        Size::Slot(_) => return None,
    };
    Some(
        groups
            * k.workgroup_size
                .iter()
                .map(|&s| u64::from(s))
                .product::<u64>(),
    )
}

#[test]
fn the_transformer_block_fills_a_discrete_gpu() {
    let path = root().join("examples/models/transformer.mlir");
    let compiled = compile_file(&path, &h200());
    let (_, block) = compiled.iter().find(|(n, _)| n == "block").expect("@block");
    let block = block.as_ref().expect("compiles");
    for d in &block.dispatches {
        let s = &d.strategy;
        let n = invocations(d).expect("static sizes");
        match (s.distribution, s.reduction) {
            // Projections and MLP matmuls: tiles small enough for 8,192
            // invocations at least (an eighth of the fill).
            (Distribution::Tile { .. }, _) => assert!(n >= 8192, "{}: {n} invocations", d.name),
            // Or workgroup-memory tiles whose blocks are as many.
            (Distribution::SharedTile { .. }, _) => {
                assert!(n >= 8192, "{}: {n} invocations", d.name)
            }
            // Layer norm statistics and softmax rows: a workgroup each.
            (
                Distribution::WorkgroupPerPoint,
                Some(ReductionStrategy::Cooperative { per_invocation, .. }),
            ) => {
                assert!(!per_invocation, "{}: lavapipe's partials on a GPU", d.name);
                assert!(n >= 128 * 32, "{}: {n} invocations", d.name);
            }
            (Distribution::WorkgroupPerPoint, _) => assert!(n >= 128 * 32, "{}: {n}", d.name),
            // Elementwise: one invocation per vec4 or point.
            (_, None) => assert!(n >= 8192, "{}: {n} invocations", d.name),
            (other, r) => panic!("{}: {other:?} {r:?} with {n} invocations", d.name),
        }
    }
    // lavapipe keeps its measured heuristic: 16x32 tiles 8 steps deep
    // (groups of 4 columns read as texels) on the projections.
    let on_cpu = compile_file(&path, &lavapipe());
    let cpu_block = on_cpu
        .iter()
        .find(|(n, _)| n == "block")
        .unwrap()
        .1
        .as_ref()
        .unwrap();
    assert!(cpu_block.dispatches.iter().any(|d| d.strategy.distribution
        == Distribution::Tile {
            rows: 16,
            cols: 32,
            depth: 8
        }));
}

/// The first dispatch's strategy of `@f` in `text`, compiled for the H200.
fn first_strategy(text: &str) -> kiln_core::codegen::strategy::Strategy {
    compile_first(text, &h200()).dispatches[0].strategy.clone()
}

fn sum_over(dim: u32) -> String {
    format!(
        r#"func.func @f(%a: tensor<4096x4096xf32>) -> tensor<4096xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %r = linalg.reduce ins(%a : tensor<4096x4096xf32>) outs(%i : tensor<4096xf32>) dimensions = [{dim}]
    (%x: f32, %acc: f32) {{
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }}
  return %r : tensor<4096xf32>
}}"#
    )
}

#[test]
fn row_sums_take_a_workgroup_per_row_and_column_sums_an_invocation_per_column() {
    // Rows: neighbours of one row's workgroup read neighbouring elements.
    let rows = first_strategy(&sum_over(1));
    assert_eq!(
        rows.distribution,
        Distribution::WorkgroupPerPoint,
        "{}",
        rows.reason
    );
    // Columns: neighbouring invocations read neighbouring columns.
    let cols = first_strategy(&sum_over(0));
    assert_eq!(
        cols.distribution,
        Distribution::Points { per_invocation: 1 },
        "{}",
        cols.reason
    );
}

/// `@f(a, b) = matmul(a, b)` of f32 `m x k` and `k x n` into zeros.
fn matmul(m: u64, k: u64, n: u64) -> String {
    format!(
        r#"func.func @f(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%i : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}"#
    )
}

#[test]
fn small_outputs_with_long_reductions_split_k_on_the_h200_not_on_lavapipe() {
    for (m, k, n) in [(64, 16384, 64), (128, 8192, 128), (37, 5000, 93)] {
        let gpu = compile_first(&matmul(m, k, n), &h200());
        let [d] = &gpu.dispatches[..] else {
            panic!("{:?}", gpu.dispatches.len())
        };
        let Some(ReductionStrategy::SplitK { slices, slice }) = d.strategy.reduction else {
            panic!("{m}x{k}x{n}: {}", d.strategy);
        };
        assert!(slices >= 2 && slice >= 256, "{}", d.strategy);
        assert!(
            u64::from(slices - 1) * slice < k && u64::from(slices) * slice >= k,
            "{}",
            d.strategy
        );
        assert!(d.strategy.to_string().contains("split-K"), "{}", d.strategy);
        // Two kernels: the slices' tiles, then their sum; both validate.
        assert_eq!(d.kernels.len(), 2, "{m}x{k}x{n}");
        assert!(d.kernels[1].name.ends_with("_sum_slices"));
        for kernel in &d.kernels {
            kiln_core::validate::validate(&kernel.words, kernel.validation_env)
                .unwrap_or_else(|e| panic!("{m}x{k}x{n} {}: {e}", kernel.name));
        }
        // The slices bring the tiles to the device's fill (65,536).
        let n_inv = invocations(d).expect("static sizes");
        if m * n <= 128 * 128 && k >= 8192 {
            assert!(n_inv >= 1 << 16, "{m}x{k}x{n}: {n_inv} invocations");
        }
        // Tuning candidates include other splits and the unsplit tiles.
        assert!(d.candidates[0].split_k == Some(slices));
        assert!(d.candidates.iter().any(|c| c.split_k.is_none()));
        assert!(d
            .candidates
            .iter()
            .any(|c| c.split_k.is_some_and(|s| s != slices)));

        let cpu = compile_first(&matmul(m, k, n), &lavapipe());
        for d in &cpu.dispatches {
            assert!(
                !matches!(d.strategy.reduction, Some(ReductionStrategy::SplitK { .. })),
                "lavapipe split {m}x{k}x{n}: {}",
                d.strategy
            );
            // kiln tune may still try it there.
            if m > 1 {
                assert!(
                    d.candidates.iter().any(|c| c.split_k.is_some()),
                    "{m}x{k}x{n}: {:?}",
                    d.candidates
                );
            }
        }
    }
    // Outputs that fill the H200, or short reductions, do not split.
    for (m, k, n) in [(2048, 2048, 2048), (64, 256, 64)] {
        let gpu = compile_first(&matmul(m, k, n), &h200());
        assert!(
            !matches!(
                gpu.dispatches[0].strategy.reduction,
                Some(ReductionStrategy::SplitK { .. })
            ),
            "{m}x{k}x{n}: {}",
            gpu.dispatches[0].strategy
        );
    }
}

/// A softmax over rows of zero length compiles for the H200: its strategy
/// once split such a row across workgroups and divided by the row's
/// length (a panic, found by the random tester on an H200, seed 20112).
#[test]
fn softmax_rows_of_zero_length_compile() {
    for (shape, dim) in [("0", 0), ("2x0", 1), ("0x5", 0)] {
        let text = format!(
            r#"func.func @f(%a: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %e = tensor.empty() : tensor<{shape}xf32>
  %s = linalg.softmax dimension({dim}) ins(%a : tensor<{shape}xf32>) outs(%e : tensor<{shape}xf32>) -> tensor<{shape}xf32>
  return %s : tensor<{shape}xf32>
}}"#
        );
        let prepared = kiln_core::tensor::load(&text).unwrap();
        let f = prepared.funcs()[0];
        compile_function(&prepared, f, &h200())
            .unwrap_or_else(|e| panic!("softmax of {shape} along {dim}: {e}"));
    }
}
