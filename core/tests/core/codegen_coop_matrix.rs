//! The cooperative-matrix matmul strategy: for an env listing
//! `cooperative_matrix_properties_khr` (the hand-written
//! `tests/lower/envs/nvidia-h200-coop.env`), f16 matmuls compile to
//! one-subgroup kernels of cooperative matrices that pass the in-process
//! validator: whole tiles stored directly, unaligned sizes staged through
//! workgroup memory with zero padding, fused epilogues applied to the
//! accumulator read back from workgroup memory; lavapipe's env keeps the
//! other strategies. The kernels' results are checked on the CPU runner
//! (`cli/tests/cli/tensor_cpu_cli.rs`), not here.

use std::path::Path;

use kiln_core::codegen::strategy::{CoopStage, Distribution};
use kiln_core::codegen::{compile_function, CodegenTarget, CompiledFunction, DriverFacts};

use crate::common::{lavapipe_target as lavapipe, prepared_tensor_module};

fn h200_coop() -> CodegenTarget {
    CodegenTarget::new(
        crate::lower_mma::h200_coop(),
        DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA")),
    )
}

/// Each function of `tests/coop_matrix/matmuls.mlir` compiled for `target`.
fn compile_all(target: &CodegenTarget) -> Vec<(String, CompiledFunction)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/coop_matrix/matmuls.mlir");
    let m = prepared_tensor_module(&path);
    m.funcs()
        .iter()
        .filter(|&&f| m.func(f).body.is_some())
        .map(|&f| {
            let name = m.func(f).name.clone();
            let c = compile_function(&m, f, target).unwrap_or_else(|e| panic!("@{name}: {e}"));
            (name, c)
        })
        .collect()
}

/// The distributions of a function's dispatches.
fn distributions(c: &CompiledFunction) -> Vec<Distribution> {
    c.dispatches
        .iter()
        .map(|d| d.strategy.distribution)
        .collect()
}

/// A 16x16x16 cooperative-matrix distribution with these grids, whole
/// blocks loading their tiles straight from memory.
fn coop(k: u32, tiles: [u32; 2], subgroups: [u32; 2]) -> Distribution {
    staged(k, tiles, subgroups, None)
}

/// A 16x16x16 cooperative-matrix distribution with these grids and
/// staging.
fn staged(k: u32, tiles: [u32; 2], subgroups: [u32; 2], stage: Option<CoopStage>) -> Distribution {
    Distribution::CoopMatrix {
        m: 16,
        n: 16,
        k,
        tiles,
        subgroups,
        stage,
    }
}

fn is_coop(d: &Distribution) -> bool {
    matches!(d, Distribution::CoopMatrix { .. })
}

