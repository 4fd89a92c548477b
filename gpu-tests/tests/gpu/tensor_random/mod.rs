//! Differential testing with random tensor programs (issues 30 §1, 31):
//! each seed's program ([`program::generate`]) runs on the reference
//! evaluator, on the device (lavapipe in CI, compiled for the device's
//! target as `kiln run` compiles) and on the CPU runner (compiled for
//! `cpu_target_env`, as `kiln run --cpu`), and the three results must
//! agree: integers and exact floats bit for bit (NaN equal to NaN), other
//! floats within the error model of `num.rs`. A program that one engine
//! refuses and another runs is a failure too (one verdict across
//! backends), and so is a panic. A program drawn out of bounds
//! ([`Program::fault`]: an index, offset or size past its dim, or
//! concatenated dims apart, a negative pad amount, known only at run time;
//! its result maybe read by later ops) must make every engine stop with an
//! error naming that op (issue 31): an engine that returns values for it,
//! or fails otherwise, is a finding.
//!
//! CI runs [`CI_SEEDS`] seeds; `KILN_DIFF_SEEDS=N` runs N seeds from
//! `KILN_DIFF_START` (default 0) instead, e.g.
//! `KILN_DIFF_SEEDS=2000 cargo test -p kiln-gpu-tests --test gpu --
//! tensor_random --nocapture`. On a mismatch it prints the program, its
//! inputs and the three results, and writes `seed-N.mlir` (inputs as
//! constants, checks against the reference's results) under
//! `target/tmp/tensor_random/`: `kiln run seed-N.mlir [--cpu]` reproduces it.
//! `KILN_DIFF_DUMP=DIR` writes every program's text there (to check them
//! with `mlir-opt-19`, an independent verifier). `KILN_DIFF_EMULATED_CPU=1`
//! adds a fifth engine: the emulated-types program on the CPU runner (the
//! emulated-types device's kernels but for texel-buffer reads, which the
//! CPU runner cannot run: a seed where only that device disagrees is then
//! most likely a lavapipe fault, `DRIVERS.md`, not kiln's).
//! `KILN_DIFF_WIDE_SHIFTS=0` draws no shifts by the bit width or more
//! (undefined in MLIR; every engine of kiln gives numpy's 0 or sign fill).
//! `KILN_DIFF_NO_CPU=1` leaves the CPU runner out (a machine without LLVM
//! 19's tools, such as a GPU machine the tests are carried to): the device
//! engines are then judged against the reference evaluator alone.

mod compare;
mod num;
mod program;

use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use kiln_core::codegen::{compile, CodegenTarget, DriverFacts};
use kiln_core::tensor::eval::{self, Value};
use kiln_cpu::{cpu_target_env, CpuProgram, DispatchOptions};
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program as DeviceProgram};

use crate::runtime_support::test_device;
use program::Program;

/// Seeds CI runs: 24 seeds took 52 s at a load of 11-12 on 2 cores
/// (reference 0.0 s, device 9.9 s, CPU runner 31.7 s: LLVM compiles each
/// kernel, emulated-types device 10.6 s), about 0.5 s a seed unloaded.
const CI_SEEDS: u64 = 16;

struct Engines {
    device: Device,
    device_target: CodegenTarget,
    /// The device without native 8/16/64-bit types and subgroup
    /// arithmetic (emulated types, workgroup-memory trees).
    minimal_target: CodegenTarget,
    cpu_target: CodegenTarget,
    cpu_options: DispatchOptions,
    /// With `KILN_DIFF_EMULATED_CPU`: [`Engines::minimal_target`]'s env
    /// with conservative driver facts (no texel-buffer reads, which the CPU
    /// runner has no conversion for; the kernels otherwise the same), and
    /// the CPU runner's options at that env's subgroup size.
    emulated_cpu: Option<(CodegenTarget, DispatchOptions)>,
    /// With `KILN_DIFF_NO_CPU`: the CPU runner's engines are skipped.
    no_cpu: bool,
}

