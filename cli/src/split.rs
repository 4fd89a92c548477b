//! `--split-input-file`, as MLIR's tools have it: a text input is cut at
//! every `// -----` ([`kiln_core::text::split_input`]), each chunk is
//! processed alone, the outputs are joined with `// -----` lines, and a
//! failing chunk's error is reported (with its line in the whole file)
//! without stopping the others; the run then exits with status 1. `kiln
//! opt` and `kiln translate` (every text mode) use it.

use std::path::Path;

use anyhow::Result;

use crate::Outcome;

/// Runs `process` on `text` (or on each chunk of it, with `split_input`),
/// writes the output(s) to `output` and reports errors on stderr.
pub fn run_chunks(
    text: &str,
    split_input: bool,
    output: &Path,
    mut process: impl FnMut(&str) -> Result<String>,
) -> Result<Outcome> {
    if !split_input {
        let out = process(text)?;
        crate::input::write_output(output, out.as_bytes())?;
        return Ok(Outcome::Success);
    }
    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in kiln_core::text::split_input(text) {
        match process(&chunk) {
            Ok(out) => outputs.push(out),
            Err(e) => {
                eprintln!("error: {e:#}");
                outputs.push(String::new());
                failed = true;
            }
        }
    }
    let joined = outputs.join(&format!("{}\n", kiln_core::text::SPLIT_MARKER));
    crate::input::write_output(output, joined.as_bytes())?;
    Ok(if failed {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}
