//! `kiln profile FILE.mlir [--function NAME] [--input SPEC ...] [--runs N] [--device SEL]`:
//! runs a tensor program through kiln-runtime with per-dispatch GPU
//! timestamps and prints, per kernel, its dispatches and GPU time, the
//! largest first, then the runtime's counters (submits, dispatches,
//! transfers, bytes moved). Functions with arguments take `--input`s as
//! `kiln bench` does; an IREE end-to-end test file runs its test
//! functions (checks included) as `kiln run` does.

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use kiln_core::tensor::e2e::{self, Backend, RunOptions};
use kiln_runtime::e2e::DeviceBackend;
use kiln_runtime::{ProfileReport, Program};

use super::tune::{input_value, load_tensor_file, open_profiling_device};
use crate::Outcome;

/// Arguments of `kiln profile`.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// The tensor program (MLIR: func.func on tensors).
    pub file: PathBuf,
    /// The function to run (default: every function with a body, or every
    /// test function of an end-to-end file).
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// An input, as `kiln bench` takes it. Repeat in argument order.
    #[arg(long = "input", value_name = "SPEC")]
    pub inputs: Vec<String>,
    /// Calls of each function (default 1; the first compiles the kernels).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub runs: usize,
    /// Device: an index from `kiln devices`, or part of a device name.
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
}

/// Runs `kiln profile`.
pub fn run(args: &ProfileArgs) -> Result<Outcome> {
    let (name, module) = load_tensor_file(&args.file)?;
    let device = open_profiling_device(args.device.as_deref())?;
    if !device.info().timestamps {
        bail!(
            "{}: the device writes no timestamps; nothing to profile",
            device.info().name
        );
    }
    let mut failed = false;
    if args.inputs.is_empty() && e2e::is_e2e(&module) {
        let opts = RunOptions {
            function: args.function.clone(),
            timing: false,
            source_name: Some(name.clone()),
        };
        let mut backend = DeviceBackend::new(&device);
        for _ in 0..args.runs.max(1) {
            let report = e2e::run(&module, &mut backend as &mut dyn Backend, &opts)
                .map_err(|e| super::in_file(&name, e))?;
            failed |= !report.success();
        }
        if let Some(first) = backend.errors().first() {
            bail!("{name}: {first}");
        }
    } else {
        let values = args
            .inputs
            .iter()
            .map(|s| input_value(s))
            .collect::<Result<Vec<_>>>()?;
        let program = Program::compile(&device, &module).with_context(|| name.clone())?;
        let functions: Vec<String> = match &args.function {
            Some(f) => vec![f.clone()],
            None => program
                .compiled()
                .functions
                .iter()
                .map(|f| f.name.clone())
                .collect(),
        };
        for f in &functions {
            for _ in 0..args.runs.max(1) {
                program.run(f, &values).with_context(|| format!("@{f}"))?;
            }
        }
    }
    let records = device.take_profile();
    let total: std::time::Duration = records.iter().filter_map(|r| r.gpu_time).sum();
    println!(
        "kiln profile {name} on {}: {} dispatches, {:.3} ms of GPU time",
        device.info().name,
        records.len(),
        total.as_secs_f64() * 1e3
    );
    print!("{}", ProfileReport::new(&records));
    let c = device.counters();
    println!(
        "counters: {} submits, {} dispatches, {} transfers, {} bytes staged, {} bytes direct",
        c.submits, c.dispatches, c.transfers, c.bytes_staged, c.bytes_direct
    );
    Ok(if failed {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}