impl Engines {
    fn new() -> Engines {
        let device = test_device(DeviceOptions {
            cache: CacheLocation::Disabled,
            ..DeviceOptions::default()
        });
        let device_target = device_target(&device);
        let minimal_target = crate::tensor_programs::minimal_target(&device);
        let emulated_cpu = std::env::var("KILN_DIFF_EMULATED_CPU")
            .is_ok_and(|v| v == "1")
            .then(|| {
                let t = CodegenTarget::new(minimal_target.env.clone(), DriverFacts::conservative());
                let options = DispatchOptions {
                    subgroup_size: t.subgroup_size(),
                    ..DispatchOptions::default()
                };
                (t, options)
            });
        let cpu_options = DispatchOptions::default();
        let cpu_target = CodegenTarget::new(
            cpu_target_env(cpu_options.subgroup_size),
            DriverFacts::conservative(),
        );
        Engines {
            device,
            device_target,
            minimal_target,
            cpu_target,
            cpu_options,
            emulated_cpu,
            no_cpu: crate::runtime_support::cpu_runner_left_out(),
        }
    }
}

type Run = Result<Vec<Value>, String>;

/// Runs `f`, a panic becoming an error.
fn guarded(f: impl FnOnce() -> Run) -> Run {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("PANIC: {msg}"))
    })
}

/// What one program did.
enum Outcome {
    Agree,
    /// Every engine refused it (the same verdict; not a wrong value).
    Refused(String),
    /// An out-of-bounds program every engine stopped with an error naming
    /// the op (issue 31: one verdict, no read out of bounds).
    Faulted,
    /// An out-of-bounds op no live op reads (fed into a generic whose
    /// region ignores it): every engine dropped it and returned the same
    /// values.
    DeadFault,
    Finding(String),
}

/// Runs `p` on the engines ([`ENGINES`]; the fifth only with
/// `e.emulated_cpu`), adding each one's time to `secs`.
fn run_program(e: &Engines, p: &Program, secs: &mut [f64; 5]) -> Vec<Run> {
    let n = if e.emulated_cpu.is_some() { 5 } else { 4 };
    let loaded = catch_unwind(AssertUnwindSafe(|| kiln_core::tensor::load(&p.text)));
    let module = match loaded {
        Ok(Ok(m)) => m,
        Ok(Err(err)) => return vec![Err(err.to_string()); n],
        Err(_) => return vec![Err("PANIC while loading".to_string()); n],
    };
    let t = Instant::now();
    let reference = guarded(|| eval::run(&module, "main", &p.inputs).map_err(|e| e.to_string()));
    secs[0] += t.elapsed().as_secs_f64();
    let t = Instant::now();
    let device = guarded(|| {
        let prog = compile(&module, &e.device_target).map_err(|e| e.to_string())?;
        DeviceProgram::load(&e.device, prog)
            .and_then(|d| d.run("main", &p.inputs))
            .map_err(|e| e.to_string())
    });
    secs[1] += t.elapsed().as_secs_f64();
    let t = Instant::now();
    let cpu = guarded(|| {
        if e.no_cpu {
            return Err(SKIPPED.to_string());
        }
        let prog = compile(&module, &e.cpu_target).map_err(|e| e.to_string())?;
        CpuProgram::load(prog, e.cpu_options.clone())
            .and_then(|c| c.run("main", &p.inputs))
            .map_err(|e| e.to_string())
    });
    secs[2] += t.elapsed().as_secs_f64();
    let t = Instant::now();
    let minimal = guarded(|| {
        let prog = compile(&module, &e.minimal_target).map_err(|e| e.to_string())?;
        DeviceProgram::load(&e.device, prog)
            .and_then(|d| d.run("main", &p.inputs))
            .map_err(|e| e.to_string())
    });
    secs[3] += t.elapsed().as_secs_f64();
    let mut runs = vec![reference, device, cpu, minimal];
    if let Some((target, options)) = &e.emulated_cpu {
        let t = Instant::now();
        runs.push(guarded(|| {
            let prog = compile(&module, target).map_err(|e| e.to_string())?;
            CpuProgram::load(prog, options.clone())
                .and_then(|c| c.run("main", &p.inputs))
                .map_err(|e| e.to_string())
        }));
        secs[4] += t.elapsed().as_secs_f64();
    }
    runs
}

