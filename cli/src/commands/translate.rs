//! `kiln translate`: spv text <-> SPIR-V binary (like mlir-translate).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::Outcome;

/// Arguments of `kiln translate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("direction").required(true).args(["serialize", "deserialize"])))]
pub struct TranslateArgs {
    /// Serialize an spv text module into a SPIR-V binary.
    #[arg(long)]
    pub serialize: bool,
    /// Deserialize a SPIR-V binary into an spv text module.
    #[arg(long)]
    pub deserialize: bool,
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    pub output: PathBuf,
}

/// Runs `kiln translate`.
pub fn run(args: &TranslateArgs) -> Result<Outcome> {
    if args.deserialize {
        eprintln!("error: --deserialize is not implemented yet: kiln has no SPIR-V deserializer");
        return Ok(Outcome::Exit(2));
    }
    let module = super::load_module(&args.input)?;
    let words = kiln_core::binary::serialize(&module)?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    crate::input::write_output(&args.output, &bytes)?;
    Ok(Outcome::Success)
}
