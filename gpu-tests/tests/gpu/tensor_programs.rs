//! Tensor programs on the device (lavapipe in CI), validation layer on:
//! every end-to-end test file of the corpus (`gpu-tests/tests/tensor/`,
//! expected values from numpy in `gen.py` beside them) compiled by
//! kiln's tensor compiler and run through kiln-runtime. For every test
//! function: its checks pass, its results equal the CPU reference
//! evaluator's within a tolerance of its element type, every kernel binary
//! passes the `spirv-val` tool for its Vulkan env, and the validation layer
//! reports nothing. Each file is checked so a second time compiled for the
//! device without its native 8/16/64-bit types and subgroup arithmetic
//! ([`minimal_target`]): the functions whose programs then differ run
//! again (see [`check_file`]).

use std::path::{Path, PathBuf};

use kiln_core::codegen::target::{bounded_env, declared_env};
use kiln_core::codegen::{compile_each_function, CodegenTarget, CompiledFunction, CompiledProgram};
use kiln_core::tensor::e2e::{self, check, Backend, BackendError, RunOptions};
use kiln_core::tensor::eval::{self, Value};
use kiln_core::tensor::types::ElemType;
use kiln_core::tensor::TensorModule;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
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

/// Whether two compiled functions do the same on the device: everything
/// the runtime executes is equal (the host program, buffers, constants,
/// results, fault sites, and every dispatch's kernels with their words,
/// needs, bindings, push constants, sizes and guards). Only a dispatch's
/// strategy, its candidates and tuning key may differ: the runtime reads
/// none of them to run a program (the strategy records how the kernels
/// were made, e.g. which element types are emulated, and the tuner alone
/// reads the candidates).
fn same_on_device(a: &CompiledFunction, b: &CompiledFunction) -> bool {
    a.name == b.name
        && a.params == b.params
        && a.host == b.host
        && a.buffers == b.buffers
        && a.constants == b.constants
        && a.results == b.results
        && a.faults == b.faults
        && a.dispatches.len() == b.dispatches.len()
        && a.dispatches.iter().zip(&b.dispatches).all(|(x, y)| {
            x.name == y.name
                && x.family == y.family
                && x.op == y.op
                && x.loc == y.loc
                && x.points == y.points
                && x.reduction == y.reduction
                && x.kernels == y.kernels
        })
}

/// Each function of one corpus file compiled once for one target (bounded
/// by the file's declared env, as `kiln run` bounds it): its compiled
/// program, or its compile error as a backend reports it.
struct CompiledFile {
    functions: Vec<(String, Result<CompiledProgram, String>)>,
}

impl CompiledFile {
    fn new(compute: &TensorModule, target: &CodegenTarget) -> Result<CompiledFile, String> {
        let mut target = target.clone();
        if let Some(declared) = declared_env(compute).map_err(|e| e.to_string())? {
            target.env = bounded_env(&target.env, &declared);
        }
        let functions = compile_each_function(compute, &target)
            .map_err(|e| BackendError::chain(&e))?
            .into_iter()
            .map(|(name, program)| (name, program.map_err(|e| BackendError::chain(&e))))
            .collect();
        Ok(CompiledFile { functions })
    }

    fn program(&self, func: &str) -> Option<&Result<CompiledProgram, String>> {
        self.functions
            .iter()
            .find(|(name, _)| name == func)
            .map(|(_, p)| p)
    }
}

/// The device as an e2e backend that runs programs compiled beforehand
/// ([`CompiledFile`]) and keeps each function's results, so that one
/// compile and one device run serve the file's checks, spirv-val and the
/// comparison with the reference evaluator.
struct Recorder<'a> {
    device: &'a Device,
    compiled: &'a CompiledFile,
    results: Vec<(String, Result<Vec<Value>, String>)>,
}

