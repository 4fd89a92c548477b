//! `kiln run FILE.mlir` for tensor programs in IREE's end-to-end test
//! format: every test function (or `--function NAME`) compiled by the
//! tensor compiler and run on the device (`--reference`: on the CPU
//! reference evaluator), printing what iree-check-module prints; exit
//! status 1 when a check fails. A compile or run error of a test (a
//! dynamic size that does not fit, a buffer over a device limit) fails the
//! test and is also reported as one `error:` line.

use std::io::Write;

use anyhow::{bail, Context as _, Result};
use kiln_core::tensor::e2e::{self, Backend, ReferenceBackend, RunOptions};
use kiln_runtime::e2e::DeviceBackend;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, DeviceSelector};

use super::run::RunArgs;
use crate::Outcome;

/// Runs a tensor program file.
pub fn run(args: &RunArgs, text: &str) -> Result<Outcome> {
    let name = super::display_name(&args.file);
    let module = kiln_core::tensor::load(text).map_err(|e| super::in_file(&name, e))?;
    if !e2e::is_e2e(&module) {
        bail!("{name}: kiln run expects IREE's end-to-end test format (public functions without arguments or results)");
    }
    let opts = RunOptions {
        function: args.function.clone(),
        timing: !args.no_timing,
        source_name: Some(name.clone()),
    };
    if args.reference {
        let mut backend = ReferenceBackend;
        return finish(e2e::run(&module, &mut backend, &opts), &name, &[], &[]);
    }
    let device = Device::new(&DeviceOptions {
        device: args
            .device
            .as_deref()
            .map_or(DeviceSelector::Default, DeviceSelector::parse),
        validation: args.validation,
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
    .context("cannot open the Vulkan device")?;
    let mut backend = DeviceBackend::new(&device);
    let report = e2e::run(&module, &mut backend as &mut dyn Backend, &opts);
    let messages: Vec<String> = device
        .context()
        .take_validation_messages()
        .iter()
        .map(ToString::to_string)
        .collect();
    finish(report, &name, backend.errors(), &messages)
}

fn finish(
    report: Result<e2e::RunReport, e2e::E2eError>,
    name: &str,
    errors: &[String],
    validation: &[String],
) -> Result<Outcome> {
    let report = report.map_err(|e| super::in_file(name, e))?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(report.output.as_bytes())
        .context("cannot write stdout")?;
    stdout.flush().context("cannot write stdout")?;
    for m in validation {
        eprintln!("validation: {m}");
    }
    if let Some(first) = errors.first() {
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
