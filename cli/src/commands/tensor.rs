//! Tensor programs on the command line: `kiln run` of IREE's end-to-end
//! test format and `kiln opt` of tensor-level text.
//!
//! * `kiln run --reference FILE.mlir [--function NAME] [--no-timing]` runs
//!   every test function (or one) on the CPU reference evaluator and
//!   prints what iree-check-module prints; the exit status is 1 when any
//!   check fails. Without `--reference` it runs them on the device
//!   ([`super::run_tensor`]), with `--cpu` with their kernels on the CPU
//!   through LLVM ([`kiln_cpu::TensorBackend`]).
//! * `kiln opt TENSOR.mlir` parses, verifies and prints the program.
//!
//! Bad input is one `error: FILE:LINE:COL: message` line, exit status 1.

use std::io::Write;

use anyhow::{bail, Context as _, Result};
use kiln_core::tensor::e2e::{self, ReferenceBackend, RunOptions};

use crate::Outcome;

/// Parses and verifies a tensor program read from the input `name`.
fn load(text: &str, name: &str) -> Result<kiln_core::tensor::TensorModule> {
    kiln_core::tensor::load(text).map_err(|e| super::in_file(name, e))
}

/// `kiln run` of an e2e file.
pub fn run(args: &super::run::RunArgs, text: &str) -> Result<Outcome> {
    let name = super::display_name(&args.file);
    let module = load(text, &name)?;
    if !e2e::is_e2e(&module) {
        bail!("{name}: not an end-to-end test file: no test function (func.func @name() without arguments or results)");
    }
    let opts = RunOptions {
        function: args.function.clone(),
        timing: !args.no_timing,
        source_name: Some(name.clone()),
    };
    if args.reference && args.cpu.cpu {
        bail!("{name}: --reference and --cpu exclude each other");
    }
    if args.cpu.cpu {
        return super::run_tensor::run_cpu(args, &module, &name, &opts);
    }
    if !args.reference {
        return super::run_tensor::run_device(args, &module, &name, &opts);
    }
    let report =
        e2e::run(&module, &mut ReferenceBackend, &opts).map_err(|e| super::in_file(&name, e))?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(report.output.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write stdout")?;
    Ok(if report.success() {
        Outcome::Success
    } else {
        Outcome::Exit(1)
    })
}

/// `kiln opt` of a tensor program.
pub fn opt(args: &super::opt::OptArgs, text: &str, name: &str) -> Result<String> {
    if args.lower_abi_attrs || args.update_vce || args.convert_to_spirv {
        bail!("{name}: a tensor program; --lower-abi-attrs, --update-vce and --convert-to-spirv work on spv modules and kernels");
    }
    let module = load(text, name)?;
    Ok(kiln_core::tensor::print(&module))
}
