//! One module per `kiln` subcommand.

pub mod bench;
pub mod compile;
pub mod devices;
pub mod layout;
pub mod opt;
pub mod reflect;
pub mod run;
pub mod translate;
pub mod validate;

use std::path::Path;

use anyhow::{Context, Result};
use kiln_core::ir::Module;

/// Reads, parses and verifies an spv text file (`-` is stdin). Errors name
/// the file, line and column.
pub fn load_module(path: &Path) -> Result<Module> {
    let text = crate::input::read_text(path)?;
    parse_module(&text, &display_name(path))
}

/// Reads and parses a kernel file (`-` is stdin); errors name the file,
/// line and column.
pub fn load_kernels(path: &Path) -> Result<kiln_core::kernel::KernelModule> {
    let text = crate::input::read_text(path)?;
    kiln_core::kernel::parse(&text).map_err(|e| in_file(&display_name(path), e))
}

/// Parses and verifies spv text read from the input called `name`.
pub fn parse_module(text: &str, name: &str) -> Result<Module> {
    let module = kiln_core::text::parse(text).map_err(|e| in_file(name, e))?;
    kiln_core::ir::verify::verify(&module)
        .map_err(|errs| anyhow::anyhow!("{}", prefix_lines(name, &errs.to_string())))
        .context("module failed verification")?;
    Ok(module)
}

/// An error about input `name`: `NAME:LINE:COL: message` when the error's
/// text starts with its `LINE:COL` location (as compilers print), else
/// `NAME: message`.
pub fn in_file(name: &str, error: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{}", located(name, &error.to_string()))
}

/// `name` joined to `text` as [`in_file`] does.
fn located(name: &str, text: &str) -> String {
    let starts_with_location = text
        .split_once(':')
        .is_some_and(|(line, _)| !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()));
    if starts_with_location {
        format!("{name}:{text}")
    } else {
        format!("{name}: {text}")
    }
}

/// `<stdin>` for `-`, the path otherwise.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn prefix_lines(name: &str, text: &str) -> String {
    text.lines()
        .map(|l| located(name, l))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A `--target-env` argument: target env text, or `@FILE` to read it from
/// FILE. Errors name the file or the option.
pub fn parse_target_env(arg: &str) -> Result<kiln_core::target::TargetEnv> {
    let (text, origin) = match arg.strip_prefix('@') {
        Some(file) => (
            std::fs::read_to_string(file)
                .with_context(|| format!("cannot read target env file {file}"))?,
            file.to_string(),
        ),
        None => (arg.to_string(), "--target-env".to_string()),
    };
    text.trim()
        .parse()
        .map_err(|e| anyhow::anyhow!("{origin}: invalid target env: {e}"))
}

/// A Vulkan context on the device `--device` selects (the default device
/// without it), with the validation layer when `validation`.
pub fn vulkan_context(device: Option<&str>, validation: bool) -> Result<kiln_vulkan::Context> {
    let options = kiln_vulkan::ContextOptions {
        validation,
        device: device.map_or(
            kiln_vulkan::DeviceSelector::Default,
            kiln_vulkan::DeviceSelector::parse,
        ),
    };
    kiln_vulkan::Context::new(&options).context("cannot create a Vulkan context")
}

/// The target env for a command: `--target-env` text or `@FILE` when given,
/// else the module's own `spirv.target_env`, else kiln's conservative default.
pub fn target_env(module: &Module, arg: Option<&str>) -> Result<kiln_core::target::TargetEnv> {
    match arg {
        Some(text) => parse_target_env(text),
        None => kiln_core::target::TargetEnv::from_module(module)
            .map_err(|e| anyhow::anyhow!("invalid spirv.target_env attribute: {e}")),
    }
}
