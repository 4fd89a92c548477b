//! `kiln tune FILE.mlir [--function NAME] [--input SPEC ...] [--runs N] [--device SEL]`:
//! times the candidate strategies of every dispatch of a tensor program
//! on the device, keeps the fastest correct one per dispatch shape in the
//! device's tuning file in the cache directory (`KILN_CACHE_DIR`, else
//! the platform's), and prints what it measured. Later compilations for
//! that device (`kiln run`, `kiln bench`, `kiln compile --device`,
//! kiln-runtime's `Device::compile`) use the tuned choices; `kiln compile
//! --explain` says so. Inputs are given as `kiln bench` and
//! `iree-benchmark-module` take them; functions without arguments (IREE's
//! end-to-end test format) bring their own.

use std::path::PathBuf;
use std::rc::Rc;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use kiln_core::tensor::eval::{Tensor as HostTensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_core::tensor::TensorModule;
use kiln_runtime::tune::{save_tuning, tune_function};
use kiln_runtime::{DType, Device, DeviceOptions, DeviceSelector};

use super::bench::array::parse_input;
use crate::Outcome;

/// Arguments of `kiln tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The tensor program (MLIR: func.func on tensors).
    pub file: PathBuf,
    /// The function to tune (default: every function with a body).
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// An input, as `kiln bench` and iree-benchmark-module take it
    /// (`1024x1024xf32=1`, `@x.npy`, ...). Repeat in argument order.
    #[arg(long = "input", value_name = "SPEC")]
    pub inputs: Vec<String>,
    /// Timed calls per candidate, after a warm-up (default 5).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub runs: usize,
    /// Device: an index from `kiln devices`, or part of a device name.
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Measure and print, but do not write the tuning file.
    #[arg(long)]
    pub dry_run: bool,
}

/// The evaluator's element type of a runtime dtype.
fn elem_of(d: DType) -> ElemType {
    match d {
        DType::F32 => ElemType::F32,
        DType::F16 => ElemType::F16,
        DType::BF16 => ElemType::BF16,
        DType::I8 | DType::U8 => ElemType::Int(8),
        DType::I16 => ElemType::Int(16),
        DType::I32 | DType::U32 => ElemType::Int(32),
        DType::I64 => ElemType::Int(64),
        DType::Bool => ElemType::Int(1),
    }
}

/// A `--input` as a host value of the reference evaluator's kind.
pub fn input_value(spec: &str) -> Result<Value> {
    let a = parse_input(spec)?;
    let elem = elem_of(a.dtype);
    let n = a.shape.iter().product();
    let data = kiln_runtime::program::bytes_to_elements(elem, &a.bytes, n);
    Ok(Value::Tensor(Rc::new(HostTensor {
        elem,
        shape: a.shape,
        data,
    })))
}

/// The tensor program in `path`, parsed and verified, with its display
/// name.
pub fn load_tensor_file(path: &std::path::Path) -> Result<(String, TensorModule)> {
    let name = super::display_name(path);
    let text = crate::input::read_text(path)?;
    let module = kiln_core::tensor::load(&text).map_err(|e| super::in_file(&name, e))?;
    Ok((name, module))
}

/// The device `selector` names (the default device without one), opened
/// with per-dispatch timestamps on.
pub fn open_profiling_device(selector: Option<&str>) -> Result<Device> {
    Device::new(&DeviceOptions {
        device: selector.map_or(DeviceSelector::Default, DeviceSelector::parse),
        profile: true,
        ..DeviceOptions::default()
    })
    .context("cannot open the Vulkan device")
}

/// Runs `kiln tune`.
pub fn run(args: &TuneArgs) -> Result<Outcome> {
    let (name, module) = load_tensor_file(&args.file)?;
    let device = open_profiling_device(args.device.as_deref())?;
    let Some(path) = device.tuning_path() else {
        bail!("no cache directory to keep the tuning in: set KILN_CACHE_DIR");
    };
    let functions: Vec<String> = match &args.function {
        Some(f) => vec![f.clone()],
        None => module
            .funcs()
            .iter()
            .filter(|&&f| module.func(f).body.is_some())
            .map(|&f| module.func(f).name.clone())
            .collect(),
    };
    let values = args
        .inputs
        .iter()
        .map(|s| input_value(s))
        .collect::<Result<Vec<_>>>()?;
    let mut tuning = device.tuning();
    let info = device.info();
    println!("kiln tune {name} on {}", info.name);
    let mut tuned = 0;
    for f in &functions {
        let results = tune_function(&device, &module, f, &values, args.runs, |line| {
            eprintln!("kiln tune: {line}")
        })
        .with_context(|| format!("@{f}"))?;
        if results.is_empty() {
            println!("@{f}: no dispatch with more than one candidate strategy");
        }
        for d in &results {
            println!("{}  [{}]", d.dispatch, d.key);
            for r in &d.results {
                let mark = if r.choice == d.best { "*" } else { " " };
                let what = match (&r.gpu, &r.error) {
                    (Some(g), _) => format!("{:>10.3} ms", g.as_secs_f64() * 1e3),
                    (_, Some(e)) => format!("rejected: {e}"),
                    _ => String::new(),
                };
                let heuristic = if r.choice == d.heuristic() {
                    "  (heuristic)"
                } else {
                    ""
                };
                println!("  {mark} {:<24} {what}{heuristic}", r.choice.to_text());
            }
            tuning.insert(&d.key, d.best, &d.note());
            tuned += 1;
        }
    }
    if args.dry_run {
        println!("--dry-run: {} not written", path.display());
    } else if tuned > 0 {
        save_tuning(&path, &tuning).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {} ({} shapes)", path.display(), tuning.len());
    }
    Ok(Outcome::Success)
}
