//! Tensor programs on the device (lavapipe in CI), validation layer on:
//! every end-to-end test file of the corpus (`gpu-tests/tests/tensor/`,
//! expected values from numpy in `gen.py` beside them) compiled by
//! kiln's tensor compiler and run through kiln-runtime. For every test
//! function: its checks pass, its results equal the CPU reference
//! evaluator's within a tolerance of its element type, every kernel binary
//! passes the `spirv-val` tool for its Vulkan env, and the validation layer
//! reports nothing.

use std::path::{Path, PathBuf};

use kiln_core::codegen::{compile_function, prepare_module, CompiledProgram};
use kiln_core::tensor::e2e::{self, check, Backend, RunOptions};
use kiln_core::tensor::eval::{self, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::{device_target, DeviceBackend};
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program};

use crate::runtime_support::test_device;

fn device() -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
}

/// The corpus files, sorted: `gpu-tests/tests/tensor/*.mlir`. Fails when
/// files are missing.
pub fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/tensor");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    assert!(
        files.len() >= 50,
        "the tensor corpus is missing ({} files)",
        files.len()
    );
    files.sort();
    files
}

/// Tolerance of a GPU-vs-reference comparison: GPU transcendental
/// functions differ from the reference's, and reductions of `n`
/// iterations add in another order (the reference's sequential order
/// drifts by up to about `n` units of rounding).
fn tolerance(elem: ElemType, n: u64) -> (f32, f32) {
    let drift = n as f32 * f32::EPSILON / 2.0;
    match elem {
        ElemType::F16 => (1e-3, 1e-2f32.max(drift * 8192.0)),
        ElemType::BF16 => (1e-2, 2e-2f32.max(drift * 65536.0)),
        ElemType::F32 | ElemType::F64 => (1e-4, 1e-4f32.max(drift)),
        _ => (0.0, 0.0),
    }
}

/// The longest reduction of a compiled function (dynamic ones counted as
/// 2^20 iterations).
fn longest_reduction(cf: &kiln_core::codegen::CompiledFunction) -> u64 {
    cf.dispatches
        .iter()
        .filter_map(|d| d.reduction)
        .map(|r| r.fixed().unwrap_or(1 << 20))
        .max()
        .unwrap_or(1)
}

fn compare(what: &str, gpu: &[Value], reference: &[Value], n: u64) -> Result<(), String> {
    if gpu.len() != reference.len() {
        return Err(format!(
            "{what}: {} results, the reference has {}",
            gpu.len(),
            reference.len()
        ));
    }
    for (i, (g, r)) in gpu.iter().zip(reference).enumerate() {
        let failure = match (g, r) {
            (Value::Tensor(g), Value::Tensor(r)) => {
                if g.elem.is_float() {
                    let (atol, rtol) = tolerance(g.elem, n);
                    check::almost_equal(g, r, atol, rtol)
                } else {
                    check::equal(g, r)
                }
            }
            (Value::Scalar(g), Value::Scalar(r)) => {
                let same = match (g, r) {
                    (eval::Scalar::Float(a), eval::Scalar::Float(b)) => {
                        a == b
                            || (a.is_nan() && b.is_nan())
                            || (a - b).abs() <= 1e-4 * b.abs().max(1.0)
                    }
                    _ => g.int() == r.int(),
                };
                (!same).then(|| format!("scalar {g:?} != reference {r:?}"))
            }
            _ => Some("a tensor where the reference has a scalar, or back".to_string()),
        };
        if let Some(f) = failure {
            return Err(format!("{what}: result {i}: {f}"));
        }
    }
    Ok(())
}