/// The error of an engine left out (`KILN_DIFF_NO_CPU`): never judged.
const SKIPPED: &str = "engine skipped (KILN_DIFF_NO_CPU)";

const ENGINES: [&str; 5] = [
    "reference",
    "device",
    "cpu",
    "device (emulated types)",
    "cpu (emulated types)",
];

/// Whether `r`, the emulated-types device's run, is the refusal
/// `tensor_programs` documents (`REFUSED_WITHOUT_INT64` there): without
/// Int64, kiln emulates i64 tensors in memory but refuses i64 values
/// computed inside a region, with this clear error.
fn refused_without_int64(r: &Run) -> bool {
    r.as_ref()
        .err()
        .is_some_and(|e| e.contains("needs capability Int64") && !e.contains("PANIC"))
}

fn judge(p: &Program, runs: &[Run]) -> Outcome {
    // The engines judged: the emulated-types ones (3 and 4) not where they
    // give that refusal, and none that was skipped.
    let judged: Vec<usize> = (0..runs.len())
        .filter(|&i| i < 3 || !refused_without_int64(&runs[i]))
        .filter(|&i| runs[i].as_ref().err().is_none_or(|e| e != SKIPPED))
        .collect();
    // A fault fed into a generic whose region ignores it is dead: every
    // engine then returns values, compared as any program's (one verdict:
    // all stop naming the op, or none does).
    let dead_feed = p.extras.contains(&program::DEAD_FEED);
    if let Some(op) = p.fault {
        let all_returned = judged.iter().all(|&i| runs[i].is_ok());
        if !(dead_feed && all_returned) {
            return judge_fault(op, runs, &judged);
        }
    }
    let errors: Vec<&String> = judged
        .iter()
        .filter_map(|&i| runs[i].as_ref().err())
        .collect();
    if errors.len() == judged.len() && !errors.iter().any(|e| e.contains("PANIC")) {
        return Outcome::Refused(errors[0].clone());
    }
    let mut found = Vec::new();
    for &i in &judged {
        if let Err(e) = &runs[i] {
            found.push(format!("{} refused or failed: {e}", ENGINES[i]));
        }
    }
    if found.is_empty() {
        // Each engine against the reference, and the device against the
        // CPU runner.
        let mut pairs: Vec<(usize, usize)> = judged[1..].iter().map(|&j| (0, j)).collect();
        if judged.contains(&2) {
            pairs.push((1, 2));
        }
        for &(i, j) in &pairs {
            let (a, b) = (runs[i].as_ref().unwrap(), runs[j].as_ref().unwrap());
            if a.len() != p.results.len() || b.len() != p.results.len() {
                found.push(format!(
                    "{} / {}: result counts differ",
                    ENGINES[i], ENGINES[j]
                ));
                continue;
            }
            for (k, &(ty, num)) in p.results.iter().enumerate() {
                if let Some(d) = compare::differ(&a[k], &b[k], ty, num) {
                    found.push(format!("result {k}: {} vs {}: {d}", ENGINES[i], ENGINES[j]));
                }
            }
        }
    }
    if found.is_empty() && p.fault.is_some() {
        Outcome::DeadFault
    } else if found.is_empty() {
        Outcome::Agree
    } else {
        Outcome::Finding(found.join("\n"))
    }
}

