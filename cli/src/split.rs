//! `--split-input-file`, as MLIR's tools have it: a text input is cut at
//! every line that is exactly `// -----` (trailing blanks allowed), each
//! chunk is processed alone, the outputs are joined with `// -----` lines,
//! and a failing chunk's error is reported (with its line in the whole
//! file) without stopping the others; the run then exits with status 1.
//!
//! Line numbers stay those of the whole file because each chunk is
//! processed with as many empty lines before it as precede it in the file.

use std::path::Path;

use anyhow::Result;

use crate::Outcome;

/// The separator line.
const SEPARATOR: &str = "// -----";

/// The chunks of `text` with the number of lines before each.
pub fn split(text: &str) -> Vec<(usize, &str)> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 0usize;
    let mut offset = 0usize;
    for (line, l) in text.split_inclusive('\n').enumerate() {
        if l.trim_end() == SEPARATOR {
            chunks.push((start_line, &text[start..offset]));
            start = offset + l.len();
            start_line = line + 1;
        }
        offset += l.len();
    }
    chunks.push((start_line, &text[start..]));
    chunks
}

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
    for (lines_before, chunk) in split(text) {
        let padded = format!("{}{chunk}", "\n".repeat(lines_before));
        match process(&padded) {
            Ok(out) => outputs.push(out),
            Err(e) => {
                eprintln!("error: {e:#}");
                outputs.push(String::new());
                failed = true;
            }
        }
    }
    let joined = outputs.join(&format!("{SEPARATOR}\n"));
    crate::input::write_output(output, joined.as_bytes())?;
    Ok(if failed {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_separator_lines_only() {
        let text = "a\n// -----\nb\nc\n  // -----\n// -----  \nd";
        let chunks = split(text);
        assert_eq!(
            chunks,
            vec![(0, "a\n"), (2, "b\nc\n  // -----\n"), (6, "d")]
        );
    }

    #[test]
    fn no_separator_is_one_chunk() {
        assert_eq!(split("x\ny\n"), vec![(0, "x\ny\n")]);
    }
}