/// Runs `spirv-val --target-env vulkan1.x` on a binary.
fn spirv_val(
    name: &str,
    words: &[u32],
    env: kiln_core::validate::ValidationEnv,
) -> Result<(), String> {
    let dir = kiln_gpu_tests::scratch_dir();
    let path = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    let target = match env {
        kiln_core::validate::ValidationEnv::Vulkan1_0 => "vulkan1.0",
        kiln_core::validate::ValidationEnv::Vulkan1_1 => "vulkan1.1",
        kiln_core::validate::ValidationEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
        kiln_core::validate::ValidationEnv::Vulkan1_2 => "vulkan1.2",
        _ => "vulkan1.3",
    };
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", target])
        .arg(&path)
        .output()
        .map_err(|e| format!("cannot run spirv-val (ci/setup.sh installs it): {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name}: spirv-val --target-env {target}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The device's target without native 8/16/64-bit integers, `Float16` and
/// subgroup arithmetic: the emulated types and workgroup-memory trees.
pub fn minimal_target(device: &Device) -> kiln_core::codegen::CodegenTarget {
    use kiln_core::grammar::Capability::*;
    let mut t = device_target(device);
    let drop = [
        GroupNonUniformArithmetic,
        Float16,
        Int64,
        Int64Atomics,
        Int8,
        Int16,
        StorageBuffer8BitAccess,
        UniformAndStorageBuffer8BitAccess,
        StoragePushConstant8,
        StorageBuffer16BitAccess,
        UniformAndStorageBuffer16BitAccess,
        StoragePushConstant16,
    ];
    let caps: Vec<_> = t
        .env
        .capability_closure()
        .into_iter()
        .filter(|c| !drop.contains(c))
        .collect();
    t.env.vce.capabilities = caps;
    t
}

/// Checks one corpus file compiled for `target`; returns the failures.
pub fn check_file_for(
    device: &Device,
    path: &Path,
    target: kiln_core::codegen::CodegenTarget,
) -> Vec<String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let module = match kiln_core::tensor::load(&text) {
        Ok(m) => m,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut failures = Vec::new();
    // 1. The file's own checks, as `kiln run` runs them.
    let mut backend = DeviceBackend::with_target(device, target.clone());
    match e2e::run(
        &module,
        &mut backend as &mut dyn Backend,
        &RunOptions::default(),
    ) {
        Ok(report) if report.success() => {}
        Ok(report) => failures.push(format!("{name}: checks failed:\n{}", report.output)),
        Err(e) => failures.push(format!("{name}: {e}")),
    }
    // 2. GPU results against the reference, and spirv-val on every kernel.
    let compute = e2e::compute_module(&module).expect("an e2e file");
    let prepared = prepare_module(&compute).expect("stages 0 and 1");
    for &f in prepared.funcs() {
        let fname = prepared.func(f).name.clone();
        let what = format!("{name}: @{fname}");
        let cf = match compile_function(&prepared, f, &target) {
            Ok(cf) => cf,
            Err(e) => {
                failures.push(format!("{what}: {e}"));
                continue;
            }
        };
        let n = longest_reduction(&cf);
        for k in cf.dispatches.iter().flat_map(|d| &d.kernels) {
            if let Err(e) = spirv_val(&k.name, &k.words, k.validation_env) {
                failures.push(format!("{what}: {e}"));
            }
        }
        let program = CompiledProgram {
            target: target.clone(),
            functions: vec![cf],
        };
        let gpu = Program::load(device, program).and_then(|p| p.run(&fname, &[]));
        let reference = eval::run(&compute, &fname, &[]);
        match (gpu, reference) {
            (Ok(g), Ok(r)) => {
                if let Err(e) = compare(&what, &g, &r, n) {
                    failures.push(e);
                }
            }
            (Err(e), _) => failures.push(format!("{what}: device: {e}")),
            (_, Err(e)) => failures.push(format!("{what}: reference: {e}")),
        }
    }
    failures
}

/// Functions the emulated-types env refuses with a clear error instead of
/// running them: without Int64 kiln emulates i64 tensors in memory, not i64
/// values computed inside a region (an `arith.extsi` to i64 there), nor an
/// `arith.bitcast` between i64 and f64 (`edge_values_casts.mlir`).
const REFUSED_WITHOUT_INT64: &[&str] = &["cmpi_i64_of_sign_extended_i32", "bitcast_edges"];

/// Whether `failure` is one of those refusals and nothing else: it names
/// the missing capability and one of the functions above, and reports at
/// most one failing check.
fn refused_without_int64(failure: &str) -> bool {
    failure.contains("needs capability Int64")
        && REFUSED_WITHOUT_INT64.iter().any(|f| failure.contains(f))
        && failure.matches(": Failure").count() <= 1
}

/// Splits the corpus into `parts` shares of about equal size in bytes (a
/// file's size stands for its cost: its functions and their data), the
/// largest files first each to the lightest share, and returns share
/// `part`. The shares are separate tests so that they run side by side.
fn corpus_share(part: usize, parts: usize) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = corpus()
        .into_iter()
        .map(|p| (std::fs::metadata(&p).map_or(0, |m| m.len()), p))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut shares: Vec<(u64, Vec<PathBuf>)> = vec![(0, Vec::new()); parts];
    for (size, path) in files {
        let lightest = (0..parts).min_by_key(|&i| shares[i].0).unwrap();
        shares[lightest].0 += size;
        shares[lightest].1.push(path);
    }
    std::mem::take(&mut shares[part].1)
}

/// Checks one share of the corpus (see [`corpus_share`]).
fn check_part(part: usize, parts: usize) {
    check_part_for(part, parts, false);
}

fn check_part_for(part: usize, parts: usize, minimal: bool) {
    let device = device();
    let files = corpus_share(part, parts);
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in &files {
        let target = if minimal {
            minimal_target(&device)
        } else {
            device_target(&device)
        };
        let mut found = check_file_for(&device, f, target);
        if minimal {
            found.retain(|failure| !refused_without_int64(failure));
        }
        failures.extend(found);
    }
    assert_no_validation_messages(device.context());
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The numpy-computed corpus is what `tests/tensor/gen.py` writes (and
/// every file parses with mlir-opt-19): `python3 tests/tensor/gen.py --check`.
#[test]
fn corpus_matches_its_generator() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    kiln_gpu_tests::assert_generator_is_fresh(&root.join("tests/tensor/gen.py"));
}

#[test]
fn corpus_part_0() {
    check_part(0, 6);
}

#[test]
fn corpus_part_1() {
    check_part(1, 6);
}

#[test]
fn corpus_part_2() {
    check_part(2, 6);
}

#[test]
fn corpus_part_3() {
    check_part(3, 6);
}

#[test]
fn corpus_part_4() {
    check_part(4, 6);
}

#[test]
fn corpus_part_5() {
    check_part(5, 6);
}

#[test]
fn corpus_emulated_types_part_0() {
    check_part_for(0, 4, true);
}

#[test]
fn corpus_emulated_types_part_1() {
    check_part_for(1, 4, true);
}

#[test]
fn corpus_emulated_types_part_2() {
    check_part_for(2, 4, true);
}

#[test]
fn corpus_emulated_types_part_3() {
    check_part_for(3, 4, true);
}