impl Recorder<'_> {
    /// Runs `func` on the device (its compiled program loaded now and
    /// dropped after the run, as `DeviceBackend` does) and records the
    /// outcome.
    fn run_func(&mut self, func: &str) -> Result<Vec<Value>, String> {
        let result = match self.compiled.program(func) {
            None => Err(format!("no compiled function '@{func}'")),
            Some(Err(e)) => Err(e.clone()),
            Some(Ok(p)) => Program::load(self.device, p.clone())
                .and_then(|p| p.run(func, &[]))
                .map_err(|e| e.to_string()),
        };
        self.results.push((func.to_string(), result.clone()));
        result
    }

    fn recorded(&self, func: &str) -> Option<&Result<Vec<Value>, String>> {
        self.results
            .iter()
            .find(|(name, _)| name == func)
            .map(|(_, r)| r)
    }
}

impl Backend for Recorder<'_> {
    fn name(&self) -> &str {
        "vulkan"
    }

    fn prepare(&mut self, _module: &TensorModule) -> Result<(), BackendError> {
        // The programs were compiled from this same compute module
        // (`e2e::compute_module`) before the run.
        Ok(())
    }

    fn run(&mut self, _module: &TensorModule, func: &str) -> Result<Vec<Value>, BackendError> {
        self.run_func(func).map_err(BackendError)
    }
}

/// One corpus file: its e2e module, its compute module, and the reference
/// evaluator's results of each function (computed once, for every target
/// the file is checked for).
struct CorpusFile {
    name: String,
    module: TensorModule,
    compute: TensorModule,
    reference: Vec<(String, Result<Vec<Value>, String>)>,
}

impl CorpusFile {
    fn reference(&mut self, func: &str) -> Result<Vec<Value>, String> {
        if let Some((_, r)) = self.reference.iter().find(|(n, _)| n == func) {
            return r.clone();
        }
        let r = eval::run(&self.compute, func, &[]).map_err(|e| e.to_string());
        self.reference.push((func.to_string(), r.clone()));
        r
    }

    /// Whether `func` is one `e2e::run` runs (a public function with a
    /// body, not `__`-prefixed, no `$`).
    fn is_test(&self, func: &str) -> bool {
        self.module.funcs().iter().any(|&f| {
            let d = self.module.func(f);
            d.name == func
                && d.body.is_some()
                && d.visibility.as_deref().is_none_or(|v| v == "public")
                && !func.starts_with("__")
                && !func.contains('$')
        })
    }

