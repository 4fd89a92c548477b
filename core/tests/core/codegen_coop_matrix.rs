//! The cooperative-matrix matmul strategy: for an env listing
//! `cooperative_matrix_properties_khr` (the hand-written
//! `tests/lower/envs/nvidia-h200-coop.env`), plain f16 matmuls whose sizes
//! are multiples of a tile compile to one-subgroup kernels of cooperative
//! matrices that pass the in-process validator; unaligned sizes, fused
//! epilogues and lavapipe's env keep the other strategies. Nothing here runs
//! on a device (lavapipe has no cooperative matrices), so the kernels'
//! results are unchecked.

use std::path::Path;

use kiln_core::codegen::strategy::Distribution;
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

fn is_coop(d: &Distribution) -> bool {
    matches!(d, Distribution::CoopMatrix { .. })
}

#[test]
fn aligned_f16_matmuls_use_cooperative_matrices() {
    for (name, c) in compile_all(&h200_coop()) {
        let dists = distributions(&c);
        let want = matches!(name.as_str(), "mm_f32_acc" | "mm_f16_acc_init");
        assert_eq!(dists.iter().any(is_coop), want, "@{name}: {dists:?}");
        for d in &c.dispatches {
            for k in &d.kernels {
                kiln_core::validate::validate(&k.words, k.validation_env)
                    .unwrap_or_else(|e| panic!("@{name} {}: {e}", k.name));
            }
            if !is_coop(&d.strategy.distribution) {
                continue;
            }
            assert_eq!(
                d.strategy.distribution,
                Distribution::CoopMatrix {
                    m: 16,
                    n: 16,
                    k: 16
                }
            );
            assert_eq!(d.kernels.len(), 1, "@{name}");
            let k = &d.kernels[0];
            // One subgroup (32 on the H200) per 16x16 output tile.
            assert_eq!(k.workgroup_size, [32, 1, 1], "@{name}");
            let tiles = match name.as_str() {
                "mm_f32_acc" => (64 / 16) * (48 / 16),
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
            // The zero fill is a constant matrix; the init in memory is loaded.
            let loads = text.matches("spirv.KHR.CooperativeMatrixLoad").count();
            if name == "mm_f32_acc" {
                assert!(text.contains("spirv.CompositeConstruct"), "{text}");
                assert_eq!(loads, 2, "{text}");
            } else {
                assert_eq!(loads, 3, "{text}");
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
    let c = kiln_core::codegen::strategy::Choice {
        workgroup: 32,
        distribution: Distribution::CoopMatrix { m: 16, n: 8, k: 16 },
        split_k: None,
    };
    assert_eq!(c.to_text(), "wg 32 coopmatrix 16x8x16");
    assert_eq!(
        kiln_core::codegen::strategy::Choice::parse(&c.to_text()),
        Ok(c)
    );
}
