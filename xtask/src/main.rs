//! kiln's developer tasks.
//!
//! * `cargo run -p xtask -- gen-grammar`: regenerate
//!   `core/src/grammar/generated/` from the vendored SPIR-V grammar in
//!   `xtask/grammar/`.
//! * `cargo run -p xtask -- gen-grammar --check`: regenerate in memory and
//!   exit 1, naming the stale files, when the checked-in files differ.
#![forbid(unsafe_code)]

mod emit;
mod model;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{bail, Context, Result};

const USAGE: &str = "usage: cargo run -p xtask -- <task>

tasks:
  gen-grammar [--check]   regenerate core/src/grammar/generated/ from xtask/grammar/*.json;
                          with --check, only verify that the checked-in files are up to date";

/// Where the generated files go, relative to the workspace root.
const GENERATED_DIR: &str = "core/src/grammar/generated";
const CORE_GRAMMAR: &str = "xtask/grammar/spirv.core.grammar.json";
const GLSL_GRAMMAR: &str = "xtask/grammar/extinst.glsl.std.450.grammar.json";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["gen-grammar"] => gen_grammar(false),
        ["gen-grammar", "--check"] => gen_grammar(true),
        [] | ["help" | "-h" | "--help"] => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => {
            eprintln!("{USAGE}");
            Ok(ExitCode::from(2))
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

fn gen_grammar(check: bool) -> Result<ExitCode> {
    let root = workspace_root();
    let read =
        |rel: &str| fs::read_to_string(root.join(rel)).with_context(|| format!("reading {rel}"));
    let core = model::parse_core(&read(CORE_GRAMMAR)?).context(CORE_GRAMMAR)?;
    let glsl = model::parse_ext(&read(GLSL_GRAMMAR)?, &core).context(GLSL_GRAMMAR)?;
    let files = emit::generate(&core, &glsl)?;

    let dir = root.join(GENERATED_DIR);
    let mut stale = Vec::new();
    let mut written = 0;
    for file in &files {
        let text = rustfmt(&file.text, &root)
            .with_context(|| format!("formatting generated {}", file.name))?;
        let path = dir.join(file.name);
        let rel = format!("{GENERATED_DIR}/{}", file.name);
        let current = fs::read_to_string(&path).ok();
        if current.as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            stale.push(rel);
        } else {
            fs::create_dir_all(&dir).with_context(|| format!("creating {GENERATED_DIR}"))?;
            fs::write(&path, text).with_context(|| format!("writing {rel}"))?;
            println!("wrote {rel}");
            written += 1;
        }
    }

    // Files in generated/ that the generator no longer produces.
    let expected: Vec<&str> = files.iter().map(|f| f.name).collect();
    if let Ok(entries) = fs::read_dir(&dir) {
        for entry in entries {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if name.ends_with(".rs") && !expected.contains(&name.as_str()) {
                let rel = format!("{GENERATED_DIR}/{name}");
                let ours = fs::read_to_string(dir.join(&name))
                    .is_ok_and(|text| text.starts_with(emit::HEADER));
                if !ours {
                    bail!("{rel} is not a generated file; move it out of {GENERATED_DIR}");
                }
                if check {
                    stale.push(format!("{rel} (no longer generated)"));
                } else {
                    fs::remove_file(dir.join(&name)).with_context(|| format!("removing {rel}"))?;
                    println!("removed {rel}");
                    written += 1;
                }
            }
        }
    }

    if check {
        if stale.is_empty() {
            println!("grammar tables are up to date ({} files)", files.len());
            return Ok(ExitCode::SUCCESS);
        }
        for rel in &stale {
            eprintln!("stale: {rel}");
        }
        eprintln!("the grammar tables are out of date: run `cargo run -p xtask -- gen-grammar`");
        return Ok(ExitCode::FAILURE);
    }
    if written == 0 {
        println!("grammar tables already up to date ({} files)", files.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// Formats Rust source with the `rustfmt` binary (edition 2021, the
/// workspace's rustfmt configuration), passing it on stdin.
fn rustfmt(source: &str, root: &Path) -> Result<String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running rustfmt (is it installed? `rustup component add rustfmt`)")?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let source = source.to_owned();
    // Write from a thread so a large input cannot deadlock against stdout.
    let writer = std::thread::spawn(move || stdin.write_all(source.as_bytes()));
    let output = child.wait_with_output().context("waiting for rustfmt")?;
    writer
        .join()
        .expect("rustfmt stdin writer panicked")
        .context("writing to rustfmt")?;
    if !output.status.success() {
        bail!(
            "rustfmt failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    String::from_utf8(output.stdout).context("rustfmt printed non-UTF-8")
}
