//! `kiln translate`: spv text <-> SPIR-V binary (like mlir-translate), and
//! spv text or a SPIR-V binary -> LLVM IR (`--spirv-to-llvmir`, see
//! [`super::llvm`]).
//!
//! * `--serialize IN.mlir -o OUT.spv`: text to binary.
//! * `--deserialize IN.spv [-o OUT.mlir]`: binary to text (`--prefix spv`
//!   for the seeds' spelling, `--locations` to keep `OpLine` as op
//!   locations).
//! * `--test-roundtrip IN.mlir`: MLIR's `-test-spirv-roundtrip`: serialize,
//!   deserialize, print.
//! * `--test-roundtrip-binary IN.spv`: deserialize, serialize, deserialize
//!   and serialize again; prints whether the first output equals the input
//!   and fails unless the second equals the first (the import is stable).
//! * `--spirv-to-llvmir IN [-o OUT.ll]`: LLVM IR of an spv text module or
//!   of a SPIR-V binary (read through the deserializer).
//!
//! `--split-input-file` (text inputs) processes each `// -----` chunk
//! alone, as MLIR's tools do: outputs are joined by `// -----` lines, an
//! error names its line in the whole file, and the other chunks are still
//! processed (the command then exits with status 1).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use kiln_core::binary::DeserializeOptions;
use kiln_core::ir::Module;
use kiln_core::text::PrintOptions;

use super::opt::PrefixArg;
use crate::Outcome;

/// Arguments of `kiln translate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("direction").required(true).args([
    "serialize", "deserialize", "test_roundtrip", "test_roundtrip_binary", "spirv_to_llvmir"
])))]
pub struct TranslateArgs {
    /// Serialize an spv text module into a SPIR-V binary.
    #[arg(long)]
    pub serialize: bool,
    /// Deserialize a SPIR-V binary into an spv text module.
    #[arg(long)]
    pub deserialize: bool,
    /// Serialize an spv text module, deserialize the binary and print it.
    #[arg(long = "test-roundtrip")]
    pub test_roundtrip: bool,
    /// Deserialize a SPIR-V binary, serialize it, and check that doing it
    /// again gives the same words.
    #[arg(long = "test-roundtrip-binary")]
    pub test_roundtrip_binary: bool,
    /// Process each `// -----` chunk of a text input alone.
    #[arg(long = "split-input-file")]
    pub split_input_file: bool,
    /// Dialect prefix of printed modules.
    #[arg(long, value_enum, default_value = "spirv")]
    pub prefix: PrefixArg,
    /// Keep `OpLine` information as op locations when deserializing.
    #[arg(long)]
    pub locations: bool,
    /// Convert an spv text module (or spirv ops outside one), or a SPIR-V
    /// binary, to LLVM IR.
    #[arg(long = "spirv-to-llvmir")]
    pub spirv_to_llvmir: bool,
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
        return super::llvm::convert_file(
            &args.input,
            &args.llvm,
            args.split_input_file,
            super::llvm::Output::LlvmIr,
            &args.output,
        );
    }
    let name = super::display_name(&args.input);
    let print = PrintOptions {
        prefix: args.prefix.into(),
    };
    let options = DeserializeOptions {
        locations: args.locations,
        ..DeserializeOptions::default()
    };
    if args.deserialize || args.test_roundtrip_binary {
        if args.split_input_file {
            bail!("--split-input-file applies to text inputs, not to SPIR-V binaries");
        }
        let words = crate::input::read_spirv(&args.input)?;
        let module = kiln_core::binary::deserialize_with(&words, &options)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        if args.deserialize {
            let text = kiln_core::text::print(&module, &print);
            crate::input::write_output(&args.output, text.as_bytes())?;
            return Ok(Outcome::Success);
        }
        return roundtrip_binary(&words, module, &options, &args.output, &name);
    }
    if args.serialize {
        if args.split_input_file {
            bail!("--split-input-file needs a text output (--test-roundtrip); --serialize writes one binary");
        }
        let module = super::load_module(&args.input)?;
        let words = kiln_core::binary::serialize(&module)?;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        crate::input::write_output(&args.output, &bytes)?;
        return Ok(Outcome::Success);
    }
    // --test-roundtrip
    let text = crate::input::read_text(&args.input)?;
    let roundtrip = |chunk: &str| -> Result<String> {
        let module = super::parse_module(chunk, &name)?;
        let words =
            kiln_core::binary::serialize(&module).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        let back = kiln_core::binary::deserialize_with(&words, &options)
            .map_err(|e| anyhow::anyhow!("{name}: deserializing the serialized module: {e}"))?;
        Ok(kiln_core::text::print(&back, &print))
    };
    crate::split::run_chunks(&text, args.split_input_file, &args.output, roundtrip)
}

/// `--test-roundtrip-binary`: serialize `module` (read from `words`),
/// re-import the result and serialize again.
fn roundtrip_binary(
    words: &[u32],
    module: Module,
    options: &DeserializeOptions,
    output: &std::path::Path,
    name: &str,
) -> Result<Outcome> {
    kiln_core::ir::verify::verify(&module).map_err(|errs| {
        anyhow::anyhow!("{name}: the imported module fails verification: {errs}")
    })?;
    let first = kiln_core::binary::serialize(&module)
        .with_context(|| format!("{name}: serializing the imported module"))?;
    let again = kiln_core::binary::deserialize_with(&first, options)
        .map_err(|e| anyhow::anyhow!("{name}: re-importing the serialized module: {e}"))?;
    let second = kiln_core::binary::serialize(&again)
        .with_context(|| format!("{name}: serializing the re-imported module"))?;
    let input = if first == words {
        "identical to the input".to_string()
    } else {
        match first_difference(words, &first) {
            Some(at) => format!("differs from the input from word {at} on"),
            None => "differs from the input in length".to_string(),
        }
    };
    let stable = first == second;
    let report = format!(
        "{name}: {} words in, {} words out, {input}; {}\n",
        words.len(),
        first.len(),
        if stable {
            "re-importing gives the same words"
        } else {
            "re-importing gives different words"
        }
    );
    crate::input::write_output(output, report.as_bytes())?;
    Ok(if stable {
        Outcome::Success
    } else {
        Outcome::Exit(1)
    })
}

/// The first word offset where `a` and `b` differ (within both).
fn first_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}
