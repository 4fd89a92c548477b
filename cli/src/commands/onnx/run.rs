//! `kiln run MODEL.onnx [--input NAME=SHAPExTYPE=VALUE|NAME=@f.npy]...
//! [--output-dir DIR] [--cpu|--reference]`: imports the model (every
//! unsupported node reported at once, before anything runs), runs it, and
//! prints each output's name, shape and type; with `--output-dir` each
//! output is written as `DIR/NAME.npy`, else small outputs are printed.

use anyhow::{bail, Context as _, Result};

use super::exec::{self, Engine};
use crate::commands::run::RunArgs;
use crate::Outcome;

/// The most elements of an output printed when no `--output-dir` is given.
const PRINT_LIMIT: usize = 64;

/// Runs `kiln run` of an ONNX model.
pub fn run(args: &RunArgs) -> Result<Outcome> {
    let path = &args.file;
    let name = path.display().to_string();
    if args.function.is_some() || args.target_env.is_some() {
        bail!("{name}: --function and --target-env apply to tensor programs");
    }
    let model = kiln_onnx::load_model(path)?;
    let opts = super::inputs::import_options(path, &args.inputs)?;
    let imported = kiln_onnx::import(&model, &opts).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let engine = if args.reference {
        if args.cpu.cpu {
            bail!("{name}: --reference and --cpu exclude each other");
        }
        Engine::Reference
    } else if args.cpu.cpu {
        Engine::Cpu(args.cpu.options())
    } else {
        Engine::Device(crate::commands::run_tensor::open_device(
            args.device.as_deref(),
            args.validation,
        )?)
    };
    let outputs =
        exec::run(&engine, &imported, &opts.input_values).with_context(|| name.clone())?;
    if let Engine::Device(d) = &engine {
        let messages = d.context().take_validation_messages();
        for m in &messages {
            eprintln!("validation: {m}");
        }
        if !messages.is_empty() {
            bail!("{} validation message(s)", messages.len());
        }
    }
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    for (o, t) in imported.outputs.iter().zip(&outputs) {
        let shape: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
        let mut line = format!(
            "{}: {}",
            o.name,
            shape
                .iter()
                .chain([&t.dtype.name()])
                .cloned()
                .collect::<Vec<_>>()
                .join("x")
        );
        if let Some(dir) = &args.output_dir {
            let file = dir.join(format!("{}.npy", file_name(&o.name)));
            std::fs::write(&file, kiln_onnx::npy::write_npy(t))
                .with_context(|| format!("cannot write {}", file.display()))?;
            line.push_str(&format!(" -> {}", file.display()));
        } else if t.len() <= PRINT_LIMIT {
            let vals: Vec<String> = (0..t.len())
                .map(|i| {
                    if t.dtype.is_float() {
                        format!("{}", t.float(i))
                    } else {
                        t.int(i).to_string()
                    }
                })
                .collect();
            line.push_str(&format!(" = [{}]", vals.join(", ")));
        }
        println!("{line}");
    }
    Ok(Outcome::Success)
}

/// `name` with characters unsafe in a file name replaced by `_`.
fn file_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("output{s}")
    } else {
        s
    }
}
