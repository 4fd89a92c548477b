//! `kiln run FILE.mlir` of tensor programs on the device: every test
//! function of an IREE end-to-end test file (or `--function NAME`)
//! compiled by the tensor compiler ([`kiln_core::codegen`]) for the
//! device's target env — bounded by the file's declared `spirv.target_env`
//! — and run through kiln-runtime, printing what iree-check-module prints;
//! exit status 1 when a check fails. A compile or run error of a test (an
//! unsupported op, a dynamic size that does not fit, a buffer over a device
//! limit) fails the test and is also reported as one `error:` line. With
//! `--cpu` ([`run_cpu`]) the kernels run on the CPU instead, with the same
//! output. With
//! `--validation`, any validation-layer message fails the command.

use std::io::Write;

use anyhow::{bail, Context as _, Result};
use kiln_core::tensor::e2e::{self, Backend, RunOptions};
use kiln_core::tensor::TensorModule;
use kiln_runtime::e2e::DeviceBackend;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, DeviceSelector};

use super::run::RunArgs;
use crate::Outcome;

/// Runs the e2e module `module` (from input `name`) on the device.
pub fn run_device(
    args: &RunArgs,
    module: &TensorModule,
    name: &str,
    opts: &RunOptions,
) -> Result<Outcome> {
    let device = open_device(args.device.as_deref(), args.validation)?;
    let mut backend = DeviceBackend::new(&device);
    let report = e2e::run(module, &mut backend as &mut dyn Backend, opts)
        .map_err(|e| super::in_file(name, e))?;
    let validation: Vec<String> = device
        .context()
        .take_validation_messages()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(report.output.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write stdout")?;
    for m in &validation {
        eprintln!("validation: {m}");
    }
    if let Some(first) = backend.errors().first() {
        eprintln!("error: {name}: {first}");
        return Ok(Outcome::Exit(1));
    }
    if !validation.is_empty() {
        bail!("{} validation message(s)", validation.len());
    }
    Ok(if report.success() {
        Outcome::Success
    } else {
        Outcome::Exit(1)
    })
}

/// Runs the e2e module `module` (from input `name`) with its kernels on
/// the CPU (`--cpu`): the same output and exit status as on the device.
pub fn run_cpu(
    args: &RunArgs,
    module: &TensorModule,
    name: &str,
    opts: &RunOptions,
) -> Result<Outcome> {
    let mut options = args.cpu.options();
    let mut backend = match &args.target_env {
        Some(text) => {
            let (device, facts) = super::parse_target(text)?;
            let env = kiln_cpu::cpu_env_like(&device);
            let size = env.limits.subgroup_size;
            if args.cpu.subgroup_size.is_some_and(|n| n != size) {
                bail!("--subgroup-size differs from the target env's subgroup size {size}");
            }
            options.subgroup_size = size;
            let facts = facts.unwrap_or_else(kiln_core::codegen::DriverFacts::conservative);
            kiln_cpu::TensorBackend::with_target(
                kiln_core::codegen::CodegenTarget::new(env, facts),
                options,
            )
        }
        None => kiln_cpu::TensorBackend::new(options),
    };
    let report = e2e::run(module, &mut backend as &mut dyn Backend, opts)
        .map_err(|e| super::in_file(name, e))?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(report.output.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write stdout")?;
    if let Some(first) = backend.errors().first() {
        eprintln!("error: {name}: {first}");
        return Ok(Outcome::Exit(1));
    }
    Ok(if report.success() {
        Outcome::Success
    } else {
        Outcome::Exit(1)
    })
}

/// Opens the device `--device` selects, without a disk cache.
pub fn open_device(selector: Option<&str>, validation: bool) -> Result<Device> {
    Device::new(&DeviceOptions {
        device: selector.map_or(DeviceSelector::Default, DeviceSelector::parse),
        validation,
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
    .context("cannot open the Vulkan device")
}