/// A program whose `op` goes out of bounds at run time: every engine of
/// `judged` must fail, without a panic, with an error naming `op`.
fn judge_fault(op: &str, runs: &[Run], judged: &[usize]) -> Outcome {
    let mut found = Vec::new();
    for &i in judged {
        match &runs[i] {
            Ok(_) => found.push(format!(
                "{} returned values, but the program's {op} is out of bounds",
                ENGINES[i]
            )),
            Err(e) if e.contains("PANIC") || !e.contains(op) => found.push(format!(
                "{} failed without naming the out-of-bounds {op}: {e}",
                ENGINES[i]
            )),
            Err(_) => {}
        }
    }
    if found.is_empty() {
        Outcome::Faulted
    } else {
        Outcome::Finding(found.join("\n"))
    }
}

/// The program as an e2e file `kiln run` runs: the inputs as constants
/// (`flow.tensor.dynamic_constant` for dynamic ones) and a check of each
/// result against the reference evaluator's.
fn repro(seed: u64, p: &Program, reference: &Run) -> String {
    let mut s = format!("// tensor_random seed {seed}: expected values are kiln's reference evaluator's\nfunc.func @seed_{seed}() {{\n");
    for ((name, ty), v) in p.params.iter().zip(&p.inputs) {
        let t = match v {
            Value::Tensor(t) => t,
            Value::Scalar(x) => {
                // Only `index` arguments are scalars.
                let _ = writeln!(s, "  {name} = util.unfoldable_constant {} : {ty}", x.int());
                continue;
            }
        };
        let stat = static_ty(ty, &t.shape);
        if ty.contains('?') {
            let _ = writeln!(
                s,
                "  {name} = flow.tensor.dynamic_constant dense<{}> : {stat} -> {ty}",
                compare::dense(t)
            );
        } else {
            let _ = writeln!(
                s,
                "  {name} = util.unfoldable_constant dense<{}> : {ty}",
                compare::dense(t)
            );
        }
    }
    s.push_str(&p.body);
    if let Ok(r) = reference {
        for (k, ((name, ty), v)) in p.returns.iter().zip(r).enumerate() {
            let Value::Tensor(t) = v else { continue };
            let stat = static_ty(ty, &t.shape);
            let mut n = name.clone();
            if ty.contains('?') {
                n = format!("%result{k}");
                let _ = writeln!(s, "  {n} = tensor.cast {name} : {ty} to {stat}");
            }
            let (rty, num) = p.results[k];
            // `expect_eq_const` compares bytes, a NaN's sign too, which
            // neither MLIR nor the test's comparison pins (seed 7880: a
            // convolution with a NaN filter gives -NaN on the device);
            // `expect_almost_eq_const` takes any NaN for a NaN.
            let has_nan = (0..t.len()).any(
                |i| matches!(t.get(i), kiln_core::tensor::eval::Scalar::Float(f) if f.is_nan()),
            );
            if rty.is_float() && num.exact && has_nan {
                let _ = writeln!(
                    s,
                    "  check.expect_almost_eq_const({n}, dense<{}> : {stat}, atol 0.0, rtol 0.0) : {stat}",
                    compare::dense(t)
                );
            } else if num.exact || !rty.is_float() {
                let _ = writeln!(
                    s,
                    "  check.expect_eq_const({n}, dense<{}> : {stat}) : {stat}",
                    compare::dense(t)
                );
            } else {
                let tol = 8.0 * num.err + 2.0 * num::Num::ulp(num.bound, rty);
                let _ = writeln!(
                    s,
                    "  check.expect_almost_eq_const({n}, dense<{}> : {stat}, atol {tol:e}, rtol 0.0) : {stat}",
                    compare::dense(t)
                );
            }
        }
    }
    s.push_str("  return\n}\n");
    s
}

/// `ty` (`tensor<?x4xf32>`) with its `?` dims replaced by `shape`'s.
fn static_ty(ty: &str, shape: &[usize]) -> String {
    let elem = ty.trim_end_matches('>').rsplit('x').next().unwrap_or("f32");
    let elem = elem.trim_start_matches("tensor<");
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{elem}>")
}

