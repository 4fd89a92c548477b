//! One module per `kiln` subcommand.

pub mod opt;
pub mod translate;
pub mod validate;

use std::path::Path;

use anyhow::{Context, Result};
use kiln_core::ir::Module;

/// Reads, parses and verifies an spv text file (`-` is stdin). Errors name
/// the file, line and column.
pub fn load_module(path: &Path) -> Result<Module> {
    let text = crate::input::read_text(path)?;
    let name = display_name(path);
    let module = kiln_core::text::parse(&text).map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
    kiln_core::ir::verify::verify(&module)
        .map_err(|errs| anyhow::anyhow!("{}", prefix_lines(&name, &errs.to_string())))
        .context("module failed verification")?;
    Ok(module)
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
        .map(|l| format!("{name}:{l}"))
        .collect::<Vec<_>>()
        .join("; ")
}
