//! The subgroup MMA ops of the kernel IR (`gpu.subgroup_mma_*`) and their
//! lowering to cooperative matrices (`SPV_KHR_cooperative_matrix`) for an
//! env that has them (`tests/lower/envs/nvidia-h200-coop.env`, whose
//! configurations were written by hand, not queried). Binaries are checked
//! by the in-process validator only: the system `spirv-val` predates the
//! extension. Nothing here runs on a device.

use std::path::Path;

use kiln_core::kernel::KernelModule;
use kiln_core::lower::{self, LowerOptions};
use kiln_core::target::TargetEnv;

/// The hand-written cooperative-matrix env (the parser skips its `//`
/// lines, as MLIR's lexer does).
pub fn h200_coop() -> TargetEnv {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lower/envs/nvidia-h200-coop.env");
    let text = std::fs::read_to_string(&path).unwrap();
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn mma_kernel() -> (String, KernelModule) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels/subgroup_mma.mlir");
    let src = std::fs::read_to_string(&path).unwrap();
    let km = kiln_core::kernel::parse(&src).unwrap_or_else(|e| panic!("{e}"));
    (src, km)
}

#[test]
fn mma_ops_print_parse_and_verify() {
    let (_, km) = mma_kernel();
    kiln_core::kernel::verify(&km).unwrap_or_else(|e| panic!("{e}"));
    let printed = kiln_core::kernel::print(&km);
    let again = kiln_core::kernel::print(&kiln_core::kernel::parse(&printed).unwrap());
    assert_eq!(printed, again);
    for needle in [
        "%6 = gpu.subgroup_mma_load_matrix %arg0[%1, %arg3] {leadDimension = 32 : index} : memref<64x32xf16> -> !gpu.mma_matrix<16x16xf16, \"AOp\">",
        "gpu.subgroup_mma_constant_matrix",
        "!gpu.mma_matrix<16x16xf32, \"COp\">",
    ] {
        assert!(printed.contains(needle), "{needle}\n{printed}");
    }
    // MLIR 19 reads kiln's print of the kernel.
    crate::common::mlir_opt(&[], &printed);
}

#[test]
fn mma_kernel_lowers_to_valid_cooperative_matrix_spirv() {
    let (_, km) = mma_kernel();
    let env = h200_coop();
    let out =
        lower::compile_to_binaries(&km, Some(&env), &LowerOptions::default()).unwrap_or_else(|e| {
            panic!(
                "{e}: {:?}",
                std::error::Error::source(&e).map(ToString::to_string)
            )
        });
    assert_eq!(out.len(), 1);
    let m = &out[0].module;
    let text = kiln_core::text::print(m, &Default::default());
    for needle in [
        "Logical Vulkan requires",
        "CooperativeMatrixKHR",
        "SPV_KHR_cooperative_matrix",
        "spirv.KHR.CooperativeMatrixLoad",
        "<RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>",
        "spirv.KHR.CooperativeMatrixMulAdd",
        "spirv.KHR.CooperativeMatrixStore",
        "spirv.CompositeConstruct",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    // `compile_to_binaries` validated the words in process; they also read
    // back into the same module.
    let back = kiln_core::binary::deserialize(&out[0].words).unwrap();
    assert_eq!(kiln_core::binary::serialize(&back).unwrap(), out[0].words);
}

#[test]
fn mma_kernel_is_refused_without_cooperative_matrices() {
    let (_, km) = mma_kernel();
    let lavapipe = crate::lower_util::lavapipe();
    let err = lower::compile_to_binaries(&km, Some(&lavapipe), &LowerOptions::default())
        .expect_err("lavapipe has no cooperative matrices");
    let full = format!(
        "{err}: {:?}",
        std::error::Error::source(&err).map(ToString::to_string)
    );
    assert!(full.contains("CooperativeMatrixKHR"), "{full}");
}

#[test]
fn mma_verifier_rejects_mismatched_operands() {
    let (src, _) = mma_kernel();
    let bad = src.replace(
        "%r = gpu.subgroup_mma_compute %ma, %mb, %sum : !gpu.mma_matrix<16x16xf16, \"AOp\">, !gpu.mma_matrix<16x16xf16, \"BOp\">",
        "%r = gpu.subgroup_mma_compute %mb, %ma, %sum : !gpu.mma_matrix<16x16xf16, \"BOp\">, !gpu.mma_matrix<16x16xf16, \"AOp\">",
    );
    assert_ne!(bad, src);
    let km = kiln_core::kernel::parse(&bad).unwrap();
    let err = kiln_core::kernel::verify(&km).unwrap_err().to_string();
    assert!(err.contains("\"AOp\", \"BOp\" and \"COp\""), "{err}");
}

/// The cooperative-matrix ops of a printed module: each op name with its
/// enum operands and types (the text from the op name on, operand names
/// dropped), in order.
fn coop_ops(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let at = l.find("spirv.KHR.CooperativeMatrix")?;
            let rest = &l[at..];
            let name = rest.split(' ').next()?;
            let (head, types) = rest.split_once(" : ").unwrap_or((rest, ""));
            let layout = head.find('<').map_or("", |i| &head[i..]);
            Some(format!("{name} {layout} : {types}"))
        })
        .collect()
}

/// MLIR 19's `--convert-gpu-to-spirv` lowers the same kernel to the same
/// cooperative-matrix ops (names, layouts, types, in order).
#[test]
fn mma_lowering_agrees_with_mlir_convert_gpu_to_spirv() {
    let (src, km) = mma_kernel();
    let env = h200_coop();
    let out = lower::compile_to_binaries(&km, Some(&env), &LowerOptions::default()).unwrap();
    let ours = kiln_core::text::print(&out[0].module, &Default::default());
    let with_env = src.replace(
        "module attributes {gpu.container_module}",
        "module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, Float16, StorageBuffer16BitAccess, CooperativeMatrixKHR, VulkanMemoryModel], [SPV_KHR_cooperative_matrix]>, #spirv.resource_limits<>>}",
    );
    let theirs = crate::common::mlir_opt(&["--convert-gpu-to-spirv"], &with_env);
    let (ours, theirs) = (coop_ops(&ours), coop_ops(&theirs));
    assert_eq!(ours.len(), 4, "{ours:?}");
    assert_eq!(ours, theirs);
}
