//! Tensor programs on two backends: every test function of a few corpus
//! files (`tests/tensor/*.mlir`) compiled once by kiln's tensor compiler
//! for the device's target (so both run the same SPIR-V kernels) and run on
//! the Vulkan device (lavapipe in CI, kiln-runtime's `Program`) and on the
//! CPU through LLVM (kiln-cpu's `CpuProgram`, the device's subgroup size).
//! The results must agree: integers exactly, floats within [`MAX_ULPS`]
//! units in the last place of their type (of the larger magnitude, at
//! least of 1.0: see [`ulps`]). The kernels are the same, so only
//! transcendental functions — lavapipe's approximations against libm's —
//! may differ; each file's largest float distance is printed.

use kiln_core::codegen::{compile_function, prepare_module, CompiledProgram};
use kiln_core::tensor::e2e;
use kiln_core::tensor::eval::{Scalar, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_cpu::{CpuProgram, DispatchOptions};
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, DeviceOptions, Program};

use crate::runtime_support::test_device;
use crate::tensor_programs::corpus;

/// How many ulps of its type a float result may differ by between the
/// device and the CPU.
pub const MAX_ULPS: u64 = 8;

/// The distance between two floats of a type with `mant` mantissa bits,
/// in units in the last place of the larger magnitude, counted at least
/// at 1.0 (`|a - b| / ulp(max(|a|, |b|, 1))`, rounded up): relative for
/// large values, absolute near zero, where a transcendental function's
/// error is bounded absolutely (a `tanh` computed from `exp` loses the
/// relative precision of results close to zero). 0 when both are NaN or
/// equal, `u64::MAX` when only one is NaN or infinite.
fn ulps(a: f64, b: f64, mant: i32) -> u64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    if !a.is_finite() || !b.is_finite() {
        return u64::MAX;
    }
    let m = a.abs().max(b.abs()).max(1.0);
    let ulp = 2f64.powi(m.log2().floor() as i32 - mant);
    ((a - b).abs() / ulp).ceil() as u64
}

/// The largest float distance ([`ulps`]) between two tensors of the same
/// type; an error at the first integer that differs.
fn distance(dev: &Tensor, cpu: &Tensor) -> Result<u64, String> {
    if dev.elem != cpu.elem || dev.len() != cpu.len() {
        return Err(format!(
            "{} {}s, the CPU gave {} {}s",
            dev.len(),
            dev.elem,
            cpu.len(),
            cpu.elem
        ));
    }
    let mant = match dev.elem {
        ElemType::F16 => 10,
        ElemType::BF16 => 7,
        ElemType::F32 => 23,
        ElemType::F64 => 52,
        _ => {
            return match (0..dev.len()).find(|&i| dev.get(i).int() != cpu.get(i).int()) {
                None => Ok(0),
                Some(i) => Err(format!(
                    "element {i}: device {:?}, CPU {:?}",
                    dev.get(i),
                    cpu.get(i)
                )),
            }
        }
    };
    Ok((0..dev.len())
        .map(|i| ulps(dev.get(i).float(), cpu.get(i).float(), mant))
        .max()
        .unwrap_or(0))
}

/// Compares one function's results; returns the largest float distance.
fn compare(dev: &[Value], cpu: &[Value]) -> Result<u64, String> {
    if dev.len() != cpu.len() {
        return Err(format!("{} results, the CPU gave {}", dev.len(), cpu.len()));
    }
    let mut worst = 0;
    for (i, (d, c)) in dev.iter().zip(cpu).enumerate() {
        let at = |e: String| format!("result {i}: {e}");
        match (d, c) {
            (Value::Tensor(d), Value::Tensor(c)) => {
                if d.shape != c.shape {
                    return Err(at(format!("shape {:?}, the CPU's {:?}", d.shape, c.shape)));
                }
                worst = worst.max(distance(d, c).map_err(at)?);
            }
            (Value::Scalar(d), Value::Scalar(c)) => {
                let same = match (d, c) {
                    (Scalar::Float(a), Scalar::Float(b)) => ulps(*a, *b, 23) <= MAX_ULPS,
                    _ => d.int() == c.int(),
                };
                if !same {
                    return Err(at(format!("device {d:?}, CPU {c:?}")));
                }
            }
            _ => return Err(at("a tensor on one backend, a scalar on the other".into())),
        }
    }
    Ok(worst)
}

