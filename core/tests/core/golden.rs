//! Golden tests of the text form.
//!
//! Every `tests/golden/NAME.mlir` is a realistic compute module (its first
//! lines name the Vulkan environment it is valid for: `// target-env:
//! vulkan1.x`). For each one the test parses it, prints it with the `spirv.`
//! prefix and compares with `NAME.out.mlir`, prints it with the `spv.` prefix
//! and compares with `NAME.spv.out.mlir`, and checks that each print parses
//! back to a module that prints identically.
//!
//! `KILN_BLESS=1 cargo test -p kiln-core --test golden` rewrites the
//! expected outputs. A missing output, an output without an input, or an
//! empty corpus fails the test.

use std::fs;
use std::path::{Path, PathBuf};

use kiln_core::text::{self, Prefix, PrintOptions};

/// The corpus must not silently shrink below this size.
const MIN_INPUTS: usize = 40;

const OUTPUTS: [(Prefix, &str); 2] = [(Prefix::Spirv, ".out.mlir"), (Prefix::Spv, ".spv.out.mlir")];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn is_output(name: &str) -> bool {
    OUTPUTS.iter().any(|(_, suffix)| name.ends_with(suffix))
}

fn blessing() -> bool {
    std::env::var("KILN_BLESS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A short description of where two texts first differ.
fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, got {}",
        expected.lines().count(),
        actual.lines().count()
    )
}

/// Checks one input; returns the problems found.
fn check_input(dir: &Path, stem: &str, bless: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let input = dir.join(format!("{stem}.mlir"));
    let src = match fs::read_to_string(&input) {
        Ok(s) => s,
        Err(e) => return vec![format!("{stem}: cannot read input: {e}")],
    };
    if !src
        .lines()
        .take(5)
        .any(|l| l.starts_with("// target-env: vulkan1."))
    {
        problems.push(format!(
            "{stem}: missing a '// target-env: vulkan1.x' header line"
        ));
    }
    let module = match text::parse(&src) {
        Ok(m) => m,
        Err(e) => return vec![format!("{stem}.mlir: parse error: {e}")],
    };
    for (prefix, suffix) in OUTPUTS {
        let printed = text::print(&module, &PrintOptions { prefix });
        match text::parse(&printed) {
            Ok(again) => {
                let reprinted = text::print(&again, &PrintOptions { prefix });
                if reprinted != printed {
                    problems.push(format!(
                        "{stem} ({prefix:?}): print -> parse -> print differs at {}",
                        first_difference(&printed, &reprinted)
                    ));
                }
            }
            Err(e) => problems.push(format!(
                "{stem} ({prefix:?}): printed text does not parse: {e}"
            )),
        }
        let out_path = dir.join(format!("{stem}{suffix}"));
        if bless {
            let current = fs::read_to_string(&out_path).unwrap_or_default();
            if current != printed {
                if let Err(e) = fs::write(&out_path, &printed) {
                    problems.push(format!("{stem}{suffix}: cannot write: {e}"));
                }
            }
            continue;
        }
        match fs::read_to_string(&out_path) {
            Ok(expected) if expected == printed => {}
            Ok(expected) => problems.push(format!(
                "{stem}{suffix} is out of date ({}); rerun with KILN_BLESS=1 if the change is intended",
                first_difference(&expected, &printed)
            )),
            Err(_) => problems.push(format!(
                "{stem}{suffix} is missing; run KILN_BLESS=1 cargo test -p kiln-core --test golden"
            )),
        }
    }
    problems
}

#[test]
fn golden_corpus() {
    let dir = golden_dir();
    let bless = blessing();
    let entries =
        fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for entry in entries {
        let name = entry
            .expect("directory entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if is_output(&name) {
            outputs.push(name);
        } else if let Some(stem) = name.strip_suffix(".mlir") {
            inputs.push(stem.to_string());
        }
    }
    inputs.sort();
    assert!(
        inputs.len() >= MIN_INPUTS,
        "the golden corpus in {} has {} inputs; expected at least {MIN_INPUTS}",
        dir.display(),
        inputs.len()
    );
    let mut problems = Vec::new();
    for stem in &inputs {
        problems.extend(check_input(&dir, stem, bless));
    }
    for out in &outputs {
        // The longer suffix first: `x.spv.out.mlir` also ends in `.out.mlir`.
        let stem = out
            .strip_suffix(".spv.out.mlir")
            .or_else(|| out.strip_suffix(".out.mlir"))
            .unwrap_or(out);
        if !inputs.iter().any(|i| i == stem) {
            if bless {
                let _ = fs::remove_file(dir.join(out));
            } else {
                problems.push(format!("{out} has no input {stem}.mlir (stale output)"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} golden problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
