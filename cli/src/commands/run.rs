//! `kiln run FILE.mlir`: execute an MLIR Vulkan-runner program, or a
//! tensor program in IREE's end-to-end test format (see [`super::tensor`]).
//!
//! ```text
//! kiln run addf.mlir [--device SEL] [--validation] [--no-timing] [--kernel-binary kernels=k.spv]
//! kiln run addf.mlir --cpu [--subgroup-size 8] [--threads N] [--robust] [--no-timing]
//! kiln run tensor.mlir --cpu --target-env @device.env
//! ```
//!
//! The file is a `gpu.container_module` (the form of MLIR's
//! `mlir/test/mlir-vulkan-runner/*.mlir`): `func.func @main` runs on the
//! host ([`kiln_core::host`]), each `gpu.launch_func` on the device
//! ([`kiln_runtime::runner::VulkanLauncher`]: kernels compiled for the
//! module's `spirv.target_env`, which the device must support, else for the
//! device's own env). stdout gets what mlir-vulkan-runner prints: the
//! runner-utils `printMemref*` text, and after each launch its timing lines
//! (`Compute shader execution time: ...us` when the queue has timestamps,
//! `Command buffer submit time: ...us`, `Wait idle time: ...us`), which
//! `--no-timing` leaves out for output that is the same on every run. `--kernel-binary NAME=FILE` runs
//! `gpu.module @NAME` from a SPIR-V binary instead of compiling it. With
//! `--validation` (or `KILN_VALIDATION=1`) any validation-layer message is
//! printed to stderr and fails the command.
//!
//! With `--cpu` the kernels run on the CPU instead ([`kiln_cpu`]: converted
//! to LLVM IR and compiled by the LLVM 19 tools; `--subgroup-size N`,
//! `--threads N`, `--robust`); the output is the same, the timing lines
//! giving the kernel's CPU time as its shader time. Tensor programs run
//! with `--cpu` too ([`kiln_cpu::TensorBackend`]: the tensor compiler's
//! kernels, compiled for [`kiln_cpu::cpu_target_env`], on the CPU), with
//! the output and exit status of their device run; `--target-env ENV`
//! compiles them for a device's env instead ([`kiln_cpu::cpu_env_like`]:
//! what the CPU runner executes of it, cooperative matrices included), so
//! a device's kernels run, with its subgroup size, where the device is
//! absent.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use kiln_runtime::runner::VulkanLauncher;

use crate::Outcome;

/// Arguments of `kiln run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The runner program (`-` for stdin).
    pub file: PathBuf,
    /// Device: an index from `kiln devices`, or part of a device name
    /// (default: KILN_DEVICE, else the first discrete, integrated, virtual,
    /// CPU device).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Enable the Khronos validation layer; any message fails the command.
    #[arg(long)]
    pub validation: bool,
    /// Leave out the timing lines mlir-vulkan-runner prints after each
    /// launch (the output is then the same on every run).
    #[arg(long)]
    pub no_timing: bool,
    /// Run `gpu.module @NAME` from this SPIR-V binary instead of compiling it.
    #[arg(long = "kernel-binary", value_name = "NAME=FILE")]
    pub kernel_binaries: Vec<String>,
    /// Tensor programs (IREE's end-to-end test format): run on the CPU
    /// reference evaluator instead of a device.
    #[arg(long)]
    pub reference: bool,
    /// Tensor programs: run only this test function.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// ONNX models: an input, `NAME=SHAPExTYPE=VALUE` or `NAME=@FILE.npy`.
    #[arg(long = "input", value_name = "NAME=SPEC")]
    pub inputs: Vec<String>,
    /// ONNX models: write each output as DIR/NAME.npy.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Run the kernels on the CPU (LLVM 19) instead of a Vulkan device.
    #[command(flatten)]
    pub cpu: CpuArgs,
    /// With --cpu, tensor programs: compile the kernels for this device
    /// env (text, or @FILE as `kiln devices --target-env-only` prints it)
    /// restricted to what the CPU runner executes, cooperative matrices
    /// included, and run them with the env's subgroup size.
    #[arg(long = "target-env", requires = "cpu", value_name = "ENV|@FILE")]
    pub target_env: Option<String>,
}