    /// Checks `functions` of `compiled` (all of them when `functions` is
    /// every compiled function): the file's own checks as `kiln run` runs
    /// them, spirv-val on every kernel, and the same device results
    /// against the reference evaluator's. Returns the failures.
    fn check(
        &mut self,
        device: &Device,
        compiled: &CompiledFile,
        functions: &[&str],
    ) -> Vec<String> {
        let name = self.name.clone();
        let mut failures = Vec::new();
        let mut recorder = Recorder {
            device,
            compiled,
            results: Vec::new(),
        };
        let runs: Vec<Option<String>> = if functions.len() == compiled.functions.len() {
            vec![None]
        } else {
            functions
                .iter()
                .filter(|f| self.is_test(f))
                .map(|f| Some(f.to_string()))
                .collect()
        };
        for function in runs {
            let options = RunOptions {
                function,
                ..RunOptions::default()
            };
            match e2e::run(&self.module, &mut recorder as &mut dyn Backend, &options) {
                Ok(report) if report.success() => {}
                Ok(report) => failures.push(format!("{name}: checks failed:\n{}", report.output)),
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        for &fname in functions {
            let what = format!("{name}: @{fname}");
            let cf = match compiled.program(fname) {
                Some(Ok(p)) => &p.functions[0],
                Some(Err(e)) => {
                    failures.push(format!("{what}: {e}"));
                    continue;
                }
                None => unreachable!("a compiled function"),
            };
            let n = longest_reduction(cf);
            for k in cf.dispatches.iter().flat_map(|d| &d.kernels) {
                if let Err(e) = spirv_val(&k.name, &k.words, k.validation_env) {
                    failures.push(format!("{what}: {e}"));
                }
            }
            // A function e2e::run did not run (not a test) runs now.
            let gpu = match recorder.recorded(fname) {
                Some(r) => r.clone(),
                None => recorder.run_func(fname),
            };
            match (gpu, self.reference(fname)) {
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
}

/// Checks one corpus file on the device, compiled for the device's own
/// target and for [`minimal_target`] (emulated types, workgroup-memory
/// trees); returns the failures, those of the minimal target prefixed
/// `emulated types:`.
///
/// Each function is compiled once per target, and one device run of it
/// serves its checks and the comparison with the reference evaluator,
/// whose results both targets share. For the minimal target only the
/// functions whose compiled program does something else on the device
/// ([`same_on_device`]; or fails to compile on either side) are run and
/// checked again: a program equal to the native one computes exactly what
/// the native run just checked, so for those the comparison of the two
/// compiled programs is the check.
pub fn check_file(device: &Device, path: &Path) -> Vec<String> {
    check_file_for(device, path, &device_target(device), true)
}

/// [`check_file`] compiled for `target` (for the device's own target:
/// `device_target(device)`), and also for [`minimal_target`] when
/// `minimal`.
pub fn check_file_for(
    device: &Device,
    path: &Path,
    target: &CodegenTarget,
    minimal: bool,
) -> Vec<String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let module = match kiln_core::tensor::load(&text) {
        Ok(m) => m,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let compute = e2e::compute_module(&module).expect("an e2e file");
    let mut file = CorpusFile {
        name: name.clone(),
        module,
        compute,
        reference: Vec::new(),
    };
    let native = match CompiledFile::new(&file.compute, target) {
        Ok(c) => c,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let all: Vec<&str> = native.functions.iter().map(|(n, _)| n.as_str()).collect();
    let mut failures = file.check(device, &native, &all);
    if !minimal {
        return failures;
    }
    let minimal = match CompiledFile::new(&file.compute, &minimal_target(device)) {
        Ok(c) => c,
        Err(e) => {
            failures.push(format!("emulated types: {name}: {e}"));
            return failures;
        }
    };
    let differing: Vec<&str> = minimal
        .functions
        .iter()
        .filter(|(n, p)| match (p, native.program(n)) {
            (Ok(p), Some(Ok(b))) => {
                p.functions.len() != b.functions.len()
                    || !p
                        .functions
                        .iter()
                        .zip(&b.functions)
                        .all(|(x, y)| same_on_device(x, y))
            }
            _ => true,
        })
        .map(|(n, _)| n.as_str())
        .collect();
    let mut found = file.check(device, &minimal, &differing);
    found.retain(|failure| !refused_without_int64(failure));
    failures.extend(found.into_iter().map(|f| format!("emulated types: {f}")));
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

/// Checks one share of the corpus (see [`corpus_share`]) with
/// [`check_file`]. `KILN_CORPUS_ONLY=NAME` checks only the share's files
/// whose name contains `NAME` (as `gen.py --only`; a share may then check
/// none).
fn check_part(part: usize, parts: usize) {
    let device = device();
    let mut files = corpus_share(part, parts);
    assert!(!files.is_empty());
    if let Ok(only) = std::env::var("KILN_CORPUS_ONLY") {
        files.retain(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&only))
        });
    }
    let mut failures = Vec::new();
    for f in &files {
        failures.extend(check_file(&device, f));
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
    check_part(0, 8);
}

#[test]
fn corpus_part_1() {
    check_part(1, 8);
}

#[test]
fn corpus_part_2() {
    check_part(2, 8);
}

#[test]
fn corpus_part_3() {
    check_part(3, 8);
}

#[test]
fn corpus_part_4() {
    check_part(4, 8);
}

#[test]
fn corpus_part_5() {
    check_part(5, 8);
}

#[test]
fn corpus_part_6() {
    check_part(6, 8);
}

#[test]
fn corpus_part_7() {
    check_part(7, 8);
}
