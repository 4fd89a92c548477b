//! `kiln opt`: parse, verify and print an spv module.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use kiln_core::text::{Prefix, PrintOptions};

use crate::Outcome;

/// Which dialect prefix to print.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PrefixArg {
    /// `spv.` with `spv.GLSL.*` (the seeds' spelling).
    Spv,
    /// `spirv.` with `spirv.GL.*` (current MLIR).
    Spirv,
}

impl From<PrefixArg> for Prefix {
    fn from(p: PrefixArg) -> Self {
        match p {
            PrefixArg::Spv => Prefix::Spv,
            PrefixArg::Spirv => Prefix::Spirv,
        }
    }
}

/// Arguments of `kiln opt`.
#[derive(Args, Debug)]
pub struct OptArgs {
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    pub output: PathBuf,
    /// Dialect prefix of the printed module.
    #[arg(long, value_enum, default_value = "spirv")]
    pub prefix: PrefixArg,
}

/// Runs `kiln opt`.
pub fn run(args: &OptArgs) -> Result<Outcome> {
    let module = super::load_module(&args.input)?;
    let text = kiln_core::text::print(
        &module,
        &PrintOptions {
            prefix: args.prefix.into(),
        },
    );
    crate::input::write_output(&args.output, text.as_bytes())?;
    Ok(Outcome::Success)
}
