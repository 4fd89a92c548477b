//! `kiln`: the command line of the kiln Vulkan compute backend.
//!
//! Every subcommand reports bad input as one `error: ...` line on stderr and
//! exits with status 1; it never panics on user input.
#![forbid(unsafe_code)]

mod commands;
mod input;
mod split;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// kiln: lower, serialize, validate and run SPIR-V compute modules on Vulkan.
#[derive(Parser, Debug)]
#[command(name = "kiln", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse, verify, transform and print an spv module or memref-level kernels (like mlir-opt).
    Opt(commands::opt::OptArgs),
    /// Lower memref-level kernels (gpu.modules) to validated SPIR-V binaries.
    Compile(commands::compile::CompileArgs),
    /// Translate between the spv text form and the SPIR-V binary form.
    Translate(commands::translate::TranslateArgs),
    /// Validate a SPIR-V binary with SPIRV-Tools for a target environment.
    Validate(commands::validate::ValidateArgs),
    /// Dispatch a compute module on a Vulkan device and print buffers.
    RunSpv(commands::run_spv::RunSpvArgs),
    /// Run an MLIR Vulkan-runner program (gpu.container_module with @main).
    Run(commands::run::RunArgs),
    /// List the Vulkan devices with their target envs.
    Devices(commands::devices::DevicesArgs),
    /// Print the size, alignments, offsets and strides of a type.
    Layout(commands::layout::LayoutArgs),
    /// Print a module's pipeline interface and check it against limits.
    Reflect(commands::reflect::ReflectArgs),
    /// Run AmberScript compute tests on a Vulkan device.
    Amber(commands::amber::AmberArgs),
    /// Time programs through kiln beside IREE and the machine's measured limits.
    Bench(commands::bench::BenchArgs),
    /// Run a tensor program with per-dispatch GPU timestamps; print the kernels by GPU time.
    Profile(commands::profile::ProfileArgs),
    /// Time each dispatch's candidate strategies on the device; keep the fastest for later compilations.
    Tune(commands::tune::TuneArgs),
    /// Run ONNX backend test folders (model.onnx + test_data_set_N) and compare with ONNX's tolerances.
    OnnxTest(commands::onnx::test::OnnxTestArgs),
    /// Print the tensor program an ONNX model imports as.
    OnnxImport(commands::onnx::import::OnnxImportArgs),
}

/// What a command asks `main` to exit with, beyond plain success.
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit with this status; the command already printed why.
    Exit(u8),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // clap's own message starts with "error: "; keep it (up to its
            // first blank line: a missing argument's name is on the second
            // line) and point at --help for the rest.
            let rendered = e.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .collect();
            if message.is_empty() {
                eprintln!("error: invalid arguments");
            } else {
                eprintln!("{}", message.join("\n"));
            }
            eprintln!("(see `kiln --help`)");
            return ExitCode::from(1);
        }
    };
    let result = match &cli.command {
        Command::Opt(args) => commands::opt::run(args),
        Command::Compile(args) => commands::compile::run(args),
        Command::Translate(args) => commands::translate::run(args),
        Command::Validate(args) => commands::validate::run(args),
        Command::RunSpv(args) => commands::run_spv::run(args),
        Command::Run(args) => commands::run::run(args),
        Command::Devices(args) => commands::devices::run(args),
        Command::Layout(args) => commands::layout::run(args),
        Command::Reflect(args) => commands::reflect::run(args),
        Command::Amber(args) => commands::amber::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Profile(args) => commands::profile::run(args),
        Command::OnnxTest(args) => commands::onnx::test::run(args),
        Command::OnnxImport(args) => commands::onnx::import::run(args),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Exit(code)) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::from(1)
        }
    }
}

/// Joins an error chain into one line: `outer: inner: innermost`, each
/// cause once ([`commands::join_causes`]).
fn one_line(e: &anyhow::Error) -> String {
    let text = commands::join_causes(e.chain());
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