#[test]
fn f16_matmuls_use_cooperative_matrices() {
    for (name, c) in compile_all(&h200_coop()) {
        let dists = distributions(&c);
        assert!(dists.iter().any(is_coop), "@{name}: {dists:?}");
        for d in &c.dispatches {
            for k in &d.kernels {
                kiln_core::validate::validate(&k.words, k.validation_env)
                    .unwrap_or_else(|e| panic!("@{name} {}: {e}", k.name));
            }
            if !is_coop(&d.strategy.distribution) {
                continue;
            }
            // Outputs this small cannot fill the device: one tile per
            // subgroup, one subgroup per workgroup.
            assert_eq!(d.strategy.distribution, coop(16, [1, 1], [1, 1]));
            assert_eq!(d.kernels.len(), 1, "@{name}");
            let k = &d.kernels[0];
            // One subgroup (32 on the H200) per 16x16 output tile.
            assert_eq!(k.workgroup_size, [32, 1, 1], "@{name}");
            let tiles = match name.as_str() {
                "mm_f32_acc" => (64 / 16) * (48 / 16),
                // 12x9: one tile, its rows and columns past the output.
                "mm_unaligned" => 1,
                "mm_epilogue" => (32 / 16) * (32 / 16),
                // 32x16: two row tiles, one column tile.
                _ => 2,
            };
            assert_eq!(
                k.workgroups,
                kiln_core::codegen::host::Size::Static(tiles),
                "@{name}"
            );
            let back = kiln_core::binary::deserialize(&k.words).unwrap();
            let text = kiln_core::text::print(&back, &Default::default());
            for needle in [
                "Logical Vulkan",
                "spirv.KHR.CooperativeMatrixLoad",
                "spirv.KHR.CooperativeMatrixMulAdd",
                "spirv.KHR.CooperativeMatrixStore",
            ] {
                assert!(text.contains(needle), "@{name}: {needle} missing:\n{text}");
            }
            let loads = text.matches("spirv.KHR.CooperativeMatrixLoad").count();
            let staged = text.contains("Workgroup>");
            match name.as_str() {
                // The zero fill is a constant matrix; the tiles are stored
                // to the result directly.
                "mm_f32_acc" => {
                    assert!(!staged, "@{name}: {text}");
                    assert!(text.contains("spirv.CompositeConstruct"), "{text}");
                    assert_eq!(loads, 2, "{text}");
                }
                // An f16 result accumulates in f32 matrices (from -0) and
                // goes through workgroup memory, where each element gets
                // the f16 init added and is rounded once: only A and B are
                // loaded as matrices.
                "mm_f16_acc_init" => {
                    assert!(staged, "@{name}: {text}");
                    assert!(text.contains("!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>"));
                    assert!(!text.contains("xf16, Subgroup, MatrixAcc>"), "{text}");
                    assert_eq!(loads, 2, "{text}");
                }
                // Edges: A and B staged with zeros (one pair of tile loads
                // from workgroup memory: no block is inside 12x9), the
                // tile read back for guarded stores; every workgroup-memory
                // access non-private under the Vulkan memory model.
                "mm_unaligned" => {
                    assert_eq!(loads, 2, "{text}");
                    assert_eq!(
                        text.matches("Workgroup>, i32 -> !spirv.coopmatrix").count(),
                        2,
                        "{text}"
                    );
                    assert!(text.contains("spirv.ControlBarrier"), "{text}");
                    for line in text.lines().filter(|l| {
                        (l.contains("spirv.Load")
                            || l.contains("spirv.Store")
                            || l.contains("CooperativeMatrix"))
                            && l.contains("Workgroup")
                            && !l.contains("addressof")
                            && !l.contains("AccessChain")
                    }) {
                        assert!(line.contains("NonPrivatePointer"), "{line}");
                    }
                }
                // The epilogue reads the accumulator back: a store to
                // workgroup memory, no staged operands.
                "mm_epilogue" => {
                    assert_eq!(loads, 2, "{text}");
                    assert!(staged, "{text}");
                    assert!(
                        !text.contains("Workgroup>, i32 -> !spirv.coopmatrix"),
                        "{text}"
                    );
                }
                other => panic!("unexpected function @{other}"),
            }
        }
    }
}

#[test]
fn lavapipe_never_chooses_cooperative_matrices() {
    for (name, c) in compile_all(&lavapipe()) {
        let dists = distributions(&c);
        assert!(!dists.iter().any(is_coop), "@{name}: {dists:?}");
    }
}

#[test]
fn coop_matrix_choices_print_and_parse() {
    use kiln_core::codegen::strategy::Choice;
    let c = Choice {
        workgroup: 128,
        distribution: Distribution::CoopMatrix {
            m: 16,
            n: 8,
            k: 16,
            tiles: [4, 2],
            subgroups: [2, 2],
            stage: None,
        },
        split_k: None,
    };
    assert_eq!(c.to_text(), "wg 128 coopmatrix 16x8x16 4x2 2x2");
    assert_eq!(Choice::parse(&c.to_text()), Ok(c));
    // Whole blocks staged in workgroup memory, single- or double-buffered.
    for (stage, text) in [
        (
            CoopStage {
                k: 32,
                double: true,
            },
            "wg 128 coopmatrix 16x16x16 4x2 2x2 stage 32 double",
        ),
        (
            CoopStage {
                k: 64,
                double: false,
            },
            "wg 128 coopmatrix 16x16x16 4x2 2x2 stage 64",
        ),
    ] {
        let c = Choice {
            workgroup: 128,
            distribution: staged(16, [4, 2], [2, 2], Some(stage)),
            split_k: None,
        };
        assert_eq!(c.to_text(), text);
        assert_eq!(Choice::parse(text), Ok(c));
    }
    assert!(Choice::parse("wg 128 coopmatrix 16x16x16 4x2 2x2 stage").is_err());
    assert!(Choice::parse("wg 128 coopmatrix 16x16x16 4x2 2x2 stage 0").is_err());
    // A choice written before tile grids existed: one tile, one subgroup.
    let old = Choice::parse("wg 32 coopmatrix 16x16x16").unwrap();
    assert_eq!(old.distribution, coop(16, [1, 1], [1, 1]));
    assert!(Choice::parse("wg 32 coopmatrix 16x16x16 4x2 2x2 1x1").is_err());
    assert!(Choice::parse("wg 32 coopmatrix 16x16x16 4").is_err());
}

/// An f16 x f16 -> f32 matmul of `m`x`k` by `k`x`n`, compiled for the
/// H200 with cooperative matrices.
fn compile_f16_matmul(target: &CodegenTarget, m: u64, k: u64, n: u64) -> CompiledFunction {
    let text = format!(
        "func.func @mm(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>)
                     outs(%c0 : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}"
    );
    crate::common::compile_first(&text, target)
}

