//! The LLVM conversion behind `kiln opt --convert-spirv-to-llvm` (MLIR's
//! LLVM dialect) and `kiln translate --spirv-to-llvmir` (LLVM IR).
//!
//! The input is a `spirv.module`, or `spirv.func` / `spirv.GlobalVariable`
//! ops outside one as MLIR's conversion tests write them; with
//! `--split-input-file` every chunk between `// -----` lines is converted
//! on its own (errors keep the line numbers of the whole file) and the
//! outputs are joined by `// -----` lines (`crate::split`). A SPIR-V
//! binary input is read through the deserializer.

use std::path::Path;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use kiln_core::binary::DeserializeOptions;
use kiln_core::llvm::{self, Abi, ConvertOptions};

use crate::Outcome;

/// Which ABI the converted code follows.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum AbiArg {
    /// MLIR's conversion: global variables become LLVM globals.
    #[default]
    Mlir,
    /// The CPU runner's: every function takes an invocation context.
    Kernel,
}

/// Options shared by the two LLVM outputs.
#[derive(Args, Debug, Default)]
pub struct LlvmArgs {
    /// With an LLVM output: the ABI of the converted code.
    #[arg(long = "llvm-abi", value_enum, default_value = "mlir")]
    pub abi: AbiArg,
    /// With an LLVM output: a specialization constant's value, `ID=VALUE`
    /// (in the constant's type; others keep their defaults).
    #[arg(long = "spec", value_name = "ID=VALUE")]
    pub spec: Vec<String>,
    /// With an LLVM output: invocations per subgroup the code runs with,
    /// which a module with cooperative matrices needs (their components
    /// are spread over a subgroup's invocations).
    #[arg(long = "subgroup-size", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub subgroup_size: Option<u32>,
}

/// Which printer.
#[derive(Clone, Copy, Debug)]
pub enum Output {
    /// MLIR's LLVM dialect.
    Mlir,
    /// LLVM IR.
    LlvmIr,
}

/// Converts the input file (spv text, or a SPIR-V binary read through the
/// deserializer) and writes the printed result to `out`.
pub fn convert_file(
    path: &Path,
    args: &LlvmArgs,
    split: bool,
    output: Output,
    out: &Path,
) -> Result<Outcome> {
    let name = super::display_name(path);
    let bytes = crate::input::read_bytes(path)?;
    let options = options(args)?;
    if crate::input::is_spirv_binary(&bytes) {
        if split {
            bail!("--split-input-file applies to text inputs, not to SPIR-V binaries");
        }
        let module = super::import_binary(&bytes, &name, &DeserializeOptions::default())?;
        let text = print(&[module], &name, &options, output)?;
        crate::input::write_output(out, text.as_bytes())?;
        return Ok(Outcome::Success);
    }
    let text =
        String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name} is not valid UTF-8"))?;
    crate::split::run_chunks(&text, split, out, |chunk| {
        convert_text(chunk, &name, &options, output)
    })
}

fn options(args: &LlvmArgs) -> Result<ConvertOptions> {
    let mut opts = ConvertOptions {
        abi: match args.abi {
            AbiArg::Mlir => Abi::Mlir,
            AbiArg::Kernel => Abi::Kernel,
        },
        subgroup_size: args.subgroup_size,
        ..ConvertOptions::default()
    };
    for s in &args.spec {
        let Some((id, value)) = s.split_once('=') else {
            bail!("--spec {s}: expected ID=VALUE");
        };
        let id: u32 = id
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--spec {s}: '{id}' is not a SpecId"))?;
        opts.spec_values.insert(
            id,
            parse_bits(value.trim()).map_err(|e| anyhow::anyhow!("--spec {s}: {e}"))?,
        );
    }
    Ok(opts)
}

/// `true`/`false`, an integer, or a float (as `f32` bits when it has a
/// point or exponent; constants of other float types take `0x` bits).
fn parse_bits(text: &str) -> Result<u64, String> {
    match text {
        "true" => return Ok(1),
        "false" => return Ok(0),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).map_err(|e| e.to_string());
    }
    if let Ok(i) = text.parse::<i64>() {
        return Ok(i as u64);
    }
    text.parse::<f32>()
        .map(|f| u64::from(f.to_bits()))
        .map_err(|_| format!("'{text}' is not a boolean, integer or float"))
}

/// Converts one text.
fn convert_text(
    text: &str,
    name: &str,
    options: &ConvertOptions,
    output: Output,
) -> Result<String> {
    let modules = kiln_core::text::parse_modules(text).map_err(|e| super::in_file(name, e))?;
    print(&modules, name, options, output)
}

/// Converts `modules` and prints the result.
fn print(
    modules: &[kiln_core::ir::Module],
    name: &str,
    options: &ConvertOptions,
    output: Output,
) -> Result<String> {
    let converted = llvm::convert_modules(modules, options).map_err(|e| super::in_file(name, e))?;
    Ok(match output {
        Output::Mlir => llvm::print_mlir(&converted.module),
        Output::LlvmIr => llvm::print_llvm_ir(&converted.module),
    })
}
