//! `kiln bench`: kiln beside IREE and the machine's measured limits, in
//! one run on one device.
//!
//! ```text
//! kiln bench [--quick] [--runs N] [--json] [--json-out OUT.json] [--chart OUT.svg] [--no-iree] [--iree DIR] [--device SEL]
//! kiln bench MODEL.onnx [--input NAME=SPEC ...] [--runs N] [--json]
//! kiln bench FILE [--function NAME] [--input SHAPExTYPE=VALUE|@FILE.npy ...] [--grid X,Y,Z] [--runs N] [--json]
//! ```
//!
//! Without FILE it runs kiln's benchmark set ([`suite`]): the device's
//! limits (hand-written GLSL through kiln-runtime; the copy and read-sum
//! bandwidths each the faster of a storage-buffer-read and a
//! texel-buffer-read kernel, both rates in the notes), the host's (a STREAM
//! add and read-sum on every core, numpy's sgemm when numpy is there),
//! each program through kiln and through IREE's Vulkan and CPU backends
//! (when IREE is installed: `ci/setup-iree.sh`), the dispatch overhead and
//! the compile time of a memref-level kernel. On a GPU it adds matmul
//! 4096³ (f32, and f16 into f32) and a column for the vendor's BLAS on
//! every matmul: cuBLAS through PyTorch's CUDA build, when the interpreter
//! has it ([`vendor`]; fp32 without TF32), with kiln's ratio to it.
//! `--quick` runs tiny sizes of what kiln runs (no IREE, no numpy, no
//! vendor BLAS) in seconds: the CI smoke test.
//!
//! With an ONNX model it runs the model on the device beside onnxruntime's
//! CPU provider and IREE's Vulkan backend ([`onnx_model`]).
//!
//! With FILE it benches the file's functions the same way: a tensor-level
//! program (`func.func` on tensors) through kiln and IREE with the given
//! inputs (IREE's two backends cross-checked, kiln's outputs checked
//! against IREE's); a memref-level kernel
//! module or a SPIR-V binary through kiln-runtime over `--grid` workgroups,
//! one `--input` per kernel argument, outputs included.
//!
//! Every time is wall-clock per call as `iree-benchmark-module` measures it
//! (inputs on the device; the call allocates its outputs, records, submits,
//! waits), after warm-up calls (250 ms; 3 s on a GPU, whose clock must
//! ramp up after idling), plus the GPU time of the dispatches of as many
//! calls again, from timestamps (the timed calls write none:
//! see [`kiln_runtime::bench::stats`]); each output is checked before timing:
//! against the set's host reference, else against IREE's outputs, and
//! where kiln and IREE differ, against kiln's reference evaluator (the
//! [`arbiter`]). Tensor-level programs compile through
//! [`kiln_runtime::bench::compile_tensor_function`], the runtime's plug-in
//! point for the tensor compiler. Exit status 1 when a FILE's kiln row
//! could not be measured.

mod arbiter;
pub(crate) mod array;
mod chart;
mod iree;
mod numpy;
mod onnx_model;
mod reference;
mod report;
mod suite;
mod vendor;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use kiln_runtime::bench::limits::{fastest, Access, HandWritten};
use kiln_runtime::bench::program::{first_call, time_callable};
use kiln_runtime::bench::{
    compile, compile_tensor_function, host, overhead, BenchError, Callable, KernelCall,
};
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, DeviceSelector, KernelSource};

use self::array::HostArray;
use self::iree::{Iree, Target};
use self::reference::Reference;
use self::report::{Bench, Impl, Limits, Measured, Report};
use self::suite::{Kind, Program};
use crate::Outcome;