/// Large outputs take several tiles per subgroup (each A and B tile
/// loaded serves several multiply-adds) and several subgroups per
/// workgroup, as long as enough subgroups remain to fill the device; the
/// kernels validate and store every tile.
#[test]
fn large_outputs_take_tile_and_subgroup_grids() {
    let target = h200_coop();
    // Blocks of more than one tile stage A and B in workgroup memory, 32
    // steps of K at a time, double-buffered.
    let stage = Some(CoopStage {
        k: 32,
        double: true,
    });
    for (size, tiles, subgroups, workgroups, stage) in [
        // 4096^2 / (128 x 128) blocks.
        (4096, [4, 4], [2, 2], 32 * 32, stage),
        // 512^2: 4x2 tiles would leave 128 subgroups, fewer than the 256
        // the H200 needs; 2x2 leaves 256, too few for 2x2 subgroups.
        (512, [2, 2], [1, 1], 256, stage),
        (64, [1, 1], [1, 1], 16, None),
    ] {
        let c = compile_f16_matmul(&target, size, size, size);
        let d = &c.dispatches[0];
        assert_eq!(
            d.strategy.distribution,
            staged(16, tiles, subgroups, stage),
            "{size}: {}",
            d.strategy
        );
        let k = &d.kernels[0];
        assert_eq!(k.workgroup_size, [32 * subgroups[0] * subgroups[1], 1, 1]);
        assert_eq!(
            k.workgroups,
            kiln_core::codegen::host::Size::Static(workgroups),
            "{size}"
        );
        kiln_core::validate::validate(&k.words, k.validation_env)
            .unwrap_or_else(|e| panic!("{size}: {e}"));
        let back = kiln_core::binary::deserialize(&k.words).unwrap();
        let text = kiln_core::text::print(&back, &Default::default());
        let count = |needle: &str| text.matches(needle).count() as u32;
        let per_subgroup = tiles[0] * tiles[1];
        // Staged: two k-steps of 16 per staged step of 32, emitted in the
        // double-buffered loop and once more for its last step.
        let folds = if stage.is_some() { 4 } else { 1 };
        assert_eq!(count("spirv.KHR.CooperativeMatrixStore"), per_subgroup);
        assert_eq!(
            count("spirv.KHR.CooperativeMatrixMulAdd"),
            per_subgroup * folds
        );
        assert_eq!(
            count("spirv.KHR.CooperativeMatrixLoad"),
            (tiles[0] + tiles[1]) * folds
        );
        // The staged slices are read 16 bytes at a time.
        assert_eq!(
            text.contains("vector<4xi32>"),
            stage.is_some(),
            "{size}: wide reads"
        );
        if stage.is_some() {
            assert!(
                text.contains("Workgroup>, i32 -> !spirv.coopmatrix"),
                "{size}"
            );
        }
        assert_eq!(
            text.contains("SubgroupId"),
            subgroups != [1, 1],
            "{size}: the subgroup's place in its workgroup"
        );
    }
}

/// `kiln tune` may time every grid that divides the output, the
/// heuristic's first.
#[test]
fn tune_candidates_cover_the_grids() {
    let c = compile_f16_matmul(&h200_coop(), 256, 64, 128);
    let d = &c.dispatches[0];
    assert_eq!(d.candidates[0].distribution, d.strategy.distribution);
    let grids: Vec<([u32; 2], [u32; 2])> = d
        .candidates
        .iter()
        .filter_map(|c| match c.distribution {
            Distribution::CoopMatrix {
                tiles, subgroups, ..
            } => Some((tiles, subgroups)),
            _ => None,
        })
        .collect();
    // 256x128 divides into every grid of up to 4x2 tiles and 2x2 subgroups.
    for want in [([4, 2], [2, 2]), ([2, 4], [2, 1]), ([1, 1], [1, 1])] {
        assert!(grids.contains(&want), "{want:?} missing from {grids:?}");
    }
    // Each grid staged (steps of 32 and 64, single- and double-buffered,
    // where the H200's 48 KiB of workgroup memory hold them) and direct.
    let stages: Vec<Option<CoopStage>> = d
        .candidates
        .iter()
        .filter_map(|c| match c.distribution {
            Distribution::CoopMatrix {
                tiles: [4, 2],
                subgroups: [2, 2],
                stage,
                ..
            } => Some(stage),
            _ => None,
        })
        .collect();
    let s = |k, double| Some(CoopStage { k, double });
    assert_eq!(
        stages,
        [s(32, true), s(32, false), s(64, false), None],
        "4x2 tiles, 2x2 subgroups"
    );
}
