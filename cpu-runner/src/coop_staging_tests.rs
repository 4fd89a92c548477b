//! Every way of staging a cooperative-matrix matmul's whole blocks runs
//! the corpus's `matmul_f16_coop_staged.mlir` (and its implicit-GEMM
//! convolutions, `conv_f16_coop.mlir`) correctly on the CPU runner: the heuristic's choice (double-buffered steps of 32) is
//! checked by the CLI test (`cli/tests/cli/tensor_cpu_cli.rs`); here each
//! dispatch is tuned to the single-buffered alternatives `kiln tune` may
//! pick (steps of 32 and 64; double-buffered steps of 64 share the code
//! of steps of 32 and do not fit these envs' grids) with the heuristic's
//! grids, and the file's numpy checks must pass with each.

use std::path::Path;

use kiln_core::codegen::strategy::{Choice, CoopStage, Distribution, Tuning};
use kiln_core::codegen::{compile_each_function, CodegenTarget, DriverFacts};
use kiln_core::target::TargetEnv;
use kiln_core::tensor::e2e::{self, RunOptions};

use crate::{cpu_env_like, DispatchOptions, TensorBackend};

fn repo(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The tuning that gives every cooperative-matrix dispatch of `module`
/// on `target` the candidate with its default grids and `stage`, where
/// there is one; and how many dispatches got it.
fn tuned_to(
    module: &kiln_core::tensor::TensorModule,
    target: &CodegenTarget,
    stage: CoopStage,
) -> (Tuning, usize) {
    let mut tuning = Tuning::new();
    let mut count = 0;
    for (name, program) in compile_each_function(module, target).unwrap() {
        let program = program.unwrap_or_else(|e| panic!("@{name}: {e}"));
        for d in &program.functions[0].dispatches {
            let Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
                ..
            } = d.strategy.distribution
            else {
                continue;
            };
            let want = Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
                stage: Some(stage),
            };
            if let Some(c) = d.candidates.iter().find(|c| c.distribution == want) {
                let choice: Choice = *c;
                tuning.insert(&d.tuning_key, choice, "test");
                count += 1;
            }
        }
    }
    (tuning, count)
}

/// Costs about 10 s of CPU time in a debug build (26 s at a load of 11;
/// the 13 functions run twice per env).
#[test]
fn every_staged_alternative_passes_the_staged_corpus() {
    staged_alternatives_pass("gpu-tests/tests/tensor/matmul_f16_coop_staged.mlir");
}

/// The same for the implicit-GEMM convolutions of `conv_f16_coop.mlir`
/// (A gathered element by element into the single-buffered stages, B
/// with wide reads). Costs about 2 s in a debug build (load 2.4).
#[test]
fn every_staged_alternative_passes_the_coop_convolutions() {
    staged_alternatives_pass("gpu-tests/tests/tensor/conv_f16_coop.mlir");
}

/// Corpus file `path` passes with each single-buffered staging on both
/// committed cooperative-matrix envs.
fn staged_alternatives_pass(path: &str) {
    let file = kiln_core::tensor::load(&repo(path)).unwrap();
    let module = e2e::compute_module(&file).unwrap();
    for env_file in ["coop-sg16.env", "nvidia-h200-coop.env"] {
        let device: TargetEnv = repo(&format!("core/tests/lower/envs/{env_file}"))
            .parse()
            .unwrap();
        let env = cpu_env_like(&device);
        let facts = if env_file.starts_with("nvidia") {
            DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA"))
        } else {
            DriverFacts::conservative()
        };
        let target = CodegenTarget::new(env.clone(), facts);
        for stage in [
            CoopStage {
                k: 32,
                double: false,
            },
            CoopStage {
                k: 64,
                double: false,
            },
        ] {
            let (tuning, count) = tuned_to(&module, &target, stage);
            assert!(
                count > 0,
                "{path} {env_file} {stage:?}: no dispatch may take it"
            );
            let options = DispatchOptions {
                subgroup_size: env.limits.subgroup_size,
                ..DispatchOptions::default()
            };
            let mut backend =
                TensorBackend::with_target(target.clone().with_tuning(tuning), options);
            let report = e2e::run(&file, &mut backend, &RunOptions::default()).unwrap();
            assert!(
                report.success() && backend.errors().is_empty(),
                "{path} {env_file} {stage:?} ({count} dispatches): {:?}\n{}",
                backend.errors(),
                report.output
            );
        }
    }
}
