//! `kiln translate`: spv text <-> SPIR-V binary (like mlir-translate), and
//! spv text -> LLVM IR (`--spirv-to-llvmir`, see [`super::llvm`]).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::Outcome;

/// Arguments of `kiln translate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("direction").required(true).args(["serialize", "deserialize", "spirv_to_llvmir"])))]
pub struct TranslateArgs {
    /// Serialize an spv text module into a SPIR-V binary.
    #[arg(long)]
    pub serialize: bool,
    /// Deserialize a SPIR-V binary into an spv text module.
    #[arg(long)]
    pub deserialize: bool,
    /// Convert an spv text module (or spirv ops outside one) to LLVM IR.
    #[arg(long = "spirv-to-llvmir")]
    pub spirv_to_llvmir: bool,
    /// With `--spirv-to-llvmir`: convert each chunk between `// -----`
    /// lines on its own.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Options of the LLVM conversion.
    #[command(flatten)]
    pub llvm: super::llvm::LlvmArgs,
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    pub output: PathBuf,
}

/// Runs `kiln translate`.
pub fn run(args: &TranslateArgs) -> Result<Outcome> {
    if args.spirv_to_llvmir {
        let text = super::llvm::convert_file(
            &args.input,
            &args.llvm,
            args.split_input_file,
            super::llvm::Output::LlvmIr,
        )?;
        crate::input::write_output(&args.output, text.as_bytes())?;
        return Ok(Outcome::Success);
    }
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