fn report(seed: u64, p: &Program, runs: &[Run], what: &str) -> String {
    let mut s = format!("seed {seed}: {what}\n--- program\n{}--- inputs\n", p.text);
    for (i, v) in p.inputs.iter().enumerate() {
        let _ = writeln!(s, "%arg{i} = {}", compare::summary(v));
    }
    for (i, r) in runs.iter().enumerate() {
        let _ = writeln!(s, "--- {}", ENGINES[i]);
        match r {
            Ok(vals) => {
                for v in vals {
                    let _ = writeln!(s, "{}", compare::summary(v));
                }
            }
            Err(e) => {
                let _ = writeln!(s, "error: {e}");
            }
        }
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tensor_random");
    let path = dir.join(format!("seed-{seed}.mlir"));
    if std::fs::create_dir_all(&dir).is_ok()
        && std::fs::write(&path, repro(seed, p, &runs[0])).is_ok()
    {
        let _ = writeln!(s, "--- reproduce: kiln run {} [--cpu]", path.display());
    }
    s
}

fn seeds_from_env() -> (u64, u64) {
    let get = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    (
        get("KILN_DIFF_START").unwrap_or(0),
        get("KILN_DIFF_SEEDS").unwrap_or(CI_SEEDS),
    )
}

#[test]
fn tensor_random_differential() {
    let (start, count) = seeds_from_env();
    let engines = Engines::new();
    let t0 = Instant::now();
    let mut findings = Vec::new();
    let mut refused = Vec::new();
    let mut faulted = 0;
    let mut dead = 0;
    let mut secs = [0.0; 5];
    let mut extras = std::collections::BTreeMap::<&str, usize>::new();
    for seed in start..start + count {
        if (seed - start) % 100 == 99 {
            eprintln!(
                "tensor_random: {} programs, {} findings, {:.0} s",
                seed - start,
                findings.len(),
                t0.elapsed().as_secs_f64()
            );
        }
        let p = program::generate(seed);
        for e in &p.extras {
            *extras.entry(e).or_default() += 1;
        }
        if let Ok(dir) = std::env::var("KILN_DIFF_DUMP") {
            let _ = std::fs::write(format!("{dir}/seed-{seed}.mlir"), &p.text);
        }
        let runs = run_program(&engines, &p, &mut secs);
        match judge(&p, &runs) {
            Outcome::Agree => {}
            Outcome::Faulted => faulted += 1,
            Outcome::DeadFault => dead += 1,
            Outcome::Refused(e) => refused.push(format!("seed {seed}: {e}")),
            Outcome::Finding(f) => {
                let r = report(seed, &p, &runs, &f);
                eprintln!("{r}");
                findings.push(seed);
            }
        }
    }
    eprintln!(
        "tensor_random: {count} programs (seeds {start}..{}), {} refused by every engine, {faulted} out of bounds (every engine stopped, naming the op), {dead} out of bounds in an op no live op reads (every engine returned values), {} findings, {:.1} s",
        start + count,
        refused.len(),
        findings.len(),
        t0.elapsed().as_secs_f64()
    );
    eprintln!(
        "tensor_random: reference {:.1} s, device (compile + run) {:.1} s, cpu (compile + run) {:.1} s, device with emulated types {:.1} s, cpu with emulated types {:.1} s",
        secs[0], secs[1], secs[2], secs[3], secs[4]
    );
    eprintln!("tensor_random: programs with each draw of program/extras.rs: {extras:?}");
    for r in &refused {
        eprintln!("refused: {r}");
    }
    kiln_gpu_tests::assert_no_validation_messages(engines.device.context());
    assert!(
        findings.is_empty(),
        "engines disagree on seeds {findings:?}"
    );
    // The generator must keep producing programs kiln runs.
    assert!(
        refused.len() * 10 <= count as usize,
        "{} of {count} programs refused everywhere",
        refused.len()
    );
}