#[test]
fn tensor_programs_give_the_device_results_on_the_cpu() {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    });
    let mut target = device_target(&device);
    // The CPU runner has no image types: both backends run the programs
    // compiled with storage-buffer reads (texel reads are compared with
    // those on the device by `tensor_texel`).
    target.facts.texel_reads = None;
    let options = DispatchOptions {
        subgroup_size: target.env.limits.subgroup_size,
        ..DispatchOptions::default()
    };
    let wanted = [
        "elementwise_f32",
        "elementwise_f16",
        "math_f32",
        "matmul_int",
        "softmax",
        "linalg_reduce",
        "odd_sizes",
        "dynamic_programs",
    ];
    let files: Vec<_> = corpus()
        .into_iter()
        .filter(|p| {
            wanted
                .iter()
                .any(|w| p.file_stem().is_some_and(|s| s == *w))
        })
        .collect();
    assert_eq!(files.len(), wanted.len(), "corpus files missing");
    let mut failures = Vec::new();
    let mut functions = 0;
    for path in &files {
        let (n, worst, found) = run_file_on_both(&device, &target, &options, path);
        functions += n;
        failures.extend(found);
        let name = path.file_stem().unwrap().to_string_lossy();
        eprintln!("{name}: largest float difference device vs CPU: {worst} ulps");
    }
    kiln_gpu_tests::assert_no_validation_messages(device.context());
    assert!(functions >= 30, "only {functions} functions compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs every function of corpus file `path`, compiled once for `target`,
/// on `device` and on the CPU with `options`; returns how many functions
/// ran, the largest float distance and the disagreements (beyond
/// [`MAX_ULPS`]). Panics where a backend fails to run one.
pub(crate) fn run_file_on_both(
    device: &kiln_runtime::Device,
    target: &kiln_core::codegen::CodegenTarget,
    options: &DispatchOptions,
    path: &std::path::Path,
) -> (usize, u64, Vec<String>) {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let module = kiln_core::tensor::load(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let compute = e2e::compute_module(&module).expect("an e2e file");
    let prepared = prepare_module(&compute).expect("stages 0 and 1");
    let (mut functions, mut worst, mut failures) = (0, 0, Vec::new());
    for &f in prepared.funcs() {
        let fname = prepared.func(f).name.clone();
        let what = format!("{name}: @{fname}");
        let cf = compile_function(&prepared, f, target).unwrap_or_else(|e| panic!("{what}: {e}"));
        let program = CompiledProgram {
            target: target.clone(),
            functions: vec![cf],
        };
        let dev = Program::load(device, program.clone())
            .and_then(|p| p.run(&fname, &[]))
            .unwrap_or_else(|e| panic!("{what}: device: {e}"));
        let cpu = CpuProgram::load(program, options.clone())
            .and_then(|p| p.run(&fname, &[]))
            .unwrap_or_else(|e| panic!("{what}: CPU: {e}"));
        functions += 1;
        match compare(&dev, &cpu) {
            Ok(d) if d <= MAX_ULPS => worst = worst.max(d),
            Ok(d) => failures.push(format!("{what}: floats differ by {d} ulps")),
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    (functions, worst, failures)
}

#[test]
fn ulp_distance_is_what_it_says() {
    let next = f64::from(f32::from_bits(1f32.to_bits() + 1));
    assert_eq!(ulps(1.0, 1.0, 23), 0);
    assert_eq!(ulps(1.0, next, 23), 1);
    assert_eq!(ulps(-0.0, 0.0, 23), 0);
    assert_eq!(ulps(f64::NAN, f64::NAN, 23), 0);
    assert_eq!(ulps(f64::NAN, 0.0, 23), u64::MAX);
    assert_eq!(ulps(f64::INFINITY, 1.0, 23), u64::MAX);
    // Relative above 1.0: 1024 and its next f32 are 1 ulp apart.
    let big = f64::from(f32::from_bits(1024f32.to_bits() + 1));
    assert_eq!(ulps(1024.0, big, 23), 1);
    // Absolute below: 2^-30 apart near 0.001 is 2^-7 of an ulp of 1.0.
    assert_eq!(ulps(0.001, 0.001 + 2f64.powi(-30), 23), 1);
    assert_eq!(ulps(0.001, 0.001 + 2f64.powi(-20), 23), 8);
    // f16: 1.0 and 1.0 + 2^-10 are 1 ulp apart.
    assert_eq!(ulps(1.0, 1.0 + 2f64.powi(-10), 10), 1);
    assert!(compare(
        &[Value::Scalar(Scalar::Int(3))],
        &[Value::Scalar(Scalar::Int(4))]
    )
    .is_err());
}