/// The CPU runner's options (`kiln run --cpu`, `kiln run-spv --cpu`).
#[derive(Args, Debug)]
pub struct CpuArgs {
    /// Run the kernels on the CPU through LLVM 19 instead of a Vulkan device.
    #[arg(long)]
    pub cpu: bool,
    /// With --cpu: invocations per subgroup (default 8, lavapipe's).
    #[arg(long = "subgroup-size", requires = "cpu", value_name = "N")]
    pub subgroup_size: Option<u32>,
    /// With --cpu: worker threads (default: the machine's parallelism).
    #[arg(long, requires = "cpu", value_name = "N")]
    pub threads: Option<u32>,
    /// With --cpu: robust buffer access (out-of-bounds loads read zero,
    /// stores are dropped) instead of an error.
    #[arg(long, requires = "cpu")]
    pub robust: bool,
}

impl CpuArgs {
    /// The dispatch options these flags give.
    pub fn options(&self) -> kiln_cpu::DispatchOptions {
        kiln_cpu::DispatchOptions {
            subgroup_size: self
                .subgroup_size
                .unwrap_or(kiln_cpu::DEFAULT_SUBGROUP_SIZE),
            threads: self.threads,
            robust: self.robust,
            ..kiln_cpu::DispatchOptions::default()
        }
    }
}

/// Runs `kiln run`.
pub fn run(args: &RunArgs) -> Result<Outcome> {
    if super::onnx::is_onnx_path(&args.file) {
        return super::onnx::run::run(args);
    }
    let name = super::display_name(&args.file);
    let text = crate::input::read_text(&args.file)?;
    // A tensor program in IREE's end-to-end test format.
    if kiln_core::tensor::is_tensor_text(&text) {
        return super::tensor::run(args, &text);
    }
    if args.reference || args.function.is_some() || args.target_env.is_some() {
        anyhow::bail!("{name}: --reference, --function and --target-env apply to tensor programs (IREE's end-to-end test format)");
    }
    let module = kiln_core::kernel::parse(&text).map_err(|e| super::in_file(&name, e))?;
    // Like mlir-vulkan-runner, refuse an invalid program before running any
    // of it (the interpreter would stop at the first bad op, after printing
    // what ran before).
    kiln_core::kernel::verify(&module).map_err(|e| super::in_file(&name, e))?;
    let mut given = Vec::new();
    for spec in &args.kernel_binaries {
        let Some((module_name, file)) = spec.split_once('=') else {
            bail!("--kernel-binary {spec}: expected NAME=FILE");
        };
        let words = crate::input::read_spirv(std::path::Path::new(file))
            .with_context(|| format!("--kernel-binary {spec}"))?;
        given.push((module_name.trim_start_matches('@').to_owned(), words));
    }
    if args.cpu.cpu {
        return run_cpu(&module, &name, args, given);
    }
    let ctx = super::vulkan_context(args.device.as_deref(), args.validation)?;
    // Binaries kiln did not produce pass spirv-val before the driver sees
    // them (drivers need not survive invalid modules).
    for (module_name, words) in &given {
        ctx.validate_binary(words).map_err(|e| {
            anyhow::anyhow!(
                "--kernel-binary {module_name}: spirv-val rejects the module for {}: {}",
                e.env.name(),
                e.full_message()
            )
        })?;
    }
    let mut launcher = VulkanLauncher::new(&ctx, &module).with_timing(!args.no_timing);
    for (module_name, words) in given {
        launcher = launcher.with_binary(&module_name, words);
    }
    let mut out = Vec::new();
    let result = kiln_core::host::run_main(&module, &mut launcher, &mut out);
    // What ran before a failure is still printed, as the C++ runner does.
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out).context("cannot write stdout")?;
    stdout.flush().context("cannot write stdout")?;
    let messages = ctx.take_validation_messages();
    for m in &messages {
        eprintln!("validation: {m}");
    }
    result.map_err(|e| super::in_file(&name, e))?;
    if !messages.is_empty() {
        bail!("{} validation message(s)", messages.len());
    }
    Ok(Outcome::Success)
}

/// `kiln run --cpu`: the same program with the kernels on the CPU.
fn run_cpu(
    module: &kiln_core::kernel::KernelModule,
    name: &str,
    args: &RunArgs,
    given: Vec<(String, Vec<u32>)>,
) -> Result<Outcome> {
    let mut launcher = kiln_cpu::CpuLauncher::new(module)
        .with_options(args.cpu.options())
        .with_timing(!args.no_timing);
    for (module_name, words) in given {
        launcher = launcher
            .with_binary(&module_name, &words)
            .with_context(|| format!("--kernel-binary @{module_name}"))?;
    }
    let mut out = Vec::new();
    let result = kiln_core::host::run_main(module, &mut launcher, &mut out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out).context("cannot write stdout")?;
    stdout.flush().context("cannot write stdout")?;
    result.map_err(|e| super::in_file(name, e))?;
    Ok(Outcome::Success)
}
