//! The target env kernels are lowered for when they run on the CPU and
//! neither the program nor the caller gives one ([`cpu_target_env`]), and
//! the env for running a device's kernels on the CPU ([`cpu_env_like`]).

use kiln_core::codegen::target::bounded_env;
use kiln_core::grammar::{Capability, Extension, Scope, Version};
use kiln_core::ir::Vce;
use kiln_core::target::{
    ClientApi, DeviceInfo, DeviceType, ResourceLimits, TargetEnv, FLOAT_CONTROL_WIDTHS,
};

/// What the CPU runner executes: SPIR-V 1.6 for Vulkan with the integer,
/// float, 8/16-bit storage, variable-pointer and every non-uniform
/// subgroup capability the LLVM conversion handles, `SignedZeroInfNanPreserve`
/// at every width (LLVM's arithmetic is IEEE's), and lavapipe's limits
/// (1024 invocations, 32 KiB of workgroup memory) with subgroups of
/// `subgroup_size`.
pub fn cpu_target_env(subgroup_size: u32) -> TargetEnv {
    use Capability as C;
    let capabilities = vec![
        C::Shader,
        C::Int8,
        C::Int16,
        C::Int64,
        C::Float16,
        C::Float64,
        C::StorageBuffer8BitAccess,
        C::UniformAndStorageBuffer8BitAccess,
        C::StorageBuffer16BitAccess,
        C::UniformAndStorageBuffer16BitAccess,
        C::VariablePointersStorageBuffer,
        C::VariablePointers,
        C::GroupNonUniform,
        C::GroupNonUniformVote,
        C::GroupNonUniformArithmetic,
        C::GroupNonUniformBallot,
        C::GroupNonUniformShuffle,
        C::GroupNonUniformShuffleRelative,
        C::GroupNonUniformClustered,
        C::GroupNonUniformQuad,
        C::SignedZeroInfNanPreserve,
    ];
    let extensions = vec![
        Extension::SpvKhrStorageBufferStorageClass,
        Extension::SpvKhr8bitStorage,
        Extension::SpvKhr16bitStorage,
        Extension::SpvKhrVariablePointers,
    ];
    TargetEnv {
        vce: Vce {
            version: Version::V1_6,
            capabilities,
            extensions,
        },
        device: DeviceInfo {
            client_api: ClientApi::Vulkan,
            device_type: DeviceType::Cpu,
            ..DeviceInfo::default()
        },
        limits: ResourceLimits {
            max_compute_shared_memory_size: 32768,
            max_compute_workgroup_invocations: 1024,
            max_compute_workgroup_size: [1024, 1024, 1024],
            subgroup_size,
            min_subgroup_size: Some(subgroup_size),
            max_subgroup_size: Some(subgroup_size),
            // LLVM's float arithmetic is IEEE's unless told otherwise.
            signed_zero_inf_nan_preserve_widths: FLOAT_CONTROL_WIDTHS.to_vec(),
            denorm_preserve_widths: FLOAT_CONTROL_WIDTHS.to_vec(),
            ..ResourceLimits::default()
        },
    }
}