/// Arguments of `kiln bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A program to bench: tensor-level MLIR (func.func on tensors), a
    /// memref-level kernel module (gpu.module), or a SPIR-V binary. Without
    /// it: kiln's benchmark set.
    pub file: Option<PathBuf>,
    /// The function (or kernel, or entry point) to bench (default: every
    /// public function of a tensor program; the only kernel of a module).
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// An input, as iree-benchmark-module takes it: SHAPExTYPE=VALUE
    /// (`1024x1024xf32=1`), SHAPExTYPE=V0 V1 ..., SHAPExTYPE=@raw.bin, or
    /// @file.npy. Repeat in argument order.
    #[arg(long = "input", value_name = "SPEC")]
    pub inputs: Vec<String>,
    /// Workgroups of a memref or SPIR-V kernel.
    #[arg(long, value_name = "X,Y,Z")]
    pub grid: Option<String>,
    /// Timed calls per row, after warm-up calls (250 ms; 3 s on a GPU, whose clock must ramp up) (default 10; 3 with --quick).
    #[arg(long, value_name = "N")]
    pub runs: Option<usize>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Tiny sizes of everything kiln runs, no IREE, no numpy (seconds).
    #[arg(long, conflicts_with = "file")]
    pub quick: bool,
    /// Also write the JSON to this file (the table still goes to stdout).
    #[arg(long, value_name = "OUT.json")]
    pub json_out: Option<PathBuf>,
    /// Write the chart (SVG) here.
    #[arg(long, value_name = "OUT.svg")]
    pub chart: Option<PathBuf>,
    /// Do not run IREE.
    #[arg(long)]
    pub no_iree: bool,
    /// Where IREE is: a virtual environment from ci/setup-iree.sh or a
    /// folder with iree-compile, iree-run-module, iree-benchmark-module
    /// (default: KILN_IREE_VENV, ~/.cache/kiln/iree-venv, PATH).
    #[arg(long, value_name = "DIR")]
    pub iree: Option<PathBuf>,
    /// An extra `iree-compile` flag, e.g. `--iree-flag=--iree-vulkan-target=ampere`
    /// (IREE's default Vulkan target is a conservative generic one). Repeat
    /// for several.
    #[arg(long = "iree-flag", value_name = "FLAG", allow_hyphen_values = true)]
    pub iree_flags: Vec<String>,
    /// Keep IREE's compiled modules in DIR and reuse them (named by a hash
    /// of the program and the flags): modules compiled on one machine run
    /// on another that has only IREE's runtime tools.
    #[arg(long, value_name = "DIR")]
    pub iree_modules: Option<PathBuf>,
    /// Only compile IREE's modules into `--iree-modules` (no device, no
    /// timing), for running them on another machine.
    #[arg(long, requires = "iree_modules")]
    pub iree_compile_only: bool,
    /// The IREE targets run: `vulkan`, `cpu` (repeat; default both).
    #[arg(long = "iree-target", value_name = "TARGET")]
    pub iree_targets: Vec<String>,
    /// Stop `iree-benchmark-module` after SECS seconds; its column then
    /// says so (default: no limit).
    #[arg(long, value_name = "SECS")]
    pub iree_timeout: Option<u64>,
    /// ONNX models: IREE's timed calls (default: `--runs`), for models
    /// whose IREE calls take minutes on a CPU device.
    #[arg(long, value_name = "N")]
    pub iree_runs: Option<usize>,
    /// Device: an index from `kiln devices`, or part of a device name.
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Self> {
        let dir = std::env::temp_dir().join(format!("kiln-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Self(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn device_options(args: &BenchArgs) -> DeviceOptions {
    DeviceOptions {
        device: args
            .device
            .as_deref()
            .map_or(DeviceSelector::Default, DeviceSelector::parse),
        cache: CacheLocation::Default,
        ..DeviceOptions::default()
    }
}

fn loadavg() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn find_iree(args: &BenchArgs) -> Result<Iree> {
    let targets = args
        .iree_targets
        .iter()
        .map(|t| Target::parse(t))
        .collect::<Result<Vec<_>>>()?;
    let mut iree = Iree::find(
        args.iree.as_deref(),
        args.iree_flags.clone(),
        args.iree_modules.clone(),
        targets,
    )?;
    iree.timeout = args.iree_timeout.map(std::time::Duration::from_secs);
    Ok(iree)
}

/// `--iree-compile-only`: the modules of the set (or of FILE) compiled
/// into `--iree-modules`, with no device opened.
fn compile_iree_modules(args: &BenchArgs, scratch: &Path) -> Result<Outcome> {
    let iree = find_iree(args)?;
    let sources: Vec<(String, PathBuf)> = match &args.file {
        Some(file) => vec![(
            "program".to_owned(),
            file.canonicalize().unwrap_or_else(|_| file.clone()),
        )],
        // GPU-only programs too: modules compiled here run on a GPU elsewhere.
        None => suite::programs(false, true)
            .into_iter()
            .map(|p| {
                let src = scratch.join(format!("{}.mlir", p.name));
                std::fs::write(&src, &p.text)
                    .with_context(|| format!("cannot write {}", src.display()))?;
                Ok((p.name.to_owned(), src))
            })
            .collect::<Result<_>>()?,
    };
    let mut failed = false;
    for (stem, src) in &sources {
        for &target in &iree.targets {
            match iree.compile(target, src, scratch, stem) {
                Ok((module, took)) => println!(
                    "{stem} ({}): {}{}",
                    target.label(),
                    module.display(),
                    took.map_or(" (kept)".to_owned(), |t| format!(
                        " in {:.2} s",
                        t.as_secs_f64()
                    ))
                ),
                Err(e) => {
                    failed = true;
                    println!("{stem} ({}): {e}", target.label());
                }
            }
        }
    }
    Ok(if failed {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}

/// Runs `kiln bench`.
pub fn run(args: &BenchArgs) -> Result<Outcome> {
    let runs = args.runs.unwrap_or(if args.quick { 3 } else { 10 }).max(1);
    if args.iree_compile_only {
        if let Some(file) = args
            .file
            .as_deref()
            .filter(|f| crate::commands::onnx::is_onnx_path(f))
        {
            // IREE's side of an ONNX model goes through iree-import-onnx
            // with the inputs' shapes fixed, which only a full run does.
            bail!(
                "{}: --iree-compile-only takes tensor programs, not ONNX models; \
                 `kiln bench MODEL.onnx --iree-modules DIR` compiles IREE's module and keeps it",
                file.display()
            );
        }
        let scratch = Scratch::new()?;
        return compile_iree_modules(args, &scratch.0);
    }
    if let Some(file) = args
        .file
        .as_deref()
        .filter(|f| crate::commands::onnx::is_onnx_path(f))
    {
        return onnx_model::run(args, file, runs);
    }
    let options = device_options(args);
    let device = Device::new(&options).context("cannot open the Vulkan device")?;
    let scratch = Scratch::new()?;
    let iree = if args.quick || args.no_iree {
        Err(if args.quick {
            "not run with --quick".to_owned()
        } else {
            "--no-iree".to_owned()
        })
    } else {
        find_iree(args).map_err(|e| e.to_string())
    };
    let load_before = loadavg();
    let mut report = match &args.file {
        None => run_suite(args, &device, &options, runs, &iree, &scratch.0)?,
        Some(file) => run_file(args, file, &device, runs, &iree, &scratch.0)?,
    };
    if let (Some(a), Some(b)) = (load_before, loadavg()) {
        report.notes.push(format!(
            "load average {a} at the start, {b} at the end, on {} cores: absolute figures are noisy on a shared machine; compare ratios within one run",
            host::host_threads()
        ));
    }
    if let Some(path) = &args.chart {
        chart::write_svg(&report, path)?;
    }
    if let Some(path) = &args.json_out {
        let text = serde_json::to_string_pretty(&report.json())? + "\n";
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report.json())?);
    } else {
        print!("{}", report.table());
    }
    let kiln_failed = args.file.is_some()
        && report
            .benches
            .iter()
            .any(|b| b.impls.first().is_some_and(|i| i.result.is_err()));
    Ok(if kiln_failed {
        for b in &report.benches {
            if let Some(Err(e)) = b.impls.first().map(|i| &i.result) {
                eprintln!("error: kiln: {e}");
            }
        }
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}

fn device_name(device: &Device) -> String {
    let info = device.info();
    let kind = format!("{:?}", info.device_type).to_lowercase();
    format!("{}, a {kind} device", info.name)
}

/// The benchmark set (full or `--quick`).
fn run_suite(
    args: &BenchArgs,
    device: &Device,
    options: &DeviceOptions,
    runs: usize,
    iree: &Result<Iree, String>,
    scratch: &Path,
) -> Result<Report> {
    let quick = args.quick;
    let msg = |e: BenchError| e.to_string();
    let n = if quick { 1 << 14 } else { 1 << 24 };
    let threads = host::host_threads();
    let hand = HandWritten::load(device).map_err(|e| anyhow!("{e}"))?;
    // A GPU needs far more invocations than lavapipe's cores to reach its
    // arithmetic peak: 2,048 workgroups there (an H200 ran 64 at 15.7
    // TFLOP/s, a quarter of its fp32 rate).
    let gpu = matches!(
        device.info().device_type,
        kiln_vulkan::DeviceType::DiscreteGpu
            | kiln_vulkan::DeviceType::IntegratedGpu
            | kiln_vulkan::DeviceType::VirtualGpu
    );
    let (fma_groups, fma_iters) = if quick {
        (2, 16)
    } else if gpu {
        (2048, 1024)
    } else {
        (64, 1024)
    };
    // The copy runs with storage-buffer reads, with texel-buffer reads and
    // with texel reads and 64-bit word stores, the read-sum with the first
    // two; each limit is the fastest, all said in the notes.
    let measure_limits = |when: &str, notes: &mut Vec<String>| {
        let (device_copy, copy_note) = fastest(
            &format!("device copy limit ({when})"),
            Access::ALL
                .iter()
                .map(|&a| hand.copy_with(a, device, n, runs))
                .collect(),
        );
        let (device_read, read_note) = fastest(
            &format!("device read limit ({when})"),
            vec![
                hand.read_sum(device, n, runs),
                hand.read_sum_with(Access::TexelBuffer, device, n, runs),
            ],
        );
        notes.extend([copy_note, read_note]);
        Limits {
            device_copy: device_copy.map_err(msg),
            device_read: device_read.map_err(msg),
            device_fma: hand.fma(device, fma_groups, fma_iters, runs).map_err(msg),
            host_add: host::stream_add(n, threads, runs).map_err(msg),
            host_read: host::read_sum(n, threads, runs).map_err(msg),
            host_sgemm: if quick {
                Err("not run with --quick".to_owned())
            } else {
                numpy::sgemm(1024, runs).map_err(|e| e.to_string())
            },
        }
    };
    let mut limit_notes = Vec::new();
    let limits = measure_limits("start of the run", &mut limit_notes);
    // The vendor's BLAS beside the matmuls, on GPUs (not with --quick).
    let vendor_blas = (gpu && !quick).then(vendor::find);
    match &vendor_blas {
        Some(Ok(t)) => limit_notes.push(format!(
            "the {} column: torch {} on CUDA device 0, {} (TF32 off)",
            report::VENDOR,
            t.version,
            t.device
        )),
        Some(Err(e)) => limit_notes.push(format!("the {} column is empty: {e}", report::VENDOR)),
        None => {}
    }
    let mut report = Report {
        mode: if quick { "quick" } else { "suite" },
        device: device_name(device),
        host_threads: threads,
        runs,
        iree: iree
            .as_ref()
            .map(|i| i.version.clone())
            .map_err(Clone::clone),
        limits: Some(limits),
        benches: Vec::new(),
        overhead: None,
        compile: None,
        iree_compile: Vec::new(),
        notes: limit_notes,
    };
    for program in suite::programs(quick, gpu) {
        let mut impls = Vec::new();
        // Inputs and the reference, made once, only when something runs.
        let mut data: Option<(Vec<HostArray>, Reference)> = None;
        let mut data_for = |p: &Program| -> (Vec<HostArray>, Reference) {
            data.get_or_insert_with(|| p.kind.inputs_and_reference())
                .clone()
        };
        impls.push(Impl {
            label: report::KILN,
            on_host: false,
            result: kiln_tensor(device, &program.text, program.function, runs, || {
                let (inputs, reference) = data_for(&program);
                (inputs, Expected::Reference(reference))
            }),
        });
        if let Kind::Add { n: add_n } = program.kind {
            let (inputs, reference) = data_for(&program);
            let (memref_text, memref_grid) = suite::memref_add(add_n);
            impls.push(Impl {
                label: report::KILN_MEMREF,
                on_host: false,
                result: kiln_memref_add(
                    device,
                    &memref_text,
                    memref_grid,
                    &inputs,
                    &reference,
                    add_n,
                    runs,
                ),
            });
            impls.push(Impl {
                label: report::GLSL,
                on_host: false,
                result: hand
                    .add(device, add_n, runs)
                    .map_err(msg)
                    .as_ref()
                    .map(|m| Measured {
                        timing: m.timing,
                        checked: m.checked.clone(),
                    })
                    .map_err(Clone::clone),
            });
            for (label, access) in [
                (report::GLSL_TEXEL, Access::TexelBuffer),
                (report::GLSL_WORDS, Access::TexelWords),
            ] {
                impls.push(Impl {
                    label,
                    on_host: false,
                    result: hand
                        .add_with(access, device, add_n, runs)
                        .map_err(msg)
                        .map(|m| Measured {
                            timing: m.timing,
                            checked: m.checked,
                        }),
                });
            }
        }
        let vendor_here = vendor_blas
            .as_ref()
            .filter(|_| matches!(program.kind, Kind::Matmul { .. } | Kind::MatmulF16 { .. }));
        // The inputs as .npy files, for IREE and the vendor's script.
        let files = if iree.is_ok() || vendor_here.is_some_and(Result::is_ok) {
            write_inputs(scratch, program.name, &data_for(&program).0)?
        } else {
            Vec::new()
        };
        if let Some(torch) = vendor_here {
            let result = torch.as_ref().map_err(Clone::clone).and_then(|torch| {
                let (_, reference) = data_for(&program);
                let out = scratch.join(format!("{}.vendor.out.npy", program.name));
                // Both matmuls of the set return f32.
                vendor::matmul(torch, &files, &out, DType::F32, runs, &reference)
            });
            impls.push(Impl {
                label: report::VENDOR,
                on_host: false,
                result,
            });
        }
        if let Ok(iree) = iree {
            let (_, reference) = data_for(&program);
            let src = scratch.join(format!("{}.mlir", program.name));
            std::fs::write(&src, &program.text)
                .with_context(|| format!("cannot write {}", src.display()))?;
            let specs: Vec<String> = files.iter().map(|p| format!("@{}", p.display())).collect();
            for &target in &iree.targets {
                let result = iree_row(
                    iree,
                    target,
                    &src,
                    program.name,
                    program.function,
                    &specs,
                    1,
                    runs,
                    scratch,
                    |outs| {
                        let out = outs
                            .first()
                            .ok_or_else(|| "no output from iree-run-module".to_owned())?;
                        reference::check(out, &reference).map_err(|e| format!("wrong result: {e}"))
                    },
                );
                if let Some(t) = result.compile_time {
                    report
                        .iree_compile
                        .push((program.name.to_owned(), target.label(), t));
                }
                impls.push(Impl {
                    label: target.label(),
                    on_host: target == Target::Cpu,
                    result: result.measured,
                });
            }
        }
        for p in &files {
            let _ = std::fs::remove_file(p);
        }
        report.benches.push(Bench {
            name: program.name.to_owned(),
            title: program.title,
            short: program.short,
            work: Some(program.kind.work()),
            limit: Some(program.kind.limit()),
            impls,
        });
    }
    // The limits again at the end: each is the faster of the two (the
    // machine's load drifts during a run).
    if let Some(first) = report.limits.take() {
        let again = measure_limits("end of the run", &mut report.notes);
        let (best, note) = first.best_of(again);
        report.limits = Some(best);
        report.notes.push(note);
    }
    report.overhead = Some(
        overhead::dispatch_overhead(device, if quick { runs } else { 41.max(runs) })
            .map_err(|e| e.to_string()),
    );
    let (memref_text, _) = suite::memref_add(n);
    report.compile = Some(
        compile::compile_times(options, &memref_text, suite::MEMREF_ADD.1, runs)
            .map_err(|e| e.to_string()),
    );
    if iree.is_err() {
        report
            .notes
            .push("the IREE columns are empty: IREE did not run".to_owned());
    }
    Ok(report)
}

/// Writes `inputs` into `scratch` as `.npy` files (`NAME.in0.npy`, ...), as
/// `iree-run-module --input=@FILE` and the vendor's script read them.
fn write_inputs(scratch: &Path, name: &str, inputs: &[HostArray]) -> Result<Vec<PathBuf>> {
    inputs
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let p = scratch.join(format!("{name}.in{k}.npy"));
            std::fs::write(&p, array::write_npy(a))
                .with_context(|| format!("cannot write {}", p.display()))?;
            Ok(p)
        })
        .collect()
}

/// kiln's row for a tensor-level program: compiled through the plug-in
/// point, called on uploaded inputs, checked against `reference` (when
/// there is one), timed. `data` makes the inputs and reference only once
/// the program compiled.
fn kiln_tensor(
    device: &Device,
    text: &str,
    function: &str,
    runs: usize,
    data: impl FnOnce() -> (Vec<HostArray>, Expected),
) -> Result<Measured, String> {
    let callable = compile_tensor_function(device, text, function).map_err(|e| e.to_string())?;
    let (inputs, expected) = data();
    measure_callable(device, callable.as_ref(), &inputs, runs, |outs| {
        match (expected, outs.first()) {
            (Expected::Reference(r), Some(out)) => {
                reference::check(out, &r).map_err(|e| format!("wrong result: {e}"))
            }
            (Expected::Reference(_), None) => Err("the call returned no output".to_owned()),
            (Expected::Outputs(label, want), _) => match compare_outputs(&want, outs) {
                Ok(d) => Ok(format!("agrees with {label} ({d})")),
                // The two differ: the reference evaluator says which is off.
                Err(differ) => {
                    eprintln!(
                        "kiln bench: @{function}: kiln and {label} differ ({differ}); running kiln's reference evaluator"
                    );
                    match arbiter::check(text, function, &inputs, outs) {
                        Ok(d) => Ok(format!(
                            "agrees with kiln's reference evaluator ({d}); {label} differs: {differ}"
                        )),
                        Err(e) => Err(format!(
                            "{differ}; kiln's reference evaluator: {e}"
                        )),
                    }
                }
            },
            (Expected::Nothing, _) => {
                Ok("not checked: no reference and no IREE output for this program".to_owned())
            }
        }
    })
}

/// What kiln's outputs of a tensor program are checked against.
enum Expected {
    /// The set's host reference (of the first output).
    Reference(Reference),
    /// Another implementation's outputs (its label).
    Outputs(&'static str, Vec<HostArray>),
    /// Nothing to check against.
    Nothing,
}

/// Uploads `inputs`, calls once, checks the outputs with `check`, then
/// times `runs` calls.
fn measure_callable(
    device: &Device,
    f: &dyn Callable,
    inputs: &[HostArray],
    runs: usize,
    check: impl FnOnce(&[HostArray]) -> Result<String, String>,
) -> Result<Measured, String> {
    let tensors = inputs
        .iter()
        .map(|a| a.to_tensor(device))
        .collect::<kiln_runtime::Result<Vec<_>>>()
        .map_err(|e| e.to_string())?;
    let outs = first_call(device, f, &tensors).map_err(|e| e.to_string())?;
    let host: Vec<HostArray> = outs
        .iter()
        .map(HostArray::from_tensor)
        .collect::<kiln_runtime::Result<_>>()
        .map_err(|e| e.to_string())?;
    let checked = check(&host)?;
    let timing = time_callable(device, f, &tensors, runs).map_err(|e| e.to_string())?;
    Ok(Measured { timing, checked })
}

/// The memref-level add kiln lowers today, over the add program's inputs.
fn kiln_memref_add(
    device: &Device,
    text: &str,
    grid: [u32; 3],
    inputs: &[HostArray],
    reference: &Reference,
    n: usize,
    runs: usize,
) -> Result<Measured, String> {
    let kernel = device
        .load_kernel(KernelSource::memref(text, suite::MEMREF_ADD.1))
        .map_err(|e| e.to_string())?;
    let call = KernelCall::new(kernel, grid, Vec::new());
    let mut args = inputs.to_vec();
    args.push(HostArray::f32(&[n], &vec![0.0; n]));
    measure_callable(device, &call, &args, runs, |outs| {
        // a, b, c: c is the result.
        let out = outs.get(2).ok_or("the kernel returned no third argument")?;
        reference::check(out, reference)
            .map(|c| format!("{c} (outputs are arguments: no allocation per call)"))
            .map_err(|e| format!("wrong result: {e}"))
    })
}

/// What one IREE target gave for one function.
struct IreeRow {
    compile_time: Option<std::time::Duration>,
    measured: Result<Measured, String>,
    outputs: Option<Vec<HostArray>>,
}

/// Compiles `src` for `target`, runs `function` once (outputs read back
/// and handed to `check`), then times it.
#[allow(clippy::too_many_arguments)]
fn iree_row(
    iree: &Iree,
    target: Target,
    src: &Path,
    stem: &str,
    function: &str,
    inputs: &[String],
    results: usize,
    runs: usize,
    scratch: &Path,
    check: impl FnOnce(&[HostArray]) -> Result<String, String>,
) -> IreeRow {
    let mut row = IreeRow {
        compile_time: None,
        measured: Err(String::new()),
        outputs: None,
    };
    let (module, took) = match iree.compile(target, src, scratch, stem) {
        Ok(m) => m,
        Err(e) => {
            row.measured = Err(e.to_string());
            return row;
        }
    };
    row.compile_time = took;
    let outs: Vec<PathBuf> = (0..results)
        .map(|k| scratch.join(format!("{stem}.{function}.out{k}.{:?}.npy", target)))
        .collect();
    let outputs = iree
        .run_once(target, &module, function, inputs, &outs)
        .and_then(|()| {
            outs.iter()
                .map(|p| {
                    let bytes = std::fs::read(p)
                        .with_context(|| format!("iree-run-module wrote no {}", p.display()))?;
                    array::read_npy(&bytes)
                })
                .collect::<Result<Vec<_>>>()
        });
    for p in &outs {
        let _ = std::fs::remove_file(p);
    }
    row.measured = match outputs {
        Err(e) => Err(e.to_string()),
        Ok(outputs) => {
            let checked = check(&outputs);
            row.outputs = Some(outputs);
            checked.and_then(|checked| {
                iree.bench(target, &module, function, inputs, runs, scratch)
                    .map(|wall| Measured {
                        timing: kiln_runtime::bench::Timing { wall, gpu: None },
                        checked,
                    })
                    .map_err(|e| e.to_string())
            })
        }
    };
    if !iree.keeps_modules() {
        let _ = std::fs::remove_file(&module);
    }
    row
}

/// What kind of program a file holds.
enum FileKind {
    Spirv(Vec<u32>),
    Memref(String),
    Tensor(String),
}

fn file_kind(path: &Path) -> Result<FileKind> {
    let bytes = crate::input::read_bytes(path)?;
    if bytes.len() >= 4 && crate::input::words_from_bytes(&bytes).is_ok() {
        return Ok(FileKind::Spirv(crate::input::words_from_bytes(&bytes)?));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow!("{}: neither a SPIR-V binary nor text", path.display()))?;
    if text.contains("gpu.module") {
        Ok(FileKind::Memref(text))
    } else if text.contains("func.func") {
        Ok(FileKind::Tensor(text))
    } else {
        bail!(
            "{}: no func.func (tensor program) or gpu.module (memref kernels) in it",
            path.display()
        )
    }
}

/// The names of the public `func.func`s of a tensor program, and each
/// one's result count.
fn tensor_functions(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("func.func") {
        rest = &rest[at + "func.func".len()..];
        let head = rest.trim_start();
        if head.starts_with("private") {
            continue;
        }
        let Some(sym) = head.find('@') else { break };
        let name: String = head[sym + 1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'))
            .collect();
        // Results: the `tensor<` types between `->` and the body's `{`,
        // after the argument list's closing parenthesis.
        let after = &head[sym..];
        let mut depth = 0i32;
        let mut close = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let results = close.map_or(0, |c| {
            let sig = &after[c..];
            let sig = &sig[..sig.find('{').unwrap_or(sig.len())];
            sig.find("->")
                .map_or(0, |a| sig[a..].matches("tensor<").count())
        });
        out.push((name, results));
    }
    out
}

/// The names of the `gpu.func ... kernel`s of a memref-level module.
fn memref_kernels(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("gpu.func") {
        rest = &rest[at + "gpu.func".len()..];
        let head = rest.trim_start();
        let Some(name) = head.strip_prefix('@') else {
            continue;
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'))
            .collect();
        let signature = &head[..head.find('{').unwrap_or(head.len())];
        if signature.contains(" kernel") {
            out.push(name);
        }
    }
    out
}

fn parse_grid(text: &str) -> Result<[u32; 3]> {
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--grid {text}: expected X,Y,Z"))?;
    match parts[..] {
        [x] => Ok([x, 1, 1]),
        [x, y] => Ok([x, y, 1]),
        [x, y, z] => Ok([x, y, z]),
        _ => bail!("--grid {text}: expected X,Y,Z"),
    }
}

/// `kiln bench FILE`.
fn run_file(
    args: &BenchArgs,
    file: &Path,
    device: &Device,
    runs: usize,
    iree: &Result<Iree, String>,
    scratch: &Path,
) -> Result<Report> {
    let inputs = args
        .inputs
        .iter()
        .map(|s| array::parse_input(s))
        .collect::<Result<Vec<_>>>()?;
    let mut report = Report {
        mode: "file",
        device: device_name(device),
        host_threads: host::host_threads(),
        runs,
        iree: iree
            .as_ref()
            .map(|i| i.version.clone())
            .map_err(Clone::clone),
        limits: None,
        benches: Vec::new(),
        overhead: None,
        compile: None,
        iree_compile: Vec::new(),
        notes: Vec::new(),
    };
    let bench = |name: &str, impls| Bench {
        name: name.to_owned(),
        title: format!("@{name}"),
        short: name.to_owned(),
        work: None,
        limit: None,
        impls,
    };
    let kernel_row = |source: KernelSource<'_>| -> Result<Measured, String> {
        let grid = args
            .grid
            .as_deref()
            .ok_or("a kernel needs --grid X,Y,Z (workgroups)")
            .map_err(str::to_owned)
            .and_then(|g| parse_grid(g).map_err(|e| e.to_string()))?;
        let kernel = device.load_kernel(source).map_err(|e| e.to_string())?;
        let call = KernelCall::new(kernel, grid, Vec::new());
        measure_callable(device, &call, &inputs, runs, |_| {
            Ok("not checked: no reference for a user's kernel".to_owned())
        })
    };
    match file_kind(file)? {
        FileKind::Spirv(words) => {
            let entry = args.function.as_deref().unwrap_or("main");
            let result = kernel_row(KernelSource::spirv(&words, entry));
            report.benches.push(bench(entry, vec![kiln_impl(result)]));
            report
                .notes
                .push("IREE does not take SPIR-V binaries: no IREE columns".to_owned());
        }
        FileKind::Memref(text) => {
            kiln_core::kernel::parse(&text)
                .map_err(|e| super::in_file(&super::display_name(file), e))?;
            let kernels = memref_kernels(&text);
            let name = match (&args.function, kernels.as_slice()) {
                (Some(f), _) => f.clone(),
                (None, [only]) => only.clone(),
                (None, _) => bail!(
                    "{}: {} kernels ({}); choose one with --function",
                    file.display(),
                    kernels.len(),
                    kernels.join(", ")
                ),
            };
            let result = kernel_row(KernelSource::memref(&text, &name));
            report.benches.push(bench(&name, vec![kiln_impl(result)]));
            report.notes.push(
                "IREE takes tensor-level programs, not memref kernels: no IREE columns".to_owned(),
            );
        }
        FileKind::Tensor(text) => {
            let functions = tensor_functions(&text);
            let chosen: Vec<(String, usize)> = match &args.function {
                Some(f) => vec![functions
                    .iter()
                    .find(|(n, _)| n == f)
                    .cloned()
                    .ok_or_else(|| anyhow!("{}: no public func.func @{f}", file.display()))?],
                None => functions,
            };
            if chosen.is_empty() {
                bail!("{}: no public func.func", file.display());
            }
            let src = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
            let stem = "program";
            for (name, results) in chosen {
                // IREE first, so kiln's outputs can be checked against its
                // CPU backend's (else its Vulkan backend's).
                let mut iree_impls = Vec::new();
                let mut outputs: Vec<(&'static str, Vec<HostArray>)> = Vec::new();
                if let Ok(iree) = iree {
                    for &target in &iree.targets {
                        let first = outputs.first().map(|(_, o)| o.clone());
                        let row = iree_row(
                            iree,
                            target,
                            &src,
                            stem,
                            &name,
                            &args.inputs,
                            results,
                            runs,
                            scratch,
                            |outs| {
                                match &first {
                                None => Ok("not checked: no reference (the other IREE backend is compared with this one)".to_owned()),
                                // Neither backend is a reference: a
                                // disagreement is reported, not fatal.
                                Some(vk) => Ok(match compare_outputs(vk, outs) {
                                    Ok(d) => format!("agrees with IREE vulkan ({d})"),
                                    Err(e) => format!("DISAGREES with IREE vulkan: {e}"),
                                }),
                            }
                            },
                        );
                        if let Some(t) = row.compile_time {
                            report.iree_compile.push((name.clone(), target.label(), t));
                        }
                        if let Some(o) = row.outputs {
                            outputs.push((target.label(), o));
                        }
                        iree_impls.push(Impl {
                            label: target.label(),
                            on_host: target == Target::Cpu,
                            result: row.measured,
                        });
                    }
                }
                let expected = match outputs.pop() {
                    Some((label, o)) => Expected::Outputs(label, o),
                    None => Expected::Nothing,
                };
                let mut impls = vec![kiln_impl(kiln_tensor(device, &text, &name, runs, || {
                    (inputs.clone(), expected)
                }))];
                impls.extend(iree_impls);
                report.benches.push(bench(&name, impls));
            }
        }
    }
    Ok(report)
}

fn kiln_impl(result: Result<Measured, String>) -> Impl {
    Impl {
        label: report::KILN,
        on_host: false,
        result,
    }
}

/// `got` against `want`, output by output (normalised error, as the
/// set's checks): `Ok(the worst agreement)` or `Err(the first difference)`.
fn compare_outputs(want: &[HostArray], got: &[HostArray]) -> Result<String, String> {
    if want.len() != got.len() {
        return Err(format!("{} outputs, expected {}", got.len(), want.len()));
    }
    let mut detail = String::from("no outputs");
    for (k, (w, g)) in want.iter().zip(got).enumerate() {
        if w.shape != g.shape {
            return Err(format!(
                "output {k} has shape {:?}, expected {:?}",
                g.shape, w.shape
            ));
        }
        let tolerance = reference::tolerance(w.dtype);
        detail = reference::compare(&g.to_f64(), &w.to_f64(), tolerance)
            .map_err(|e| format!("output {k}: {e}"))?;
    }
    Ok(detail)
}