/// The env a device's kernels run on the CPU with: `device`'s env (its
/// limits, subgroup size and cooperative-matrix configurations, so the
/// tensor compiler chooses the kernels it would choose for that device)
/// restricted, as [`bounded_env`] restricts, to what the CPU runner
/// executes: [`cpu_target_env`]'s capabilities and extensions, plus
/// `CooperativeMatrixKHR` with the Vulkan memory model when `device` lists
/// it (`Subgroup` configurations only; their matrices are spread over the
/// subgroup as kiln_core's `llvm/convert/coop.rs` describes). Kernels
/// compiled for it must run with subgroups of its `subgroup_size`.
pub fn cpu_env_like(device: &TargetEnv) -> TargetEnv {
    let mut cpu = cpu_target_env(device.limits.subgroup_size);
    let coop = device
        .capability_closure()
        .contains(&Capability::CooperativeMatrixKHR);
    if coop {
        cpu.vce.capabilities.extend([
            Capability::CooperativeMatrixKHR,
            Capability::VulkanMemoryModel,
            Capability::VulkanMemoryModelDeviceScope,
        ]);
        cpu.vce.extensions.extend([
            Extension::SpvKhrCooperativeMatrix,
            Extension::SpvKhrVulkanMemoryModel,
        ]);
    }
    let mut env = bounded_env(device, &cpu);
    env.limits
        .cooperative_matrix_properties_khr
        .retain(|p| coop && p.scope == Scope::Subgroup);
    env.limits.cooperative_matrix_properties_nv.clear();
    env
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use kiln_core::codegen::strategy::Distribution;
    use kiln_core::codegen::{compile_each_function, CodegenTarget, DriverFacts};
    use kiln_core::ir::FloatKind;
    use kiln_core::target::{ScalarType, TargetEnv};

    use super::*;

    fn repo(path: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// The cooperative-matrix envs the CPU runner is checked with (the CLI
    /// test `cooperative_matrix_kernels_pass_on_the_cpu` runs them): for
    /// each, the env `kiln run --cpu --target-env` compiles for keeps the
    /// device's subgroup size and configurations, and every matmul of the
    /// corpus's `matmul_f16_tiles.mlir` becomes a cooperative-matrix kernel,
    /// the matmuls together using every f16 x f16 -> f32 configuration of
    /// the env (f16 results accumulate in f32 and round once), as
    /// does every dispatch of `matmul_f16_coop.mlir` (ragged sizes, fused
    /// epilogues, transposed and batched operands).
    #[test]
    fn device_envs_with_cooperative_matrices_keep_them_on_the_cpu() {
        let file =
            kiln_core::tensor::load(&repo("gpu-tests/tests/tensor/matmul_f16_tiles.mlir")).unwrap();
        // The programs the e2e runner compiles (checked values returned).
        let module = kiln_core::tensor::e2e::compute_module(&file).unwrap();
        let coop_file =
            kiln_core::tensor::load(&repo("gpu-tests/tests/tensor/matmul_f16_coop.mlir")).unwrap();
        let coop_module = kiln_core::tensor::e2e::compute_module(&coop_file).unwrap();
        let staged_file =
            kiln_core::tensor::load(&repo("gpu-tests/tests/tensor/matmul_f16_coop_staged.mlir"))
                .unwrap();
        let staged_module = kiln_core::tensor::e2e::compute_module(&staged_file).unwrap();
        for (file, subgroup) in [("nvidia-h200-coop.env", 32), ("coop-sg16.env", 16)] {
            let device: TargetEnv = repo(&format!("core/tests/lower/envs/{file}"))
                .parse()
                .unwrap();
            let env = cpu_env_like(&device);
            assert_eq!(env.limits.subgroup_size, subgroup, "{file}");
            assert!(env
                .vce
                .capabilities
                .contains(&Capability::CooperativeMatrixKHR));
            // f16 results accumulate in f32 too (and round once): the
            // env's f16-accumulator configurations stay unused.
            let f16 = ScalarType::Float(FloatKind::F16);
            let f32 = ScalarType::Float(FloatKind::F32);
            let want: BTreeSet<(u32, u32, u32, String)> = device
                .limits
                .cooperative_matrix_properties_khr
                .iter()
                .filter(|p| p.a_type == f16 && p.c_type == f32)
                .map(|p| (p.m_size, p.n_size, p.k_size, p.c_type.to_string()))
                .collect();
            assert!(want.len() >= 2, "{file}");
            let target = CodegenTarget::new(env, DriverFacts::conservative());
            let mut used = BTreeSet::new();
            for (name, program) in compile_each_function(&module, &target).unwrap() {
                let program = program.unwrap();
                let f = &program.functions[0];
                let matmuls: Vec<_> = f
                    .dispatches
                    .iter()
                    .filter(|d| d.op.contains("matmul"))
                    .collect();
                assert_eq!(matmuls.len(), 1, "{file} @{name}");
                let d = matmuls[0];
                let Distribution::CoopMatrix { m, n, k, .. } = d.strategy.distribution else {
                    panic!("{file} @{name}: {:?}", d.strategy.distribution);
                };
                for k in &d.kernels {
                    kiln_core::validate::validate(&k.words, k.validation_env)
                        .unwrap_or_else(|e| panic!("{file} @{name}: {e}"));
                }
                used.insert((m, n, k, "f32".to_owned()));
            }
            assert_eq!(used, want, "{file}");
            // The corpus's ragged, transposed, batched and epilogue
            // matmuls are cooperative-matrix kernels too, all validated.
            for (name, program) in compile_each_function(&coop_module, &target).unwrap() {
                let program = program.unwrap();
                let d = &program.functions[0].dispatches;
                assert_eq!(d.len(), 1, "{file} @{name}");
                assert!(
                    matches!(d[0].strategy.distribution, Distribution::CoopMatrix { .. }),
                    "{file} @{name}: {:?}",
                    d[0].strategy.distribution
                );
                for k in &d[0].kernels {
                    kiln_core::validate::validate(&k.words, k.validation_env)
                        .unwrap_or_else(|e| panic!("{file} @{name}: {e}"));
                }
            }
            // The staged corpus's matmuls are cooperative-matrix kernels,
            // validated; each env stages whole blocks of some of them
            // (32 steps of K at a time, double-buffered) and loads
            // others' tiles directly (K shorter than a step, or blocks of
            // one tile).
            let mut stages = BTreeSet::new();
            for (name, program) in compile_each_function(&staged_module, &target).unwrap() {
                let program = program.unwrap();
                let d = &program.functions[0].dispatches;
                let coop: Vec<_> = d
                    .iter()
                    .filter_map(|d| match d.strategy.distribution {
                        Distribution::CoopMatrix { stage, .. } => Some(stage),
                        _ => None,
                    })
                    .collect();
                assert_eq!(coop.len(), 1, "{file} @{name}");
                stages.insert(coop[0].map(|s| (s.k, s.double)));
                for d in d {
                    for k in &d.kernels {
                        kiln_core::validate::validate(&k.words, k.validation_env)
                            .unwrap_or_else(|e| panic!("{file} @{name}: {e}"));
                    }
                }
            }
            assert!(stages.contains(&None), "{file}: {stages:?}");
            assert!(stages.contains(&Some((32, true))), "{file}: {stages:?}");
        }
    }

    /// Every convolution of the corpus's `conv_f16_coop.mlir` (3x3 and
    /// 1x1, strides, dilations, ragged M, K and F, a padding computed in
    /// the dispatch, an init bias, f16 results, an epilogue) is one
    /// implicit-GEMM cooperative-matrix dispatch on both committed envs,
    /// each kernel valid for spirv-val: on `coop-sg16.env` whole blocks
    /// stage their steps (A gathered, B with wide reads, double-buffered);
    /// on `nvidia-h200-coop.env` blocks of one tile gather every step
    /// element by element. On main they were SIMT kernels (one point per
    /// invocation, or workgroup-memory register tiles).
    #[test]
    fn corpus_convolutions_are_implicit_gemms_on_cooperative_matrices() {
        let file =
            kiln_core::tensor::load(&repo("gpu-tests/tests/tensor/conv_f16_coop.mlir")).unwrap();
        let module = kiln_core::tensor::e2e::compute_module(&file).unwrap();
        for (env_file, want_stage) in [
            ("nvidia-h200-coop.env", None),
            ("coop-sg16.env", Some((32, true))),
        ] {
            let device: TargetEnv = repo(&format!("core/tests/lower/envs/{env_file}"))
                .parse()
                .unwrap();
            let target = CodegenTarget::new(cpu_env_like(&device), DriverFacts::conservative());
            let mut stages = BTreeSet::new();
            let programs = compile_each_function(&module, &target).unwrap();
            assert_eq!(programs.len(), 7, "{env_file}");
            for (name, program) in programs {
                let program = program.unwrap();
                let d = &program.functions[0].dispatches;
                assert_eq!(d.len(), 1, "{env_file} @{name}");
                let Distribution::CoopMatrix { stage, .. } = d[0].strategy.distribution else {
                    panic!("{env_file} @{name}: {:?}", d[0].strategy.distribution);
                };
                assert!(
                    d[0].strategy.reason.contains("implicit-GEMM convolution"),
                    "{env_file} @{name}: {}",
                    d[0].strategy.reason
                );
                stages.insert(stage.map(|s| (s.k, s.double)));
                for k in &d[0].kernels {
                    kiln_core::validate::validate(&k.words, k.validation_env)
                        .unwrap_or_else(|e| panic!("{env_file} @{name}: {e}"));
                }
            }
            assert!(stages.contains(&want_stage), "{env_file}: {stages:?}");
        }
    }

    /// Both matmuls of each attention in the corpus's
    /// `attention_f16_coop.mlir` (the scores, whose keys are read through
    /// a transpose, and the probabilities times V) are cooperative-matrix
    /// dispatches on both committed envs, each kernel valid for spirv-val;
    /// the softmax between them is not. On main the scores' matmul was a
    /// SIMT kernel (its B computed in the dispatch).
    #[test]
    fn corpus_attention_runs_both_matmuls_on_cooperative_matrices() {
        let file = kiln_core::tensor::load(&repo("gpu-tests/tests/tensor/attention_f16_coop.mlir"))
            .unwrap();
        let module = kiln_core::tensor::e2e::compute_module(&file).unwrap();
        for env_file in ["nvidia-h200-coop.env", "coop-sg16.env"] {
            let device: TargetEnv = repo(&format!("core/tests/lower/envs/{env_file}"))
                .parse()
                .unwrap();
            let target = CodegenTarget::new(cpu_env_like(&device), DriverFacts::conservative());
            let programs = compile_each_function(&module, &target).unwrap();
            assert_eq!(programs.len(), 2, "{env_file}");
            for (name, program) in programs {
                let program = program.unwrap();
                let d = &program.functions[0].dispatches;
                let coop: Vec<_> = d
                    .iter()
                    .filter(|d| matches!(d.strategy.distribution, Distribution::CoopMatrix { .. }))
                    .collect();
                assert_eq!(coop.len(), 2, "{env_file} @{name}");
                assert!(
                    coop[0]
                        .strategy
                        .reason
                        .contains("B read through a transpose"),
                    "{env_file} @{name}: {}",
                    coop[0].strategy.reason
                );
                for d in d {
                    for k in &d.kernels {
                        kiln_core::validate::validate(&k.words, k.validation_env)
                            .unwrap_or_else(|e| panic!("{env_file} @{name}: {e}"));
                    }
                }
            }
        }
    }

    /// An env without cooperative matrices gets none, and the CPU runner's
    /// own env is unchanged apart from the device's limits.
    #[test]
    fn envs_without_cooperative_matrices_get_none() {
        let device: TargetEnv = repo("core/tests/lower/envs/nvidia-h200.env")
            .parse()
            .unwrap();
        let env = cpu_env_like(&device);
        assert!(!env
            .vce
            .capabilities
            .contains(&Capability::CooperativeMatrixKHR));
        assert!(env.limits.cooperative_matrix_properties_khr.is_empty());
        assert!(!env
            .vce
            .extensions
            .contains(&Extension::SpvKhrCooperativeMatrix));
    }
}
